import { Injectable, StreamableFile } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { EinvoiceFormat } from '../common/einvoice-codes';
import { dateRange, idFilter } from '../common/list-query.dto';
import { ZERO } from '../common/money/decimal';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { Database } from '../database/database';
import { ListAnswer, listResponse } from '../database/find-list';
import { DocumentDrafts } from '../document-operations/document-drafts';
import { DocumentOperations } from '../document-operations/document-operations';
import { DocumentDraft, draftColumns } from '../documents/domain/document-draft';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { DocumentView } from '../documents/document-view';
import { toLineInput } from '../documents/documents.mapper';
import {
  dueDateOnIssue,
  refuseIfDraft,
  refuseNumberOfDraft,
  refusePaidDraft,
  refuseUnlessDraft,
} from '../documents/domain/draft-rules';
import { IssueDocumentDto } from '../documents/dto/document-input.dto';
import { EventLog } from '../events/event-log';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { NumberSeries } from '../numbering/number-series.service';
import {
  checkUpdateAgainstPayments,
  refuseArchiveOfSeriesNumber,
  refuseIfVoid,
  refuseNumberChange,
} from './domain/invoice-update';
import { PaymentStatus } from './domain/payment-status';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import {
  InvoiceListResponseDto,
  InvoiceReadResponseDto,
  InvoiceWithTimestampsDto,
  InvoiceWriteResponseDto,
} from './dto/invoice-response.dto';
import { ListInvoicesDto } from './dto/list-invoices.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { Invoice } from './entities/invoice.entity';
import { InvoiceDetailRecord } from './invoice-detail.query';
import { InvoiceLinesRepository } from './invoice-lines.repository';
import {
  toDetail,
  toInvoiceView,
  toListItem,
  toListItemFromRow,
  toRecordPart,
  toWriteResult,
} from './invoices.mapper';
import {
  CorrectedInvoice,
  InvoicePrint,
  InvoicesRepository,
  MadeInvoice,
} from './invoices.repository';

/** Fields of an invoice's own row that a draft does not decide. */
export interface InvoiceIdentity {
  /** The caller's number; left out, the invoice series gives the next one. */
  invoiceNo: string | undefined;
  /** A draft: no number until it is issued (docs/numbering.md). */
  draft: boolean;
  paymentStatus: PaymentStatus;
  /** The schedule and period a recurring invoice bills (docs/recurring.md). */
  recurring?: { scheduleId: number; period: string };
  /** BT-10; left out, the client's (the draft's `customerBuyerReference`). */
  buyerReference?: string;
  /** BT-13; left out, none. */
  orderReference?: string;
}

/** A new invoice: its id, and the answer add gives. */
export interface CreatedInvoice {
  id: number;
  response: InvoiceWriteResponseDto;
}

