import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsTrueFalse, Trim } from '../../common/input-rules';
import { EVENT_TYPES } from '../../events/event-types';

const SUBSCRIBABLE = ['*', ...EVENT_TYPES];

/** `POST /webhook/add`. */
export class CreateWebhookDto {
  @ApiProperty({
    type: 'string',
    maxLength: 2048,
    example: 'https://hooks.example.com/invoicing',
    description:
      'An http or https URL whose host resolves to public addresses only (unless WEBHOOK_ALLOW_PRIVATE=true); no user name or password in it',
  })
  @Trim()
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: SUBSCRIBABLE },
    minItems: 1,
    maxItems: 100,
    example: ['invoice.payment_recorded', 'invoice.voided'],
    description: 'The event types to receive, or ["*"] for all',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsIn(SUBSCRIBABLE, { each: true, message: 'each of events must be an event type or *' })
  events: string[];

  @ApiPropertyOptional({ type: 'string', maxLength: 1000, description: 'What it is for' })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(1000)
  description?: string;
}

/** `PUT /webhook/{id}`: any of add's parameters, and `enabled`. */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {
  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'false switches the endpoint off (its deliveries wait, paused); true switches it on again (they resume)',
  })
  @IsOptional()
  @IsTrueFalse()
  enabled?: string;
}
