import { ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import {
  IsDateInput,
  IsNotBefore,
  IsNotGivenWith,
  IsOneOf,
  IsTrueFalse,
  IsWholeNumberInput,
  Trim,
} from '../../common/input-rules';
import { DocumentInputDto } from '../../documents/dto/document-input.dto';
import {
  DateInputProperty,
  ListedValueInputProperty,
  TrueFalseInputProperty,
} from '../../openapi/schema-property.decorator';
import { Interval, INTERVALS } from '../domain/schedule';

/** The most invoices a schedule may be told to make (`count`). */
export const MAX_COUNT = 10_000;
/** The longest term (`due_days`): ten years. */
export const MAX_DUE_DAYS = 3_650;

/** What each invoice holds: an invoice's parameters but its number, dates and status. */
class RecurringInvoiceContentDto extends PickType(DocumentInputDto, [
  'client',
  'description',
  'currency',
  'tax_rate',
  'note',
  'items',
  'discount_percent',
  'discount_amount',
  'prices_include_tax',
] as const) {}

/** `POST /recurring-invoice/add`. */
export class CreateRecurringInvoiceDto extends RecurringInvoiceContentDto {
  @ListedValueInputProperty(INTERVALS, { description: 'The unit of the period' })
  @IsDefined({ message: 'interval is required' })
  @IsOneOf(INTERVALS)
  interval: Interval;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 366,
    example: 1,
    description: 'Periods are this many intervals long; default 1',
  })
  @IsOptional()
  @IsWholeNumberInput(1, 366)
  interval_count?: number;

  @DateInputProperty({
    description:
      'The first period’s date (its invoice’s issue date). Periods fall on its day of the month, or the month’s last day when it has fewer',
  })
  @IsDefined({ message: 'start_date is required' })
  @IsDateInput()
  start_date: string;

  @DateInputProperty({
    required: false,
    description:
      'No period after this date; not before start_date, not with count. On update, null removes it',
  })
  @IsOptional()
  @IsDateInput()
  @IsNotBefore('start_date')
  @IsNotGivenWith('count')
  end_date?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_COUNT,
    example: 12,
    description:
      'How many invoices it makes in all (periods skipped while paused are not counted); not with end_date. On update, null removes it',
  })
  @IsOptional()
  @IsWholeNumberInput(1, MAX_COUNT)
  count?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_DUE_DAYS,
    example: 30,
    description: 'Each invoice is due this many days after its issue date; default 30',
  })
  @IsOptional()
  @IsWholeNumberInput(0, MAX_DUE_DAYS)
  due_days?: number;

  @TrueFalseInputProperty({
    required: false,
    description:
      'Send each invoice when it is made, through the e-mail outbox (retried like every send); default false. Drafts are not sent',
  })
  @IsOptional()
  @IsTrueFalse()
  auto_send?: 'True' | 'False';

  @ApiPropertyOptional({
    type: 'string',
    format: 'email',
    maxLength: 254,
    description:
      'Where auto-sent invoices go; default the client’s e-mail at the time. On update, "" goes back to it',
  })
  @IsOptional()
  @Trim()
  @MaxLength(254)
  @ValidateIf((_: object, value: unknown) => value !== '')
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @IsString()
  email?: string;

  @TrueFalseInputProperty({
    required: false,
    description:
      'Make each invoice as a draft to review and issue (POST /invoice/{id}/issue); default false',
  })
  @IsOptional()
  @IsTrueFalse()
  draft?: 'True' | 'False';
}

/**
 * `PUT /recurring-invoice/{id}`: any parameter of add; one left out keeps its value. Applies
 * from the next period on: invoices already made stay as they are.
 */
export class UpdateRecurringInvoiceDto extends PartialType(CreateRecurringInvoiceDto) {}
