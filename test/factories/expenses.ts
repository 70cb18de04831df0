import type TestAgent from 'supertest/lib/agent';

export interface ExpenseInput {
  description?: string;
  issue_date?: string;
  amount?: string | number;
  currency?: string;
  vendor?: string;
}

/** An expense in every output: list, read, add and update. */
export interface ExpenseOutput {
  id: string;
  short_code: string;
  category: string;
  description: string;
  amount: string;
  currency: string;
  vendor: string;
  issued_date: string;
  created_at: string;
  updated_at: string;
  /** The e-invoice an imported expense came from; null for one added by hand. */
  source: ExpenseSourceOutput | null;
}

export interface ExpenseSourceOutput {
  format: string;
  seller_vat_id: string;
  invoice_number: string;
  type_code: string;
  tax_breakdown: Array<{
    category: string;
    rate: string;
    taxable_amount: string;
    tax_amount: string;
  }>;
  lines: Array<{
    id: string;
    name: string;
    quantity: string;
    unit: string;
    net_price: string;
    net_amount: string;
    vat_category: string;
    vat_rate: string;
  }>;
}

export function expenseInput(input: ExpenseInput = {}): ExpenseInput {
  return {
    description: 'Printer paper',
    issue_date: '2026-03-01',
    amount: '12.50',
    currency: 'USD',
    ...input,
  };
}

/** Creates an expense through the API and answers its output. */
export async function addExpense(
  http: TestAgent,
  input: ExpenseInput = {},
): Promise<ExpenseOutput> {
  const response = await http.post('/v1/expense/add').send(expenseInput(input)).expect(200);
  return (response.body as { expense: ExpenseOutput[] }).expense[0];
}

/** Creates an expense through the API and answers its id. */
export async function createExpense(http: TestAgent, input: ExpenseInput = {}): Promise<string> {
  return (await addExpense(http, input)).id;
}

/** The list output, as it stands. */
export async function listExpenses(http: TestAgent): Promise<ExpenseOutput[]> {
  const response = await http.get('/v1/expense/all').expect(200);
  return (response.body as { data: ExpenseOutput[] }).data;
}
