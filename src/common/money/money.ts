import { LosslessNumber } from 'lossless-json';
import { Decimal, writtenPlaces } from './decimal';
import { minorUnits } from './currency';

/** Money values (amounts, totals) stay strictly below this bound. */
export const MONEY_LIMIT = new Decimal('1e13');

/** Rounds half away from zero to the currency's minor units. */
export function roundMoney(value: Decimal, currency: string): Decimal {
  return value.toDecimalPlaces(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

/** Money as text with exactly the currency's minor digits: "10.50", "1500" for JPY. */
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
