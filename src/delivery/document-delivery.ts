import { Injectable } from '@nestjs/common';
import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Clock } from '../common/clock';
import { DocumentKind, DocumentView } from '../documents/pdf/document-view';
import { OutboxMessage } from './entities/outbox-message.entity';

/** One send to deliver by e-mail. */
export interface DeliveryRequest {
  kind: DocumentKind;
  documentId: number;
  sendLogEntryId: number;
  recipient: string;
  /** The document as it is now: the e-mail and its PDF show it so, whenever they go out. */
  view: DocumentView;
}

/**
 * How the documents hand a send to delivery: an outbox row written in the caller's transaction,
 * so it exists exactly when the send-log entry does. The DeliveryWorker sends it.
 */
@Injectable()
export class DocumentDelivery {
  constructor(private readonly clock: Clock) {}

  async enqueue(manager: EntityManager, request: DeliveryRequest): Promise<void> {
    const now = this.clock.now();
    await manager.insert(OutboxMessage, {
      kind: request.kind,
      documentId: request.documentId,
      sendLogId: request.sendLogEntryId,
      recipient: request.recipient,
      documentView: JSON.stringify(request.view),
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      claimedAt: null,
      sentAt: null,
      lastError: '',
      createdAt: now,
    });
  }
}

/**
 * Adds each send-log entry's delivery state (status and attempts, not the stored document) to
 * a query of the send log, in the same statement, as `<entryAlias>.delivery`.
 */
export function joinDeliveryState<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  entryAlias: string,
  kind: DocumentKind,
): SelectQueryBuilder<T> {
  return query
    .leftJoinAndMapOne(
      `${entryAlias}.delivery`,
      OutboxMessage,
      'delivery',
      `delivery.kind = :deliveryKind AND delivery.sendLogId = ${entryAlias}.id`,
      { deliveryKind: kind },
    )
    .select([entryAlias, 'delivery.id', 'delivery.status', 'delivery.attempts']);
}
