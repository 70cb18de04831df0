import { Decimal } from '../../common/money/decimal';
import { PaymentStatus } from './payment-status';

/*
 * docs/corrections.md: `status` is `void`; else `paid` when payment_status is Paid; else
 * `overdue` when the due date is before today (UTC) and a balance is outstanding; else `open`.
 */

export const INVOICE_STATUSES = ['open', 'overdue', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * The part of a status that does not depend on today, as the database computes it in the
 * generated column `invoices.settlement`: `unpaid` is open until the due date, then overdue;
 * `settled` (Not Paid, nothing outstanding) is open. Its companion `invoices.open_until` is the
 * last day an invoice is open (InvoicesRepository.statusFilter).
 */
export type Settlement = 'void' | 'paid' | 'unpaid' | 'settled';

export interface StatusFacts {
  voidedAt: Date | null;
  paymentStatus: PaymentStatus;
  total: Decimal;
  amountPaid: Decimal;
  dueDate: string;
}

export function invoiceStatus(invoice: StatusFacts, today: string): InvoiceStatus {
  return statusOf(
    {
      voided: invoice.voidedAt !== null,
      paymentStatus: invoice.paymentStatus,
      outstanding: invoice.total.minus(invoice.amountPaid).gt(0),
      dueDate: invoice.dueDate,
    },
    today,
  );
}

/** The same from facts already worked out (a list row read as text: whether a balance is due). */
export function statusOf(
  facts: { voided: boolean; paymentStatus: PaymentStatus; outstanding: boolean; dueDate: string },
  today: string,
): InvoiceStatus {
  if (facts.voided) return 'void';
  if (facts.paymentStatus === 'Paid') return 'paid';
  return facts.outstanding && facts.dueDate < today ? 'overdue' : 'open';
}
