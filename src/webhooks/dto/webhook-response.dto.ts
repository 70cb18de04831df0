import { ApiProperty } from '@nestjs/swagger';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import {
  EnumProperty,
  IdProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';
import { WEBHOOK_DELIVERY_STATUSES } from '../entities/webhook-delivery.entity';

/** An endpoint, in every output; never its secret. */
export class WebhookDto {
  @IdProperty()
  id: string;

  @TextProperty('Where events are POSTed')
  url: string;

  @ApiProperty({ type: [String], description: 'The event types it receives, or ["*"]' })
  events: string[];

  @TextProperty('What it is for; may be empty')
  description: string;

  @ApiProperty({ type: 'boolean', description: 'Whether deliveries are made to it' })
  enabled: boolean;

  @TextProperty(
    'Why the service switched it off (it had failed for WEBHOOK_DISABLE_AFTER_MS); empty otherwise',
  )
  disabled_reason: string;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty()
  updated_at: string;
}

/** An endpoint with its secret: only from add and rotate-secret, and not in their replays. */
export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({
    type: 'string',
    required: false,
    pattern: '^whsec_[A-Za-z0-9+/=]+$',
    description:
      'The signing secret, whsec_ + base64 of 32 random bytes: shown only here; keep it, it cannot be read again (rotate it to get a new one). Absent from a replay of the request with its Idempotency-Key',
  })
  secret?: string;
}

/** `POST /webhook/add`, `POST /webhook/{id}/rotate-secret`. */
export class WebhookSecretResponseDto {
  @ApiProperty({ type: [WebhookWithSecretDto], description: 'The one endpoint' })
  webhook: WebhookWithSecretDto[];
}

/** `GET /webhook/{id}`, `PUT /webhook/{id}`. */
export class WebhookResponseDto {
  @ApiProperty({ type: [WebhookDto], description: 'The one endpoint' })
  webhook: WebhookDto[];
}

/** `GET /webhook/all`. */
export class WebhookListResponseDto {
  @ApiProperty({ type: [WebhookDto], description: 'Live endpoints, oldest first' })
  data: WebhookDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** One POST of a delivery. */
export class WebhookAttemptDto {
  @TimestampProperty()
  attempted_at: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The receiver’s status; null when none came',
  })
  status_code: number | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  duration_ms: number;

  @TextProperty(
    'Why no answer came: an error code (TIMEOUT, ECONNREFUSED, ADDRESS_REFUSED, …); empty when one came',
  )
  error: string;

  @TextProperty('The first 1 KiB of the answer')
  response_body: string;
}

/** One event's delivery to one endpoint. */
export class WebhookDeliveryDto {
  @IdProperty()
  id: string;

  @IdProperty('The event delivered: its id is the webhook-id header of every attempt')
  event_id: string;

  @TextProperty('The event’s type')
  event_type: string;

  @EnumProperty(
    WEBHOOK_DELIVERY_STATUSES,
    'queued (waiting for its next attempt), sending, delivered, failed (retries spent, or the endpoint deleted), paused (the endpoint is switched off)',
  )
  status: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Attempts made' })
  attempts: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'When the next attempt is due (UTC); null unless queued',
  })
  next_attempt_at: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'When it was delivered (UTC)' })
  delivered_at: string | null;

  @TimestampProperty()
  created_at: string;

  @ApiProperty({ type: [WebhookAttemptDto], description: 'Every attempt, oldest first' })
  attempt_log: WebhookAttemptDto[];
}

/** `GET /webhook/{id}/deliveries`. */
export class WebhookDeliveryListResponseDto {
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'Deliveries, oldest first' })
  data: WebhookDeliveryDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `POST /webhook/delivery/{id}/retry`. */
export class WebhookDeliveryResponseDto {
  @TextProperty()
  message: string;

  @ApiProperty({ type: [WebhookDeliveryDto], description: 'The one delivery' })
  delivery: WebhookDeliveryDto[];
}
