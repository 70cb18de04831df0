import { ApiProperty, IntersectionType, PickType } from '@nestjs/swagger';
import {
  DocumentPricingFieldsDto,
  DocumentTaxTermsDto,
  TimestampFieldsDto,
} from '../../documents/dto/document-fields-response.dto';
import { LineItemWithAmountDto } from '../../documents/dto/line-item-response.dto';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import {
  DateProperty,
  EnumProperty,
  IdProperty,
  OptionalDateProperty,
  TextProperty,
} from '../../openapi/schema-property.decorator';
import { Interval, INTERVALS } from '../domain/schedule';
import { SCHEDULE_STATUSES, ScheduleStatus } from '../domain/schedule-state';

/** An invoice a schedule made. */
export class MadeInvoiceDto {
  @IdProperty('Id of the invoice')
  id: string;

  @TextProperty('Its number (empty while it is a draft)')
  invoice_no: string;

  @DateProperty('Its issue date: the date of the period it bills')
  issue_date: string;
}

/** A schedule of recurring invoices as every operation answers it. */
export class RecurringInvoiceDto extends IntersectionType(
  DocumentPricingFieldsDto,
  PickType(DocumentTaxTermsDto, ['discount_percent', 'discount_amount', 'prices_include_tax']),
  TimestampFieldsDto,
) {
  @IdProperty()
  id: string;

  @IdProperty('Id of the client billed')
  customer_id: string;

  @TextProperty('May be empty')
  description: string;

  @TextProperty('Footer note of each invoice; may be empty')
  note: string;

  @ApiProperty({
    type: [LineItemWithAmountDto],
    description: 'The lines each invoice takes, in order, with the amounts they come to',
  })
  items: LineItemWithAmountDto[];

  @EnumProperty(INTERVALS, 'The unit of the period')
  interval: Interval;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 366, description: 'Intervals per period' })
  interval_count: number;

  @DateProperty('The first period’s date')
  start_date: string;

  @OptionalDateProperty('No period after this date; empty for none')
  end_date: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'How many invoices it makes in all; null for no limit',
  })
  count: number | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Days from issue to due date' })
  due_days: number;

  @ApiProperty({ type: 'boolean', description: 'Whether each invoice is sent when made' })
  auto_send: boolean;

  @TextProperty('Where auto-sent invoices go; empty for the client’s e-mail at the time')
  email: string;

  @ApiProperty({ type: 'boolean', description: 'Whether its invoices are made as drafts' })
  draft: boolean;

  @EnumProperty(
    SCHEDULE_STATUSES,
    '`active` makes each period’s invoice on its date; `paused` skips the periods that fall until it is resumed; `ended`: no period is left',
  )
  status: ScheduleStatus;

  @OptionalDateProperty(
    'The date of the next period to bill (when paused: the next one after a resume today, unless it is skipped); empty once ended',
  )
  next_date: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Invoices made so far' })
  invoices_made: number;

  @ApiProperty({
    type: [MadeInvoiceDto],
    description:
      'The live invoices of the latest 12 periods it made, oldest first (every one: GET /invoice/all?recurring_invoice={id})',
  })
  invoices: MadeInvoiceDto[];
}

/** `GET /recurring-invoice/{id}`, add, update, pause and resume. */
export class RecurringInvoiceResponseDto {
  @ApiProperty({ type: [RecurringInvoiceDto], description: 'The one schedule' })
  recurring_invoice: RecurringInvoiceDto[];
}

/** `GET /recurring-invoice/all`. */
export class RecurringInvoiceListResponseDto {
  @ApiProperty({ type: [RecurringInvoiceDto], description: 'Live schedules, oldest first' })
  data: RecurringInvoiceDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}
