import { ApiProperty } from '@nestjs/swagger';
import { SEND_KINDS, SendKind } from '../entities/document-columns';
import { DELIVERY_STATES, DeliveryState } from '../domain/delivery-state';
import {
  EnumProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';

/** One send of an invoice or estimate, oldest first. */
export class SendLogEntryDto {
  @TextProperty('The address it was sent to')
  email: string;

  @TimestampProperty('When it was sent: UTC, YYYY-MM-DD HH:MM:SS')
  date: string;

  @EnumProperty(
    DELIVERY_STATES,
    'The e-mail: `queued` until the server has accepted it (while being sent and between ' +
      'retries), then `sent`; `failed` once every attempt failed or the server refused it for ' +
      'good (also sends recorded before delivery existed)',
  )
  delivery: DeliveryState;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Delivery attempts begun so far, the one in progress included',
  })
  attempts: number;

  @EnumProperty(
    SEND_KINDS,
    'What sent it: `document` (a send through the API) or `reminder` (REMINDER_DAYS)',
  )
  kind: SendKind;
}
