import { Column, Entity } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import { DecimalColumn, TextColumn } from '../../database/columns';
import { DocumentRecord } from '../../documents/entities/document-columns';
import { Settlement } from '../domain/invoice-status';
import { PaymentStatus } from '../domain/payment-status';

@Entity('invoices')
export class Invoice extends DocumentRecord {
  /** Unique among live invoices: a unique index on a column that is NULL once archived. */
  @TextColumn({ name: 'invoice_no', length: 64 })
  invoiceNo: string;

  /** The number was the invoice series' (docs/numbering.md): it is voided, never deleted. */
  @Column({ name: 'number_from_series', type: 'boolean' })
  numberFromSeries: boolean;

  /**
   * The recurring invoice schedule that made it, and the date of the period it bills: unique
   * together, so each period is billed once (docs/recurring.md). Null for every other invoice.
   */
  @Column({ name: 'recurring_invoice_id', type: 'int', unsigned: true, nullable: true })
  recurringInvoiceId: number | null;

  @Column({ name: 'recurring_period', type: 'date', nullable: true })
  recurringPeriod: string | null;

  @TextColumn({ name: 'payment_status', length: 8 })
  paymentStatus: PaymentStatus;

  /**
   * Σ Completed + Σ Credited − Σ Refunded over the ledger (`invoice_payments`), kept with the
   * invoice under its row lock; 0 ≤ amount_paid ≤ total (a CHECK in the database).
   */
  @DecimalColumn({ name: 'amount_paid' })
  amountPaid: Decimal;

  /** Σ Credited: never above amount_paid, so the cash held is never below 0 (a CHECK too). */
  @DecimalColumn({ name: 'amount_credited' })
  amountCredited: Decimal;

  /** Set once, by void; a void invoice takes no further change but archiving. */
  @Column({ name: 'voided_at', type: 'datetime', nullable: true })
  voidedAt: Date | null;

  @TextColumn({ name: 'void_reason', length: 1000 })
  voidReason: string;

  /** BT-10, the reference the buyer asked for (a Leitweg-ID); '' for none. */
  @TextColumn({ name: 'buyer_reference', length: 255 })
  buyerReference: string;

  /** BT-13, the buyer's purchase order; '' for none. */
  @TextColumn({ name: 'order_reference', length: 255 })
  orderReference: string;

  /**
   * Computed by the database (generated columns) for the status filter; never written, and
   * never read: a status is worked out from the columns above and today's date.
   */
  @Column({ type: 'varchar', length: 8, insert: false, update: false, select: false })
  settlement?: Settlement;

  /** The last day it is open (see InvoicesRepository.statusFilter). */
  @Column({ name: 'open_until', type: 'date', insert: false, update: false, select: false })
  openUntil?: string;
}
