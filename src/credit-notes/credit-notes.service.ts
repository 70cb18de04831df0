import { Injectable, StreamableFile } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { ClientsService } from '../clients/clients.service';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { EinvoiceFormat } from '../common/einvoice-codes';
import { parseId } from '../common/input-rules';
import { dateRange, idFilter } from '../common/list-query.dto';
import { Decimal } from '../common/money/decimal';
import { generateShortCode, withFreshCode } from '../common/short-code';
import { Database } from '../database/database';
import { DocumentOperations } from '../document-operations/document-operations';
import { NumberSeries } from '../numbering/number-series.service';
import { EventLog } from '../events/event-log';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';
import { ListAnswer, listResponse } from '../database/find-list';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { DocumentView, toDocumentView } from '../documents/document-view';
import { WrittenLines } from '../documents/document-lines.repository';
import { draftLines } from '../documents/domain/document-draft';
import { InvoicesService } from '../invoices/invoices.service';
import { LedgerService } from '../ledger/ledger.service';
import { CreditNoteDetailRecord, CreditNotePrintRecord } from './credit-note-detail.query';
import { CreditNoteLinesRepository } from './credit-note-lines.repository';
import { toDetail, toListItem, toWriteResult } from './credit-notes.mapper';
import { CreditNotesRepository } from './credit-notes.repository';
import { CreditNoteDraft, draftCreditNote } from './domain/credit-note-draft';
import { CreateCreditNoteDto } from './dto/create-credit-note.dto';
import {
  CreditNoteListResponseDto,
  CreditNoteReadResponseDto,
  CreditNoteWriteResponseDto,
} from './dto/credit-note-response.dto';
import { ListCreditNotesDto } from './dto/list-credit-notes.dto';
import { CreditNoteLineItem } from './entities/credit-note-line-item.entity';
import { CreditNote } from './entities/credit-note.entity';

@Injectable()
export class CreditNotesService {
  constructor(
    private readonly database: Database,
    private readonly creditNotes: CreditNotesRepository,
    private readonly lines: CreditNoteLinesRepository,
    private readonly invoices: InvoicesService,
    private readonly ledger: LedgerService,
    private readonly clients: ClientsService,
    private readonly operations: DocumentOperations,
    private readonly clock: Clock,
    private readonly events: EventLog,
    private readonly numbers: NumberSeries,
  ) {
    events.registerReader('credit_note', (id) => this.get(id));
  }

  async list(query: ListCreditNotesDto): Promise<ListAnswer<CreditNoteListResponseDto>> {
    const filter: FindOptionsWhere<CreditNote> = {
      invoiceId: idFilter(query.invoice),
      clientId: idFilter(query.client),
      issueDate: dateRange(query.from, query.to),
    };
    return listResponse(await this.creditNotes.list(filter, query), toListItem);
  }

  async get(id: number): Promise<CreditNoteReadResponseDto> {
    const { document: creditNote, lines, breakdown, sends } = await this.detail(id);
    const deliveries = await this.operations.deliveries('credit_note', sends);
    return toDetail(creditNote, lines, breakdown, sends, deliveries);
  }

  /** The credit note as a PDF: one read of it, its lines and its client's language. */
  async pdf(id: number): Promise<StreamableFile> {
    const print = await this.database.read(() => this.creditNotes.findPrint(id));
    if (!print) throw DomainException.notFound('Credit note', String(id));
    return this.operations.pdf(await this.view(print));
  }

  /** The credit note as an e-invoice in `format` (docs/einvoices.md). */
  async einvoice(id: number, format: EinvoiceFormat): Promise<StreamableFile> {
    const print = await this.database.read(() => this.creditNotes.findPrint(id));
    if (!print) throw DomainException.notFound('Credit note', String(id));
    return this.operations.einvoice(await this.view(print), print.document.clientId, format);
  }

