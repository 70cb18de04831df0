import { Decimal, sum } from '../../common/money/decimal';
import { MONEY_LIMIT, roundMoney } from '../../common/money/money';

/** docs/rules.md, currency and money: the totals of an invoice or an estimate. */

export interface LineInput {
  description: string;
  quantity: Decimal;
  rate: Decimal;
}

export interface PricedLine extends LineInput {
  amount: Decimal;
}

export interface DocumentTotals {
  lines: PricedLine[];
  subTotal: Decimal;
  taxAmount: Decimal;
  total: Decimal;
}

/** Each line's amount is rounded on its own; tax is rounded once, on the sub-total. */
export function priceDocument(
  lines: LineInput[],
  taxRate: Decimal,
  currency: string,
): DocumentTotals {
  const priced = lines.map((line) => ({
    ...line,
    amount: roundMoney(line.quantity.times(line.rate), currency),
  }));
  const subTotal = sum(priced.map((line) => line.amount));
  const taxAmount = roundMoney(subTotal.times(taxRate).dividedBy(100), currency);
  return { lines: priced, subTotal, taxAmount, total: subTotal.plus(taxAmount) };
}

/** Names of the money values that reach 10^13, the bound every money value stays below. */
export function moneyOverLimit(totals: DocumentTotals): string[] {
  const over = totals.lines.flatMap((line, index) =>
    line.amount.gte(MONEY_LIMIT) ? [`items.${index}.amount`] : [],
  );
  if (totals.total.gte(MONEY_LIMIT)) over.push('total');
  return over;
}

export function outstandingBalance(total: Decimal, amountPaid: Decimal): Decimal {
  return total.minus(amountPaid);
}
