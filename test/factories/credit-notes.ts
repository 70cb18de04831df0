import type TestAgent from 'supertest/lib/agent';
import { keyList } from '../setup/expectations';
import {
  InvoiceOutput,
  LineItemInput,
  LineItemRead,
  SendLogEntry,
  TAX_TERMS_KEYS,
  TaxGroupOutput,
  TaxTermsFields,
} from './invoices';

export interface CreditNoteInput {
  invoice?: string;
  credit_note_no?: string;
  items?: LineItemInput[];
  issue_date?: string;
  reason?: string;
  note?: string;
  refund?: boolean | string;
}

/** A credit note in every output. */
export interface CreditNoteOutput extends TaxTermsFields {
  id: string;
  short_code: string;
  credit_note_no: string;
  invoice_id: string;
  invoice_no: string;
  customer_id: string;
  customer_name: string;
  customer_phone: string;
  customer_address: string;
  customer_tax_id: string;
  customer_country: string;
  currency: string;
  tax_rate: number;
  tax_amount: number;
  sub_total: number;
  total: number;
  refunded: string;
  issue_date: string;
  reason: string;
  note: string;
  created_at: string;
}

/** `POST /credit-note/add`. */
export interface CreditNoteWriteResult {
  credit_note: CreditNoteOutput[];
  items: LineItemRead[];
  tax_breakdown: TaxGroupOutput[];
  invoice: InvoiceOutput[];
}

/** `GET /credit-note/{id}`. */
export interface CreditNoteDetail {
  credit_note: CreditNoteOutput[];
  items: LineItemRead[];
  tax_breakdown: TaxGroupOutput[];
  send_log: SendLogEntry[];
}

/*
 * The exact key list of each output shape, written by hand. Credit notes are an extension
 * (docs/corrections.md) with no shape in the specification: the keys are those the published
 * document states (docs/openapi.json), the customer and price keys in the specification's
 * invoice order. Never read from the response classes, so a key dropped from the code fails.
 */

/** GET /credit-note/all, and "credit_note" of GET /credit-note/{id} and POST /credit-note/add. */
export const CREDIT_NOTE_KEYS = keyList(
  'id short_code credit_note_no invoice_id invoice_no customer_id customer_name customer_phone',
  'customer_address customer_tax_id customer_country currency tax_rate tax_amount sub_total total',
  'refunded issue_date reason note created_at',
  // extensions: taxes, discounts, dates of supply (docs/rules.md)
  ...TAX_TERMS_KEYS,
);

/** POST /credit-note/add, besides `status`: the note, its lines with amounts, the invoice. */
export const CREDIT_NOTE_WRITE_KEYS = keyList('credit_note items tax_breakdown invoice');

/** GET /credit-note/{id}, besides `status`: the note, its lines and its send log. */
export const CREDIT_NOTE_READ_KEYS = keyList('credit_note items tax_breakdown send_log');

let sequence = 0;

/** A unique credit note number, for this test file's database. */
export function creditNoteNumber(prefix = 'CN'): string {
  sequence += 1;
  return `${prefix}-${String(sequence).padStart(4, '0')}`;
}

/** Input for a credit note on the invoice: a unique number, one line of 10.00 unless given. */
export function creditNoteInput(invoice: string, input: CreditNoteInput = {}): CreditNoteInput {
  return {
    invoice,
    credit_note_no: creditNoteNumber(),
    items: [{ description: 'Correction', quantity: 1, rate: '10.00' }],
    ...input,
  };
}

/** Issues a credit note that must be accepted; answers the whole write result. */
export async function addCreditNote(
  http: TestAgent,
  invoice: string,
  input: CreditNoteInput = {},
): Promise<CreditNoteWriteResult> {
  const response = await http.post('/v1/credit-note/add').send(creditNoteInput(invoice, input));
  if (response.status !== 200) {
    throw new Error(`addCreditNote answered ${response.status}: ${response.text}`);
  }
  return response.body as CreditNoteWriteResult;
}

export async function readCreditNote(http: TestAgent, id: string): Promise<CreditNoteDetail> {
  const response = await http.get(`/v1/credit-note/${id}`).expect(200);
  return response.body as CreditNoteDetail;
}
