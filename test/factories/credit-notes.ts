import type TestAgent from 'supertest/lib/agent';
import {
  CreditNoteDto,
  CreditNoteReadResponseDto,
  CreditNoteWriteResponseDto,
} from '../../src/credit-notes/dto/credit-note-response.dto';
import { documentedKeys } from '../setup/expectations';
import { InvoiceOutput, LineItemInput, LineItemRead, SendLogEntry } from './invoices';

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
export interface CreditNoteOutput {
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
  invoice: InvoiceOutput[];
}

/** `GET /credit-note/{id}`. */
export interface CreditNoteDetail {
  credit_note: CreditNoteOutput[];
  items: LineItemRead[];
  send_log: SendLogEntry[];
}

/** Exact key sets, sorted, of each output shape. */
export const CREDIT_NOTE_KEYS = documentedKeys(CreditNoteDto);
export const CREDIT_NOTE_WRITE_KEYS = documentedKeys(CreditNoteWriteResponseDto);
export const CREDIT_NOTE_READ_KEYS = documentedKeys(CreditNoteReadResponseDto);

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
