import { IsDefined } from 'class-validator';
import { IsOneOf } from '../../common/input-rules';
import { DocumentInputDto, DocumentNumberInput } from '../../documents/dto/document-input.dto';
import { ListedValueInputProperty } from '../../openapi/schema-property.decorator';
import { PAYMENT_STATUSES, PaymentStatus } from '../domain/payment-status';

export class CreateInvoiceDto extends DocumentInputDto {
  @DocumentNumberInput('invoice_no', 'live invoices')
  invoice_no?: string;

  @ListedValueInputProperty(PAYMENT_STATUSES, { description: 'Whether the invoice is paid' })
  @IsDefined({ message: 'payment_status is required' })
  @IsOneOf(PAYMENT_STATUSES)
  payment_status: PaymentStatus;
}
