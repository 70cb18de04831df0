import { ApiProperty } from '@nestjs/swagger';
import { ListMetaDto, PageMetaProperty } from '../../openapi/dto/page-meta-response.dto';
import {
  CurrencyProperty,
  DateProperty,
  EnumProperty,
  IdProperty,
  NumericTextProperty,
  ShortCodeProperty,
  TextProperty,
  TimestampProperty,
} from '../../openapi/schema-property.decorator';
import { EXPENSE_CATEGORIES } from '../domain/expense-category';

/** The one shape of an expense, in lists, reads and write outputs alike. */
export class ExpenseDto {
  @IdProperty()
  id: string;

  @ShortCodeProperty()
  short_code: string;

  @EnumProperty(EXPENSE_CATEGORIES, 'Chosen by the service from description and vendor')
  category: string;

  @TextProperty()
  description: string;

  @NumericTextProperty('Exactly the currency’s minor digits ("12.50", "1500" for JPY)')
  amount: string;

  @CurrencyProperty()
  currency: string;

  @TextProperty('Empty when not given')
  vendor: string;

  @DateProperty('The input issue_date')
  issued_date: string;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty('UTC, YYYY-MM-DD HH:MM:SS; changes on every write to the record')
  updated_at: string;
}

/** `GET /expense/all`. */
export class ExpenseListResponseDto {
  @ApiProperty({ type: [ExpenseDto], description: 'Live expenses, oldest first' })
  data: ExpenseDto[];

  @PageMetaProperty()
  meta?: ListMetaDto;
}

/** `GET /expense/{id}`, `POST /expense/add`, `PUT /expense/{id}`. */
export class ExpenseResponseDto {
  @ApiProperty({ type: [ExpenseDto], description: 'The one expense' })
  expense: ExpenseDto[];
}
