import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { minorUnits } from '../common/money/currency';
import { ZERO } from '../common/money/decimal';
import { formatMoney } from '../common/money/money';
import { generateShortCode } from '../common/short-code';
import { AppConfig } from '../config/app-config';
import { LIVE } from '../database/columns';
import { Database, isUniqueViolation } from '../database/database';
import { DocumentDelivery } from '../delivery/document-delivery';
import { applyDraft, DocumentDraft, draftDocument } from '../documents/document-draft';
import { toLineRecords } from '../documents/document-lines';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import {
  applyPayment,
  COMPLETED_PAYMENT,
  DEFAULT_PAYMENT_METHOD,
  PaymentStatus,
} from './domain/payment-status';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import { RecordPaymentDto } from './dto/record-payment.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';
import { toDetail, toListItem, toWriteResult } from './invoices.mapper';

/** How the database names a clash on the live-number unique index, per dialect. */
const LIVE_NUMBER_INDEX = ['uq_invoices_live_invoice_no', 'invoices.invoice_no'];

/** Fields of an invoice's own row that a draft does not decide. */
interface InvoiceIdentity {
  invoiceNo: string;
  paymentStatus: PaymentStatus;
}

@Injectable()
export class InvoicesService {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly delivery: DocumentDelivery,
  ) {}

  list() {
    return this.database.read(async (manager) => {
      const invoices = await manager.find(Invoice, { where: LIVE, order: { id: 'ASC' } });
      return { data: invoices.map(toListItem) };
    });
  }

  /** The client's live invoices, for `GET /client/{id}`: one query. */
  async listForClient(manager: EntityManager, clientId: number) {
    const invoices = await manager.find(Invoice, { where: { clientId, ...LIVE }, order: { id: 'ASC' } });
    return invoices.map(toListItem);
  }

  /** Four queries whatever the invoice holds: the invoice, its lines, payments and sends. */
  get(id: number) {
    return this.database.read(async (manager) => {
      const invoice = await this.findLive(manager, id);
      const lines = await manager.find(InvoiceLineItem, {
        where: { invoiceId: id },
        order: { position: 'ASC' },
      });
      const payments = await manager.find(InvoicePayment, { where: { invoiceId: id }, order: { id: 'ASC' } });
      const sends = await manager.find(InvoiceSendLogEntry, { where: { invoiceId: id }, order: { id: 'ASC' } });
      return toDetail(invoice, lines, payments, sends);
    });
  }

  create(input: CreateInvoiceDto) {
    return this.database.transaction(async (manager) => {
      const draft = await draftDocument(manager, input, null, this.draftDefaults());
      return this.insertInvoice(manager, draft, {
        invoiceNo: input.invoice_no,
        paymentStatus: input.payment_status,
      });
    });
  }

  /**
   * Writes a new invoice and its lines from a checked draft. Also the way an estimate becomes
   * an invoice, inside the caller's transaction.
   */
  async insertInvoice(manager: EntityManager, draft: DocumentDraft, identity: InvoiceIdentity) {
    await this.assertNumberFree(manager, identity.invoiceNo);
    const now = this.clock.now();
    const invoice = manager.create(Invoice, {
      shortCode: generateShortCode(),
      invoiceNo: identity.invoiceNo,
      paymentStatus: identity.paymentStatus,
      amountPaid: ZERO,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    applyDraft(invoice, draft);
    await this.guardNumber(invoice.invoiceNo, () => manager.insert(Invoice, invoice));
    const lines = await this.insertLines(manager, invoice.id, draft);
    return toWriteResult(invoice, lines);
  }

  update(id: number, input: UpdateInvoiceDto) {
    return this.database.transaction(async (manager) => {
      const invoice = await this.findLive(manager, id, true);
      const storedLines = await manager.find(InvoiceLineItem, {
        where: { invoiceId: id },
        order: { position: 'ASC' },
      });
      const draft = await draftDocument(manager, input, { record: invoice, lines: storedLines }, this.draftDefaults());
      if (draft.currency !== invoice.currency && invoice.amountPaid.gt(0)) {
        throw DomainException.invalidField('currency', 'currency cannot change once payments are recorded');
      }
      if (draft.total.lt(invoice.amountPaid)) {
        throw new DomainException(
          'TOTAL_BELOW_AMOUNT_PAID',
          `The new total ${formatMoney(draft.total, draft.currency)} is below the amount already paid ${formatMoney(invoice.amountPaid, invoice.currency)}`,
        );
      }
      if (input.invoice_no !== invoice.invoiceNo) await this.assertNumberFree(manager, input.invoice_no);
      applyDraft(invoice, draft);
      invoice.invoiceNo = input.invoice_no;
      invoice.paymentStatus = input.payment_status;
      invoice.updatedAt = this.clock.now();
      await this.guardNumber(invoice.invoiceNo, () => manager.update(Invoice, id, invoiceRow(invoice)));
      // Lines are rewritten even when `items` was left out: a new currency re-rounds them.
      await manager.delete(InvoiceLineItem, { invoiceId: id });
      const lines = await this.insertLines(manager, id, draft);
      return toWriteResult(invoice, lines);
    });
  }

  /**
   * The invoice row is locked first, so concurrent payments on one invoice queue up behind
   * each other: each sees the balance the previous one left (SQLite: the write queue).
   */
  recordPayment(input: RecordPaymentDto) {
    return this.database.transaction(async (manager) => {
      const invoice = await this.findLive(manager, parseInt(input.id, 10), true);
      const digits = minorUnits(invoice.currency);
      if (input.amount_paid.decimalPlaces() > digits) {
        throw DomainException.invalidField(
          'amount_paid',
          `amount_paid must have at most ${digits} decimals for ${invoice.currency}`,
        );
      }
      const decision = applyPayment(invoice.total, invoice.amountPaid, input.amount_paid, invoice.paymentStatus);
      if (!decision.accepted) {
        throw new DomainException(
          'INVOICE_OVERPAID',
          `The payment exceeds the outstanding balance of ${formatMoney(decision.outstanding, invoice.currency)}`,
          { amount_paid: [`amount_paid must not exceed the outstanding balance ${formatMoney(decision.outstanding, invoice.currency)}`] },
        );
      }
      const now = this.clock.now();
      await manager.insert(
        InvoicePayment,
        manager.create(InvoicePayment, {
          invoiceId: invoice.id,
          reference: `PAY-${generateShortCode()}${generateShortCode()}`,
          status: COMPLETED_PAYMENT,
          amount: input.amount_paid,
          method: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
          paymentDate: input.payment_date,
          createdAt: now,
        }),
      );
      await manager.update(Invoice, invoice.id, {
        amountPaid: decision.amountPaid,
        paymentStatus: decision.paymentStatus,
        updatedAt: now,
      });
      return {
        message: `Payment of ${formatMoney(input.amount_paid, invoice.currency)} ${invoice.currency} recorded for invoice ${invoice.invoiceNo}`,
      };
    });
  }

  /** `paid` / `not-paid`: the flag only; no payment is added or removed. */
  setPaymentStatus(id: number, paymentStatus: PaymentStatus) {
    return this.database.transaction(async (manager) => {
      const invoice = await this.findLive(manager, id, true);
      await manager.update(Invoice, id, { paymentStatus, updatedAt: this.clock.now() });
      return { message: `Invoice ${invoice.invoiceNo} marked as ${paymentStatus.toLowerCase()}` };
    });
  }

  /** Records the send and hands it to delivery; the invoice itself is unchanged. */
  async send(input: SendDocumentDto) {
    const { invoice, entry } = await this.database.transaction(async (manager) => {
      const invoice = await this.findLive(manager, parseInt(input.id, 10));
      const entry = manager.create(InvoiceSendLogEntry, {
        invoiceId: invoice.id,
        email: input.email,
        phone: input.phone ?? '',
        sentAt: this.clock.now(),
      });
      await manager.insert(InvoiceSendLogEntry, entry);
      return { invoice, entry };
    });
    this.delivery.queue({ kind: 'invoice', documentId: invoice.id, sendLogEntryId: entry.id, email: entry.email });
    return { message: `Invoice ${invoice.invoiceNo} sent to ${entry.email}` };
  }

  archive(id: number) {
    return this.database.transaction(async (manager) => {
      const invoice = await this.findLive(manager, id, true);
      await manager.update(Invoice, id, { deletedAt: this.clock.now() });
      return { message: `Invoice ${invoice.invoiceNo} deleted` };
    });
  }

  private draftDefaults() {
    return { currency: this.config.defaultCurrency, today: this.clock.today() };
  }

  private async findLive(manager: EntityManager, id: number, forUpdate = false): Promise<Invoice> {
    const invoice = await manager.findOne(Invoice, {
      where: { id, ...LIVE },
      lock: forUpdate ? this.database.lockForUpdate : undefined,
    });
    if (!invoice) throw DomainException.notFound('Invoice', String(id));
    return invoice;
  }

  private async insertLines(manager: EntityManager, invoiceId: number, draft: DocumentDraft) {
    const lines = toLineRecords(() => manager.create(InvoiceLineItem, { invoiceId }), draft.lines);
    await manager.insert(InvoiceLineItem, lines);
    return lines;
  }

  /** A friendly early answer; the unique index is what holds under concurrent requests. */
  private async assertNumberFree(manager: EntityManager, invoiceNo: string): Promise<void> {
    if (await manager.exists(Invoice, { where: { invoiceNo, ...LIVE } })) throw duplicateNumber(invoiceNo);
  }

  private async guardNumber<T>(invoiceNo: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, ...LIVE_NUMBER_INDEX)) throw duplicateNumber(invoiceNo);
      throw error;
    }
  }
}

function duplicateNumber(invoiceNo: string): DomainException {
  return new DomainException('DUPLICATE_INVOICE_NO', `Invoice number ${invoiceNo} is already in use`, {
    invoice_no: ['invoice_no is already used by another invoice'],
  });
}

/** The columns an update writes (everything but the id and creation time). */
function invoiceRow(invoice: Invoice): Partial<Invoice> {
  const { id: _id, createdAt: _createdAt, ...row } = invoice;
  return row;
}
