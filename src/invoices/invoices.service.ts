import { Injectable, StreamableFile } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { dateRange } from '../common/list-query.dto';
import { minorUnits } from '../common/money/currency';
import { ZERO } from '../common/money/decimal';
import { formatMoney, hasAtMostPlaces } from '../common/money/money';
import { generateShortCode } from '../common/short-code';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { DocumentDelivery } from '../delivery/document-delivery';
import { applyDraft, DocumentDraft, draftDocument } from '../documents/document-draft';
import { DocumentKind, DocumentStore } from '../documents/document-store';
import { clientIdFilter } from '../documents/dto/list-documents.dto';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { PDF_MEDIA_TYPE, renderDocumentPdf } from '../documents/pdf/document-pdf.renderer';
import { toDocumentView } from '../documents/pdf/document-view';
import { inlineFile } from '../http/inline-file';
import {
  applyPayment,
  COMPLETED_PAYMENT,
  DEFAULT_PAYMENT_METHOD,
  PaymentStatus,
} from './domain/payment-status';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import { ListInvoicesDto } from './dto/list-invoices.dto';
import { RecordPaymentDto } from './dto/record-payment.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';
import { toDetail, toListItem, toWriteResult } from './invoices.mapper';

const INVOICE_KIND: DocumentKind<Invoice, InvoiceLineItem, InvoiceSendLogEntry> = {
  name: 'invoice',
  document: Invoice,
  lineItem: InvoiceLineItem,
  sendLogEntry: InvoiceSendLogEntry,
  parentKey: 'invoiceId',
  numberKey: 'invoiceNo',
  numberParam: 'invoice_no',
  numberIndex: ['uq_invoices_live_invoice_no', 'invoices.invoice_no'],
  duplicateNumberCode: 'DUPLICATE_INVOICE_NO',
  amountPaid: (invoice) => invoice.amountPaid,
};

/** Fields of an invoice's own row that a draft does not decide. */
export interface InvoiceIdentity {
  invoiceNo: string;
  paymentStatus: PaymentStatus;
}

