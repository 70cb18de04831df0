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

/**
 * The one spelling of a number: JSON's number literal without the exponent. No white space,
 * no `+`, no bare `.5` or `5.`, no leading zeros (`012`), nothing but ASCII digits.
 */
const DECIMAL_LITERAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * Decimal places as the client wrote them: `1.50000` has five though its value has one, and
 * a limit on places is a limit on what was written. Keyed by the parsed instance, so it
 * follows the value from validation into the service and is gone with it.
 */
const WRITTEN_PLACES = new WeakMap<Decimal, number>();

/**
 * Reads a number given as a JSON number or as text in the one grammar above; null for any
 * other text and for a negative zero (`-0`, `-0.00`), a sign on nothing that no amount,
 * quantity or rate is written with.
 */
export function parseDecimal(input: unknown): Decimal | null {
  let value: Decimal;
  if (typeof input === 'number') {
    // A JS number carries no text, so its places are its value's (1e-7 has seven). The body
    // parser must hand over as text every JSON number a double does not print back as
    // written (`1.50000`, `-0`, 400 digits), or those places go uncounted.
    if (!Number.isFinite(input)) return null;
    value = new Decimal(input);
  } else if (typeof input === 'string' && DECIMAL_LITERAL.test(input)) {
    value = new Decimal(input);
    const point = input.indexOf('.');
    WRITTEN_PLACES.set(value, point === -1 ? 0 : input.length - point - 1);
  } else {
    return null;
  }
  return value.isZero() && value.isNegative() ? null : value;
}

/** The decimal places of a value as written when it was read from input, else of its value. */
export function writtenPlaces(value: Decimal): number {
  return WRITTEN_PLACES.get(value) ?? value.decimalPlaces();
}

export const ZERO = new Decimal(0);

export function sum(values: Decimal[]): Decimal {
  return values.reduce((total, value) => total.plus(value), ZERO);
}