/**
 * The invoice as a document: list, read, PDF, add, update, send and archive. Its money moves
 * (payments, refunds, credits, void, paid / not-paid) are the ledger's (src/ledger).
 */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly database: Database,
    private readonly invoices: InvoicesRepository,
    private readonly lines: InvoiceLinesRepository,
    private readonly drafts: DocumentDrafts,
    private readonly operations: DocumentOperations,
    private readonly clock: Clock,
    private readonly events: EventLog,
    private readonly numbers: NumberSeries,
  ) {
    events.registerReader('invoice', (id) => this.get(id));
  }

  async list(query: ListInvoicesDto): Promise<ListAnswer<InvoiceListResponseDto>> {
    const today = this.clock.today();
    const filter: FindOptionsWhere<Invoice> = {
      clientId: idFilter(query.client),
      recurringInvoiceId: idFilter(query.recurring_invoice),
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
    return this.answer(await this.liveDetail(id));
  }

  /**
   * `GET /invoice/{id}`'s answer from a detail read (or one updated in memory after a change
   * made under its lock, as the ledger's moves do for their events), and one statement for the
   * sends' delivery states when it was sent.
   */
  async answer({
    document: invoice,
    lines,
    breakdown,
    payments,
    sends,
  }: InvoiceDetailRecord): Promise<InvoiceReadResponseDto> {
    const deliveries = await this.operations.deliveries('invoice', sends);
    return toDetail(invoice, lines, breakdown, payments, sends, deliveries, this.clock.today());
  }

  /**
   * The invoice as a PDF named after its number, laid out from one read of it, its lines, its
   * ledger and its client's language (and one of its credit notes' numbers when it has credits).
   */
  async pdf(id: number): Promise<StreamableFile> {
    const print = await this.database.read(() => this.invoices.findLivePrint(id));
    if (!print) throw DomainException.notFound('Invoice', String(id));
    return this.operations.pdf(this.view(print.document, print));
  }

  /** The invoice as an e-invoice in `format` (docs/einvoices.md); a draft has none yet (409). */
  async einvoice(id: number, format: EinvoiceFormat): Promise<StreamableFile> {
    const print = await this.database.read(() => this.invoices.findLivePrint(id));
    if (!print) throw DomainException.notFound('Invoice', String(id));
    refuseIfDraft('invoice', print.document, 'given as an e-invoice');
    return this.operations.einvoice(
      this.view(print.document, print),
      print.document.clientId,
      format,
    );
  }

  create(input: CreateInvoiceDto): Promise<InvoiceWriteResponseDto> {
    const isDraft = input.draft === 'True';
    if (isDraft) {
      refuseNumberOfDraft('invoice_no', input.invoice_no);
      refusePaidDraft(input.payment_status);
    }
    return this.database.transaction(async () => {
      const draft = await this.drafts.draft(input, null);
      const invoice = await this.createFromDraft(draft, {
        invoiceNo: input.invoice_no,
        paymentStatus: input.payment_status,
        draft: isDraft,
        buyerReference: input.buyer_reference,
        orderReference: input.order_reference,
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
      const invoiceNo = identity.draft
        ? ''
        : (identity.invoiceNo ?? (await this.takeNumber(draft.issueDate)));
      const invoice = await withFreshCode(
        generateShortCode,
        async (shortCode) => {
          const invoice = this.invoices.create({
            ...draftColumns(draft),
            shortCode,
            invoiceNo,
            numberFromSeries: !identity.draft && identity.invoiceNo === undefined,
            draft: identity.draft,
            recurringInvoiceId: identity.recurring?.scheduleId ?? null,
            recurringPeriod: identity.recurring?.period ?? null,
            paymentStatus: identity.paymentStatus,
            buyerReference: identity.buyerReference ?? draft.customerBuyerReference,
            orderReference: identity.orderReference ?? '',
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
      const lines = await this.lines.insert(invoice.id, draft);
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
      const draft = await this.drafts.draft(input, {
        record: invoice,
        lines: storedLines.map(toLineInput),
      });
      const hasLedgerEntries =
        draft.currency !== invoice.currency && (await this.invoices.hasLedgerEntries(id));
      checkUpdateAgainstPayments({ ...invoice, hasLedgerEntries }, draft, input);
      refuseNumberChange(invoice, input.invoice_no);
      if (invoice.draft) {
        refuseNumberOfDraft('invoice_no', input.invoice_no);
        refusePaidDraft(input.payment_status);
      }
      Object.assign(invoice, draftColumns(draft), {
        invoiceNo: input.invoice_no ?? invoice.invoiceNo,
        paymentStatus: input.payment_status,
        buyerReference: input.buyer_reference ?? invoice.buyerReference,
        orderReference: input.order_reference ?? invoice.orderReference,
        updatedAt: this.clock.now(),
      });
      await this.invoices.update(invoice);
      // Rewritten even when `items` was left out: a new currency re-rounds them.
      const lines = await this.lines.replace(id, draft);
      await this.events.record({ type: 'invoice.updated', object: 'invoice', id, before });
      return toWriteResult(invoice, lines, this.clock.today());
    });
  }

  /**
   * A draft takes its number (from the series, of the period of its issue date) and becomes an
   * ordinary invoice: issued on `issue_date` (default today), due after the same term.
   */
  issue(id: number, input: IssueDocumentDto): Promise<InvoiceReadResponseDto> {
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoice(id, true);
      refuseUnlessDraft('invoice', invoice);
      const before = await this.events.snapshot('invoice', id);
      const issueDate = input.issue_date ?? this.clock.today();
      Object.assign(invoice, {
        invoiceNo: await this.takeNumber(issueDate),
        numberFromSeries: true,
        draft: false,
        dueDate: dueDateOnIssue(invoice, issueDate),
        issueDate,
        updatedAt: this.clock.now(),
      });
      await this.invoices.update(invoice);
      await this.events.record({ type: 'invoice.issued', object: 'invoice', id, before });
      return this.answer(await this.liveDetail(id));
    });
  }

  /** The invoice series' next number for a document dated `date`, in the open transaction. */
  private takeNumber(date: string): Promise<string> {
    return this.numbers.take('invoice', date, (number) => this.invoices.numberInUse(number));
  }

  /** Sends the invoice as it is now (DocumentOperations.send); a void one or a draft answers 409. */
  send(input: SendDocumentDto): Promise<MessageResponseDto> {
    return this.operations.send('invoice', this.invoices, input, async (idText) => {
      const invoice = await this.changeableInvoice(DomainException.idOrNotFound('Invoice', idText));
      refuseIfDraft('invoice', invoice, 'sent');
      const before = toRecordPart(invoice, this.clock.today());
      const print = await this.invoices.findLivePrint(invoice.id);
      if (!print) throw new Error(`Invoice ${invoice.id} is locked but not readable`);
      return {
        id: invoice.id,
        number: invoice.invoiceNo,
        before,
        view: this.view(invoice, print),
        clientId: invoice.clientId,
      };
    });
  }

  /** DELETE: the row stays, marked archived; its lines, ledger and sends stay too. */
  archive(id: number) {
    return this.database.transaction(async () => {
      const invoice = await this.liveInvoice(id, true);
      refuseArchiveOfSeriesNumber(invoice);
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
   * The live invoices of the latest `latest` periods each schedule made (docs/recurring.md), by
   * schedule, oldest period first.
   */
  async madeBySchedules(
    scheduleIds: number[],
    latest: number,
  ): Promise<Map<number, MadeInvoice[]>> {
    const made = await this.database.read(() => this.invoices.madeBySchedules(scheduleIds, latest));
    const bySchedule = new Map<number, MadeInvoice[]>();
    for (const invoice of made) {
      const list = bySchedule.get(invoice.recurringInvoiceId) ?? [];
      list.push(invoice);
      bySchedule.set(invoice.recurringInvoiceId, list);
    }
    return bySchedule;
  }

  /** True when an add failed because its schedule had already billed the period. */
  periodBilled(error: unknown): boolean {
    return this.invoices.periodBilled(error);
  }

  /** What a credit note names of the invoice it corrects, archived or not (or null). */
  async correctedInvoiceOf(id: number): Promise<CorrectedInvoice | null> {
    return this.database.read(() => this.invoices.correctedInvoiceOf(id));
  }

  /** The invoice as printed, in its client's language when documents have messages in it. */
  private view(invoice: Invoice, print: InvoicePrint): DocumentView {
    const locale = this.operations.locale(print.clientLanguage);
    return toInvoiceView(invoice, print, locale, this.clock.today());
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
}
