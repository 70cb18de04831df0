import { Injectable, StreamableFile } from '@nestjs/common';
import { ClientsService } from '../clients/clients.service';
import { DomainException } from '../common/domain.exception';
import { EinvoiceFormat } from '../common/einvoice-codes';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { AttachedEinvoice, DocumentDelivery } from '../delivery/document-delivery';
import { DOCUMENT_NAMES, DocumentKind } from '../document-vocabulary/document-kind';
import { DocumentLocale } from '../document-vocabulary/document-locale';
import { SendLogFields } from '../documents/document.repository';
import { DocumentView } from '../documents/document-view';
import { DeliveryRecord } from '../documents/domain/delivery-state';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { DocumentSendLogRecord } from '../documents/entities/document-columns';
import { EinvoiceProblems } from '../documents/einvoice/einvoice';
import { einvoiceXml, xmlFormatOf } from '../documents/einvoice/einvoice';
import { documentLocale } from '../documents/i18n/document-messages';
import { PDF_MEDIA_TYPE, renderDocumentPdf } from '../documents/pdf/document-pdf.renderer';
import { renderFacturxPdf } from '../documents/pdf/facturx-pdf.renderer';
import { EventLog } from '../events/event-log';
import { inlineFile } from '../http/inline-file';
import { MessageResponseDto } from '../openapi/dto/message-response.dto';

/** A document about to be sent, as its service found it (row-locked when it can change). */
export interface SendableDocument {
  id: number;
  /** The number the caller gave it (`invoice_no`, …): the answer names it. */
  number: string;
  /** The record before the send: the event's `before`. */
  before: object;
  /** The document as the e-mail and its PDF show it, whenever they go out. */
  view: DocumentView;
  /** Its client: one with an `einvoice_format` gets the e-invoice attached. */
  clientId: number;
}

/** Where a kind of document keeps its sends (its repository). */
export interface SendLog {
  insertSendLogEntry(documentId: number, fields: SendLogFields): Promise<DocumentSendLogRecord>;
}

/**
 * What the three kinds of document (invoice, estimate, credit note) do alike, written once:
 * sending, the PDF, the locale they print in, and the delivery state of their sends. Each
 * service finds and checks its own document (its lock, its 404 or 409) and hands it over.
 */
@Injectable()
export class DocumentOperations {
  constructor(
    private readonly database: Database,
    private readonly delivery: DocumentDelivery,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly clients: ClientsService,
  ) {}

  /**
   * Appends to the send log and queues the e-mail in one transaction, with the `<kind>.sent`
   * event: the outbox row holds the document as it is now, and the worker delivers it after the
   * answer. `find` runs first in that transaction; a send it refuses (unknown, archived or void
   * document) writes nothing.
   */
  send(
    kind: DocumentKind,
    sendLog: SendLog,
    input: SendDocumentDto,
    find: (idText: string) => Promise<SendableDocument>,
  ): Promise<MessageResponseDto> {
    return this.database.transaction(async () => {
      const document = await find(input.id);
      const einvoice = await this.attachedEinvoice(kind, document);
      const entry = await sendLog.insertSendLogEntry(document.id, {
        email: input.email,
        phone: input.phone ?? '',
        sentAt: this.clock.now(),
      });
      await this.delivery.enqueue({
        kind,
        documentId: document.id,
        sendLogEntryId: entry.id,
        recipient: entry.email,
        view: document.view,
        einvoice,
      });
      await this.events.record({
        type: `${kind}.sent`,
        object: kind,
        id: document.id,
        before: document.before,
      });
      const name = DOCUMENT_NAMES[kind];
      const label = name.charAt(0).toUpperCase() + name.slice(1);
      return { message: `${label} ${document.number} sent to ${entry.email}` };
    });
  }

  /** The document as a PDF named after its number, with the issuer from the COMPANY_* settings. */
  async pdf(view: DocumentView): Promise<StreamableFile> {
    const content = await renderDocumentPdf(view, this.config.company);
    return inlineFile(content, `${view.number}.pdf`, PDF_MEDIA_TYPE);
  }

  /**
   * The e-invoice a send attaches: in its client's `einvoice_format`, to its `einvoice_address`
   * as it is now; none for an estimate or a client without a format. Made once here so that a
   * document that cannot have one is refused (422) before anything is written; the worker makes
   * it again from the same view when it sends.
   */
  private async attachedEinvoice(
    kind: DocumentKind,
    document: SendableDocument,
  ): Promise<AttachedEinvoice | null> {
    if (kind === 'estimate') return null;
    const recipient = await this.clients.einvoiceRecipient(document.clientId);
    if (!recipient?.format) return null;
    const attached = { format: recipient.format as EinvoiceFormat, address: recipient.address };
    this.einvoiceXml(document.view, attached.format, attached.address);
    return attached;
  }

  /**
   * The document as an e-invoice in `format` (docs/einvoices.md): its XML, or for Factur-X the
   * PDF carrying it, named after its number. 422 naming each piece the format needs and the
   * document, its client (`clientId`) or the COMPANY_* settings lack.
   */
  async einvoice(
    view: DocumentView,
    clientId: number,
    format: EinvoiceFormat,
  ): Promise<StreamableFile> {
    const recipient = await this.clients.einvoiceRecipient(clientId);
    const xml = this.einvoiceXml(view, format, recipient?.address ?? '');
    if (format === 'facturx') {
      const pdf = await renderFacturxPdf(view, this.config.company, xml);
      return inlineFile(pdf, `${view.number}.pdf`, PDF_MEDIA_TYPE);
    }
    return inlineFile(Buffer.from(xml, 'utf8'), `${view.number}.xml`, XML_MEDIA_TYPE);
  }

  /** The XML the format carries, from the COMPANY_* settings to `buyerAddress`; or the 422. */
  private einvoiceXml(view: DocumentView, format: EinvoiceFormat, buyerAddress: string): string {
    const result = einvoiceXml(xmlFormatOf(format), view, {
      seller: this.config.company,
      buyerAddress,
    });
    if ('problems' in result) throw incomplete(view, format, result.problems);
    return result.xml;
  }

  /** The locale a document prints in: its client's language when documents have messages in it. */
  locale(clientLanguage: string): DocumentLocale {
    return documentLocale(clientLanguage, this.config.documentLocale);
  }

  /**
   * The delivery state of each of the document's sends, by send-log entry id: one statement,
   * none when it was never sent.
   */
  deliveries(
    kind: DocumentKind,
    sends: Array<{ id: number }>,
  ): Promise<Map<number, DeliveryRecord>> {
    return this.delivery.deliveryStates(
      kind,
      sends.map((entry) => entry.id),
    );
  }
}

/** What an XML e-invoice is answered as. */
export const XML_MEDIA_TYPE = 'application/xml';

function incomplete(
  view: DocumentView,
  format: EinvoiceFormat,
  problems: EinvoiceProblems,
): DomainException {
  const name = DOCUMENT_NAMES[view.kind];
  return new DomainException(
    'EINVOICE_INCOMPLETE',
    `The ${name} ${view.number} lacks what a ${format} e-invoice needs`,
    problems,
  );
}
