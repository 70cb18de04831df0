import type { DocumentLocale } from '../../document-vocabulary/document-locale';

/** `-1234.50`: an optional minus, integer digits, optionally a point and fraction digits. */
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
/** `2026-11-26`: a calendar date, as every date of a view is. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ALPHA_2 = /^[A-Za-z]{2}$/;

interface NumberSymbols {
  /** Groups whole numbers (BigInt) as the locale does. */
  integers: Intl.NumberFormat;
  decimal: string;
  minus: string;
}

const numberSymbols = new Map<DocumentLocale, NumberSymbols>();
const dateFormats = new Map<DocumentLocale, Intl.DateTimeFormat>();
const regionNames = new Map<DocumentLocale, Intl.DisplayNames>();

function symbolsOf(locale: DocumentLocale): NumberSymbols {
  let symbols = numberSymbols.get(locale);
  if (symbols === undefined) {
    const parts = new Intl.NumberFormat(locale).formatToParts(-1.5);
    const part = (type: Intl.NumberFormatPartTypes, fallback: string) =>
      parts.find((candidate) => candidate.type === type)?.value ?? fallback;
    symbols = {
      // The default grouping is the locale's ("auto"): es leaves 1234 ungrouped, groups 12.345.
      integers: new Intl.NumberFormat(locale),
      decimal: part('decimal', '.'),
      minus: part('minusSign', '-'),
    };
    numberSymbols.set(locale, symbols);
  }
  return symbols;
}

/**
 * Exact decimal text (`-14570949430.96`, `0.125`) with the locale's grouping and decimal
 * separator (de `-14.570.949.430,96`). Never through a JS number: the integer digits are
 * grouped as a BigInt, the fraction digits kept as they are. Anything that is not plain
 * decimal text is answered unchanged.
 */
export function formatAmount(decimalText: string, locale: DocumentLocale): string {
  const match = PLAIN_DECIMAL.exec(decimalText);
  if (match === null) return decimalText;
  const [, sign, integerDigits, fractionDigits] = match;
  const symbols = symbolsOf(locale);
  const integer = symbols.integers.format(BigInt(integerDigits));
  const fraction = fractionDigits === undefined ? '' : `${symbols.decimal}${fractionDigits}`;
  return `${sign === '' ? '' : symbols.minus}${integer}${fraction}`;
}

/**
 * An amount and its ISO 4217 code after it, in every locale (`1.234,50 EUR`): the code is the
 * same in every language and names exactly one currency, where a symbol does not (`$`, `kr`),
 * and it is what the API, the PDF and the reports show.
 */
export function formatMoney(decimalText: string, currency: string, locale: DocumentLocale): string {
  return `${formatAmount(decimalText, locale)} ${currency}`;
}

/**
 * A calendar date (`2026-11-26`) written out in the locale (en `November 26, 2026`, de
 * `26. November 2026`): the long style names the month, so no reader confuses day and month.
 * Anything that is not a valid ISO date is answered unchanged.
 */
export function formatDate(isoDate: string, locale: DocumentLocale): string {
  const match = ISO_DATE.exec(isoDate);
  if (match === null) return isoDate;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return isoDate;
  let format = dateFormats.get(locale);
  if (format === undefined) {
    // UTC both ways: the date is a calendar day, not an instant, whatever the server's zone.
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}

/** A country's name in the locale (`DE` in fr: `Allemagne`); an unknown code as it is. */
export function formatCountry(alpha2: string, locale: DocumentLocale): string {
  if (!ALPHA_2.test(alpha2)) return alpha2;
  let names = regionNames.get(locale);
  if (names === undefined) {
    names = new Intl.DisplayNames(locale, { type: 'region', fallback: 'code' });
    regionNames.set(locale, names);
  }
  const code = alpha2.toUpperCase();
  // ZZ is CLDR's "unknown region": a code nobody meant.
  return code === 'ZZ' ? alpha2 : (names.of(code) ?? alpha2);
}
