import { Injectable } from '@nestjs/common';
import { Database, isUniqueViolation } from '../database/database';
import { PaymentStatus } from '../invoices/domain/payment-status';
import { InvoicePayment } from '../invoices/entities/invoice-payment.entity';
import { Invoice } from '../invoices/entities/invoice.entity';
import { InvoiceDetailRecord, lockInvoiceDetail } from '../invoices/invoice-detail.query';
import { LedgerSums } from './domain/ledger';

/*
 * The writes of every money move, as constant statements (Database.write: prepared on
 * MySQL/MariaDB). Decimals are written as their columns' scale-4 text, as DecimalColumn's
 * transformer writes them.
 */
const INSERT_ENTRY =
  'INSERT INTO invoice_payments (invoice_id, reference, status, amount, method, payment_date, reason, credit_note_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
const WRITE_SUMS =
  'UPDATE invoices SET amount_paid = ?, amount_credited = ?, payment_status = ?, updated_at = ? WHERE id = ?';

/**
 * What the ledger writes: entries of `invoice_payments`, and the invoice row's ledger columns
 * (the sums, the payment status, the void). Every method runs in the caller's transaction; the
 * service holds the invoice's row lock first.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly database: Database) {}

  /**
   * The live invoice with its lines, ledger and send log, holding its row lock until the
   * transaction ends, or null: one statement instead of a lock and a second read, for a move
   * whose event records the whole invoice. Only inside a transaction.
   */
  lockDetail(id: number): Promise<InvoiceDetailRecord | null> {
    return lockInvoiceDetail(this.database.manager, id);
  }

  /** Appends a ledger entry; answers it with its id. */
  async insertEntry(fields: Omit<InvoicePayment, 'id'>): Promise<InvoicePayment> {
    const { insertId } = await this.database.write(INSERT_ENTRY, [
      fields.invoiceId,
      fields.reference,
      fields.status,
      fields.amount.toFixed(4),
      fields.method,
      fields.paymentDate,
      fields.reason,
      fields.creditNoteId,
      this.database.instant(fields.createdAt),
    ]);
    return Object.assign(new InvoicePayment(), { id: insertId, ...fields });
  }

  /** True when a ledger insert failed because its reference is another entry's. */
  referenceTaken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_invoice_payments_reference', 'invoice_payments.reference');
  }

  /** Writes the ledger's sums after a move, with the payment status it leaves. */
  async writeSums(id: number, sums: LedgerSums & Pick<Invoice, 'updatedAt'>): Promise<void> {
    await this.database.write(WRITE_SUMS, [
      sums.amountPaid.toFixed(4),
      sums.amountCredited.toFixed(4),
      sums.paymentStatus,
      this.database.instant(sums.updatedAt),
      id,
    ]);
  }

  /** Sets the invoice's payment status by hand (paid / not-paid). */
  async writePaymentStatus(
    id: number,
    state: { paymentStatus: PaymentStatus } & Pick<Invoice, 'updatedAt'>,
  ): Promise<void> {
    await this.database.manager.update(Invoice, id, state);
  }

  async markVoid(id: number, fields: Pick<Invoice, 'voidedAt' | 'voidReason' | 'updatedAt'>) {
    await this.database.manager.update(Invoice, id, fields);
  }
}
