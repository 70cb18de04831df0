import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Decimal } from '../../common/money/decimal';
import { IsCurrencyInput, IsDateInput, IsMoneyAmount, Trim } from '../../common/input-rules';
import { DateInputProperty, DecimalInputProperty } from '../../openapi/schema-property.decorator';

export class CreateExpenseDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 1000, description: 'Trimmed' })
  @IsDefined({ message: 'description is required' })
  @Trim()
  @Length(1, 1000, { message: 'description must be 1 to 1000 characters' })
  @IsString()
  description: string;

  @DateInputProperty({ description: 'Answered as issued_date' })
  @IsDefined({ message: 'issue_date is required' })
  @IsDateInput()
  issue_date: string;

  @DecimalInputProperty({
    description:
      'Greater than 0 and below 10000000000000, with at most the currency’s minor digits',
  })
  @IsDefined({ message: 'amount is required' })
  @IsMoneyAmount('currency')
  amount: Decimal;

  @ApiProperty({
    type: 'string',
    pattern: '^[A-Za-z]{3}$',
    example: 'USD',
    description: 'Active ISO 4217 code, any case',
  })
  @IsDefined({ message: 'currency is required' })
  @IsCurrencyInput()
  currency: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 255 })
  @IsOptional()
  @Trim()
  @MaxLength(255)
  @IsString()
  vendor?: string;
}
