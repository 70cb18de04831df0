import { Injectable } from '@nestjs/common';
import { Database, isUniqueViolation } from '../database/database';
import { DocumentRepository } from '../documents/document.repository';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceDetailRecord, readInvoiceDetail } from './invoice-detail.query';

/** What a payment changes on its invoice. */
export type PaymentState = Pick<Invoice, 'amountPaid' | 'paymentStatus' | 'updatedAt'>;

/** Invoices, their send log and their payments. */
@Injectable()
export class InvoicesRepository extends DocumentRepository<Invoice, InvoiceSendLogEntry> {
  constructor(database: Database) {
    super(database, {
      kind: 'invoice',
      document: Invoice,
      sendLogEntry: InvoiceSendLogEntry,
      sendLogParentKey: 'invoiceId',
      numberKey: 'invoiceNo',
      numberParam: 'invoice_no',
      numberIndex: ['uq_invoices_live_invoice_no', 'invoices.invoice_no'],
      duplicateNumberCode: 'DUPLICATE_INVOICE_NO',
    });
  }

  /** True when an insert failed because its short code is another invoice's. */
  shortCodeTaken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_invoices_short_code', 'invoices.short_code');
  }

  /** True when a payment insert failed because its reference is another payment's. */
  referenceTaken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_invoice_payments_reference', 'invoice_payments.reference');
  }

  /** Sets the invoice's payment status, or its amount paid and status after a payment. */
  async updatePaymentState(
    id: number,
    state: Pick<PaymentState, 'paymentStatus' | 'updatedAt'> & Partial<PaymentState>,
  ): Promise<void> {
    await this.database.manager.update(Invoice, id, state);
  }

  /**
   * The live invoice with its lines, payments and send log, or null: one statement, so every
   * part is read at the same moment without a transaction.
   */
  findLiveDetail(id: number): Promise<InvoiceDetailRecord | null> {
    return readInvoiceDetail(this.database.manager, id);
  }

  /** Inserts a payment; its id is set on it. */
  async insertPayment(fields: Omit<InvoicePayment, 'id'>): Promise<InvoicePayment> {
    const payment = this.database.manager.create(InvoicePayment, fields);
    await this.database.manager.insert(InvoicePayment, payment);
    return payment;
  }
}
