import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Clock } from '../common/clock';
import { Database } from '../database/database';
import { EinvoiceFormat } from '../common/einvoice-codes';
import { DocumentKind } from '../document-vocabulary/document-kind';
import { DocumentView } from '../documents/document-view';
import { DeliveryRecord } from '../documents/domain/delivery-state';
import { OutboxMessage } from './entities/outbox-message.entity';

/** One send to deliver by e-mail. */
export interface DeliveryRequest {
  kind: DocumentKind;
  documentId: number;
  sendLogEntryId: number;
  recipient: string;
  /** The document as it is now: the e-mail and its PDF show it so, whenever they go out. */
  view: DocumentView;
  /** The e-invoice attached, for a client with an `einvoice_format`; null for none. */
  einvoice: AttachedEinvoice | null;
}

/** An e-invoice a send carries: its format, and where the client receives e-invoices. */
export interface AttachedEinvoice {
  format: EinvoiceFormat;
  /** The client's `einvoice_address` when the document was sent ('' for none). */
  address: string;
}

/**
 * How the documents hand a send to delivery: an outbox row written in the caller's transaction,
 * so it exists exactly when the send-log entry does. The DeliveryWorker sends it.
 */
@Injectable()
export class DocumentDelivery {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  /** Joins the open transaction: call it in the one that writes the send-log entry. */
  async enqueue(request: DeliveryRequest): Promise<void> {
    const now = this.clock.now();
    await this.database.manager.insert(OutboxMessage, {
      kind: request.kind,
      documentId: request.documentId,
      sendLogId: request.sendLogEntryId,
      recipient: request.recipient,
      documentView: JSON.stringify(request.view),
      einvoiceFormat: request.einvoice?.format ?? '',
      einvoiceAddress: request.einvoice?.address ?? '',
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      claimedAt: null,
      sentAt: null,
      lastError: '',
      createdAt: now,
    });
  }

  /**
   * The delivery state (status and attempts, not the stored document) of each of these sends,
   * by send-log entry id: one query, none when there are no sends. A send recorded before the
   * outbox existed has no entry in the map.
   */
  async deliveryStates(
    kind: DocumentKind,
    sendLogIds: number[],
  ): Promise<Map<number, DeliveryRecord>> {
    if (sendLogIds.length === 0) return new Map();
    const messages = await this.database.manager.find(OutboxMessage, {
      select: { id: true, sendLogId: true, status: true, attempts: true },
      where: { kind, sendLogId: In(sendLogIds) },
    });
    return new Map(
      messages.map((message) => [
        message.sendLogId,
        { status: message.status, attempts: message.attempts },
      ]),
    );
  }
}
