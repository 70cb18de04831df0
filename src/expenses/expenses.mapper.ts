import { formatTimestamp } from '../common/clock';
import { formatMoney } from '../common/money/money';
import { ExpenseDto } from './dto/expense-response.dto';
import { Expense } from './entities/expense.entity';

/** The one shape of an expense, in lists, reads and write outputs alike. */
export function toOutput(expense: Expense): ExpenseDto {
  return {
    id: String(expense.id),
    short_code: expense.shortCode,
    category: expense.category,
    description: expense.description,
    amount: formatMoney(expense.amount, expense.currency),
    currency: expense.currency,
    vendor: expense.vendor,
    issued_date: expense.issuedDate,
    created_at: formatTimestamp(expense.createdAt),
    updated_at: formatTimestamp(expense.updatedAt),
  };
}
