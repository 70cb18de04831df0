import { IsOptional } from 'class-validator';
import { IsCurrencyInput, IsDateInput, IsOneOf } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';
import { EXPENSE_CATEGORIES } from '../domain/expense-category';

export class ListExpensesDto extends ListQueryDto {
  /** One of the categories, any case. */
  @IsOptional()
  @IsOneOf(EXPENSE_CATEGORIES)
  category?: string;

  @IsOptional()
  @IsCurrencyInput()
  currency?: string;

  /** Earliest `issued_date`, inclusive. */
  @IsOptional()
  @IsDateInput()
  from?: string;

  /** Latest `issued_date`, inclusive. */
  @IsOptional()
  @IsDateInput()
  to?: string;
}
