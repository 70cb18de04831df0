import { Injectable, StreamableFile } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { Database } from '../database/database';
import { NumberSeries } from '../numbering/number-series.service';
import {
  dueDateOnIssue,
  refuseIfDraft,
  refuseNumberOfDraft,
  refuseUnlessDraft,
} from '../documents/domain/draft-rules';
import { IssueDocumentDto } from '../documents/dto/document-input.dto';
import { EventLog } from '../events/event-log';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { ListAnswer, listResponse } from '../database/find-list';
import { DocumentDrafts } from '../document-operations/document-drafts';
import { DocumentOperations } from '../document-operations/document-operations';
import { draftColumns } from '../documents/domain/document-draft';
import { idFilter } from '../common/list-query.dto';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { DocumentView, toDocumentView } from '../documents/document-view';
import { copiedTerms, toLineInput } from '../documents/documents.mapper';
import { InvoiceWriteResponseDto } from '../invoices/dto/invoice-response.dto';
import { InvoicesService } from '../invoices/invoices.service';
import { ConvertEstimateDto } from './dto/convert-estimate.dto';
import { CreateEstimateDto } from './dto/create-estimate.dto';
import {
  EstimateListResponseDto,
  EstimateReadResponseDto,
  EstimateWriteResponseDto,
} from './dto/estimate-response.dto';
import { ListEstimatesDto } from './dto/list-estimates.dto';
import { UpdateEstimateDto } from './dto/update-estimate.dto';
import { Estimate } from './entities/estimate.entity';
import { EstimateDetailRecord, EstimatePrintRecord } from './estimate-detail.query';
import { EstimateLinesRepository } from './estimate-lines.repository';
import { toClientListItem, toDetail, toListItem, toWriteResult } from './estimates.mapper';
import { EstimatesRepository } from './estimates.repository';

@Injectable()
export class EstimatesService {
  constructor(
    private readonly database: Database,
    private readonly estimates: EstimatesRepository,
    private readonly lines: EstimateLinesRepository,
    private readonly drafts: DocumentDrafts,
    private readonly operations: DocumentOperations,
    private readonly invoices: InvoicesService,
    private readonly clock: Clock,
    private readonly events: EventLog,
    private readonly numbers: NumberSeries,
  ) {
    events.registerReader('estimate', (id) => this.get(id));
  }

  async list(query: ListEstimatesDto): Promise<ListAnswer<EstimateListResponseDto>> {
    const filter: FindOptionsWhere<Estimate> = {
      clientId: idFilter(query.client),
      accepted: query.accepted === undefined ? undefined : query.accepted === 'True',
    };
    return listResponse(await this.estimates.list(filter, query), toListItem);
  }

  /** The client's live estimates, for `GET /client/{id}`: one query. */
  async listForClient(clientId: number) {
    const estimates = await this.estimates.listAll({ clientId });
    return estimates.map(toClientListItem);
  }

  /**
   * One statement whatever the estimate holds (the estimate, its lines and sends), and one more
   * for the sends' delivery states when it has been sent.
   */
  async get(id: number): Promise<EstimateReadResponseDto> {
    const { document: estimate, lines, breakdown, sends } = await this.liveDetail(id);
    const deliveries = await this.operations.deliveries('estimate', sends);
    return toDetail(estimate, lines, breakdown, sends, deliveries);
  }

  /**
   * The estimate as a PDF named after its number, laid out from one read of it, its lines and
   * its client's language.
   */
  async pdf(id: number): Promise<StreamableFile> {
    const print = await this.database.read(() => this.estimates.findLivePrint(id));
    if (!print) throw DomainException.notFound('Estimate', String(id));
    return this.operations.pdf(this.view(print.document, print));
  }

  create(input: CreateEstimateDto): Promise<EstimateWriteResponseDto> {
    const isDraft = input.draft === 'True';
    if (isDraft) refuseNumberOfDraft('estimate_no', input.estimate_no);
    return this.database.transaction(async () => {
      const draft = await this.drafts.draft(input, null);
      const now = this.clock.now();
      const estimateNo = isDraft
        ? ''
        : (input.estimate_no ?? (await this.takeNumber(draft.issueDate)));
      const estimate = await withFreshCode(
        generateShortCode,
        async (shortCode) => {
          const estimate = this.estimates.create({
            ...draftColumns(draft),
            shortCode,
            estimateNo,
            draft: isDraft,
            accepted: input.accepted === 'True',
            convertedInvoiceId: null,
            createdAt: now,
            updatedAt: now,
            deletedAt: null,
          });
          await this.estimates.insert(estimate);
          return estimate;
        },
        (error) => this.estimates.shortCodeTaken(error),
      );
      const lines = await this.lines.insert(estimate.id, draft);
      await this.events.record({
        type: 'estimate.created',
        object: 'estimate',
        id: estimate.id,
        before: null,
      });
      return toWriteResult(estimate, lines);
    });
  }

  update(id: number, input: UpdateEstimateDto): Promise<EstimateWriteResponseDto> {
    return this.database.transaction(async () => {
      const estimate = await this.liveEstimate(id, true);
      const before = await this.events.snapshot('estimate', id);
      const storedLines = await this.lines.read(id);
      const draft = await this.drafts.draft(input, {
        record: estimate,
        lines: storedLines.map(toLineInput),
      });
      if (estimate.draft) refuseNumberOfDraft('estimate_no', input.estimate_no);
      Object.assign(estimate, draftColumns(draft), {
        estimateNo: input.estimate_no ?? estimate.estimateNo,
        updatedAt: this.clock.now(),
      });
      if (input.accepted !== undefined) estimate.accepted = input.accepted === 'True';
      await this.estimates.update(estimate);
      // Rewritten even when `items` was left out: a new currency re-rounds them.
      const lines = await this.lines.replace(id, draft);
      await this.events.record({ type: 'estimate.updated', object: 'estimate', id, before });
      return toWriteResult(estimate, lines);
    });
  }