@Injectable()
export class InvoicesService {
  private readonly store: DocumentStore<Invoice, InvoiceLineItem, InvoiceSendLogEntry>;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    delivery: DocumentDelivery,
  ) {
    this.store = new DocumentStore(INVOICE_KIND, database, clock, delivery);
  }

  list(query: ListInvoicesDto) {
    const filter: FindOptionsWhere<Invoice> = {
      clientId: clientIdFilter(query.client),
      paymentStatus: query.payment_status,
      issueDate: dateRange(query.from, query.to),
    };
    return this.database.read(async (manager) => {
      const { rows, meta } = await this.store.listLive(manager, filter, query);
      return { data: rows.map(toListItem), ...(meta && { meta }) };
    });
  }

  /** The client's live invoices, for `GET /client/{id}`: one query. */
  listForClient(clientId: number) {
    return this.database.read(async (manager) => {
      const { rows } = await this.store.listLive(manager, { clientId });
      return rows.map(toListItem);
    });
  }

  /** Four queries whatever the invoice holds: the invoice, its lines, payments and sends. */
  get(id: number) {
    return this.database.read(async (manager) => {
      const invoice = await this.store.findLive(manager, id);
      const lines = await this.store.lines(manager, id);
      const payments = await manager.find(InvoicePayment, {
        where: { invoiceId: id },
        order: { id: 'ASC' },
      });
      const sends = await this.store.sendLog(manager, id);
      return toDetail(invoice, lines, payments, sends);
    });
  }

  /**
   * The invoice as a PDF named after its number: the invoice and its lines in one read, laid
   * out once the read is over.
   */
  async pdf(id: number): Promise<StreamableFile> {
    const view = await this.database.read(async (manager) => {
      const invoice = await this.store.findLive(manager, id);
      const lines = await this.store.lines(manager, id);
      return toDocumentView('invoice', invoice.invoiceNo, invoice, lines, invoice.amountPaid);
    });
    const content = await renderDocumentPdf(view, this.config.company);
    return inlineFile(content, `${view.number}.pdf`, PDF_MEDIA_TYPE);
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
   * Writes a new invoice and its lines from a checked draft, inside the caller's transaction:
   * for add, and for an estimate becoming an invoice.
   */
  async insertInvoice(manager: EntityManager, draft: DocumentDraft, identity: InvoiceIdentity) {
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
    await this.store.insert(manager, invoice);
    const lines = await this.store.insertLines(manager, invoice.id, draft.lines);
    return toWriteResult(invoice, lines);
  }

  update(id: number, input: UpdateInvoiceDto) {
    return this.database.transaction(async (manager) => {
      const invoice = await this.store.findLive(manager, id, true);
      const storedLines = await this.store.lines(manager, id);
      const existing = { record: invoice, lines: storedLines };
      const draft = await draftDocument(manager, input, existing, this.draftDefaults());
      if (draft.currency !== invoice.currency && invoice.amountPaid.gt(0)) {
        throw DomainException.invalidField(
          'currency',
          'currency cannot change once payments are recorded',
        );
      }
      if (draft.total.lt(invoice.amountPaid)) {
        const total = formatMoney(draft.total, draft.currency);
        const paid = formatMoney(invoice.amountPaid, invoice.currency);
        const message = `the new total ${total} is below the amount already paid ${paid}`;
        // The lines and the tax rate make the total: name those this update gave.
        const given = (['items', 'tax_rate'] as const).filter(
          (field) => input[field] !== undefined,
        );
        throw new DomainException(
          'TOTAL_BELOW_AMOUNT_PAID',
          `The new total ${total} is below the amount already paid ${paid}`,
          Object.fromEntries(
            (given.length > 0 ? given : ['items']).map((field) => [field, [message]]),
          ),
        );
      }
      applyDraft(invoice, draft);
      invoice.invoiceNo = input.invoice_no;
      invoice.paymentStatus = input.payment_status;
      invoice.updatedAt = this.clock.now();
      await this.store.update(manager, invoice);
      const lines = await this.store.replaceLines(manager, id, draft.lines);
      return toWriteResult(invoice, lines);
    });
  }

  /**
   * The invoice row is locked first, so concurrent payments on one invoice queue up behind
   * each other and each sees the balance the previous one left (on SQLite: the write queue).
   */
  recordPayment(input: RecordPaymentDto) {
    return this.database.transaction(async (manager) => {
      const invoice = await this.store.findLiveByParameter(manager, input.id, true);
      const digits = minorUnits(invoice.currency);
      if (!hasAtMostPlaces(input.amount_paid, digits)) {
        throw DomainException.invalidField(
          'amount_paid',
          `amount_paid must have at most ${digits} decimals for ${invoice.currency}`,
        );
      }
      const decision = applyPayment(
        invoice.total,
        invoice.amountPaid,
        input.amount_paid,
        invoice.paymentStatus,
      );
      if (!decision.accepted) {
        const outstanding = formatMoney(decision.outstanding, invoice.currency);
        throw new DomainException(
          'INVOICE_OVERPAID',
          `The payment exceeds the outstanding balance of ${outstanding}`,
          {
            amount_paid: [`amount_paid must not exceed the outstanding balance ${outstanding}`],
          },
        );
      }
      const now = this.clock.now();
      const payment = manager.create(InvoicePayment, {
        invoiceId: invoice.id,
        reference: `PAY-${generateShortCode()}${generateShortCode()}`,
        status: COMPLETED_PAYMENT,
        amount: input.amount_paid,
        method: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
        paymentDate: input.payment_date,
        createdAt: now,
      });
      await manager.insert(InvoicePayment, payment);
      await manager.update(Invoice, invoice.id, {
        amountPaid: decision.amountPaid,
        paymentStatus: decision.paymentStatus,
        updatedAt: now,
      });
      const amount = formatMoney(input.amount_paid, invoice.currency);
      return {
        message: `Payment of ${amount} ${invoice.currency} recorded for invoice ${invoice.invoiceNo}`,
      };
    });
  }

  /** `paid` / `not-paid`: the flag only; no payment is added or removed. */
  setPaymentStatus(id: number, paymentStatus: PaymentStatus) {
    return this.database.transaction(async (manager) => {
      const invoice = await this.store.findLive(manager, id, true);
      await manager.update(Invoice, id, { paymentStatus, updatedAt: this.clock.now() });
      return { message: `Invoice ${invoice.invoiceNo} marked as ${paymentStatus.toLowerCase()}` };
    });
  }

  async send(input: SendDocumentDto) {
    const { document, entry } = await this.store.send(input);
    return { message: `Invoice ${document.invoiceNo} sent to ${entry.email}` };
  }

  async archive(id: number) {
    const invoice = await this.store.archive(id);
    return { message: `Invoice ${invoice.invoiceNo} deleted` };
  }

  private draftDefaults() {
    return {
      currency: this.config.defaultCurrency,
      today: this.clock.today(),
      clientLock: this.database.lockForShare,
    };
  }
}
