import { keyList } from '../setup/expectations';
import type { LineItemInput } from './invoices';

/** A schedule's add input: monthly from `start_date`, one line, unless told otherwise. */
export function recurringInvoiceInput(
  client: string,
  input: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    client,
    interval: 'month',
    start_date: '2026-01-01',
    items: [{ description: 'Monthly retainer', quantity: 1, rate: '100.00' }] as LineItemInput[],
    ...input,
  };
}

/** A schedule as every operation answers it (docs/recurring.md). */
export interface RecurringInvoiceOutput {
  id: string;
  customer_id: string;
  description: string;
  currency: string;
  tax_rate: number;
  tax_amount: number;
  sub_total: number;
  total: number;
  discount_percent: number | null;
  discount_amount: string;
  prices_include_tax: boolean;
  note: string;
  items: Array<{ description: string; amount: string; unit: string }>;
  interval: string;
  interval_count: number;
  start_date: string;
  end_date: string;
  count: number | null;
  due_days: number;
  auto_send: boolean;
  email: string;
  draft: boolean;
  status: 'active' | 'paused' | 'ended';
  next_date: string;
  invoices_made: number;
  invoices: Array<{ id: string; invoice_no: string; issue_date: string }>;
  created_at: string;
  updated_at: string;
}

/** Every key of a schedule's output, written from docs/recurring.md. */
export const RECURRING_INVOICE_KEYS = keyList(
  'id customer_id description currency tax_rate tax_amount sub_total total',
  'discount_percent discount_amount prices_include_tax note items',
  'interval interval_count start_date end_date count due_days auto_send email draft',
  'status next_date invoices_made invoices created_at updated_at',
);
