import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { DocumentDetailPartsDto } from '../../documents/dto/document-detail-response.dto';
import {
  DocumentCustomerFieldsDto,
  DocumentPricingFieldsDto,
  DocumentTaxTermsDto,
  TaxBreakdownProperty,
  TaxGroupDto,
} from '../../documents/dto/document-fields-response.dto';
import { LineItemWithAmountDto } from '../../documents/dto/line-item-response.dto';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import { InvoiceWithTimestampsDto } from '../../invoices/dto/invoice-response.dto';
import {
  DateProperty,
  IdProperty,
  NumericTextProperty,
  ShortCodeProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';

/** A credit note, in every output. */
export class CreditNoteDto extends IntersectionType(
  DocumentCustomerFieldsDto,
  DocumentPricingFieldsDto,
  DocumentTaxTermsDto,
) {
  @IdProperty()
  id: string;

  @ShortCodeProperty()
  short_code: string;

  @TextProperty('The caller’s credit note number, unique among all credit notes')
  credit_note_no: string;

  @IdProperty('Id of the invoice it corrects')
  invoice_id: string;

  @TextProperty('The number of the invoice it corrects, as it was when the credit note was issued')
  invoice_no: string;

  @NumericTextProperty(
    'The part of the total refunded when it was issued (refund: true), with the currency’s minor digits; the rest settled the outstanding balance',
  )
  refunded: string;

  @DateProperty()
  issue_date: string;

  @TextProperty('Why the invoice was corrected; may be empty')
  reason: string;

  @TextProperty('Footer note; may be empty')
  note: string;

  @TimestampProperty('When it was issued: UTC, YYYY-MM-DD HH:MM:SS. A credit note never changes')
  created_at: string;
}

/** `GET /credit-note/all`. */
export class CreditNoteListResponseDto {
  @ApiProperty({ type: [CreditNoteDto], description: 'Credit notes, oldest first' })
  data: CreditNoteDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `GET /credit-note/{id}`. */
export class CreditNoteReadResponseDto extends DocumentDetailPartsDto {
  @ApiProperty({ type: [CreditNoteDto], description: 'The one credit note' })
  credit_note: CreditNoteDto[];
}

/** `POST /credit-note/add`. */
export class CreditNoteWriteResponseDto {
  @ApiProperty({ type: [CreditNoteDto], description: 'The one credit note' })
  credit_note: CreditNoteDto[];

  @ApiProperty({ type: [LineItemWithAmountDto], description: 'Its lines, in input order' })
  items: LineItemWithAmountDto[];

  @TaxBreakdownProperty()
  tax_breakdown: TaxGroupDto[];

  @ApiProperty({
    type: [InvoiceWithTimestampsDto],
    description: 'The invoice it corrects, after the credit (and refund)',
  })
  invoice: InvoiceWithTimestampsDto[];
}