  /**
   * Issues a credit note and settles the invoice with it, in the ledger's one transaction: the
   * invoice's row lock serialises it with payments, refunds and other credit notes on that
   * invoice, so each sees the ledger the previous one left. With `refund`, the part above the
   * outstanding balance is refunded first.
   */
  async create(input: CreateCreditNoteDto): Promise<CreditNoteWriteResponseDto> {
    const { issued, invoice } = await this.ledger.credit(input.invoice, {
      refund: input.refund === 'True',
      draft: async (invoice) => {
        const client = await this.clients.holdForDocument(invoice.clientId, {
          allowArchived: true,
        });
        if (!client) throw new Error(`Invoice ${invoice.id} names no client`);
        const items = draftLines(input.items, {
          taxName: invoice.taxName,
          language: this.operations.locale(client.language),
        });
        return draftCreditNote({ ...input, items }, invoice, client, this.clock.today());
      },
      write: (draft, refunded) => this.write(draft, input.credit_note_no, refunded),
    });
    return toWriteResult(issued.creditNote, issued.written, invoice);
  }

  /**
   * Sends the credit note (DocumentOperations.send). A credit note never changes, so nothing
   * needs its row held.
   */
  send(input: SendDocumentDto): Promise<MessageResponseDto> {
    return this.operations.send('credit_note', this.creditNotes, input, async (idText) => {
      const id = parseId(idText);
      const print = id === null ? null : await this.creditNotes.findPrint(id);
      if (!print) throw DomainException.notFound('Credit note', idText);
      const creditNote = print.document;
      const before = await this.events.snapshot('credit_note', creditNote.id);
      return {
        id: creditNote.id,
        number: creditNote.creditNoteNo,
        before,
        view: await this.view(print),
        clientId: creditNote.clientId,
      };
    });
  }

  /** Writes the credit note and its lines, and its `credit_note.created` event. */
  private async write(
    draft: CreditNoteDraft,
    givenNumber: string | undefined,
    refunded: Decimal,
  ): Promise<{ creditNote: CreditNote; written: WrittenLines<CreditNoteLineItem> }> {
    const now = this.clock.now();
    const creditNoteNo =
      givenNumber ??
      (await this.numbers.take('credit_note', draft.issueDate, (number) =>
        this.creditNotes.numberInUse(number),
      ));
    const creditNote = await withFreshCode(
      generateShortCode,
      async (shortCode) => {
        const { lines: _lines, breakdown: _breakdown, ...columns } = draft;
        const creditNote = this.creditNotes.create({
          ...columns,
          shortCode,
          creditNoteNo,
          refunded,
          createdAt: now,
        });
        await this.creditNotes.insert(creditNote);
        return creditNote;
      },
      (error) => this.creditNotes.shortCodeTaken(error),
    );
    const written = await this.lines.insert(creditNote.id, draft);
    await this.events.record({
      type: 'credit_note.created',
      object: 'credit_note',
      id: creditNote.id,
      before: null,
    });
    return { creditNote, written };
  }

  /**
   * The credit note as printed, titled Credit note, naming the invoice it corrects and its
   * date (asked of invoices: one read), and what it refunded, in its client's language when
   * documents have messages in it.
   */
  private async view(print: CreditNotePrintRecord): Promise<DocumentView> {
    const creditNote = print.document;
    const corrected = await this.invoices.correctedInvoiceOf(creditNote.invoiceId);
    return toDocumentView('credit_note', creditNote.creditNoteNo, creditNote, print.lines, {
      locale: this.operations.locale(print.clientLanguage),
      breakdown: print.breakdown,
      corrects: creditNote.invoiceNo,
      // The buyer's references of the invoice it corrects: the buyer books it against them.
      ...(corrected === null
        ? {}
        : {
            correctsDate: corrected.issueDate,
            ...(corrected.buyerReference ? { buyerReference: corrected.buyerReference } : {}),
            ...(corrected.orderReference ? { orderReference: corrected.orderReference } : {}),
          }),
      reason: creditNote.reason,
      refunded: creditNote.refunded,
    });
  }

  private async detail(id: number): Promise<CreditNoteDetailRecord> {
    const detail = await this.database.read(() => this.creditNotes.findDetail(id));
    if (!detail) throw DomainException.notFound('Credit note', String(id));
    return detail;
  }
}
