import * as currencyCodes from 'currency-codes';
import type TestAgent from 'supertest/lib/agent';
import { keyList } from '../setup/expectations';
import { createClient } from './clients';

export interface LineItemInput {
  description?: string;
  quantity?: string | number;
  rate?: string | number;
}

export interface InvoiceInput {
  client?: string;
  invoice_no?: string;
  payment_status?: string;
  description?: string;
  currency?: string;
  tax_rate?: string | number;
  issue_date?: string;
  due_date?: string;
  note?: string;
  items?: LineItemInput[];
  buyer_reference?: string;
  order_reference?: string;
}

/**
 * The terms beyond the specification every output of every kind of document carries: the
 * document discount, prices including tax, the date of supply or period (docs/rules.md, taxes).
 */
export interface TaxTermsFields {
  discount_percent: number | null;
  discount_amount: string;
  prices_include_tax: boolean;
  supply_date: string;
  period_start: string;
  period_end: string;
}

/** The invoice fields of every output; the read has exactly these. */
export interface InvoiceFields extends TaxTermsFields {
  id: string;
  short_code: string;
  invoice_no: string;
  description: string;
  customer_id: string;
  customer_name: string;
  customer_phone: string;
  customer_address: string;
  customer_tax_id: string;
  customer_country: string;
  payment_status: string;
  status: 'open' | 'overdue' | 'paid' | 'void';
  void_reason: string;
  recurring_invoice_id: string;
  buyer_reference: string;
  order_reference: string;
  currency: string;
  tax_rate: number;
  tax_amount: number;
  sub_total: number;
  total: number;
  amount_paid: string;
  outstanding_balance: string;
  issue_date: string;
  due_date: string;
  note: string;
}

/** An invoice in the list, the client read, add and update: with timestamps. */
export interface InvoiceOutput extends InvoiceFields {
  created_at: string;
  updated_at: string;
}

export interface LineItemWrite {
  description: string;
  quantity: number;
  rate: string;
}

/** A tax a line carries, as a read answers it. */
export interface LineTaxRead {
  name: string;
  category: string;
  rate: number;
}

export interface LineItemRead extends LineItemWrite {
  amount: string;
  unit: string;
  discount_percent: number | null;
  discount_amount: string;
  taxes: LineTaxRead[];
}

/** One entry of `tax_breakdown` (read, add and update answers): one per tax group. */
export interface TaxGroupOutput {
  name: string;
  category: string;
  rate: number;
  taxable_amount: string;
  tax_amount: string;
  exemption_reason: string;
  exemption_code: string;
}

export interface PaymentEntry {
  status: 'Completed' | 'Refunded' | 'Credited';
  reference: string;
  amount: number;
  bank: string;
  payment_date: string;
  created_at: string;
  reason: string;
  credit_note_id: string;
}

export interface SendLogEntry {
  email: string;
  date: string;
  delivery: 'queued' | 'sent' | 'failed';
  attempts: number;
  kind: string;
}

/** `GET /invoice/{id}`. */
export interface InvoiceDetail {
  invoice: InvoiceFields[];
  items: LineItemRead[];
  tax_breakdown: TaxGroupOutput[];
  payments: PaymentEntry[];
  send_log: SendLogEntry[];
}

/** `POST /invoice/add` and `PUT /invoice/{id}`. */
export interface InvoiceWriteResult {
  invoice: InvoiceOutput[];
  items: LineItemWrite[];
  tax_breakdown: TaxGroupOutput[];
}

/*
 * The exact key list of each output shape, written by hand: the specification's keys in its
 * order, then the extensions the docs state. Never read from the response classes, so a key
 * dropped from the code fails here.
 */

/**
 * Extensions in every output of every kind of document: the document discount, prices
 * including tax, the date of supply or period (docs/rules.md, taxes). The VAT breakdown is a
 * part of read, add and update answers beside `items`.
 */
export const TAX_TERMS_KEYS = keyList(
  'discount_percent discount_amount prices_include_tax supply_date period_start period_end',
);

