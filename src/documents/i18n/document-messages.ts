import { IntlMessageFormat } from 'intl-messageformat';
import { DOCUMENT_LOCALES, DocumentLocale } from '../../document-vocabulary/document-locale';
import { formatAmount, formatCountry, formatDate, formatMoney } from './locale-format';
import de from './messages/de.json';
import en from './messages/en.json';
import es from './messages/es.json';
import fr from './messages/fr.json';

/** A message's name: a key of en.json, which every other locale has too. */
export type MessageKey = keyof typeof en;

/**
 * What a message is filled with. Amounts and dates are passed already formatted (through
 * `amount`, `money`, `date`), so a message never formats an exact decimal as a JS number;
 * plural counts (`days`) and page numbers are numbers.
 */
export type MessageValues = Record<string, string | number>;

/** The ICU messages of each locale (messages/*.json); a missing key is a compile error. */
export const MESSAGE_CATALOGS: Readonly<Record<DocumentLocale, Record<MessageKey, string>>> = {
  en,
  de,
  fr,
  es,
};

/** Labels, amounts, dates and country names as one locale prints them. */
export interface DocumentMessages {
  readonly locale: DocumentLocale;
  /** The message `key` filled with `values`; throws when a value it names is missing. */
  t(key: MessageKey, values?: MessageValues): string;
  /** Exact decimal text grouped as the locale does (`14570949430.96` → de `14.570.949.430,96`). */
  amount(decimalText: string): string;
  /** The amount and the ISO currency code after it (`1.234,50 EUR`). */
  money(decimalText: string, currency: string): string;
  /** An ISO calendar date written out (`2026-11-26` → de `26. November 2026`). */
  date(isoDate: string): string;
  /** An ISO 3166-1 alpha-2 code as the country's name (`DE` → fr `Allemagne`). */
  country(alpha2: string): string;
}

/** A supported locale as it is, a regional one by its language (`de-AT` → `de`); else none. */
function supportedLocale(value: string | null | undefined): DocumentLocale | undefined {
  const language = (value ?? '').toLowerCase().split(/[-_]/)[0];
  return DOCUMENT_LOCALES.find((locale) => locale === language);
}

/** The locale of a view's `locale` field: `en` when absent (views queued before locales). */
export function documentLocaleOf(value: string | null | undefined): DocumentLocale {
  return supportedLocale(value) ?? 'en';
}

/**
 * The locale a document prints in: its client's `language` when documents have messages in it,
 * else the fallback (DOCUMENT_LOCALE). A client without a language has ''.
 */
export function documentLocale(language: string, fallback: DocumentLocale): DocumentLocale {
  return supportedLocale(language) ?? fallback;
}

const instances = new Map<DocumentLocale, DocumentMessages>();

/**
 * The messages of a DocumentLocale, or of any language tag by documentLocaleOf (a view's
 * `locale` is JSON from the outbox); one shared instance per locale.
 */
export function messagesFor(locale: string | null | undefined): DocumentMessages {
  const resolved = documentLocaleOf(locale);
  let messages = instances.get(resolved);
  if (messages === undefined) {
    messages = createMessages(resolved);
    instances.set(resolved, messages);
  }
  return messages;
}

function createMessages(locale: DocumentLocale): DocumentMessages {
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const compiledMessage = (key: MessageKey): IntlMessageFormat => {
    let message = compiled.get(key);
    if (message === undefined) {
      message = compileMessage(MESSAGE_CATALOGS[locale][key] ?? en[key], locale);
      compiled.set(key, message);
    }
    return message;
  };
  return {
    locale,
    t: (key, values) => {
      const text = compiledMessage(key).format(values);
      return Array.isArray(text) ? text.join('') : String(text);
    },
    amount: (decimalText) => formatAmount(decimalText, locale),
    money: (decimalText, currency) => formatMoney(decimalText, currency, locale),
    date: (isoDate) => formatDate(isoDate, locale),
    country: (alpha2) => formatCountry(alpha2, locale),
  };
}

/**
 * One ICU message compiled for `locale`. Tags are off: a translator's `<` is text, and every
 * message is plain text that the HTML e-mail escapes as a whole.
 */
export function compileMessage(message: string, locale: DocumentLocale): IntlMessageFormat {
  return new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
}
