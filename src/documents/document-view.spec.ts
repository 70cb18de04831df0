import { Decimal } from '../common/money/decimal';
import { DocumentLineItemRecord, DocumentRecord } from './entities/document-columns';
import { documentLocale } from './i18n/document-messages';
import { DOCUMENT_LOCALES } from '../document-vocabulary/document-locale';
import { toDocumentView } from './document-view';

const d = (value: string) => new Decimal(value);

function record(fields: Partial<DocumentRecord> = {}): DocumentRecord {
  return Object.assign(new (class extends DocumentRecord {})(), {
    customerName: 'Ada Lovelace',
    customerPhone: '+44 1',
    customerAddress: '1 Analytical Way',
    customerTaxId: 'GB123456789',
    customerCountry: 'GB',
    description: 'Consulting',
    currency: 'JPY',
    taxRate: d('10'),
    subTotal: d('1000'),
    taxAmount: d('100'),
    total: d('1100'),
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    note: '',
    ...fields,
  });
}

const line = Object.assign(new (class extends DocumentLineItemRecord {})(), {
  description: 'Work',
  quantity: d('2'),
  rate: d('500'),
  amount: d('1000'),
});

describe('toDocumentView', () => {
  it('prints the customer as copied, tax id and country included, in the locale given', () => {
    const view = toDocumentView('estimate', 'E-1', record(), [line], { locale: 'de' });
    expect(view.locale).toBe('de');
    expect(view.customer).toEqual({
      name: 'Ada Lovelace',
      phone: '+44 1',
      address: '1 Analytical Way',
      taxId: 'GB123456789',
      country: 'GB',
    });
    expect(view).not.toHaveProperty('mark');
    expect(view).not.toHaveProperty('ledger');
    expect(view).not.toHaveProperty('amountPaid');
  });

  it("prints '' for a customer without tax id or country", () => {
    const view = toDocumentView(
      'credit_note',
      'CN-1',
      record({ customerTaxId: '', customerCountry: '' }),
      [line],
      { locale: 'en', corrects: 'INV-1', reason: 'Returned' },
    );
    expect(view.customer).toMatchObject({ taxId: '', country: '' });
    expect(view).toMatchObject({ corrects: 'INV-1', reason: 'Returned' });
  });

  it("prints an invoice's mark and its ledger, amounts in the currency's minor digits", () => {
    const view = toDocumentView('invoice', 'INV-1', record({ currency: 'USD' }), [line], {
      locale: 'en',
      amountPaid: d('20'),
      mark: 'paid',
      ledger: [
        { kind: 'payment', date: '2026-03-02', amount: d('25'), reference: 'PAY-1' },
        { kind: 'refund', date: '2026-03-03', amount: d('5.5'), reference: 'RFD-2' },
      ],
    });
    expect(view).toMatchObject({ mark: 'paid', amountPaid: '20.00', balanceDue: '1080.00' });
    expect(view.ledger).toEqual([
      { kind: 'payment', date: '2026-03-02', amount: '25.00', reference: 'PAY-1' },
      { kind: 'refund', date: '2026-03-03', amount: '5.50', reference: 'RFD-2' },
    ]);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });
});

describe('documentLocale', () => {
  it.each([...DOCUMENT_LOCALES])(
    "takes the client's language %s when documents have it",
    (code) => {
      expect(documentLocale(code, 'en')).toBe(code);
    },
  );

  it.each(['', 'zu', 'xx', 'ja'])('falls back for the language %j', (language) => {
    expect(documentLocale(language, 'fr')).toBe('fr');
  });

  it.each(['DE', 'de-AT'])('reads %j as its language', (language) => {
    expect(documentLocale(language, 'fr')).toBe('de');
  });
});
