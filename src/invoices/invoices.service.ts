import { Injectable, StreamableFile } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { parseId } from '../common/input-rules';
import { dateRange } from '../common/list-query.dto';
import { ZERO } from '../common/money/decimal';
import { formatMoney } from '../common/money/money';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { ListAnswer, listResponse } from '../database/find-list';
import { DocumentDelivery } from '../delivery/document-delivery';
import { DocumentDrafts } from '../documents/document-drafts';
import { DocumentDraft, draftColumns } from '../documents/domain/document-draft';
import { clientIdFilter } from '../documents/dto/list-documents.dto';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { PDF_MEDIA_TYPE, renderDocumentPdf } from '../documents/pdf/document-pdf.renderer';
import { toDocumentView } from '../documents/pdf/document-view';
import { inlineFile } from '../http/inline-file';
import { checkUpdateAgainstPayments } from './domain/invoice-update';
import {
  applyPayment,
  checkPaymentDecimals,
  COMPLETED_PAYMENT,
  DEFAULT_PAYMENT_METHOD,
  PaymentStatus,
} from './domain/payment-status';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import {
  InvoiceListResponseDto,
  InvoiceReadResponseDto,
  InvoiceWriteResponseDto,
} from './dto/invoice-response.dto';
import { ListInvoicesDto } from './dto/list-invoices.dto';
import { RecordPaymentDto } from './dto/record-payment.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { Invoice } from './entities/invoice.entity';
import { InvoiceDetailRecord } from './invoice-detail.query';
import { InvoiceLinesRepository } from './invoice-lines.repository';
import { toDetail, toListItem, toWriteResult } from './invoices.mapper';
import { InvoicesRepository } from './invoices.repository';

/** Fields of an invoice's own row that a draft does not decide. */
export interface InvoiceIdentity {
  invoiceNo: string;
  paymentStatus: PaymentStatus;
}

/** A new invoice: its id, and the answer add gives. */
export interface CreatedInvoice {
  id: number;
  response: InvoiceWriteResponseDto;
}

