import { Decimal } from '../../common/money/decimal';
import { outstandingBalance } from '../../documents/domain/document-totals';
import { PaymentStatus } from './payment-status';

/*
 * The one definition of an invoice's status (docs/corrections.md): `draft` while it is one
 * (docs/numbering.md); else `void`; else `paid` when
 * payment_status is Paid; else `overdue` when the due date is before today (UTC) and a balance
 * is outstanding; else `open`.
 *
 * Speed keeps copies of it in SQL, each proved equal to the functions below over generated
 * invoices on both databases (test/rule-copies.e2e-spec.ts): the generated columns
 * `invoices.settlement` and `invoices.open_until` (migration 1764400000000, MySQL and SQLite:
 * written out there, since a migration that has run must not change), the status filter over
 * them (InvoicesRepository.statusFilter), and the invoices the aging report counts as owing
 * (`open_until < OPEN_FOREVER`).
 */

export const INVOICE_STATUSES = ['open', 'overdue', 'paid', 'void', 'draft'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * The part of a status that does not depend on today, as the column `invoices.settlement`
 * holds it: `unpaid` (Not Paid, a balance outstanding) is open until the due date, then
 * overdue; `settled` (Not Paid, nothing outstanding) is open.
 */
export type Settlement = 'draft' | 'void' | 'paid' | 'unpaid' | 'settled';

/** `open_until` of a settled invoice: it is open for good, never overdue. */
export const OPEN_FOREVER = '9999-12-31';

export interface StatusFacts {
  draft: boolean;
  voidedAt: Date | null;
  paymentStatus: PaymentStatus;
  total: Decimal;
  amountPaid: Decimal;
  dueDate: string;
}

/** The facts a status is made of, worked out (a list row read as text knows `outstanding`). */
export interface SettlementFacts {
  draft: boolean;
  voided: boolean;
  paymentStatus: PaymentStatus;
  /** Whether a balance is outstanding: outstandingBalance > 0. */
  outstanding: boolean;
  dueDate: string;
}

export function settlementFacts(invoice: StatusFacts): SettlementFacts {
  return {
    draft: invoice.draft,
    voided: invoice.voidedAt !== null,
    paymentStatus: invoice.paymentStatus,
    outstanding: outstandingBalance(invoice.total, invoice.amountPaid).gt(0),
    dueDate: invoice.dueDate,
  };
}

export function invoiceStatus(invoice: StatusFacts, today: string): InvoiceStatus {
  return statusOf(settlementFacts(invoice), today);
}

export function statusOf(facts: SettlementFacts, today: string): InvoiceStatus {
  const settlement = settlementOf(facts);
  if (settlement === 'draft' || settlement === 'void' || settlement === 'paid') return settlement;
  return settlement === 'unpaid' && facts.dueDate < today ? 'overdue' : 'open';
}

export function settlementOf(facts: Omit<SettlementFacts, 'dueDate'>): Settlement {
  if (facts.draft) return 'draft';
  if (facts.voided) return 'void';
  if (facts.paymentStatus === 'Paid') return 'paid';
  return facts.outstanding ? 'unpaid' : 'settled';
}

/**
 * The last day the invoice is open, as the column `invoices.open_until` holds it: its due date
 * while unpaid, OPEN_FOREVER when settled, null when a draft, paid or void. So `overdue` is the one
 * range `open_until < today`, and `open` the one range `open_until >= today`.
 */
export function openUntilOf(facts: SettlementFacts): string | null {
  switch (settlementOf(facts)) {
    case 'unpaid':
      return facts.dueDate;
    case 'settled':
      return OPEN_FOREVER;
    default:
      return null;
  }
}
