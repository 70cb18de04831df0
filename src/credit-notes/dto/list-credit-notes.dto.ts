import { IsOptional } from 'class-validator';
import { IsIdInput } from '../../common/input-rules';
import { ListIssuedDocumentsDto } from '../../documents/dto/list-documents.dto';
import { IdInputProperty } from '../../openapi/schema-property.decorator';

/** Filters `client`, `from`, `to` as invoices have them, and the invoice corrected. */
export class ListCreditNotesDto extends ListIssuedDocumentsDto {
  @IdInputProperty({
    required: false,
    description: "Only this invoice's credit notes (an id naming no invoice: an empty list)",
  })
  @IsOptional()
  @IsIdInput('invoice must be the id of an invoice')
  invoice?: string;
}