/** GET /invoice/{id}: the invoice of "invoice" (the specification's Invoice, no timestamps). */
export const INVOICE_READ_KEYS = keyList(
  'id short_code invoice_no description customer_id customer_name customer_phone customer_address',
  'payment_status currency tax_rate tax_amount sub_total total amount_paid outstanding_balance',
  'issue_date due_date note',
  // extensions: the customer's tax id and country, copied (docs/decisions.md, docs/documents.md)
  'customer_tax_id customer_country',
  // extensions: the status and the void's reason (docs/corrections.md)
  'status void_reason',
  // extension: the recurring invoice schedule that made it (docs/recurring.md)
  'recurring_invoice_id',
  // extensions: the buyer's references, BT-10 and BT-13 (docs/einvoices.md)
  'buyer_reference order_reference',
  // extensions: taxes, discounts, dates of supply (docs/rules.md)
  ...TAX_TERMS_KEYS,
);

/**
 * GET /invoice/all, POST /invoice/add, PUT /invoice/{id}, GET /client/{id} ("invoices"), and
 * the invoice answered by a conversion, a refund and a credit note: an Invoice with timestamps.
 */
export const INVOICE_KEYS = keyList(
  'id short_code invoice_no description customer_id customer_name customer_phone customer_address',
  'payment_status currency tax_rate tax_amount sub_total total amount_paid outstanding_balance',
  'issue_date due_date note created_at updated_at',
  // extensions: the customer's tax id and country, copied (docs/decisions.md, docs/documents.md)
  'customer_tax_id customer_country',
  // extensions: the status and the void's reason (docs/corrections.md)
  'status void_reason',
  // extension: the recurring invoice schedule that made it (docs/recurring.md)
  'recurring_invoice_id',
  // extensions: the buyer's references, BT-10 and BT-13 (docs/einvoices.md)
  'buyer_reference order_reference',
  // extensions: taxes, discounts, dates of supply (docs/rules.md)
  ...TAX_TERMS_KEYS,
);

/** POST /invoice/add, PUT /invoice/{id} (and the estimate's): "items" without amounts. */
export const LINE_WRITE_KEYS = keyList('description quantity rate');

/** GET /invoice/{id} (and the estimate's, the credit note's): "items" with amounts. */
export const LINE_READ_KEYS = keyList(
  'description quantity rate amount',
  // extensions: unit, discount and taxes (docs/rules.md, taxes)
  'unit discount_percent discount_amount taxes',
);

/** GET /invoice/{id}: each entry of "payments". */
export const PAYMENT_KEYS = keyList(
  'status reference amount bank created_at',
  // extensions: its date (docs/decisions.md); its reason and credit note (docs/corrections.md)
  'payment_date reason credit_note_id',
);

/** GET /invoice/{id} (and the estimate's, the credit note's): each entry of "send_log". */
export const SEND_LOG_KEYS = keyList(
  'email date',
  // extensions: the e-mail's delivery (README, "Documents and sending"); kind (docs/receivables.md)
  'delivery attempts kind',
);

/*
 * The expected values of the extensions for a plain document: one that names no discount, no
 * prices including tax, no date of supply or period, and whose lines name no unit, discount or
 * taxes of their own. Its lines then carry its default tax: `tax_rate`, named `Tax` (the
 * TAX_NAME default), standard rated (S) above 0 and zero rated (Z) at 0 (docs/rules.md, taxes).
 */

/** The default tax's category at a document's `tax_rate`. */
export function defaultTaxCategory(taxRate: number): 'S' | 'Z' {
  return taxRate > 0 ? 'S' : 'Z';
}

/** A currency's zero with exactly its minor digits: "0.00", JPY "0", KWD "0.000". */
export function zeroMoney(currency = 'USD'): string {
  const digits = currencyCodes.code(currency)?.digits;
  if (digits === undefined) throw new Error(`Unknown currency ${currency}`);
  return digits === 0 ? '0' : `0.${'0'.repeat(digits)}`;
}

/** The document-level extensions of a plain document in the currency. */
export function plainTaxTerms(currency = 'USD'): TaxTermsFields {
  return {
    discount_percent: null,
    discount_amount: zeroMoney(currency),
    prices_include_tax: false,
    supply_date: '',
    period_start: '',
    period_end: '',
  };
}

/**
 * A plain line as a read answers it: the line with its amount, unit C62 (piece), no discount,
 * and the document's default tax at `taxRate`.
 */
export function plainReadLine(
  line: Omit<LineItemRead, 'unit' | 'discount_percent' | 'discount_amount' | 'taxes'>,
  taxRate = 0,
  currency = 'USD',
): LineItemRead {
  return {
    ...line,
    unit: 'C62',
    discount_percent: null,
    discount_amount: zeroMoney(currency),
    taxes: [{ name: 'Tax', category: defaultTaxCategory(taxRate), rate: taxRate }],
  };
}

