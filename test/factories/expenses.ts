import type TestAgent from 'supertest/lib/agent';

export interface ExpenseInput {
  description?: string;
  issue_date?: string;
  amount?: string | number;
  currency?: string;
  vendor?: string;
}

export function expenseInput(input: ExpenseInput = {}): ExpenseInput {
  return { description: 'Printer paper', issue_date: '2026-03-01', amount: '12.50', currency: 'USD', ...input };
}

/** Creates an expense through the API and answers its id. */
export async function createExpense(http: TestAgent, input: ExpenseInput = {}): Promise<string> {
  const response = await http.post('/v1/expense/add').send(expenseInput(input)).expect(200);
  return (response.body as { expense: Array<{ id: string }> }).expense[0].id;
}
