import { Column, Entity } from 'typeorm';
import { IdColumn, InstantColumn, TextColumn, TimestampColumn } from '../../database/columns';

/**
 * `sending`: claimed, under a lease. `paused`: its endpoint is switched off (it resumes when
 * switched on). `failed`: the retries are spent, or the endpoint was deleted.
 */
export type WebhookDeliveryStatus = 'queued' | 'sending' | 'delivered' | 'failed' | 'paused';

export const WEBHOOK_DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = [
  'queued',
  'sending',
  'delivered',
  'failed',
  'paused',
];

/** One event to POST to one endpoint: made with the event, in its transaction. */
@Entity('webhook_deliveries')
export class WebhookDelivery {
  @IdColumn()
  id: number;

  @Column({ name: 'event_id', type: 'int', unsigned: true })
  eventId: number;

  @Column({ name: 'endpoint_id', type: 'int', unsigned: true })
  endpointId: number;

  @TextColumn({ length: 10 })
  status: WebhookDeliveryStatus;

  @Column({ type: 'int' })
  attempts: number;

  @InstantColumn('next_attempt_at', { nullable: true })
  nextAttemptAt: Date | null;

  @InstantColumn('claimed_at', { nullable: true })
  claimedAt: Date | null;

  @Column({ name: 'delivered_at', type: 'datetime', nullable: true })
  deliveredAt: Date | null;

  @TextColumn({ name: 'last_error', length: 255 })
  lastError: string;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode: number | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}
