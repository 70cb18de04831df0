import { Column, Entity } from 'typeorm';
import { IdColumn, InstantColumn, TextColumn } from '../../database/columns';

/** One POST of a delivery and what came back (at most 1 KiB of the answer). */
@Entity('webhook_delivery_attempts')
export class WebhookDeliveryAttempt {
  @IdColumn()
  id: number;

  @Column({ name: 'delivery_id', type: 'int', unsigned: true })
  deliveryId: number;

  @InstantColumn('attempted_at')
  attemptedAt: Date;

  /** The receiver's status; null when none came (refused, timed out, address refused). */
  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  /** An error code (`ECONNREFUSED`, `TIMEOUT`, `ADDRESS_REFUSED`), never a message. */
  @TextColumn({ length: 255 })
  error: string;

  @Column({ name: 'response_body', type: 'text' })
  responseBody: string;
}
