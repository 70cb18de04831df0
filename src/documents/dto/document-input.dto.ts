import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { Decimal } from '../../common/money/decimal';
import {
  IsCurrencyInput,
  IsDateInput,
  IsDecimalInput,
  IsIdInput,
  Trim,
} from '../../common/input-rules';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  DateInputProperty,
  DecimalInputProperty,
  IdInputProperty,
} from '../../openapi/schema-property.decorator';
import { LineItemDto, LineItems, MAX_LINE_ITEMS } from './line-item.dto';

/** What invoices and estimates share (docs/rules.md: the same money, items, client rules). */
export class DocumentInputDto {
  @IdInputProperty({ description: 'Id of a live client' })
  @IsDefined({ message: 'client is required' })
  @IsIdInput('client must be the id of a client')
  client: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 1000 })
  @IsOptional()
  @Trim()
  @MaxLength(1000)
  @IsString()
  description?: string;

  @ApiPropertyOptional({
    type: 'string',
    pattern: '^[A-Za-z]{3}$',
    example: 'USD',
    description: 'Active ISO 4217 code, any case; default DEFAULT_CURRENCY (USD unless set)',
  })
  @IsOptional()
  @IsCurrencyInput()
  currency?: string;

  @DecimalInputProperty({
    required: false,
    description: 'Percent, 0 to 100, at most 4 decimals; default 0',
  })
  @IsOptional()
  @IsDecimalInput({ min: '0', max: '100', inclusiveMax: true, maxPlaces: 4 })
  tax_rate?: Decimal;

  @DateInputProperty({ required: false, description: 'Default today (UTC)' })
  @IsOptional()
  @IsDateInput()
  issue_date?: string;

  @DateInputProperty({
    required: false,
    description: 'Default issue_date; not before issue_date',
  })
  @IsOptional()
  @IsDateInput()
  due_date?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 10_000, description: 'Footer note' })
  @IsOptional()
  @MaxLength(10_000)
  @IsString()
  note?: string;

  @ApiProperty({
    type: [LineItemDto],
    minItems: 1,
    maxItems: MAX_LINE_ITEMS,
    description: 'The lines, kept in this order',
  })
  @IsDefined({ message: 'items is required' })
  @LineItems()
  items: LineItemDto[];
}
