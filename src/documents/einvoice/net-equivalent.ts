import { minorUnits } from '../../common/money/currency';
import { Decimal, sum, ZERO } from '../../common/money/decimal';
import { roundMoney } from '../../common/money/money';
import type { DocumentView, DocumentViewLine, DocumentViewTaxGroup } from '../document-view';
import { shareByLargestRemainder } from '../domain/document-totals';

/*
 * A line as EN 16931 writes it: net (BT-146 price, BT-131 amount, BT-136 discount). A document
 * of net prices is written as the view prints it. EN 16931 has no gross amounts, so a document
 * of gross prices (prices_include_tax) is written as its net equivalent that keeps the service's
 * figures: per VAT group, its lines' gross amounts come to round(Σ × 100 / (100 + rate)) net,
 * shared over its lines in proportion to their gross amounts by the largest remainder, and the
 * group's allowance (what its net lines come to less its taxable amount, BT-116) is its share of
 * the document discount, net. A line's discount is folded into its net price, which has as
 * many decimals as quantity × price needs to come within a hundredth of a cent of the line's
 * net amount: so it rounds to it (EN 16931) and is within Peppol's 0.02 (PEPPOL-EN16931-R120)
 * in every currency.
 */

/** One line's net figures, as written. */
export interface NetLine {
  /** BT-146. */
  price: string;
  /** BT-131. */
  amount: string;
  /** BT-136: 0 when none is written. */
  discount: Decimal;
}

/** Each line of the view as net figures, in the view's order. */
export function netLinesOf(view: DocumentView, groups: DocumentViewTaxGroup[]): NetLine[] {
  if (!view.pricesIncludeTax) {
    return view.lines.map((line) => ({
      price: line.rate,
      amount: line.amount,
      discount: new Decimal(line.discount ?? '0'),
    }));
  }
  const netAmounts = view.lines.map(() => ZERO);
  for (const group of groups) {
    const members = view.lines.flatMap((line, index) => (isInGroup(line, group) ? [index] : []));
    const grossAmounts = members.map((index) => new Decimal(view.lines[index].amount));
    const netTotal = netOf(sum(grossAmounts), group.rate, view.currency);
    const shares = shareByLargestRemainder(netTotal, grossAmounts, view.currency);
    members.forEach((index, position) => (netAmounts[index] = shares[position]));
  }
  const digits = minorUnits(view.currency);
  return view.lines.map((line, index) => {
    const [tax] = line.taxes ?? [];
    return {
      price: netPriceOf(netAmounts[index], line, tax?.rate ?? '0', view.currency),
      amount: netAmounts[index].toFixed(digits),
      discount: ZERO,
    };
  });
}

/** Whether the line carries the group's VAT (a line of an e-invoice carries exactly one). */
export function isInGroup(line: DocumentViewLine, group: DocumentViewTaxGroup): boolean {
  return (line.taxes ?? []).some(
    (tax) => tax.category === group.category && tax.rate === group.rate,
  );
}

/** A gross amount's net: round(gross × 100 / (100 + rate)), as a group's taxable amount is. */
function netOf(gross: Decimal, rate: string, currency: string): Decimal {
  return roundMoney(gross.times(100).dividedBy(new Decimal(rate).plus(100)), currency);
}

/**
 * The net price with the fewest decimals (at least the currency's) whose product with the
 * quantity is within PRICE_SLACK of the net amount. Without a quantity, the net of the gross
 * price.
 */
function netPriceOf(
  netAmount: Decimal,
  line: DocumentViewLine,
  rate: string,
  currency: string,
): string {
  const quantity = new Decimal(line.quantity);
  const digits = minorUnits(currency);
  if (quantity.isZero()) {
    return netOf(new Decimal(line.rate), rate, currency).toFixed(digits);
  }
  const exact = netAmount.dividedBy(quantity);
  let places = digits;
  while (places < MAX_PRICE_PLACES) {
    const price = exact.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
    if (quantity.times(price).minus(netAmount).abs().lte(PRICE_SLACK)) break;
    places += 1;
  }
  return exact.toFixed(places, Decimal.ROUND_HALF_UP);
}

/** How far quantity × net price may be from the net amount: it then rounds to it in any currency. */
const PRICE_SLACK = new Decimal('0.0001');

/**
 * Enough for any quantity below 10^10: the product is within quantity × 10^-places / 2 of the
 * amount, under PRICE_SLACK at 16 places.
 */
const MAX_PRICE_PLACES = 16;
