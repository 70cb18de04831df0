import { Injectable } from '@nestjs/common';
import { ClientsService } from '../clients/clients.service';
import { Clock } from '../common/clock';
import { parseId } from '../common/input-rules';
import { AppConfig } from '../config/app-config';
import {
  DocumentDraft,
  DocumentFields,
  draftDocument,
  ExistingDocument,
} from '../documents/domain/document-draft';

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
   * archived under the document. Only inside a transaction.
   */
  async draft(input: DocumentFields, existing: ExistingDocument | null): Promise<DocumentDraft> {
    const clientId = parseId(input.client);
    // A document may stay with its client after the client is archived; moving a document to
    // a client, or creating one, needs a live client.
    const client =
      clientId === null
        ? null
        : await this.clients.holdForDocument(clientId, {
            allowArchived: existing?.record.clientId === clientId,
          });
    return draftDocument(input, existing, client, {
      currency: this.config.defaultCurrency,
      today: this.clock.today(),
    });
  }
}
