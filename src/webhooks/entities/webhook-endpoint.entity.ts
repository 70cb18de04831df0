import { Column, Entity } from 'typeorm';
import {
  ArchivedAtColumn,
  IdColumn,
  InstantColumn,
  TextColumn,
  TimestampColumn,
} from '../../database/columns';

/** Where events are POSTed, and which. */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @IdColumn()
  id: number;

  @TextColumn({ length: 2048 })
  url: string;

  @TextColumn({ length: 1000 })
  description: string;

  /** JSON array of the event types subscribed to, or `["*"]`. */
  @Column({ type: 'text' })
  events: string;

  /** `whsec_` + base64: needed to sign, so kept as it is; never logged, shown twice. */
  @TextColumn({ length: 128 })
  secret: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  /** Why the service switched it off; '' when enabled or switched off through the API. */
  @TextColumn({ name: 'disabled_reason', length: 255 })
  disabledReason: string;

  /** The first failed attempt since the last success; null while deliveries succeed. */
  @InstantColumn('failing_since', { nullable: true })
  failingSince: Date | null;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('updated_at')
  updatedAt: Date;

  @ArchivedAtColumn()
  deletedAt: Date | null;
}
