import { IsDefined, IsOptional, IsString, Length } from 'class-validator';
import { IsDateInput, Trim } from '../../common/input-rules';

/** `POST /estimate/{id}/convert`: the new invoice's number, and optionally its dates. */
export class ConvertEstimateDto {
  @IsDefined({ message: 'invoice_no is required' })
  @IsString()
  @Trim()
  @Length(1, 64, { message: 'invoice_no must be 1 to 64 characters' })
  invoice_no: string;

  /** Defaults to today: the invoice is issued now, whatever the estimate's dates were. */
  @IsOptional()
  @IsDateInput()
  issue_date?: string;

  @IsOptional()
  @IsDateInput()
  due_date?: string;
}
