import { IsDefined, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Decimal } from '../../common/money/decimal';
import { IsCurrencyInput, IsDateInput, IsMoneyAmount, Trim } from '../../common/input-rules';

export class CreateExpenseDto {
  @IsDefined({ message: 'description is required' })
  @Trim()
  @Length(1, 1000, { message: 'description must be 1 to 1000 characters' })
  @IsString()
  description: string;

  @IsDefined({ message: 'issue_date is required' })
  @IsDateInput()
  issue_date: string;

  @IsDefined({ message: 'amount is required' })
  @IsMoneyAmount('currency')
  amount: Decimal;

  @IsDefined({ message: 'currency is required' })
  @IsCurrencyInput()
  currency: string;

  @IsOptional()
  @Trim()
  @MaxLength(255)
  @IsString()
  vendor?: string;
}
