import { Injectable, StreamableFile } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { parseId } from '../common/input-rules';
import { dateRange, idFilter } from '../common/list-query.dto';
import { ZERO } from '../common/money/decimal';
import { formatMoney } from '../common/money/money';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { ListAnswer, listResponse } from '../database/find-list';
import { DocumentDelivery } from '../delivery/document-delivery';
import { DocumentDrafts } from '../documents/document-drafts';
import { DocumentDraft, draftColumns } from '../documents/domain/document-draft';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { PDF_MEDIA_TYPE, renderDocumentPdf } from '../documents/pdf/document-pdf.renderer';
import { documentLocale } from '../documents/i18n/document-messages';
import { DocumentView } from '../documents/pdf/document-view';
import { EventLog } from '../events/event-log';
import { inlineFile } from '../http/inline-file';
import { checkUpdateAgainstPayments } from './domain/invoice-update';
import {
  cashHeldOf,
  checkMinorDigits,
  LedgerEntryStatus,
  LedgerMove,
  recordPayment,
  refund,
} from './domain/ledger';
import { DEFAULT_PAYMENT_METHOD, PaymentMethod, PaymentStatus } from './domain/payment-status';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import {
  InvoiceChangeResponseDto,
  InvoiceListResponseDto,
  InvoiceReadResponseDto,
  InvoiceWithTimestampsDto,
  InvoiceWriteResponseDto,
  RefundResponseDto,
} from './dto/invoice-response.dto';
import { ListInvoicesDto } from './dto/list-invoices.dto';
import { RecordPaymentDto } from './dto/record-payment.dto';
import { RefundDto } from './dto/refund.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { VoidInvoiceDto } from './dto/void-invoice.dto';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceDetailRecord } from './invoice-detail.query';
import { InvoiceLinesRepository } from './invoice-lines.repository';
import {
  toDetail,
  toInvoiceView,
  toListItem,
  toListItemFromRow,
  toPaymentEntry,
  toRecordPart,
  toWriteResult,
} from './invoices.mapper';
import { InvoicePrint, InvoicesRepository } from './invoices.repository';

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

/** What each ledger entry of a move records beside its status and amount. */
export interface LedgerEntryDetails {
  method: PaymentMethod;
  date: string;
  reason: string;
  creditNoteId: number | null;
  /** When it is recorded: the entries' created_at and the invoice's updated_at. */
  at: Date;
}

