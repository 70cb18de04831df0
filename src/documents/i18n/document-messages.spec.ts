import { IntlMessageFormat } from 'intl-messageformat';
import { singleLineWidth, TYPE_SIZE } from '../pdf/pdf-layout';
import { DOCUMENT_LOCALES } from '../../document-vocabulary/document-locale';
import { COUNTRY_CODES } from '../../common/iso-codes';
import { labelled } from './document-rows';
import {
  compileMessage,
  documentLocaleOf,
  MESSAGE_CATALOGS,
  MessageKey,
  messagesFor,
} from './document-messages';
import de from './messages/de.json';
import en from './messages/en.json';
import es from './messages/es.json';
import fr from './messages/fr.json';

type MessageElement = ReturnType<IntlMessageFormat['getAst']>[number];

/** ICU element types (TYPE of @formatjs/icu-messageformat-parser) that name no argument. */
const LITERAL = 0;
const POUND = 7;

/**
 * What a message asks its caller for: every argument name, and each select's options
 * (`kind=invoice`). Plural options are left out: each language has its own plural categories.
 */
function argumentsOf(elements: MessageElement[], found = new Set<string>()): Set<string> {
  for (const element of elements) {
    const type: number = element.type;
    if (type === LITERAL || type === POUND || !('value' in element)) continue;
    found.add(element.value);
    if ('options' in element) {
      const isPlural = 'pluralType' in element;
      for (const [option, { value }] of Object.entries(element.options)) {
        if (!isPlural) found.add(`${element.value}=${option}`);
        argumentsOf(value, found);
      }
    }
  }
  return found;
}

/** A value for every argument any message takes. */
const EVERY_VALUE = {
  kind: 'invoice',
  state: 'overdue',
  days: 3,
  title: 'Invoice',
  number: 'INV-1',
  issuer: 'Acme',
  name: 'Ada',
  currency: 'EUR',
  rate: '8,25',
  date: '1 May 2026',
  dueDate: '1 May 2026',
  amount: '1.00 EUR',
  balance: '1.00 EUR',
  page: 1,
  pages: 2,
  label: 'Phone',
  value: '+1 555',
  from: '1 May 2026',
  to: '2 May 2026',
  type: 'payment',
  invoice: 'INV-1',
  percent: '10',
  tax: 'VAT (19%)',
  category: 'Reverse charge',
  reason: 'Reverse charge',
  code: 'VATEX-EU-AE',
  quantity: '3 h',
  count: 2,
};

describe('message files', () => {
  const files = { en, de, fr, es };
  const keys = Object.keys(en).sort();

  it('has a message file for every document locale, and no other', () => {
    expect(Object.keys(files).sort()).toEqual([...DOCUMENT_LOCALES].sort());
    expect(Object.keys(MESSAGE_CATALOGS).sort()).toEqual([...DOCUMENT_LOCALES].sort());
  });

  it.each(Object.entries(files))('%s has exactly the keys of en.json', (_locale, messages) => {
    expect(Object.keys(messages).sort()).toEqual(keys);
  });

  it.each(Object.entries(files))(
    '%s: every message parses, asks for what en asks for, and formats',
    (locale, messages: Record<string, string>) => {
      for (const key of keys) {
        const message = compileMessage(messages[key], documentLocaleOf(locale));
        const english = compileMessage(en[key as MessageKey], 'en');
        expect([key, ...argumentsOf(message.getAst())].sort()).toEqual(
          [key, ...argumentsOf(english.getAst())].sort(),
        );
        expect(message.format(EVERY_VALUE)).not.toBe('');
      }
    },
  );

  it('are plain text: no markup, no leftover whitespace', () => {
    for (const messages of Object.values(files)) {
      for (const message of Object.values<string>(messages)) {
        expect(message).not.toMatch(/[<>]/);
        expect(message).toBe(message.trim());
      }
    }
  });
});

