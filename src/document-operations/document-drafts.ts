import { Injectable } from '@nestjs/common';
import { ClientsService, DocumentClient } from '../clients/clients.service';
import { Clock } from '../common/clock';
import { parseId } from '../common/input-rules';
import { AppConfig } from '../config/app-config';
import {
  DocumentDraft,
  DocumentFields,
  DocumentInput,
  draftDocument,
  DraftDefaults,
  draftLines,
  ExistingDocument,
} from '../documents/domain/document-draft';
import { documentLocale } from '../documents/i18n/document-messages';

/**
 * Drafts an add or update of an invoice or estimate: finds its client through the clients
 * feature, then applies the pure drafting rules.
 */
@Injectable()
export class DocumentDrafts {
  constructor(
    private readonly clients: ClientsService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Holds the client with a shared row lock until the transaction ends, so it cannot be
   * archived under the document. Only inside a transaction. The default tax keeps the name it
   * was written with (`taxName`, or the existing document's): TAX_NAME when it was added.
   */
  async draft(
    input: DocumentInput,
    existing: ExistingDocument | null,
    taxName = existing?.record.taxName ?? this.config.taxName,
  ): Promise<DocumentDraft> {
    const client = await this.holdClient(input.client, existing);
    const language = documentLocale(client?.language ?? '', this.config.documentLocale);
    const items =
      client && input.items ? draftLines(input.items, { taxName, language }) : undefined;
    return draftDocument({ ...input, items }, existing, client, this.defaults(taxName));
  }

  /**
   * The same for a document copied from another (an estimate becoming an invoice): its lines as
   * stored, and its default tax's name.
   */
  async copy(fields: DocumentFields, taxName: string): Promise<DocumentDraft> {
    const client = await this.holdClient(fields.client, null);
    return draftDocument(fields, null, client, this.defaults(taxName));
  }

  private defaults(taxName: string): DraftDefaults {
    return { currency: this.config.defaultCurrency, today: this.clock.today(), taxName };
  }

  /**
   * The client the input names, held with a shared row lock until the transaction ends, so it
   * cannot be archived under the document; null when it names none that may be used.
   */
  private async holdClient(
    clientText: string,
    existing: ExistingDocument | null,
  ): Promise<DocumentClient | null> {
    const clientId = parseId(clientText);
    // A document may stay with its client after the client is archived; moving a document to
    // a client, or creating one, needs a live client.
    return clientId === null
      ? null
      : this.clients.holdForDocument(clientId, {
          allowArchived: existing?.record.clientId === clientId,
        });
  }
}
