/*
 * An independent computation of a document's EN 16931 totals (docs/rules.md, "Taxes,
 * discounts, units, dates of supply"), for the property tests to hold the service to. It shares
 * nothing with src/: every value is a BigInt count of ten-thousandths (inputs) or of the
 * currency's minor units (money), and each rounding is written out as integer division, where
 * the service uses decimal.js.
 */

/** A line as the oracle reads it: decimals as text, taxes by value (null: the default tax). */
export interface OracleLine {
  quantity: string;
  rate: string;
  discountPercent?: string;
  discountAmount?: string;
  taxes?: OracleTax[];
}

export interface OracleTax {
  name: string;
  category: string;
  rate: string;
}

export interface OracleDocument {
  minorDigits: number;
  defaultTax: OracleTax;
  lines: OracleLine[];
  discountPercent?: string;
  discountAmount?: string;
  pricesIncludeTax?: boolean;
}

export interface OracleGroup extends OracleTax {
  taxable: string;
  tax: string;
}

export interface OracleTotals {
  lineAmounts: string[];
  lineDiscounts: string[];
  subTotal: string;
  discount: string;
  groups: OracleGroup[];
  tax: string;
  total: string;
}

const TEN_THOUSAND = 10_000n;

/** Ten-thousandths of a plain decimal of at most 4 places ("12.5" → 125000n). */
function scaled4(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 4) throw new Error(`${text} has more than 4 decimals`);
  return BigInt(whole) * TEN_THOUSAND + BigInt(fraction.padEnd(4, '0'));
}

/** round(numerator / denominator), half away from zero, both non-negative. */
function roundDivide(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** Minor units as text with exactly `digits` decimals (12345n, 2 → "123.45"). */
export function unitsText(units: bigint, digits: number): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${body}` : body;
}

function groupKey(tax: OracleTax): string {
  return `${tax.name}\u0000${tax.category}\u0000${scaled4(tax.rate)}`;
}

export function oracleTotals(document: OracleDocument): OracleTotals {
  const digits = document.minorDigits;
  const unit = 10n ** BigInt(digits);
  // q × r is in 10^-8; in minor units it is q4 × r4 × unit / 10^8.
  const lines = document.lines.map((line) => {
    const gross = roundDivide(scaled4(line.quantity) * scaled4(line.rate) * unit, 10n ** 8n);
    let discount = 0n;
    if (line.discountAmount !== undefined)
      discount = (scaled4(line.discountAmount) * unit) / TEN_THOUSAND;
    else if (line.discountPercent !== undefined)
      discount = roundDivide(gross * scaled4(line.discountPercent), 100n * TEN_THOUSAND);
    return {
      amount: gross - discount,
      discount,
      taxes: line.taxes?.length ? line.taxes : [document.defaultTax],
    };
  });
  const subTotal = lines.reduce((sum, line) => sum + line.amount, 0n);
  let discount = 0n;
  if (document.discountAmount !== undefined)
    discount = (scaled4(document.discountAmount) * unit) / TEN_THOUSAND;
  else if (document.discountPercent !== undefined)
    discount = roundDivide(subTotal * scaled4(document.discountPercent), 100n * TEN_THOUSAND);

  // Sets of lines with the same taxes (in any order), in order of first appearance.
  const sets: Array<{ key: string; taxes: OracleTax[]; amount: bigint }> = [];
  for (const line of lines) {
    const key = line.taxes.map(groupKey).sort().join('\u0001');
    const set = sets.find((candidate) => candidate.key === key);
    if (set) set.amount += line.amount;
    else sets.push({ key, taxes: line.taxes, amount: line.amount });
  }
  // The discount shared by the largest remainder, ties to the set met first.
  const shares = sets.map(() => 0n);
  if (discount > 0n && subTotal > 0n) {
    const exact = sets.map((set, index) => ({
      index,
      floor: (discount * set.amount) / subTotal,
      remainder: (discount * set.amount) % subTotal,
    }));
    let left = discount - exact.reduce((sum, part) => sum + part.floor, 0n);
    exact.forEach((part) => (shares[part.index] = part.floor));
    const byRemainder = [...exact].sort((a, b) =>
      a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
    );
    for (const part of byRemainder) {
      if (left === 0n) break;
      shares[part.index] += 1n;
      left -= 1n;
    }
  }
  const groups: Array<OracleTax & { base: bigint }> = [];
  sets.forEach((set, index) => {
    for (const tax of set.taxes) {
      const existing = groups.find((group) => groupKey(group) === groupKey(tax));
      if (existing) existing.base += set.amount - shares[index];
      else groups.push({ ...tax, base: set.amount - shares[index] });
    }
  });
  const priced = groups.map((group) => {
    const rate4 = scaled4(group.rate);
    if (document.pricesIncludeTax) {
      const taxable = roundDivide(group.base * 100n * TEN_THOUSAND, 100n * TEN_THOUSAND + rate4);
      return { ...group, taxable, tax: group.base - taxable };
    }
    return {
      ...group,
      taxable: group.base,
      tax: roundDivide(group.base * rate4, 100n * TEN_THOUSAND),
    };
  });
  const tax = priced.reduce((sum, group) => sum + group.tax, 0n);
  const total = document.pricesIncludeTax ? subTotal - discount : subTotal - discount + tax;
  return {
    lineAmounts: lines.map((line) => unitsText(line.amount, digits)),
    lineDiscounts: lines.map((line) => unitsText(line.discount, digits)),
    subTotal: unitsText(subTotal, digits),
    discount: unitsText(discount, digits),
    groups: priced.map((group) => ({
      name: group.name,
      category: group.category,
      rate: group.rate,
      taxable: unitsText(group.taxable, digits),
      tax: unitsText(group.tax, digits),
    })),
    tax: unitsText(tax, digits),
    total: unitsText(total, digits),
  };
}
