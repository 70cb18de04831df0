import { shiftDate } from '../../common/clock';
import { Decimal } from '../../common/money/decimal';
import { outstandingBalance } from '../../documents/domain/document-totals';
import { PaymentStatus } from '../../invoices/domain/payment-status';
import { settlementOf } from '../../invoices/domain/invoice-status';

/** The aging buckets, by days past due (docs/receivables.md). */
export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/** `current` until the due date has passed (due today is current), then by whole days. */
export function agingBucket(daysPastDue: number): AgingBucket {
  if (daysPastDue <= 0) return 'current';
  if (daysPastDue <= 30) return '1-30';
  if (daysPastDue <= 60) return '31-60';
  if (daysPastDue <= 90) return '61-90';
  return 'over_90';
}

/**
 * The same rule as ranges of due dates, for the database that sums by bucket: each bucket is
 * the due dates from `from` (inclusive) to `before` (exclusive), either end open. Comparing
 * dates costs far less per row than counting days.
 */
export function agingDueRanges(
  asOf: string,
): Record<AgingBucket, { from: string | null; before: string | null }> {
  const back = (days: number) => shiftDate(asOf, -days);
  return {
    current: { from: asOf, before: null },
    '1-30': { from: back(30), before: asOf },
    '31-60': { from: back(60), before: back(30) },
    '61-90': { from: back(90), before: back(60) },
    over_90: { from: null, before: back(90) },
  };
}

/**
 * What an invoice owed on the aging date: its outstanding balance now with the ledger entries
 * dated after that date undone (`undone`, their sum, a payment or credit adding back and a
 * refund taking off); null when that is nothing, and when the invoice is void or marked Paid by
 * hand while a balance remains (settled outside the ledger).
 */
export function agingBalance(
  invoice: { voided: boolean; paymentStatus: PaymentStatus; total: Decimal; amountPaid: Decimal },
  undone: Decimal,
): Decimal | null {
  const outstanding = outstandingBalance(invoice.total, invoice.amountPaid);
  // The aging report reads no drafts (their open_until is NULL, and they take no payment).
  const settlement = settlementOf({
    draft: false,
    voided: invoice.voided,
    paymentStatus: invoice.paymentStatus,
    outstanding: outstanding.gt(0),
  });
  if (settlement === 'void' || (settlement === 'paid' && outstanding.gt(0))) return null;
  const balance = outstanding.plus(undone);
  return balance.gt(0) ? balance : null;
}
