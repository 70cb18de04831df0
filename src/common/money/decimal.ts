import DecimalJs from 'decimal.js';

/**
 * The one decimal type used for money, quantities and rates. Precision is far above what
 * 10^13 × 10^13 products need, so multiplication never rounds before we round on purpose.
 */
export const Decimal = DecimalJs.clone({
  precision: 60,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -60,
  toExpPos: 60,
});
export type Decimal = DecimalJs;

/** Plain decimal notation only: no exponent, no NaN/Infinity, no empty string. */
const PLAIN_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Reads a number given as a JSON number or numeric text; null when it is not plain decimal. */
export function parseDecimal(input: unknown): Decimal | null {
  // A JS number here came from plain JSON number text that a double holds exactly (the body
  // parser keeps any other number as its text), so its value is the one the client wrote,
  // even where String() would print it as 1e-7.
  if (typeof input === 'number') return Number.isFinite(input) ? new Decimal(input) : null;
  if (typeof input !== 'string') return null;
  const text = input.trim();
  return PLAIN_DECIMAL.test(text) ? new Decimal(text) : null;
}

export const ZERO = new Decimal(0);

export function sum(values: Decimal[]): Decimal {
  return values.reduce((total, value) => total.plus(value), ZERO);
}
