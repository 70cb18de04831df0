import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { Decimal } from '../../common/money/decimal';
import {
  IsCurrencyInput,
  IsDateInput,
  IsDecimalInput,
  IsIdInput,
  IsNotGivenWith,
  IsTrueFalse,
  Trim,
} from '../../common/input-rules';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  DateInputProperty,
  DecimalInputProperty,
  IdInputProperty,
  TrueFalseInputProperty,
} from '../../openapi/schema-property.decorator';
import { LineItemDto, LineItems, MAX_LINE_ITEMS } from './line-item.dto';

/**
 * Beyond the specification (docs/rules.md, taxes): the document discount, whether prices include
 * tax, and the date of supply or service period. Every kind of document takes them (a credit
 * note all but prices_include_tax, which is its invoice's).
 */
export class DocumentTermsInputDto {
  @DecimalInputProperty({
    required: false,
    description:
      'Percent off the sub-total, shared over the tax groups: above 0, at most 100, at most 4 decimals. On update, null removes the discount',
  })
  @IsOptional()
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '100', inclusiveMax: true, maxPlaces: 4 })
  discount_percent?: Decimal | null;

  @DecimalInputProperty({
    required: false,
    description:
      'Money off the sub-total, shared over the tax groups: above 0, at most the sub-total, with at most the currency’s minor digits; not with discount_percent. On update, null removes the discount',
  })
  @IsOptional()
  @IsDecimalInput({ min: '0', exclusiveMin: true, max: '10000000000000', maxPlaces: 4 })
  @IsNotGivenWith('discount_percent')
  discount_amount?: Decimal | null;

  @TrueFalseInputProperty({
    required: false,
    description:
      'Whether rate and amounts include tax (gross prices); default false. A line then carries at most one tax',
  })
  @IsOptional()
  @IsTrueFalse()
  prices_include_tax?: 'True' | 'False';

  @DateInputProperty({
    required: false,
    description: 'Date of supply (BT-72); not with a period. On update, null removes it',
  })
  @IsOptional()
  @IsDateInput()
  supply_date?: string | null;

  @DateInputProperty({
    required: false,
    description: 'First day of the service period (BT-73), with period_end',
  })
  @IsOptional()
  @IsDateInput()
  period_start?: string | null;

  @DateInputProperty({
    required: false,
    description: 'Last day of the service period (BT-74), with period_start; not before it',
  })
  @IsOptional()
  @IsDateInput()
  period_end?: string | null;
}

/** What invoices and estimates share (docs/rules.md: the same money, items, client rules). */
export class DocumentInputDto extends DocumentTermsInputDto {
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

  @TrueFalseInputProperty({
    required: false,
    description:
      'Add only. true: a draft, with no number (given none) until POST …/{id}/issue, changed and deleted freely, outside every report and sending nothing; default false',
  })
  @IsOptional()
  @IsTrueFalse()
  draft?: 'True' | 'False';
}

/** `POST /invoice/{id}/issue`, `POST /estimate/{id}/issue`: a draft takes its number. */
export class IssueDocumentDto {
  @DateInputProperty({
    required: false,
    description:
      'Default today (UTC); the number is of its period, and the due date keeps the draft’s term',
  })
  @IsOptional()
  @IsDateInput()
  issue_date?: string;
}

/**
 * A document's number (`invoice_no`, `estimate_no`, `credit_note_no`): trimmed, 1 to 64
 * characters, unique within its kind (`unique`: among which documents). Left out, the kind's
 * number series gives the next one (docs/numbering.md); null or empty answers 422.
 */
export function DocumentNumberInput(param: string, unique: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: `Trimmed; unique among ${unique} (409). Left out on add, the next number of the number series, in the transaction that writes it`,
    }),
    ValidateIf((_: object, value: unknown) => value !== undefined),
    IsString({ message: `${param} must be a string` }),
    Trim(),
    Length(1, 64, { message: `${param} must be 1 to 64 characters` }),
  );
}
