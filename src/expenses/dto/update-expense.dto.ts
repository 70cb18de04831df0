import { CreateExpenseDto } from './create-expense.dto';

/** PUT takes the same parameters as add; a vendor left out keeps its value. */
export class UpdateExpenseDto extends CreateExpenseDto {}