describe('messagesFor', () => {
  it('answers one instance per locale, falling back to en', () => {
    expect(messagesFor('de')).toBe(messagesFor('de'));
    expect(messagesFor(undefined).locale).toBe('en');
    expect(messagesFor('xx').locale).toBe('en');
    expect(messagesFor('fr-CA').locale).toBe('fr');
    expect(documentLocaleOf('ES')).toBe('es');
    expect(documentLocaleOf(null)).toBe('en');
  });

  it('fills a message with its values', () => {
    expect(
      messagesFor('en').t('mail.subject', { title: 'Invoice', number: 'A-1', issuer: 'Acme' }),
    ).toBe('Invoice A-1 from Acme');
    expect(messagesFor('de').t('label.number', { kind: 'estimate' })).toBe('Angebotsnummer');
    expect(messagesFor('fr').t('label.number', { kind: 'credit_note' })).toBe('Numéro d’avoir');
    expect(messagesFor('es').t('label.tax', { rate: messagesFor('es').amount('8.25') })).toBe(
      'IVA (8,25\u00a0%)',
    );
    expect(messagesFor('en').t('title.credit_note')).toBe('Credit note');
  });

  it('says the days of a reminder with the plural of its language', () => {
    const reminder = (locale: string, state: string, days: number) =>
      messagesFor(locale).t('mail.reminder', {
        number: 'R-1',
        state,
        days,
        dueDate: 'D',
        balance: 'B',
      });
    expect(reminder('en', 'overdue', 1)).toContain('is 1 day overdue (due D)');
    expect(reminder('en', 'overdue', 10)).toContain('is 10 days overdue (due D)');
    expect(reminder('en', 'upcoming', 3)).toContain('is due in 3 days, on D');
    expect(reminder('en', 'today', 0)).toContain('is due today');
    expect(reminder('de', 'overdue', 1)).toContain('seit 1 Tag überfällig');
    expect(reminder('de', 'overdue', 7)).toContain('seit 7 Tagen überfällig');
    expect(reminder('fr', 'upcoming', 1)).toContain('dans 1 jour, le D');
    expect(reminder('fr', 'upcoming', 2)).toContain('dans 2 jours, le D');
    expect(reminder('es', 'overdue', 1)).toContain('lleva 1 día vencida');
    expect(reminder('es', 'overdue', 14)).toContain('lleva 14 días vencida');
  });

  it('refuses a message whose values are missing, rather than print a hole', () => {
    expect(() => messagesFor('en').t('mail.subject', { title: 'Invoice' })).toThrow();
  });

  it('keeps a translator’s < and > as text', () => {
    expect(compileMessage('a <b>{x}</b>', 'en').format({ x: 1 })).toBe('a <b>1</b>');
  });

  it('formats amounts, money, dates and countries in its locale', () => {
    const de = messagesFor('de');
    expect(de.amount('1234.5')).toBe('1.234,5');
    expect(de.money('1234.50', 'EUR')).toBe('1.234,50 EUR');
    expect(de.date('2026-11-26')).toBe('26. November 2026');
    expect(de.country('FR')).toBe('Frankreich');
  });
});

