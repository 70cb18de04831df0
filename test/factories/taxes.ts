import { isLosslessNumber, parse } from 'lossless-json';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { creditNoteNumber } from './credit-notes';
import { estimateNumber } from './estimates';
import { invoiceNumber, TaxGroupOutput } from './invoices';

/*
 * Inputs of the document model of docs/rules.md, "Taxes, discounts, units, dates of supply":
 * a line's unit, discount and taxes, a document's discount, prices including tax and date of
 * supply or period. The plain factories (invoices.ts, estimates.ts) send none of them.
 */

/** One tax of a line. */
export interface LineTaxInput {
  rate: string | number;
  category?: string;
  name?: string;
  exemption_reason?: string;
  exemption_code?: string;
}

export interface TaxedLineInput {
  description: string;
  quantity: string | number;
  rate: string | number;
  unit?: string;
  discount_percent?: string | number;
  discount_amount?: string | number;
  taxes?: LineTaxInput[];
}

/** What every kind of document takes beside its lines (a credit note all but prices_include_tax). */
export interface TaxTermsInput {
  discount_percent?: string | number | null;
  discount_amount?: string | number | null;
  prices_include_tax?: boolean;
  supply_date?: string | null;
  period_start?: string | null;
  period_end?: string | null;
}

export interface TaxedDocumentInput extends TaxTermsInput {
  client: string;
  currency?: string;
  tax_rate?: string | number;
  issue_date?: string;
  due_date?: string;
  description?: string;
  note?: string;
  items: TaxedLineInput[];
}

export interface TaxedInvoiceInput extends TaxedDocumentInput {
  invoice_no?: string;
  payment_status?: string;
}

export interface TaxedEstimateInput extends TaxedDocumentInput {
  estimate_no?: string;
}

export interface TaxedCreditNoteInput extends Omit<TaxTermsInput, 'prices_include_tax'> {
  credit_note_no?: string;
  items: TaxedLineInput[];
  issue_date?: string;
  reason?: string;
}

/** The issue date of the documents these factories make unless told: any fixed day will do. */
export const TAXED_ISSUE_DATE = '2026-03-02';

/** An invoice's add request: a unique number, Not Paid, issued on TAXED_ISSUE_DATE. */
export function taxedInvoiceInput(input: TaxedInvoiceInput): TaxedInvoiceInput {
  return {
    invoice_no: invoiceNumber('TAX'),
    payment_status: 'Not Paid',
    issue_date: TAXED_ISSUE_DATE,
    ...input,
  };
}

/** `POST /invoice/add`, answered as it is (refusals included). */
export function postTaxedInvoice(http: TestAgent, input: TaxedInvoiceInput) {
  return http.post('/v1/invoice/add').send(taxedInvoiceInput(input));
}

/** `POST /estimate/add`: a unique number, issued on TAXED_ISSUE_DATE. */
export function postTaxedEstimate(http: TestAgent, input: TaxedEstimateInput) {
  return http.post('/v1/estimate/add').send({
    estimate_no: estimateNumber('TAX-EST'),
    issue_date: TAXED_ISSUE_DATE,
    ...input,
  });
}

/** `POST /credit-note/add` on the invoice: a unique number. */
export function postTaxedCreditNote(http: TestAgent, invoice: string, input: TaxedCreditNoteInput) {
  return http
    .post('/v1/credit-note/add')
    .send({ invoice, credit_note_no: creditNoteNumber('TAX-CN'), ...input });
}

/** One entry of `tax_breakdown`, money as text with the currency's minor digits. */
export function taxGroup(
  name: string,
  category: string,
  rate: number,
  taxable_amount: string,
  tax_amount: string,
  exemption: { reason?: string; code?: string } = {},
): TaxGroupOutput {
  return {
    name,
    category,
    rate,
    taxable_amount,
    tax_amount,
    exemption_reason: exemption.reason ?? '',
    exemption_code: exemption.code ?? '',
  };
}

export interface WrittenMoney {
  sub_total: string;
  tax_amount: string;
  total: string;
}

/**
 * The JSON numbers `sub_total`, `tax_amount` and `total` of the first document under `key`
 * (`invoice`, `estimate`, `credit_note`) exactly as the body writes them, digit for digit.
 */
export function writtenMoney(response: Response, key: string): WrittenMoney {
  const body = parse(response.text) as Record<string, Array<Record<string, unknown>>>;
  const document = body[key][0];
  const raw = (field: keyof WrittenMoney): string => {
    const value = document[field];
    if (!isLosslessNumber(value)) throw new Error(`${key}.${field} is not a JSON number`);
    return value.value;
  };
  return { sub_total: raw('sub_total'), tax_amount: raw('tax_amount'), total: raw('total') };
}

/** Money text in minor units, as an exact integer: "274.69" → 27469n. */
export function minorUnits(money: string): bigint {
  const [whole, fraction = ''] = money.split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * BigInt(`${whole.replace('-', '')}${fraction}`);
}
