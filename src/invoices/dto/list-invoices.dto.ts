import { IsOptional } from 'class-validator';
import { IsIdInput, IsOneOf } from '../../common/input-rules';
import { ListIssuedDocumentsDto } from '../../documents/dto/list-documents.dto';
import { IdInputProperty, ListedValueInputProperty } from '../../openapi/schema-property.decorator';
import { INVOICE_STATUSES, InvoiceStatus } from '../domain/invoice-status';
import { PAYMENT_STATUSES, PaymentStatus } from '../domain/payment-status';

export class ListInvoicesDto extends ListIssuedDocumentsDto {
  @ListedValueInputProperty(PAYMENT_STATUSES, {
    required: false,
    description: 'Only invoices with this payment_status',
  })
  @IsOptional()
  @IsOneOf(PAYMENT_STATUSES)
  payment_status?: PaymentStatus;

  @ListedValueInputProperty(INVOICE_STATUSES, {
    required: false,
    description: 'Only invoices with this status; overdue and open by today’s date (UTC)',
  })
  @IsOptional()
  @IsOneOf(INVOICE_STATUSES)
  status?: InvoiceStatus;

  @IdInputProperty({
    required: false,
    description:
      'Beyond the specification: only the invoices this recurring invoice schedule made (an id naming none: an empty list)',
  })
  @IsOptional()
  @IsIdInput('recurring_invoice must be the id of a recurring invoice')
  recurring_invoice?: string;
}
