import { Injectable, StreamableFile } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { generateShortCode } from '../common/short-code';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { DocumentDelivery } from '../delivery/document-delivery';
import { applyDraft, draftDocument } from '../documents/document-draft';
import { DocumentKind, DocumentStore } from '../documents/document-store';
import { clientIdFilter } from '../documents/dto/list-documents.dto';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { PDF_MEDIA_TYPE, renderDocumentPdf } from '../documents/pdf/document-pdf.renderer';
import { toDocumentView } from '../documents/pdf/document-view';
import { inlineFile } from '../http/inline-file';
import { InvoicesService } from '../invoices/invoices.service';
import { ConvertEstimateDto } from './dto/convert-estimate.dto';
import { CreateEstimateDto } from './dto/create-estimate.dto';
import { ListEstimatesDto } from './dto/list-estimates.dto';
import { UpdateEstimateDto } from './dto/update-estimate.dto';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';
import { toClientListItem, toDetail, toListItem, toWriteResult } from './estimates.mapper';

const ESTIMATE_KIND: DocumentKind<Estimate, EstimateLineItem, EstimateSendLogEntry> = {
  name: 'estimate',
  document: Estimate,
  lineItem: EstimateLineItem,
  sendLogEntry: EstimateSendLogEntry,
  parentKey: 'estimateId',
  numberKey: 'estimateNo',
  numberParam: 'estimate_no',
  numberIndex: ['uq_estimates_live_estimate_no', 'estimates.estimate_no'],
  duplicateNumberCode: 'DUPLICATE_ESTIMATE_NO',
};

@Injectable()
export class EstimatesService {
  private readonly store: DocumentStore<Estimate, EstimateLineItem, EstimateSendLogEntry>;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly invoices: InvoicesService,
    delivery: DocumentDelivery,
  ) {
    this.store = new DocumentStore(ESTIMATE_KIND, database, clock, delivery);
  }

  list(query: ListEstimatesDto) {
    const filter: FindOptionsWhere<Estimate> = {
      clientId: clientIdFilter(query.client),
      accepted: query.accepted === undefined ? undefined : query.accepted === 'True',
    };
    return this.database.read(async (manager) => {
      const { rows, meta } = await this.store.listLive(manager, filter, query);
      return { data: rows.map(toListItem), ...(meta && { meta }) };
    });
  }

  /** The client's live estimates, for `GET /client/{id}`: one query. */
  listForClient(clientId: number) {
    return this.database.read(async (manager) => {
      const { rows } = await this.store.listLive(manager, { clientId });
      return rows.map(toClientListItem);
    });
  }

  /** Three queries whatever the estimate holds: the estimate, its lines, its sends. */
  get(id: number) {
    return this.database.read(async (manager) => {
      const estimate = await this.store.findLive(manager, id);
      const lines = await this.store.lines(manager, id);
      const sends = await this.store.sendLog(manager, id);
      return toDetail(estimate, lines, sends);
    });
  }

  /**
   * The estimate as a PDF named after its number: the estimate and its lines in one read, laid
   * out once the read is over.
   */
  async pdf(id: number): Promise<StreamableFile> {
    const view = await this.database.read(async (manager) => {
      const estimate = await this.store.findLive(manager, id);
      const lines = await this.store.lines(manager, id);
      return toDocumentView('estimate', estimate.estimateNo, estimate, lines);
    });
    const content = await renderDocumentPdf(view, this.config.company);
    return inlineFile(content, `${view.number}.pdf`, PDF_MEDIA_TYPE);
  }

  create(input: CreateEstimateDto) {
    return this.database.transaction(async (manager) => {
      const draft = await draftDocument(manager, input, null, this.draftDefaults());
      const now = this.clock.now();
      const estimate = manager.create(Estimate, {
        shortCode: generateShortCode(),
        estimateNo: input.estimate_no,
        accepted: input.accepted === 'True',
        convertedInvoiceId: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      applyDraft(estimate, draft);
      await this.store.insert(manager, estimate);
      const lines = await this.store.insertLines(manager, estimate.id, draft.lines);
      return toWriteResult(estimate, lines);
    });
  }

  update(id: number, input: UpdateEstimateDto) {
    return this.database.transaction(async (manager) => {
      const estimate = await this.store.findLive(manager, id, true);
      const storedLines = await this.store.lines(manager, id);
      const existing = { record: estimate, lines: storedLines };
      const draft = await draftDocument(manager, input, existing, this.draftDefaults());
      applyDraft(estimate, draft);
      estimate.estimateNo = input.estimate_no;
      if (input.accepted !== undefined) estimate.accepted = input.accepted === 'True';
      estimate.updatedAt = this.clock.now();
      await this.store.update(manager, estimate);
      const lines = await this.store.replaceLines(manager, id, draft.lines);
      return toWriteResult(estimate, lines);
    });
  }

  /**
   * Beyond the specification: the estimate becomes an invoice (same client, lines, currency,
   * tax, description and note; Not Paid) and is marked accepted. The estimate's row lock makes
   * a concurrent second conversion wait, then find it converted: 409.
   */
  convert(id: number, input: ConvertEstimateDto) {
    return this.database.transaction(async (manager) => {
      const estimate = await this.store.findLive(manager, id, true);
      if (estimate.convertedInvoiceId !== null) {
        throw new DomainException(
          'ESTIMATE_ALREADY_CONVERTED',
          `Estimate ${estimate.estimateNo} was already converted to invoice ${estimate.convertedInvoiceId}`,
        );
      }
      const lines = await this.store.lines(manager, id);
      const draft = await draftDocument(
        manager,
        {
          client: String(estimate.clientId),
          description: estimate.description,
          currency: estimate.currency,
          tax_rate: estimate.taxRate,
          issue_date: input.issue_date,
          due_date: input.due_date,
          note: estimate.note,
          items: lines,
        },
        null,
        this.draftDefaults(),
      );
      const invoice = await this.invoices.insertInvoice(manager, draft, {
        invoiceNo: input.invoice_no,
        paymentStatus: 'Not Paid',
      });
      await manager.update(Estimate, id, {
        accepted: true,
        convertedInvoiceId: parseInt(invoice.invoice[0].id, 10),
        updatedAt: this.clock.now(),
      });
      return invoice;
    });
  }

  async send(input: SendDocumentDto) {
    const { document, entry } = await this.store.send(input);
    return { message: `Estimate ${document.estimateNo} sent to ${entry.email}` };
  }

  async archive(id: number) {
    const estimate = await this.store.archive(id);
    return { id: String(estimate.id) };
  }

  private draftDefaults() {
    return {
      currency: this.config.defaultCurrency,
      today: this.clock.today(),
      clientLock: this.database.lockForShare,
    };
  }
}
