import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOneOf, Trim } from '../../common/input-rules';
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

  @ApiPropertyOptional({
    type: 'string',
    maxLength: 255,
    description:
      'BT-10, the reference the buyer asks its invoices to carry (a Leitweg-ID in Germany); trimmed. Left out: on add the client\'s `buyer_reference`, on update the invoice\'s own; "" for none',
  })
  @IsOptional()
  @Trim()
  @MaxLength(255, { message: 'buyer_reference must be at most 255 characters' })
  @IsString()
  buyer_reference?: string;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: 255,
    description:
      'BT-13, the buyer\'s purchase order reference; trimmed. Left out: "" on add, kept on update',
  })
  @IsOptional()
  @Trim()
  @MaxLength(255, { message: 'order_reference must be at most 255 characters' })
  @IsString()
  order_reference?: string;
}
