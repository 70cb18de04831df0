import { ApiProperty } from '@nestjs/swagger';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import { RawJson } from '../../common/json-text';
import {
  EnumProperty,
  IdProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';
import { EVENT_OBJECTS, EVENT_TYPES } from '../event-types';

/** One committed change. */
export class EventDto {
  @IdProperty(
    'Id of the event: ascending in the order events were written; the webhook-id of its deliveries',
  )
  id: string;

  @EnumProperty(EVENT_TYPES, '<object>.<verb>')
  type: string;

  @TimestampProperty('When the change was made: UTC, YYYY-MM-DD HH:MM:SS')
  created_at: string;

  @ApiProperty({
    type: 'string',
    example: '3f2a9c0d81b7',
    description:
      'Who made the change: the API key’s id (the first 12 hex digits of its SHA-256), open when the API has no keys, system for what the service did by itself (deliveries)',
  })
  actor: string;

  @EnumProperty(EVENT_OBJECTS, 'The kind of record changed')
  object: string;

  @IdProperty('Id of the record changed')
  object_id: string;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description:
      'The record as its read operation answers it after the change (without status); for a deletion, as it was before; null for a delivery outcome of a document deleted since it was sent',
  })
  data: RawJson;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', minItems: 2, maxItems: 2, items: {} },
    example: { notes: ['old', 'new'] },
    description:
      'Each changed field as [before, after]; {} for a record made or deleted. Growing logs (payments, send_log) are left out: the type and data say what was appended',
  })
  changes: RawJson;
}

/** `GET /event/all`. */
export class EventListResponseDto {
  @ApiProperty({ type: [EventDto], description: 'Events, oldest first' })
  data: EventDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `GET /event/{id}`. */
export class EventReadResponseDto {
  @ApiProperty({ type: [EventDto], description: 'The one event' })
  data: EventDto[];
}
