import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import {
  DateInputProperty,
  ListedValueInputProperty,
} from '../../openapi/schema-property.decorator';
import { IsCurrencyInput, IsDateInput, IsNotBefore, IsOneOf } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';
import { EXPENSE_CATEGORIES } from '../domain/expense-category';

export class ListExpensesDto extends ListQueryDto {
  @ListedValueInputProperty(EXPENSE_CATEGORIES, {
    required: false,
    description: 'Only this category',
  })
  @IsOptional()
  @IsOneOf(EXPENSE_CATEGORIES)
  category?: string;

  @ApiPropertyOptional({
    type: 'string',
    pattern: '^[A-Za-z]{3}$',
    description: 'Only this currency (ISO 4217, any case)',
  })
  @IsOptional()
  @IsCurrencyInput()
  currency?: string;

  /** Earliest `issued_date`, inclusive. */
  @DateInputProperty({ required: false, description: 'Earliest issued_date, inclusive' })
  @IsOptional()
  @IsDateInput()
  from?: string;

  /** Latest `issued_date`, inclusive. */
  @DateInputProperty({
    required: false,
    description: 'Latest issued_date, inclusive; not before `from`',
  })
  @IsOptional()
  @IsDateInput()
  @IsNotBefore('from')
  to?: string;
}
