import { LosslessNumber } from 'lossless-json';
import { Decimal, writtenPlaces } from './decimal';
import { currenciesByMinorUnits, minorUnits } from './currency';

/** Money values (amounts, totals) stay strictly below this bound. */
export const MONEY_LIMIT = new Decimal('1e13');

/**
 * The one rounding of money: half away from zero to the currency's minor units. Its copies
 * are `formatMoney`'s, `roundMoneySql` below and `unitsFixed` (database/decimal-text.ts, for
 * rows read as text), each proved equal to it over generated values: the SQL on both
 * databases by test/rule-copies.e2e-spec.ts, the others by their unit specs.
 */
export function roundMoney(value: Decimal, currency: string): Decimal {
  return value.toDecimalPlaces(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

/**
 * `roundMoney` in MySQL/MariaDB, whose ROUND of an exact (DECIMAL) value rounds half away from
 * zero: `expression` rounded to the minor digits of the currency held in `currencyColumn`, one
 * ROUND per digit count, each with a constant scale. SQLite has no exact decimals: it hands
 * the values over for `roundMoney`.
 */
export function roundMoneySql(currencyColumn: string, expression: string): string {
  const branches = [...currenciesByMinorUnits()]
    .filter(([digits]) => digits !== 2)
    .map(([digits, codes]) => {
      const list = codes.filter((code) => /^[A-Z]{3}$/.test(code)).map((code) => `'${code}'`);
      return `WHEN ${currencyColumn} IN (${list.join(', ')}) THEN ROUND(${expression}, ${digits})`;
    });
  return `CASE ${branches.join(' ')} ELSE ROUND(${expression}, 2) END`;
}

/**
 * Money as text with exactly the currency's minor digits: "10.50", "1500" for JPY. Rounded as
 * `roundMoney` rounds, in one step (a negative value that rounds to zero keeps its sign: "-0").
 */
export function formatMoney(value: Decimal, currency: string): string {
  return value.toFixed(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

/** A unit price as text with at least the currency's minor digits and at most 4. */
export function formatRate(value: Decimal, currency: string): string {
  const minor = minorUnits(currency);
  const places = Math.min(4, Math.max(minor, value.decimalPlaces()));
  return value.toFixed(places, Decimal.ROUND_HALF_UP);
}

/**
 * A decimal to be written as a JSON number, digit for digit (no binary floating point on the
 * way out): the response serialiser emits its text as it is.
 */
export function jsonNumber(value: Decimal): LosslessNumber {
  return new LosslessNumber(value.toFixed());
}

/** A money value as a JSON number with exactly the currency's minor digits. */
export function jsonMoney(value: Decimal, currency: string): LosslessNumber {
  return new LosslessNumber(formatMoney(value, currency));
}

/**
 * Whether a value fits a number of decimal places (a currency's minor digits, or 4), counted
 * as written for input: `10.500` does not fit two.
 */
export function hasAtMostPlaces(value: Decimal, places: number): boolean {
  return writtenPlaces(value) <= places;
}