/** The reference of a ledger entry: unique, and its kind readable at a glance. */
const REFERENCE_PREFIXES: Record<LedgerEntryStatus, string> = {
  Completed: 'PAY',
  Refunded: 'RFD',
  Credited: 'CRD',
};

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
    private readonly events: EventLog,
  ) {
    events.registerReader('invoice', (id) => this.get(id));
  }

  async list(query: ListInvoicesDto): Promise<ListAnswer<InvoiceListResponseDto>> {
    const today = this.clock.today();
    const filter: FindOptionsWhere<Invoice> = {
      clientId: idFilter(query.client),
      paymentStatus: query.payment_status,
      issueDate: dateRange(query.from, query.to),
      ...(query.status === undefined ? {} : this.invoices.statusFilter(query.status, today)),
    };
    return listResponse(await this.invoices.listRows(filter, query), (row) =>
      toListItemFromRow(row, today),
    );
  }

  /** The client's live invoices, for `GET /client/{id}`: one query. */
  async listForClient(clientId: number): Promise<InvoiceWithTimestampsDto[]> {
    const today = this.clock.today();
    const invoices = await this.invoices.listAll({ clientId });
    return invoices.map((invoice) => toListItem(invoice, today));
  }

  /**
   * One statement whatever the invoice holds (the invoice, its lines, ledger and sends), and
   * one more for the sends' delivery states when it has been sent.
   */
  async get(id: number): Promise<InvoiceReadResponseDto> {
    return this.detailAnswer(await this.liveDetail(id));
  }

  /**
   * The invoice as a PDF named after its number, laid out from one read of it, its lines, its
   * ledger and its client's language (and one of its credit notes' numbers when it has credits).
   */
  async pdf(id: number): Promise<StreamableFile> {
    const print = await this.database.read(() => this.invoices.findLivePrint(id));
    if (!print) throw DomainException.notFound('Invoice', String(id));
    const view = this.view(print.document, print);
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
            amountCredited: ZERO,
            voidedAt: null,
            voidReason: '',
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
      await this.events.record({
        type: 'invoice.created',
        object: 'invoice',
        id: invoice.id,
        before: null,
      });
      return { id: invoice.id, response: toWriteResult(invoice, lines, this.clock.today()) };
    });
  }

  update(id: number, input: UpdateInvoiceDto): Promise<InvoiceWriteResponseDto> {
    return this.database.transaction(async () => {
      const invoice = await this.changeableInvoice(id);
      const before = await this.events.snapshot('invoice', id);
      const storedLines = await this.lines.read(id);
      const draft = await this.drafts.draft(input, { record: invoice, lines: storedLines });
      const hasLedgerEntries =
        draft.currency !== invoice.currency && (await this.invoices.hasLedgerEntries(id));
      checkUpdateAgainstPayments({ ...invoice, hasLedgerEntries }, draft, input);
      Object.assign(invoice, draftColumns(draft), {
        invoiceNo: input.invoice_no,
        paymentStatus: input.payment_status,
        updatedAt: this.clock.now(),
      });
      await this.invoices.update(invoice);
      // Rewritten even when `items` was left out: a new currency re-rounds them.
      const lines = await this.lines.replace(id, draft.lines);
      await this.events.record({ type: 'invoice.updated', object: 'invoice', id, before });
      return toWriteResult(invoice, lines, this.clock.today());
    });
  }

  /**
   * The invoice row is locked first, so concurrent payments, refunds and credit notes on one
   * invoice queue up behind each other and each sees the ledger the previous one left (on
   * SQLite: the write queue).
   */
  recordPayment(input: RecordPaymentDto) {
    return this.database.transaction(async () => {
      // Locked and read whole in one statement: the event's record is this read with the new
      // entry and sums, so nothing is read again after the change.
      const detail = await this.changeableDetail(this.idOf(input.id));
      const invoice = detail.document;
      checkMinorDigits(input.amount_paid, invoice.currency, 'amount_paid');
      const before = this.snapshotOf(invoice);
      const entries = await this.applyLedgerMove(
        invoice,
        recordPayment(invoice, input.amount_paid),
        {
          method: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
          date: input.payment_date,
          reason: '',
          creditNoteId: null,
          at: this.clock.now(),
        },
      );
      await this.events.record({
        type: 'invoice.payment_recorded',
        object: 'invoice',
        id: invoice.id,
        before,
        after: await this.detailAnswer({ ...detail, payments: [...detail.payments, ...entries] }),
      });
      const amount = formatMoney(input.amount_paid, invoice.currency);
      return {
        message: `Payment of ${amount} ${invoice.currency} recorded for invoice ${invoice.invoiceNo}`,
      };
    });
  }

  /** Money given back, within the cash held; a balance reopened makes the invoice Not Paid. */
  refund(input: RefundDto): Promise<RefundResponseDto> {
    return this.database.transaction(async () => {
      const detail = await this.changeableDetail(this.idOf(input.id));
      const invoice = detail.document;
      checkMinorDigits(input.amount, invoice.currency, 'amount');
      const before = this.snapshotOf(invoice);
      const entries = await this.applyLedgerMove(invoice, refund(invoice, input.amount), {
        method: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
        date: input.refund_date,
        reason: input.reason ?? '',
        creditNoteId: null,
        at: this.clock.now(),
      });
      const [entry] = entries;
      await this.events.record({
        type: 'invoice.refunded',
        object: 'invoice',
        id: invoice.id,
        before,
        after: await this.detailAnswer({ ...detail, payments: [...detail.payments, ...entries] }),
      });
      const amount = formatMoney(input.amount, invoice.currency);
      return {
        message: `Refund of ${amount} ${invoice.currency} recorded for invoice ${invoice.invoiceNo}`,
        invoice: [toListItem(invoice, this.clock.today())],
        entry: toPaymentEntry(entry, invoice.currency),
      };
    });
  }

  /**
   * Void: only while no cash is held (refund it first). The invoice keeps its number and
   * stays readable and listed; every later change but archiving answers 409.
   */
  void(id: number, input: VoidInvoiceDto): Promise<InvoiceChangeResponseDto> {
    return this.database.transaction(async () => {
      const detail = await this.changeableDetail(id);
      const invoice = detail.document;
      const cashHeld = cashHeldOf(invoice);
      if (cashHeld.gt(0)) {
        throw new DomainException(
          'INVOICE_HOLDS_CASH',
          `Invoice ${invoice.invoiceNo} holds ${formatMoney(cashHeld, invoice.currency)} ${invoice.currency} received; refund it before voiding`,
        );
      }
      const before = this.snapshotOf(invoice);
      const fields = { voidedAt: this.clock.now(), voidReason: input.reason ?? '' };
      Object.assign(invoice, fields, { updatedAt: fields.voidedAt });
      await this.invoices.markVoid(id, { ...fields, updatedAt: fields.voidedAt });
      const after = await this.detailAnswer(detail);
      await this.events.record({ type: 'invoice.voided', object: 'invoice', id, before, after });
      return {
        message: `Invoice ${invoice.invoiceNo} voided`,
        invoice: [toListItem(invoice, this.clock.today())],
      };
    });
  }

  /** `paid` / `not-paid`: the flag only; no payment is added or removed. */
  setPaymentStatus(id: number, paymentStatus: PaymentStatus) {
    return this.database.transaction(async () => {
      const detail = await this.changeableDetail(id);
      const invoice = detail.document;
      const before = this.snapshotOf(invoice);
      const fields = { paymentStatus, updatedAt: this.clock.now() };
      await this.invoices.updatePaymentStatus(id, fields);
      Object.assign(invoice, fields);
      await this.events.record({
        type: paymentStatus === 'Paid' ? 'invoice.marked_paid' : 'invoice.marked_not_paid',
        object: 'invoice',
        id,
        before,
        after: await this.detailAnswer(detail),
      });
      return { message: `Invoice ${invoice.invoiceNo} marked as ${paymentStatus.toLowerCase()}` };
    });
  }

  /**
   * Appends to the send log and queues the e-mail in the same transaction: the outbox row holds
   * the invoice as it is now, and the worker delivers it after the answer. A refused send
   * (unknown, archived or void invoice) writes neither.
   */
  send(input: SendDocumentDto) {
    return this.database.transaction(async () => {
      const invoice = await this.changeableInvoice(this.idOf(input.id));
      const before = this.snapshotOf(invoice);
      const print = await this.invoices.findLivePrint(invoice.id);
      if (!print) throw new Error(`Invoice ${invoice.id} is locked but not readable`);
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
        view: this.view(invoice, print),
      });
      await this.events.record({ type: 'invoice.sent', object: 'invoice', id: invoice.id, before });
      return { message: `Invoice ${invoice.invoiceNo} sent to ${entry.email}` };
    });
  }

  /** DELETE: the row stays, marked archived; its lines, ledger and sends stay too. */
  archive(id: number) {
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoice(id, true);
      const before = await this.events.snapshot('invoice', id);
      await this.invoices.archive(id, this.clock.now());
      await this.events.record({
        type: 'invoice.deleted',
        object: 'invoice',
        id,
        before,
        after: before,
      });
      return { message: `Invoice ${invoice.invoiceNo} deleted` };
    });
  }

  /**
   * The `before` of an event for a change to the invoice's own fields only (a payment, a
   * refund, a credit, a void, a flag, a send): taken from the locked row, with no read.
   */
  /** The issue date of an invoice, archived or not, that a credit note corrects. */
  async issueDateOf(id: number): Promise<string | null> {
    return this.database.read(() => this.invoices.issueDateOf(id));
  }

  snapshotOf(invoice: Invoice): object {
    return toRecordPart(invoice, this.clock.today());
  }

  /** The invoice as lists answer it: what a correction made by another feature answers. */
  output(invoice: Invoice): InvoiceWithTimestampsDto {
    return toListItem(invoice, this.clock.today());
  }

  /**
   * For a credit note: the live invoice an `invoice` parameter names, row-locked until the
   * transaction ends (like a payment); 422 naming `invoice` when there is none, 409 when void.
   * Only inside a transaction.
   */
  async holdForCredit(idText: string): Promise<Invoice> {
    const id = parseId(idText);
    const invoice = id === null ? null : await this.invoices.findLive(id, { forUpdate: true });
    if (!invoice) {
      throw new DomainException('UNKNOWN_INVOICE', `Invoice ${idText} does not exist`, {
        invoice: [`invoice ${idText} does not exist or is archived`],
      });
    }
    refuseIfVoid(invoice);
    return invoice;
  }

  /**
   * Appends the move's entries to the invoice's ledger and writes its sums, in the caller's
   * transaction, on an invoice read with its row lock. Answers the entries as written.
   */
  async applyLedgerMove(
    invoice: Invoice,
    move: LedgerMove,
    details: LedgerEntryDetails,
  ): Promise<InvoicePayment[]> {
    const written: InvoicePayment[] = [];
    for (const entry of move.entries) {
      written.push(
        await withFreshCode(
          () => `${REFERENCE_PREFIXES[entry.status]}-${generateShortCode()}${generateShortCode()}`,
          (reference) =>
            this.invoices.insertLedgerEntry({
              invoiceId: invoice.id,
              reference,
              status: entry.status,
              amount: entry.amount,
              method: details.method,
              paymentDate: details.date,
              reason: details.reason,
              creditNoteId: details.creditNoteId,
              createdAt: details.at,
            }),
          (error) => this.invoices.referenceTaken(error),
        ),
      );
    }
    await this.invoices.updateLedger(invoice.id, { ...move.after, updatedAt: details.at });
    Object.assign(invoice, move.after, { updatedAt: details.at });
    return written;
  }

  /** The invoice as printed, in its client's language when documents have messages in it. */
  private view(invoice: Invoice, print: InvoicePrint): DocumentView {
    const locale = documentLocale(print.clientLanguage, this.config.documentLocale);
    return toInvoiceView(invoice, print, locale, this.clock.today());
  }

  /**
   * `GET /invoice/{id}`'s answer from a detail read (or one updated in memory after a change
   * made under its lock), and one statement for the sends' delivery states when it was sent.
   */
  private async detailAnswer({
    document: invoice,
    lines,
    payments,
    sends,
  }: InvoiceDetailRecord): Promise<InvoiceReadResponseDto> {
    const deliveries = await this.delivery.deliveryStates(
      'invoice',
      sends.map((entry) => entry.id),
    );
    return toDetail(invoice, lines, payments, sends, deliveries, this.clock.today());
  }

  /** A live invoice with its lines, ledger and send log, or 404. */
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

  /** A live invoice that is not void, row-locked for the change: else 404, or 409 when void. */
  private async changeableInvoice(id: number): Promise<Invoice> {
    const invoice = await this.liveInvoice(id, true);
    refuseIfVoid(invoice);
    return invoice;
  }

  /** As `changeableInvoice`, read whole (lines, ledger, send log) in the locking statement. */
  private async changeableDetail(id: number): Promise<InvoiceDetailRecord> {
    const detail = await this.invoices.lockLiveDetail(id);
    if (!detail) throw DomainException.notFound('Invoice', String(id));
    refuseIfVoid(detail.document);
    return detail;
  }

  /** The id an `id` parameter names (digits, any length); 404 when it cannot name one. */
  private idOf(idText: string): number {
    const id = parseId(idText);
    if (id === null) throw DomainException.notFound('Invoice', idText);
    return id;
  }
}

/** A void invoice takes no change but archiving. */
function refuseIfVoid(invoice: Invoice): void {
  if (invoice.voidedAt !== null) {
    throw new DomainException('INVOICE_VOID', `Invoice ${invoice.invoiceNo} is void`);
  }
}
