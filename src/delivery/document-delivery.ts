import { Injectable, Logger } from '@nestjs/common';

export interface DeliveryRequest {
  kind: 'invoice' | 'estimate';
  documentId: number;
  sendLogEntryId: number;
  email: string;
}

/**
 * The one place that sends documents. A send is recorded in the send log first; delivering
 * the e-mail (with its PDF) is a separate issue, and until it lands this only notes the request.
 */
@Injectable()
export class DocumentDelivery {
  private readonly logger = new Logger(DocumentDelivery.name);

  queue(request: DeliveryRequest): void {
    this.logger.debug(`Queued ${request.kind} ${request.documentId} for ${request.email}`);
  }
}
