import { ApiProperty } from '@nestjs/swagger';
import { TaxBreakdownProperty, TaxGroupDto } from './document-fields-response.dto';
import { LineItemWithAmountDto } from './line-item-response.dto';
import { SendLogEntryDto } from './send-log-entry-response.dto';

/** What the read of every kind of document carries beside the document itself. */
export class DocumentDetailPartsDto {
  @ApiProperty({ type: [LineItemWithAmountDto], description: 'Its lines, in input order' })
  items: LineItemWithAmountDto[];

  @TaxBreakdownProperty()
  tax_breakdown: TaxGroupDto[];

  @ApiProperty({ type: [SendLogEntryDto], description: 'Its sends, oldest first' })
  send_log: SendLogEntryDto[];
}
