import { Decimal } from '../../common/money/decimal';
import { PaymentStatus } from './payment-status';

/*
 * CONTRACT.md, Corrections: `status` is `void`; else `paid` when payment_status is Paid; else
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
  if (invoice.voidedAt !== null) return 'void';
  if (invoice.paymentStatus === 'Paid') return 'paid';
  const outstanding = invoice.total.minus(invoice.amountPaid);
  return outstanding.gt(0) && invoice.dueDate < today ? 'overdue' : 'open';
}
