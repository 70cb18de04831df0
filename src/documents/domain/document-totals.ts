import { Decimal, sum, ZERO } from '../../common/money/decimal';
import { MONEY_LIMIT, roundMoney } from '../../common/money/money';
import { minorUnits } from '../../common/money/currency';
import type { VatCategory } from './vat-categories';

/*
 * docs/rules.md, "Taxes, discounts, units, dates of supply": the totals of an invoice, an
 * estimate or a credit note as EN 16931 sums them. Every step is named and rounded on its own,
 * half away from zero to the currency's minor units; nothing here refuses an input (the draft
 * does, before pricing).
 */

/** One tax a line carries: its group is (name, category, rate). */
export interface LineTax {
  name: string;
  category: VatCategory;
  /** Percent. */
  rate: Decimal;
  /** BT-120 and BT-121: why a category other than S takes no tax ('' when none). */
  exemptionReason: string;
  exemptionCode: string;
}

export interface LineInput {
  description: string;
  quantity: Decimal;
  /** Unit price: net, or gross when the document's prices include tax. */
  rate: Decimal;
  /** UN/ECE Recommendation 20 code (BT-130). */
  unit: string;
  /** At most one of the two discounts; a percent is of the line's quantity × rate. */
  discountPercent: Decimal | null;
  discountAmount: Decimal | null;
  /** The line's own taxes, or null for the document's default tax. */
  taxes: LineTax[] | null;
}

export interface PricedLine extends LineInput {
  /** BT-136: what the line's discount takes off, in money (0 without one). */
  discount: Decimal;
  /** BT-131: round(quantity × rate) − discount. */
  amount: Decimal;
  /** The taxes it carries: its own, or the document's default tax. */
  appliedTaxes: LineTax[];
}

/** One entry of the VAT breakdown (BG-23). */
export interface TaxGroup {
  name: string;
  category: VatCategory;
  rate: Decimal;
  /** BT-116 */
  taxableAmount: Decimal;
  /** BT-117 */
  taxAmount: Decimal;
  exemptionReason: string;
  exemptionCode: string;
}

/** What the document decides beside its lines. */
export interface PricingTerms {
  currency: string;
  /** The tax of a line that names none: `tax_rate`, named by TAX_NAME. */
  defaultTax: LineTax;
  /** At most one of the two document discounts. */
  discountPercent: Decimal | null;
  discountAmount: Decimal | null;
  pricesIncludeTax: boolean;
}

export interface DocumentTotals {
  lines: PricedLine[];
  /** BT-106: Σ line amounts. */
  subTotal: Decimal;
  /** BT-107: the document discount in money (0 without one). */
  discountAmount: Decimal;
  /** One entry per group, in order of first appearance (line order, then each line's taxes). */
  breakdown: TaxGroup[];
  /** BT-110: Σ group tax amounts. */
  taxAmount: Decimal;
  /** BT-112 */
  total: Decimal;
}

/**
 * Prices a document. Exclusive prices (the default): each group's tax is its taxable amount ×
 * rate, rounded once per group. Inclusive prices: amounts are gross, each group's gross is split
 * into its taxable amount (rounded) and the rest as its tax, and the total is the gross the
 * customer saw.
 */
export function priceDocument(lines: LineInput[], terms: PricingTerms): DocumentTotals {
  const { currency } = terms;
  const priced = lines.map((line) => priceLine(line, terms));
  const subTotal = sum(priced.map((line) => line.amount));
  const discountAmount =
    terms.discountAmount ??
    (terms.discountPercent === null
      ? ZERO
      : roundMoney(subTotal.times(terms.discountPercent).dividedBy(100), currency));
  const sets = taxSets(priced);
  const shares = shareByLargestRemainder(
    discountAmount,
    sets.map((set) => set.amount),
    currency,
  );
  const groups = new Map<string, TaxGroup>();
  sets.forEach((set, index) => {
    const base = set.amount.minus(shares[index]);
    for (const tax of set.taxes) {
      const key = groupKey(tax);
      const group = groups.get(key) ?? { ...tax, taxableAmount: ZERO, taxAmount: ZERO };
      // A group's exemption is the first its lines give (the draft refuses two that differ).
      if (group.exemptionReason === '') group.exemptionReason = tax.exemptionReason;
      if (group.exemptionCode === '') group.exemptionCode = tax.exemptionCode;
      group.taxableAmount = group.taxableAmount.plus(base);
      groups.set(key, group);
    }
  });
  const breakdown = [...groups.values()].map((group) =>
    terms.pricesIncludeTax ? splitGross(group, currency) : taxOnNet(group, currency),
  );
  const taxAmount = sum(breakdown.map((group) => group.taxAmount));
  const net = subTotal.minus(discountAmount);
  return {
    lines: priced,
    subTotal,
    discountAmount,
    breakdown,
    taxAmount,
    total: terms.pricesIncludeTax ? net : net.plus(taxAmount),
  };
}