/**
 * The breakdown of a plain document: one group, the default tax, whose taxable amount is the
 * sub-total and whose tax is the document's `tax_amount` (money text with the minor digits).
 */
export function plainTaxBreakdown(
  taxRate: number,
  taxableAmount: string,
  taxAmount: string,
): TaxGroupOutput[] {
  return [
    {
      name: 'Tax',
      category: defaultTaxCategory(taxRate),
      rate: taxRate,
      taxable_amount: taxableAmount,
      tax_amount: taxAmount,
      exemption_reason: '',
      exemption_code: '',
    },
  ];
}

let sequence = 0;

/** A unique invoice number, for this test file's database. */
export function invoiceNumber(prefix = 'INV'): string {
  sequence += 1;
  return `${prefix}-${String(sequence).padStart(4, '0')}`;
}

/** Input for a new invoice of the given client: a unique number, Not Paid, one line of 100.00. */
export function invoiceInput(client: string, input: InvoiceInput = {}): InvoiceInput {
  return {
    client,
    invoice_no: invoiceNumber(),
    payment_status: 'Not Paid',
    items: [{ description: 'Consulting', quantity: 1, rate: '100.00' }],
    ...input,
  };
}

/** `count` lines, each 1 × 1.00 unless told otherwise. */
export function lineItems(count: number, item: LineItemInput = {}): LineItemInput[] {
  return Array.from({ length: count }, (_, index) => ({
    description: `Line ${index + 1}`,
    quantity: 1,
    rate: '1.00',
    ...item,
  }));
}

/** Creates an invoice through the API (and a client for it unless given); answers the output. */
export async function addInvoice(
  http: TestAgent,
  input: InvoiceInput = {},
): Promise<InvoiceWriteResult> {
  const client = input.client ?? (await createClient(http));
  const response = await http.post('/v1/invoice/add').send(invoiceInput(client, input));
  if (response.status !== 200) {
    throw new Error(`addInvoice answered ${response.status}: ${response.text}`);
  }
  return response.body as InvoiceWriteResult;
}

/** Creates an invoice through the API and answers the invoice as added. */
export async function createInvoice(
  http: TestAgent,
  input: InvoiceInput = {},
): Promise<InvoiceOutput> {
  return (await addInvoice(http, input)).invoice[0];
}

export async function readInvoice(http: TestAgent, id: string): Promise<InvoiceDetail> {
  const response = await http.get(`/v1/invoice/${id}`).expect(200);
  return response.body as InvoiceDetail;
}

export async function listInvoices(http: TestAgent): Promise<InvoiceOutput[]> {
  const response = await http.get('/v1/invoice/all').expect(200);
  return (response.body as { data: InvoiceOutput[] }).data;
}

/** Records a payment that must be accepted. */
export async function payInvoice(
  http: TestAgent,
  id: string,
  amount: string | number,
  extra: { payment_date?: string; payment_method?: string } = {},
): Promise<void> {
  await http
    .post('/v1/invoice/record-payment')
    .send({ id, amount_paid: amount, payment_date: '2026-03-10', ...extra })
    .expect(200);
}

/** An invoice's money, its statuses and its ledger as `status amount`, oldest first. */
export async function ledgerState(http: TestAgent, id: string) {
  const detail = await readInvoice(http, id);
  const { amount_paid, outstanding_balance, payment_status, status } = detail.invoice[0];
  return {
    amount_paid,
    outstanding_balance,
    payment_status,
    status,
    ledger: detail.payments.map((entry) => `${entry.status} ${entry.amount}`),
  };
}

/** Records a refund that must be accepted; answers the invoice after it. */
export async function refundInvoice(
  http: TestAgent,
  id: string,
  amount: string | number,
  extra: { refund_date?: string; payment_method?: string; reason?: string } = {},
): Promise<InvoiceOutput> {
  const response = await http
    .post('/v1/invoice/refund')
    .send({ id, amount, refund_date: '2026-03-12', ...extra });
  if (response.status !== 200) {
    throw new Error(`refund answered ${response.status}: ${response.text}`);
  }
  return (response.body as { invoice: InvoiceOutput[] }).invoice[0];
}

/** Sends an invoice, which must be accepted. */
export async function sendInvoice(http: TestAgent, id: string, email: string): Promise<void> {
  await http.post('/v1/invoice/send').send({ id, email }).expect(200);
}