describe('labels and their values', () => {
  it('joins a label and its value as the locale writes it: French with a space before the colon', () => {
    expect(labelled(messagesFor('en'), 'label.phone', '+1 555')).toBe('Phone: +1 555');
    expect(labelled(messagesFor('de'), 'label.phone', '+1 555')).toBe('Telefon: +1 555');
    expect(labelled(messagesFor('fr'), 'label.phone', '+1 555')).toBe('Téléphone\u00a0: +1 555');
    expect(labelled(messagesFor('es'), 'label.phone', '+1 555')).toBe('Teléfono: +1 555');
    expect(labelled(messagesFor('fr'), 'label.taxId', '')).toBe('');
  });

  it('sets a no-break space before every French colon, semicolon, question and exclamation mark', () => {
    for (const [key, message] of Object.entries(fr)) {
      expect({ key, bare: /[^\u00a0\u202f][:;!?]/.test(message) }).toEqual({ key, bare: false });
    }
  });

  it('names the default tax as label.tax does, so a plain document reads as it did', () => {
    for (const locale of DOCUMENT_LOCALES) {
      const { t, amount } = messagesFor(locale);
      const rate = amount('8.25');
      expect(t('label.namedTax', { name: t('label.taxName'), rate })).toBe(
        t('label.tax', { rate }),
      );
    }
    expect(messagesFor('de').t('label.taxName')).toBe('USt.');
  });

  it('writes the dates of supply, discounts and taxes with the language’s words and spaces', () => {
    const de = messagesFor('de');
    expect(de.t('label.supplyDate')).toBe('Leistungsdatum');
    expect(de.t('label.servicePeriod')).toBe('Leistungszeitraum');
    expect(de.t('label.discountPercent', { percent: '10' })).toBe('Rabatt (10\u00a0%)');
    expect(de.t('label.taxOn', { tax: 'USt. (19\u00a0%)', amount: '85,50 EUR' })).toBe(
      'USt. (19\u00a0%) auf 85,50 EUR',
    );
    expect(messagesFor('en').t('label.discountPercent', { percent: '10' })).toBe('Discount (10%)');
    expect(messagesFor('fr').t('label.discountPercent', { percent: '10' })).toBe(
      'Remise (10\u202f%)',
    );
    expect(messagesFor('es').t('label.supplyDate')).toBe('Fecha de la operación');
    expect(messagesFor('fr').t('mail.moreLines', { count: 1 })).toBe(
      '1 autre ligne figure dans le PDF joint.',
    );
    expect(messagesFor('de').t('mail.moreLines', { count: 3 })).toBe(
      '3 weitere Positionen finden Sie im PDF im Anhang.',
    );
  });

  it('writes what a native reader expects where the first translation did not', () => {
    expect(messagesFor('de').t('label.corrects')).toBe('Ursprungsrechnung');
    expect(Object.values(de)).not.toContain('Korrigiert Rechnung');
  });

  it('names each statement line and the invoice it belongs to, each number once', () => {
    const line = (locale: string, type: string) =>
      messagesFor(locale).t('statement.line', { type, invoice: 'INV-1' });
    expect(line('en', 'invoice')).toBe('Invoice');
    expect(line('en', 'payment')).toBe('Payment for invoice INV-1');
    expect(line('de', 'credit_note')).toBe('Gutschrift zu Rechnung INV-1');
    expect(line('fr', 'refund')).toBe('Remboursement sur la facture INV-1');
    expect(line('es', 'payment')).toBe('Pago de la factura INV-1');
    for (const locale of DOCUMENT_LOCALES) expect(line(locale, 'invoice')).not.toContain('INV-1');
  });
});

describe('table headers', () => {
  /*
   * The document's line table: a number column is at most 22 % of the A4 content width
   * (595.28 − 2 × 50 points), its text that less 2 × 4 points of padding; the header is bold in
   * the table's type. A longer header wraps onto a second line.
   */
  const NUMBER_COLUMN_TEXT = (595.28 - 2 * 50) * 0.22 - 2 * 4;
  const headerWidth = (text: string) =>
    singleLineWidth(text, { size: TYPE_SIZE.table, bold: true });

  it.each([...DOCUMENT_LOCALES])(
    '%s: the line table’s number headers fit on one line with any currency',
    (locale) => {
      const { t } = messagesFor(locale);
      // Currency codes are three capitals; W and M are the widest.
      for (const currency of ['EUR', 'MWK', 'WST']) {
        for (const key of ['label.quantity', 'label.rate', 'label.amount'] as const) {
          const header = t(key, { currency });
          expect({ header, fits: headerWidth(header) <= NUMBER_COLUMN_TEXT }).toEqual({
            header,
            fits: true,
          });
        }
      }
    },
  );

  it('still names a country for every code a COMPANY_COUNTRY may take', () => {
    for (const locale of DOCUMENT_LOCALES) {
      for (const code of COUNTRY_CODES) expect(messagesFor(locale).country(code)).not.toBe(code);
    }
  });
});
