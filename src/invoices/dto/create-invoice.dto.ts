import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Length } from 'class-validator';
import { IsOneOf, Trim } from '../../common/input-rules';
import { DocumentInputDto } from '../../documents/dto/document-input.dto';
import { ListedValueInputProperty } from '../../openapi/schema-property.decorator';
import { PAYMENT_STATUSES, PaymentStatus } from '../domain/payment-status';

export class CreateInvoiceDto extends DocumentInputDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 64,
    description: 'Trimmed; unique among live invoices (409)',
  })
  @IsDefined({ message: 'invoice_no is required' })
  @IsString()
  @Trim()
  @Length(1, 64, { message: 'invoice_no must be 1 to 64 characters' })
  invoice_no: string;

  @ListedValueInputProperty(PAYMENT_STATUSES, { description: 'Whether the invoice is paid' })
  @IsDefined({ message: 'payment_status is required' })
  @IsOneOf(PAYMENT_STATUSES)
  payment_status: PaymentStatus;
}