/** A line's amount: round(quantity × rate) less its discount, each step rounded. */
function priceLine(line: LineInput, terms: PricingTerms): PricedLine {
  const gross = roundMoney(line.quantity.times(line.rate), terms.currency);
  const discount =
    line.discountAmount ??
    (line.discountPercent === null
      ? ZERO
      : roundMoney(gross.times(line.discountPercent).dividedBy(100), terms.currency));
  // Not `{ ...line, more }`: V8 (Node 20) builds that slowly, about 2 µs a line.
  return Object.assign(lineInputOf(line), {
    discount,
    amount: gross.minus(discount),
    appliedTaxes: line.taxes ?? [terms.defaultTax],
  });
}

/** A line's input alone, of a line that carries more (priced, or kept by a schedule). */
export function lineInputOf(line: LineInput): LineInput {
  return {
    description: line.description,
    quantity: line.quantity,
    rate: line.rate,
    unit: line.unit,
    discountPercent: line.discountPercent,
    discountAmount: line.discountAmount,
    taxes: line.taxes,
  };
}

/** The key of a tax group: (name, category, rate), the rate by value (7 = 7.00). */
export function groupKey(tax: Pick<LineTax, 'name' | 'category' | 'rate'>): string {
  return JSON.stringify([tax.name, tax.category, tax.rate.toFixed()]);
}

interface TaxSet {
  taxes: LineTax[];
  amount: Decimal;
}

/**
 * The lines that carry the same taxes (in any order) form one set, in order of first
 * appearance: the document discount is shared over sets, so a line taxed twice takes its share
 * once.
 */
function taxSets(lines: PricedLine[]): TaxSet[] {
  const sets = new Map<string, TaxSet>();
  for (const line of lines) {
    const key = JSON.stringify(line.appliedTaxes.map(groupKey).sort());
    const set = sets.get(key);
    if (set) set.amount = set.amount.plus(line.amount);
    else sets.set(key, { taxes: line.appliedTaxes, amount: line.amount });
  }
  return [...sets.values()];
}

/**
 * Shares `total` over `weights` in proportion, in whole minor units, by the largest remainder:
 * each takes the floor of its exact share, and the units left go one each to the largest
 * remainders, ties to the one met first. The shares add up to `total` exactly; none exceeds its
 * weight when `total` is at most Σ weights. Integers throughout (BigInt), so no remainder is
 * rounded before it is compared.
 */
export function shareByLargestRemainder(
  total: Decimal,
  weights: Decimal[],
  currency: string,
): Decimal[] {
  const unit = new Decimal(10).pow(-minorUnits(currency));
  const units = (value: Decimal) => BigInt(value.dividedBy(unit).toFixed(0));
  const whole = units(total);
  const parts = weights.map(units);
  const sumOfParts = parts.reduce((a, b) => a + b, 0n);
  if (whole === 0n || sumOfParts === 0n) return weights.map(() => ZERO);
  const floors = parts.map((part) => (whole * part) / sumOfParts);
  const remainders = parts.map((part) => (whole * part) % sumOfParts);
  let left = whole - floors.reduce((a, b) => a + b, 0n);
  const order = remainders
    .map((remainder, index) => ({ remainder, index }))
    .sort((a, b) =>
      a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
    );
  for (const { index } of order) {
    if (left === 0n) break;
    floors[index] += 1n;
    left -= 1n;
  }
  return floors.map((value) => new Decimal(value.toString()).times(unit));
}

/** Exclusive prices: tax = round(taxable × rate / 100). */
function taxOnNet(group: TaxGroup, currency: string): TaxGroup {
  return {
    ...group,
    taxAmount: roundMoney(group.taxableAmount.times(group.rate).dividedBy(100), currency),
  };
}

/** Inclusive prices: the group's gross G splits into round(G × 100 / (100 + rate)) and the rest. */
function splitGross(group: TaxGroup, currency: string): TaxGroup {
  const gross = group.taxableAmount;
  const taxableAmount = roundMoney(gross.times(100).dividedBy(group.rate.plus(100)), currency);
  return { ...group, taxableAmount, taxAmount: gross.minus(taxableAmount) };
}

/** Names of the money values that reach 10^13, the bound every money value stays below. */
export function moneyOverLimit(totals: DocumentTotals): string[] {
  const over = totals.lines.flatMap((line, index) =>
    line.amount.plus(line.discount).gte(MONEY_LIMIT) ? [`items.${index}.amount`] : [],
  );
  if (totals.subTotal.gte(MONEY_LIMIT) || totals.total.gte(MONEY_LIMIT)) over.push('total');
  return over;
}

export function outstandingBalance(total: Decimal, amountPaid: Decimal): Decimal {
  return total.minus(amountPaid);
}