@Injectable()
export class InvoicesService {
  constructor(
    private readonly database: Database,
    private readonly invoices: InvoicesRepository,
    private readonly lines: InvoiceLinesRepository,
    private readonly drafts: DocumentDrafts,
    private readonly delivery: DocumentDelivery,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async list(query: ListInvoicesDto): Promise<ListAnswer<InvoiceListResponseDto>> {
    const filter: FindOptionsWhere<Invoice> = {
      clientId: clientIdFilter(query.client),
      paymentStatus: query.payment_status,
      issueDate: dateRange(query.from, query.to),
    };
    return listResponse(await this.invoices.list(filter, query), toListItem);
  }

  /** The client's live invoices, for `GET /client/{id}`: one query. */
  async listForClient(clientId: number) {
    const invoices = await this.invoices.listAll({ clientId });
    return invoices.map(toListItem);
  }

  /**
   * One statement whatever the invoice holds (the invoice, its lines, payments and sends), and
   * one more for the sends' delivery states when it has been sent.
   */
  async get(id: number): Promise<InvoiceReadResponseDto> {
    const { invoice, lines, payments, sends } = await this.liveDetail(id);
    const deliveries = await this.delivery.deliveryStates(
      'invoice',
      sends.map((entry) => entry.id),
    );
    return toDetail(invoice, lines, payments, sends, deliveries);
  }

  /** The invoice as a PDF named after its number, laid out from one read of it and its lines. */
  async pdf(id: number): Promise<StreamableFile> {
    const { invoice, lines } = await this.liveDetail(id);
    const view = toDocumentView('invoice', invoice.invoiceNo, invoice, lines, invoice.amountPaid);
    const content = await renderDocumentPdf(view, this.config.company);
    return inlineFile(content, `${view.number}.pdf`, PDF_MEDIA_TYPE);
  }

  create(input: CreateInvoiceDto): Promise<InvoiceWriteResponseDto> {
    return this.database.transaction(async () => {
      const draft = await this.drafts.draft(input, null);
      const invoice = await this.createFromDraft(draft, {
        invoiceNo: input.invoice_no,
        paymentStatus: input.payment_status,
      });
      return invoice.response;
    });
  }

  /**
   * Writes a new invoice and its lines from a checked draft: for add, and for an estimate
   * becoming an invoice, whose transaction this joins.
   */
  createFromDraft(draft: DocumentDraft, identity: InvoiceIdentity): Promise<CreatedInvoice> {
    return this.database.transaction(async () => {
      const now = this.clock.now();
      const invoice = await withFreshCode(
        generateShortCode,
        async (shortCode) => {
          const invoice = this.invoices.create({
            ...draftColumns(draft),
            shortCode,
            invoiceNo: identity.invoiceNo,
            paymentStatus: identity.paymentStatus,
            amountPaid: ZERO,
            createdAt: now,
            updatedAt: now,
            deletedAt: null,
          });
          await this.invoices.insert(invoice);
          return invoice;
        },
        (error) => this.invoices.shortCodeTaken(error),
      );
      const lines = await this.lines.insert(invoice.id, draft.lines);
      return { id: invoice.id, response: toWriteResult(invoice, lines) };
    });
  }

  update(id: number, input: UpdateInvoiceDto): Promise<InvoiceWriteResponseDto> {
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoice(id, true);
      const storedLines = await this.lines.read(id);
      const draft = await this.drafts.draft(input, { record: invoice, lines: storedLines });
      checkUpdateAgainstPayments(invoice, draft, input);
      Object.assign(invoice, draftColumns(draft), {
        invoiceNo: input.invoice_no,
        paymentStatus: input.payment_status,
        updatedAt: this.clock.now(),
      });
      await this.invoices.update(invoice);
      // Rewritten even when `items` was left out: a new currency re-rounds them.
      const lines = await this.lines.replace(id, draft.lines);
      return toWriteResult(invoice, lines);
    });
  }

  /**
   * The invoice row is locked first, so concurrent payments on one invoice queue up behind
   * each other and each sees the balance the previous one left (on SQLite: the write queue).
   */
  recordPayment(input: RecordPaymentDto) {
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoiceNamed(input.id, true);
      checkPaymentDecimals(input.amount_paid, invoice.currency);
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
      await withFreshCode(
        () => `PAY-${generateShortCode()}${generateShortCode()}`,
        (reference) =>
          this.invoices.insertPayment({
            invoiceId: invoice.id,
            reference,
            status: COMPLETED_PAYMENT,
            amount: input.amount_paid,
            method: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
            paymentDate: input.payment_date,
            createdAt: now,
          }),
        (error) => this.invoices.referenceTaken(error),
      );
      await this.invoices.updatePaymentState(invoice.id, {
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
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoice(id, true);
      await this.invoices.updatePaymentState(id, { paymentStatus, updatedAt: this.clock.now() });
      return { message: `Invoice ${invoice.invoiceNo} marked as ${paymentStatus.toLowerCase()}` };
    });
  }

  /**
   * Appends to the send log and queues the e-mail in the same transaction: the outbox row holds
   * the invoice as it is now, and the worker delivers it after the answer. A refused send
   * (unknown or archived id) writes neither.
   */
  send(input: SendDocumentDto) {
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoiceNamed(input.id);
      const lines = await this.lines.read(invoice.id);
      const entry = await this.invoices.insertSendLogEntry(invoice.id, {
        email: input.email,
        phone: input.phone ?? '',
        sentAt: this.clock.now(),
      });
      await this.delivery.enqueue({
        kind: 'invoice',
        documentId: invoice.id,
        sendLogEntryId: entry.id,
        recipient: entry.email,
        view: toDocumentView('invoice', invoice.invoiceNo, invoice, lines, invoice.amountPaid),
      });
      return { message: `Invoice ${invoice.invoiceNo} sent to ${entry.email}` };
    });
  }

  /** DELETE: the row stays, marked archived; its lines, payments and sends stay too. */
  archive(id: number) {
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoice(id, true);
      await this.invoices.archive(id, this.clock.now());
      return { message: `Invoice ${invoice.invoiceNo} deleted` };
    });
  }

  /** A live invoice with its lines, payments and send log, or 404. */
  private async liveDetail(id: number): Promise<InvoiceDetailRecord> {
    const detail = await this.database.read(() => this.invoices.findLiveDetail(id));
    if (!detail) throw DomainException.notFound('Invoice', String(id));
    return detail;
  }

  /** A live invoice, or 404; `forUpdate` holds its row until the transaction ends. */
  private async liveInvoice(id: number, forUpdate = false): Promise<Invoice> {
    const invoice = await this.invoices.findLive(id, { forUpdate });
    if (!invoice) throw DomainException.notFound('Invoice', String(id));
    return invoice;
  }

  /** The live invoice an `id` parameter names (digits, any length), or 404. */
  private async liveInvoiceNamed(idText: string, forUpdate = false): Promise<Invoice> {
    const id = parseId(idText);
    if (id === null) throw DomainException.notFound('Invoice', idText);
    return this.liveInvoice(id, forUpdate);
  }
}
