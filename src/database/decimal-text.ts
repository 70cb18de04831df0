/*
 * Decimal columns (scale 4, see columns.ts) as the drivers hand them over, text such as
 * "1000.5000", read as whole ten-thousandths without a Decimal: what a list that writes tens of
 * thousands of rows out as text does per value. Anything else answers null, and the caller
 * goes the Decimal way.
 */

const SCALE = 4;
const DECIMAL_TEXT = /^(-?)(\d{1,13})(?:\.(\d{1,4}))?$/;
/** 10 ** (SCALE − places): what rounding to `places` divides by. */
const DIVISORS = [10_000n, 1_000n, 100n, 10n, 1n];

/** The value in ten-thousandths, or null when it is not decimal text of at most 4 places. */
export function decimalUnits(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  const parts = DECIMAL_TEXT.exec(value);
  if (!parts) return null;
  const [, sign, whole, fraction = ''] = parts;
  const units = BigInt(whole + fraction.padEnd(SCALE, '0'));
  return sign === '-' ? -units : units;
}

/**
 * Ten-thousandths as text with exactly `places` decimals (0 to 4), rounded half away from zero:
 * Decimal's `toFixed(places, ROUND_HALF_UP)`, a value rounded to zero keeping its sign.
 */
export function unitsFixed(units: bigint, places: number): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const divisor = DIVISORS[places];
  let rounded = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) rounded += 1n;
  let digits = rounded.toString();
  if (places > 0) {
    digits = digits.padStart(places + 1, '0');
    digits = `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** Ten-thousandths as Decimal's `toFixed()` writes them: no trailing zeros, no exponent. */
export function unitsPlain(units: bigint): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const whole = (magnitude / DIVISORS[0]).toString();
  const fraction = (magnitude % DIVISORS[0]).toString().padStart(SCALE, '0').replace(/0+$/, '');
  const digits = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative ? `-${digits}` : digits;
}
