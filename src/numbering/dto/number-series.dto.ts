import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { ListQueryDto } from '../../common/list-query.dto';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import { IsOptional, IsString, Length } from 'class-validator';
import { IsWholeNumberInput } from '../../common/input-rules';
import { DOCUMENT_KINDS } from '../../document-vocabulary/document-kind';
import {
  EnumProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';

/** What a format looks like: text with tokens in braces (parseFormat checks the rest). */
const FORMAT_OUTLINE = '^[^{}]*(\\{(YYYY|YY|MM|SEQ(:[1-9][0-9]?)?)\\}[^{}]*)*$';

/** The highest `next` a caller may set: far below the counter's 2^32, so it never runs out. */
export const MAX_NEXT = 1_000_000_000;

/** One kind of document's number series, as read and as changed. */
export class NumberSeriesDto {
  @EnumProperty(DOCUMENT_KINDS, 'The kind of document it numbers')
  kind: string;

  @TextProperty('Literal text with {YYYY}, {YY}, {MM} (of the issue date) and {SEQ} or {SEQ:n}')
  format: string;

  @TextProperty(
    'The current period (today’s, UTC): the format’s date tokens as written, e.g. 2026; empty when it has none',
  )
  period: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The sequence number the next document dated in the current period takes',
  })
  next: number;

  @TextProperty('The number the next document dated today takes')
  next_number: string;

  @TimestampProperty('When the format was last changed (UTC, YYYY-MM-DD HH:MM:SS)')
  updated_at: string;
}

/** `GET /number-series/all`. */
export class NumberSeriesListResponseDto {
  @ApiProperty({ type: [NumberSeriesDto], description: 'Invoice, estimate and credit note' })
  data: NumberSeriesDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `PUT /number-series/{kind}`. */
export class NumberSeriesResponseDto {
  @ApiProperty({ type: [NumberSeriesDto], description: 'The one series' })
  number_series: NumberSeriesDto[];
}

/** `GET /number-series/all`: numbered pages only (the series have no ids to page after). */
export class ListNumberSeriesDto extends PickType(ListQueryDto, ['page', 'per_page'] as const) {}

/** `PUT /number-series/{kind}`: either or both. */
export class UpdateNumberSeriesDto {
  @ApiPropertyOptional({
    type: 'string',
    minLength: 1,
    maxLength: 64,
    pattern: FORMAT_OUTLINE,
    example: 'INV-{YYYY}-{SEQ:4}',
    description:
      'Literal text with {YYYY}, {YY}, {MM} and exactly one {SEQ} or {SEQ:n} (n 1 to 10); its longest number at most 64 characters. The date tokens make the period each counter counts in',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64, { message: 'format must be 1 to 64 characters' })
  format?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_NEXT,
    example: 43,
    description:
      'The next sequence number of the current period (e.g. when moving from another system); not below a number already taken (409)',
  })
  @IsOptional()
  @IsWholeNumberInput(1, MAX_NEXT)
  next?: number;
}
