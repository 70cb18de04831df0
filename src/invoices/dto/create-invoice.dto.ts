import { IsDefined, IsString, Length } from 'class-validator';
import { IsOneOf, Trim } from '../../common/input-rules';
import { DocumentInputDto } from '../../documents/dto/document-input.dto';
import { PAYMENT_STATUSES, PaymentStatus } from '../domain/payment-status';

export class CreateInvoiceDto extends DocumentInputDto {
  @IsDefined({ message: 'invoice_no is required' })
  @IsString()
  @Trim()
  @Length(1, 64, { message: 'invoice_no must be 1 to 64 characters' })
  invoice_no: string;

  @IsDefined({ message: 'payment_status is required' })
  @IsOneOf(PAYMENT_STATUSES)
  payment_status: PaymentStatus;
}
