import { IsOptional } from 'class-validator';
import { IsDateInput, IsOneOf } from '../../common/input-rules';
import { ListDocumentsDto } from '../../documents/dto/list-documents.dto';
import { PAYMENT_STATUSES, PaymentStatus } from '../domain/payment-status';

export class ListInvoicesDto extends ListDocumentsDto {
  @IsOptional()
  @IsOneOf(PAYMENT_STATUSES)
  payment_status?: PaymentStatus;

  /** Earliest `issue_date`, inclusive. */
  @IsOptional()
  @IsDateInput()
  from?: string;

  /** Latest `issue_date`, inclusive. */
  @IsOptional()
  @IsDateInput()
  to?: string;
}