  /**
   * Beyond the specification: the estimate becomes an invoice (same client, lines, currency,
   * tax, description and note; Not Paid) and is marked accepted, in one transaction that the
   * invoices feature's write joins. The estimate's row lock makes a concurrent second
   * conversion wait, then find it converted: 409.
   */
  convert(id: number, input: ConvertEstimateDto): Promise<InvoiceWriteResponseDto> {
    return this.database.transaction(async () => {
      const estimate = await this.liveEstimate(id, true);
      refuseIfDraft('estimate', estimate, 'converted');
      if (estimate.convertedInvoiceId !== null) {
        throw new DomainException(
          'ESTIMATE_ALREADY_CONVERTED',
          `Estimate ${estimate.estimateNo} was already converted to invoice ${estimate.convertedInvoiceId}`,
        );
      }
      const before = await this.events.snapshot('estimate', id);
      const lines = await this.lines.read(id);
      const draft = await this.drafts.copy(
        {
          client: String(estimate.clientId),
          description: estimate.description,
          currency: estimate.currency,
          tax_rate: estimate.taxRate,
          ...copiedTerms(estimate),
          issue_date: input.issue_date,
          due_date: input.due_date,
          note: estimate.note,
          items: lines.map(toLineInput),
        },
        estimate.taxName,
      );
      const invoice = await this.invoices.createFromDraft(draft, {
        invoiceNo: input.invoice_no,
        paymentStatus: 'Not Paid',
        draft: false,
      });
      await this.estimates.markConverted(id, invoice.id, this.clock.now());
      await this.events.record({ type: 'estimate.converted', object: 'estimate', id, before });
      return invoice.response;
    });
  }

  /**
   * A draft takes its number (from the series, of the period of its issue date): issued on
   * `issue_date` (default today), valid for the same term.
   */
  issue(id: number, input: IssueDocumentDto): Promise<EstimateReadResponseDto> {
    return this.database.transaction(async () => {
      const estimate = await this.liveEstimate(id, true);
      refuseUnlessDraft('estimate', estimate);
      const before = await this.events.snapshot('estimate', id);
      const issueDate = input.issue_date ?? this.clock.today();
      Object.assign(estimate, {
        estimateNo: await this.takeNumber(issueDate),
        draft: false,
        dueDate: dueDateOnIssue(estimate, issueDate),
        issueDate,
        updatedAt: this.clock.now(),
      });
      await this.estimates.update(estimate);
      await this.events.record({ type: 'estimate.issued', object: 'estimate', id, before });
      return this.get(id);
    });
  }

  /** The estimate series' next number for a document dated `date`, in the open transaction. */
  private takeNumber(date: string): Promise<string> {
    return this.numbers.take('estimate', date, (number) => this.estimates.numberInUse(number));
  }

  /** Sends the estimate as it is now (DocumentOperations.send); a draft answers 409. */
  send(input: SendDocumentDto): Promise<MessageResponseDto> {
    return this.operations.send('estimate', this.estimates, input, async (idText) => {
      const estimate = await this.liveEstimateNamed(idText, true);
      refuseIfDraft('estimate', estimate, 'sent');
      const before = await this.events.snapshot('estimate', estimate.id);
      const print = await this.estimates.findLivePrint(estimate.id);
      if (!print) throw new Error(`Estimate ${estimate.id} is locked but not readable`);
      return {
        id: estimate.id,
        number: estimate.estimateNo,
        before,
        view: this.view(estimate, print),
        clientId: estimate.clientId,
      };
    });
  }

  /** DELETE: the row stays, marked archived; its lines and sends stay too. */
  archive(id: number) {
    return this.database.transaction(async () => {
      const estimate = await this.liveEstimate(id, true);
      const before = await this.events.snapshot('estimate', id);
      await this.estimates.archive(id, this.clock.now());
      await this.events.record({
        type: 'estimate.deleted',
        object: 'estimate',
        id,
        before,
        after: before,
      });
      return { id: String(estimate.id) };
    });
  }

  /** The estimate as printed, in its client's language when documents have messages in it. */
  private view(estimate: Estimate, print: EstimatePrintRecord): DocumentView {
    return toDocumentView('estimate', estimate.estimateNo, estimate, print.lines, {
      locale: this.operations.locale(print.clientLanguage),
      breakdown: print.breakdown,
      ...(estimate.draft ? { mark: 'draft' as const } : {}),
    });
  }

  /** A live estimate with its lines and send log, or 404. */
  private async liveDetail(id: number): Promise<EstimateDetailRecord> {
    const detail = await this.database.read(() => this.estimates.findLiveDetail(id));
    if (!detail) throw DomainException.notFound('Estimate', String(id));
    return detail;
  }

  /** A live estimate, or 404; `forUpdate` holds its row until the transaction ends. */
  private async liveEstimate(id: number, forUpdate = false): Promise<Estimate> {
    const estimate = await this.estimates.findLive(id, { forUpdate });
    if (!estimate) throw DomainException.notFound('Estimate', String(id));
    return estimate;
  }

  /** The live estimate an `id` parameter names (digits, any length), or 404. */
  private async liveEstimateNamed(idText: string, forUpdate = false): Promise<Estimate> {
    return this.liveEstimate(DomainException.idOrNotFound('Estimate', idText), forUpdate);
  }
}
