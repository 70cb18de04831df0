import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { DocumentNumberInput, DocumentTermsInputDto } from '../../documents/dto/document-input.dto';
import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDateInput, IsIdInput, IsTrueFalse } from '../../common/input-rules';
import { LineItemDto, LineItems, MAX_LINE_ITEMS } from '../../documents/dto/line-item.dto';
import { ReasonInput } from '../../ledger/dto/refund.dto';
import {
  DateInputProperty,
  IdInputProperty,
  TrueFalseInputProperty,
} from '../../openapi/schema-property.decorator';

/** `POST /credit-note/add`: currency and tax rate are the invoice's. */
export class CreateCreditNoteDto extends OmitType(DocumentTermsInputDto, [
  'prices_include_tax',
] as const) {
  @IdInputProperty({ description: 'Id of the live invoice the credit note corrects' })
  @IsDefined({ message: 'invoice is required' })
  @IsIdInput('invoice must be the id of an invoice')
  invoice: string;

  @DocumentNumberInput('credit_note_no', 'all credit notes')
  credit_note_no?: string;

  @ApiProperty({
    type: [LineItemDto],
    minItems: 1,
    maxItems: MAX_LINE_ITEMS,
    description:
      'What is credited, kept in this order; priced at the invoice’s currency and default tax, with its prices_include_tax. The total may not exceed the invoice’s total less its earlier credit notes, nor (without refund) its outstanding balance',
  })
  @IsDefined({ message: 'items is required' })
  @LineItems()
  items: LineItemDto[];

  @DateInputProperty({
    required: false,
    description: 'Default today (UTC); not before the invoice’s issue_date',
  })
  @IsOptional()
  @IsDateInput()
  issue_date?: string;

  @ReasonInput('Why the invoice is corrected')
  reason?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 10_000, description: 'Footer note' })
  @IsOptional()
  @MaxLength(10_000)
  @IsString()
  note?: string;

  @TrueFalseInputProperty({
    required: false,
    description:
      'Default false. True: the part of the total above the outstanding balance is refunded first (within the cash held), in the same transaction',
  })
  @IsOptional()
  @IsTrueFalse()
  refund?: 'True' | 'False';
}
