import type TestAgent from 'supertest/lib/agent';
import { keyList } from '../setup/expectations';
import { createClient } from './clients';
import {
  LineItemRead,
  SendLogEntry,
  TAX_TERMS_KEYS,
  TaxGroupOutput,
  TaxTermsFields,
} from './invoices';

export interface EstimateLineInput {
  description?: string;
  quantity?: string | number;
  rate?: string | number;
}

export interface EstimateInput {
  client?: string;
  estimate_no?: string;
  accepted?: string | boolean;
  description?: string;
  currency?: string;
  tax_rate?: string | number;
  issue_date?: string;
  due_date?: string;
  note?: string;
  items?: EstimateLineInput[];
}

/** The estimate fields every output shares; the number is named per output. */
interface EstimateCommon extends TaxTermsFields {
  id: string;
  short_code: string;
  description: string;
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
  accepted: 'True' | 'False';
  issue_date: string;
  due_date: string;
  note: string;
}

/** An estimate in the list and the read: `reference_no`, no timestamps. */
export interface EstimateListItem extends EstimateCommon {
  reference_no: string;
}

/** An estimate embedded in `GET /client/{id}`: `reference_no` and timestamps. */
export interface EstimateClientItem extends EstimateListItem {
  created_at: string;
  updated_at: string;
}

/** An estimate in the add and update outputs: `estimate_no`, no timestamps. */
export interface EstimateWritten extends EstimateCommon {
  estimate_no: string;
}

export interface EstimateLineWrite {
  description: string;
  quantity: number;
  rate: string;
}

/** A line as a read answers it: the same as an invoice's. */
export type EstimateLineRead = LineItemRead;

/** A send log entry: the same as an invoice's. */
export type EstimateSendLogEntry = SendLogEntry;

/** `GET /estimate/{id}`. */
export interface EstimateDetail {
  status: string;
  estimate: EstimateListItem[];
  items: EstimateLineRead[];
  tax_breakdown: TaxGroupOutput[];
  send_log: EstimateSendLogEntry[];
}

/** `POST /estimate/add` and `PUT /estimate/{id}`. */
export interface EstimateWriteResult {
  status: string;
  estimate: EstimateWritten[];
  items: EstimateLineWrite[];
  tax_breakdown: TaxGroupOutput[];
}

/*
 * The exact key list of each output shape, written by hand: the specification's keys in its
 * order, then the extensions the docs state. Never read from the response classes, so a key
 * dropped from the code fails here.
 */

/** GET /estimate/all, GET /estimate/{id} ("estimate"): an Estimate with reference_no. */
export const ESTIMATE_LIST_KEYS = keyList(
  'id short_code reference_no description customer_id customer_name customer_phone',
  'customer_address currency tax_rate tax_amount sub_total total accepted issue_date due_date note',
  // extensions: the customer's tax id and country, copied (docs/decisions.md, docs/documents.md)
  'customer_tax_id customer_country',
  // extensions: taxes, discounts, dates of supply (docs/rules.md)
  ...TAX_TERMS_KEYS,
  // extension: whether it is a draft (docs/numbering.md)
  'draft',
);

/** POST /estimate/add, PUT /estimate/{id} ("estimate"): an Estimate with estimate_no. */
export const ESTIMATE_WRITE_KEYS = keyList(
  'id short_code estimate_no description customer_id customer_name customer_phone',
  'customer_address currency tax_rate tax_amount sub_total total accepted issue_date due_date note',
  // extensions: the customer's tax id and country, copied (docs/decisions.md, docs/documents.md)
  'customer_tax_id customer_country',
  // extensions: taxes, discounts, dates of supply (docs/rules.md)
  ...TAX_TERMS_KEYS,
  // extension: whether it is a draft (docs/numbering.md)
  'draft',
);

/** GET /client/{id} ("estimates"): an Estimate with reference_no and timestamps. */
export const ESTIMATE_CLIENT_KEYS = keyList(
  'id short_code reference_no description customer_id customer_name customer_phone',
  'customer_address currency tax_rate tax_amount sub_total total accepted issue_date due_date note',
  'created_at updated_at',
  // extensions: the customer's tax id and country, copied (docs/decisions.md, docs/documents.md)
  'customer_tax_id customer_country',
  // extensions: taxes, discounts, dates of supply (docs/rules.md)
  ...TAX_TERMS_KEYS,
  // extension: whether it is a draft (docs/numbering.md)
  'draft',
);

/** An estimate's line items and send log have the same keys as an invoice's. */
export { LINE_READ_KEYS, LINE_WRITE_KEYS, SEND_LOG_KEYS } from './invoices';
/** An estimate's extensions take the same values as an invoice's. */
export { plainReadLine, plainTaxBreakdown, plainTaxTerms } from './invoices';

let sequence = 0;

/** A unique estimate number, for this test file's database. */
export function estimateNumber(prefix = 'EST'): string {
  sequence += 1;
  return `${prefix}-${String(sequence).padStart(4, '0')}`;
}

/** Input for a new estimate of the given client: a unique number, one line of 1 × 100.00. */
export function estimateInput(client: string, input: EstimateInput = {}): EstimateInput {
  return {
    client,
    estimate_no: estimateNumber(),
    items: [{ description: 'Design work', quantity: 1, rate: '100.00' }],
    ...input,
  };
}

/** `count` lines, each 1 × 1.00 unless told otherwise. */
export function estimateLines(count: number, item: EstimateLineInput = {}): EstimateLineInput[] {
  return Array.from({ length: count }, (_, index) => ({
    description: `Line ${index + 1}`,
    quantity: 1,
    rate: '1.00',
    ...item,
  }));
}

/** Creates an estimate through the API (and a client for it unless given); answers the output. */
export async function addEstimate(
  http: TestAgent,
  input: EstimateInput = {},
): Promise<EstimateWriteResult> {
  const client = input.client ?? (await createClient(http));
  const response = await http.post('/v1/estimate/add').send(estimateInput(client, input));
  if (response.status !== 200) {
    throw new Error(`addEstimate answered ${response.status}: ${response.text}`);
  }
  return response.body as EstimateWriteResult;
}

/** Creates an estimate through the API and answers the estimate as added. */
export async function createEstimate(
  http: TestAgent,
  input: EstimateInput = {},
): Promise<EstimateWritten> {
  return (await addEstimate(http, input)).estimate[0];
}

export async function readEstimate(http: TestAgent, id: string): Promise<EstimateDetail> {
  const response = await http.get(`/v1/estimate/${id}`).expect(200);
  return response.body as EstimateDetail;
}

export async function listEstimates(http: TestAgent): Promise<EstimateListItem[]> {
  const response = await http.get('/v1/estimate/all').expect(200);
  return (response.body as { data: EstimateListItem[] }).data;
}

/** The client's estimates as `GET /client/{id}` embeds them. */
export async function clientEstimates(
  http: TestAgent,
  client: string,
): Promise<EstimateClientItem[]> {
  const response = await http.get(`/v1/client/${client}`).expect(200);
  return (response.body as { estimates: EstimateClientItem[] }).estimates;
}

/** Sends an estimate, which must be accepted. */
export async function sendEstimate(http: TestAgent, id: string, email: string): Promise<void> {
  await http.post('/v1/estimate/send').send({ id, email }).expect(200);
}
