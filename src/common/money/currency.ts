import * as currencyCodes from 'currency-codes';

/** Codes ISO 4217 gives no minor unit ("N.A."): IMF units, not money an invoice is in. */
const WITHOUT_MINOR_UNIT = new Set(['XDR', 'XSU', 'XUA']);

/**
 * Active ISO 4217 currencies and their minor units. Precious metals, bond units, the testing
 * code and "no currency" (the Zz* pseudo-countries of the data set) are not money.
 */
const MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  currencyCodes.data
    .filter((entry) => !entry.countries.some((country) => country.startsWith('Zz')))
    .filter((entry) => !WITHOUT_MINOR_UNIT.has(entry.code))
    .map((entry) => [entry.code, entry.digits]),
);

export function isCurrencyCode(code: string): boolean {
  return MINOR_UNITS.has(code.toUpperCase());
}

/** Minor digits of a currency (JPY 0, USD 2, KWD 3). The code must be a valid one. */
export function minorUnits(code: string): number {
  const digits = MINOR_UNITS.get(code.toUpperCase());
  if (digits === undefined) throw new Error(`Unknown currency ${code}`);
  return digits;
}

/** Each count of minor digits with the currencies that have it (2: USD, EUR, …; 0: JPY, …). */
export function currenciesByMinorUnits(): Map<number, string[]> {
  const groups = new Map<number, string[]>();
  for (const [code, digits] of MINOR_UNITS)
    groups.set(digits, [...(groups.get(digits) ?? []), code]);
  return groups;
}
