import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import * as currencyCodes from 'currency-codes';
import DecimalJs from 'decimal.js';
import { createPool, Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';

/*
 * What a careful hand-written service would do for three of the API's operations: plain
 * node:http and a mysql2 pool of 10 (the service's size), exact decimals, and the same JSON as
 * the service, key for key and digit for digit. The API load benchmark runs it beside the
 * service to show what the framework and the data layer cost.
 *
 *   GET  /v1/invoice/{id}                    4 SELECTs (invoice with its VAT breakdown as
 *                                             JSON columns, lines, payments, send log joined
 *                                             with its outbox row), no transaction
 *   GET  /v1/invoice/all?page=&per_page=      one SELECT … LIMIT/OFFSET and one COUNT
 *   POST /v1/invoice/record-payment          BEGIN; SELECT … FOR UPDATE of the invoice with its
 *                                             lines, breakdown, ledger and send log as JSON;
 *                                             check; INSERT
 *                                             the entry; UPDATE the sums; INSERT the event (the
 *                                             invoice as read after the change, and what changed);
 *                                             INSERT … SELECT its webhook deliveries; COMMIT (a
 *                                             deadlock victim is retried, as there)
 *
 * The statements are the service's, in its order, so a difference is not the query plan.
 * Not here: request logs, metrics, helmet headers, rate limits: part of what the service pays.
 *
 * Alone: npx ts-node bench/raw-baseline.ts --database-url mysql://root@127.0.0.1:3306/<db>
 *        [--port 3100] [--api-key <key>]   (or BASELINE_API_KEY; no key: open)
 */

const Decimal = DecimalJs.clone({
  precision: 60,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -60,
  toExpPos: 60,
});
type Decimal = DecimalJs;

const POOL_SIZE = 10;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_PER_PAGE = 500;
const DEFAULT_PER_PAGE = 50;
const MAX_PAGE = 999_999_999;
const DEADLOCK_ATTEMPTS = 3;
const PAYMENT_METHODS = ['Cash', 'Bank Transfer', 'Cheque', 'Credit Card', 'Others'];
const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const INVOICE_COLUMNS =
  'id, short_code, invoice_no, description, client_id, customer_name, customer_phone, ' +
  'customer_address, customer_tax_id, customer_country, payment_status, currency, tax_rate, ' +
  'tax_name, tax_amount, sub_total, discount_percent, discount_amount, total, ' +
  'prices_include_tax, supply_date, period_start, period_end, amount_paid, issue_date, ' +
  'due_date, note, voided_at, void_reason, recurring_invoice_id, buyer_reference, order_reference';

// ---- JSON: numbers that must keep their digits are written from their decimal text ----

/** A JSON number written exactly as this text: money never passes through a double. */
class NumberText {
  constructor(readonly text: string) {}
}
type Json = string | number | boolean | null | NumberText | Json[] | { [key: string]: Json };

function writeJson(value: Json): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return JSON.stringify(value);
  }
  if (value instanceof NumberText) return value.text;
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  const members = Object.entries(value).map(
    ([key, item]) => `${JSON.stringify(key)}:${writeJson(item)}`,
  );
  return `{${members.join(',')}}`;
}

// ---- Money, as the service's mappers write it ----

const minorDigits = new Map<string, number>();
function minorUnits(currency: string): number {
  let digits = minorDigits.get(currency);
  if (digits === undefined) {
    digits = currencyCodes.code(currency)?.digits ?? 2;
    minorDigits.set(currency, digits);
  }
  return digits;
}

/** Text with exactly the currency's minor digits ("10.50"). */
function money(value: Decimal, currency: string): string {
  return value.toFixed(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

/** A unit price: at least the minor digits, at most 4. */
function rate(value: Decimal, currency: string): string {
  const places = Math.min(4, Math.max(minorUnits(currency), value.decimalPlaces()));
  return value.toFixed(places, Decimal.ROUND_HALF_UP);
}

// ---- Rows (DECIMAL and DATETIME come as text: dateStrings, decimals never as numbers) ----

interface InvoiceRow extends RowDataPacket {
  id: number;
  short_code: string;
  invoice_no: string;
  description: string;
  client_id: number;
  customer_name: string;
  customer_phone: string;
  customer_address: string;
  customer_tax_id: string;
  customer_country: string;
  payment_status: string;
  currency: string;
  tax_rate: string;
  /** The default tax's name: a line without taxes of its own carries (tax_name, tax_rate). */
  tax_name: string;
  tax_amount: string;
  sub_total: string;
  discount_percent: string | null;
  discount_amount: string;
  total: string;
  /** BOOLEAN (TINYINT): 0 or 1. */
  prices_include_tax: number | string;
  supply_date: string | null;
  period_start: string | null;
  period_end: string | null;
  amount_paid: string;
  issue_date: string;
  due_date: string;
  note: string;
  voided_at: string | null;
  void_reason: string;
  recurring_invoice_id: number | string | null;
  buyer_reference: string;
  order_reference: string;
  amount_credited?: string;
  created_at?: string;
  updated_at?: string;
}

/** The plain read of an invoice: also its VAT breakdown, column by column (see BREAKDOWN). */
interface InvoiceReadRow extends InvoiceRow {
  tax_breakdown: string | BreakdownColumns | null;
}

interface LineRow extends RowDataPacket {
  position: number;
  description: string;
  quantity: string;
  rate: string;
  amount: string;
  unit: string;
  discount_percent: string | null;
  discount_amount: string;
  /** JSON text `[{name, category, rate, …}]`, or NULL for the invoice's default tax. */
  taxes: string | StoredTax[] | null;
}

/** A line's own tax as the service stores it (rates as text). */
interface StoredTax {
  name: string;
  category: string;
  rate: string;
}

/** One VAT breakdown group. */
interface TaxGroupRow {
  position: number;
  name: string;
  category: string;
  rate: string;
  taxable_amount: string;
  tax_amount: string;
  exemption_reason: string;
  exemption_code: string;
}

/** The breakdown as BREAKDOWN reads it: one array per column, lined up; null arrays for none. */
type BreakdownColumns = { [K in keyof TaxGroupRow]: Array<TaxGroupRow[K]> | null };

interface PaymentRow extends RowDataPacket {
  id: number;
  status: string;
  reference: string;
  amount: string;
  method: string;
  payment_date: string;
  reason: string;
  credit_note_id: number | null;
  created_at: string;
}

interface SendRow extends RowDataPacket {
  id: number;
  email: string;
  sent_at: string;
  kind: string;
  delivery_status: string | null;
  attempts: number | null;
}

/** The invoice with its children as JSON arrays (numbers and dates as text), row-locked. */
interface LockedInvoiceRow extends InvoiceRow {
  line_items: string | LineRow[] | null;
  tax_breakdown: string | TaxGroupRow[] | null;
  ledger: string | PaymentRow[] | null;
  send_log: string | SendRow[] | null;
}

const EVENT_TYPE = 'invoice.payment_recorded';

/** JSON_ARRAYAGG of JSON_OBJECT(name, value, …) over the child rows, values kept as text. */
function childArray(columns: Record<string, string>, from: string): string {
  const fields = Object.entries(columns)
    .map(([name, value]) => `'${name}', ${value}`)
    .join(', ');
  return `(SELECT JSON_ARRAYAGG(JSON_OBJECT(${fields})) ${from})`;
}

/** A VAT breakdown group's columns, values kept as text (alias `b`). */
const BREAKDOWN_COLUMNS: { [K in keyof TaxGroupRow]: string } = {
  position: 'b.position',
  name: 'b.name',
  category: 'b.category',
  rate: 'CAST(b.rate AS CHAR)',
  taxable_amount: 'CAST(b.taxable_amount AS CHAR)',
  tax_amount: 'CAST(b.tax_amount AS CHAR)',
  exemption_reason: 'b.exemption_reason',
  exemption_code: 'b.exemption_code',
};

const LOCKED_DETAIL = `SELECT ${INVOICE_COLUMNS}, amount_credited,
    ${childArray(
      {
        position: 'l.position',
        description: 'l.description',
        quantity: 'CAST(l.quantity AS CHAR)',
        rate: 'CAST(l.rate AS CHAR)',
        amount: 'CAST(l.amount AS CHAR)',
        unit: 'l.unit',
        discount_percent: 'CAST(l.discount_percent AS CHAR)',
        discount_amount: 'CAST(l.discount_amount AS CHAR)',
        taxes: 'l.taxes',
      },
      'FROM invoice_line_items l WHERE l.invoice_id = i.id',
    )} AS line_items,
    ${childArray(
      BREAKDOWN_COLUMNS,
      'FROM invoice_tax_breakdown b WHERE b.invoice_id = i.id',
    )} AS tax_breakdown,
    ${childArray(
      {
        id: 'p.id',
        status: 'p.status',
        reference: 'p.reference',
        amount: 'CAST(p.amount AS CHAR)',
        method: 'p.method',
        payment_date: 'CAST(p.payment_date AS CHAR)',
        reason: 'p.reason',
        credit_note_id: 'p.credit_note_id',
        created_at: 'CAST(p.created_at AS CHAR)',
      },
      'FROM invoice_payments p WHERE p.invoice_id = i.id',
    )} AS ledger,
    ${childArray(
      {
        id: 'entry.id',
        email: 'entry.email',
        sent_at: 'CAST(entry.sent_at AS CHAR)',
        kind: 'entry.kind',
        delivery_status: 'delivery.status',
        attempts: 'delivery.attempts',
      },
      `FROM invoice_send_log entry
       LEFT JOIN document_outbox delivery ON delivery.kind = 'invoice' AND delivery.send_log_id = entry.id
       WHERE entry.invoice_id = i.id`,
    )} AS send_log
  FROM invoices i WHERE i.id = ? AND i.deleted_at IS NULL FOR UPDATE`;

/** A JSON array column: mysql2 parses JSON values itself; NULL when there are no rows. */
function childRows<R>(json: string | R[] | null): R[] {
  if (json === null) return [];
  return typeof json === 'string' ? (JSON.parse(json) as R[]) : json;
}

/**
 * The plain read's VAT breakdown, as the service reads every child table of a detail: a
 * correlated subquery in the invoice's own statement (no round trip more), one JSON array per
 * column rather than an object per row (bare columns keep MariaDB's aggregation table in memory).
 */
const BREAKDOWN = `(SELECT JSON_OBJECT(${Object.entries(BREAKDOWN_COLUMNS)
  .map(([name, value]) => `'${name}', JSON_ARRAYAGG(${value})`)
  .join(', ')}) FROM invoice_tax_breakdown b WHERE b.invoice_id = invoices.id)`;

/** The breakdown's rows from its column arrays, in position order. */
function breakdownRows(json: string | BreakdownColumns | null): TaxGroupRow[] {
  if (json === null) return [];
  const columns = typeof json === 'string' ? (JSON.parse(json) as BreakdownColumns) : json;
  const positions = columns.position ?? [];
  const rows = positions.map((position, index) => {
    const row = { position } as { [key: string]: unknown };
    for (const name of Object.keys(BREAKDOWN_COLUMNS) as Array<keyof TaxGroupRow>) {
      row[name] = columns[name]?.[index];
    }
    return row as unknown as TaxGroupRow;
  });
  return rows.sort((a, b) => a.position - b.position);
}

/** A line's own taxes: JSON text from a plain read, text or parsed from a JSON aggregate. */
function lineTaxes(taxes: LineRow['taxes']): StoredTax[] | null {
  if (taxes === null) return null;
  return typeof taxes === 'string' ? (JSON.parse(taxes) as StoredTax[]) : taxes;
}

/** `{field: [before, after]}` for each field of the invoice whose JSON text changed. */
function fieldChanges(
  before: { [key: string]: Json },
  after: { [key: string]: Json },
): { [key: string]: Json } {
  const changes: { [key: string]: Json } = {};
  for (const [field, value] of Object.entries(after)) {
    if (writeJson(before[field]) !== writeJson(value)) changes[field] = [before[field], value];
  }
  return changes;
}

/** Today's date in UTC, YYYY-MM-DD: what `overdue` is measured against. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** docs/rules.md: void; else paid when Paid; else overdue when due before today with a balance; else open. */
function invoiceStatus(row: InvoiceRow, outstanding: Decimal): string {
  if (row.voided_at !== null) return 'void';
  if (row.payment_status === 'Paid') return 'paid';
  return outstanding.gt(0) && row.due_date < today() ? 'overdue' : 'open';
}

function invoiceFields(row: InvoiceRow): { [key: string]: Json } {
  const total = new Decimal(row.total);
  const paid = new Decimal(row.amount_paid);
  const outstanding = total.minus(paid);
  return {
    id: String(row.id),
    short_code: row.short_code,
    invoice_no: row.invoice_no,
    description: row.description,
    customer_id: String(row.client_id),
    customer_name: row.customer_name,
    customer_phone: row.customer_phone,
    customer_address: row.customer_address,
    customer_tax_id: row.customer_tax_id,
    customer_country: row.customer_country,
    payment_status: row.payment_status,
    status: invoiceStatus(row, outstanding),
    void_reason: row.void_reason,
    recurring_invoice_id: row.recurring_invoice_id === null ? '' : String(row.recurring_invoice_id),
    buyer_reference: row.buyer_reference,
    order_reference: row.order_reference,
    currency: row.currency,
    tax_rate: new NumberText(new Decimal(row.tax_rate).toFixed()),
    tax_amount: new NumberText(money(new Decimal(row.tax_amount), row.currency)),
    sub_total: new NumberText(money(new Decimal(row.sub_total), row.currency)),
    total: new NumberText(money(total, row.currency)),
    amount_paid: money(paid, row.currency),
    outstanding_balance: money(outstanding, row.currency),
    issue_date: row.issue_date,
    due_date: row.due_date,
    note: row.note,
    discount_percent:
      row.discount_percent === null
        ? null
        : new NumberText(new Decimal(row.discount_percent).toFixed()),
    discount_amount: money(new Decimal(row.discount_amount), row.currency),
    prices_include_tax: Number(row.prices_include_tax) === 1,
    supply_date: row.supply_date ?? '',
    period_start: row.period_start ?? '',
    period_end: row.period_end ?? '',
  };
}

/** UNCL 5305: S (standard) for a rate above 0, Z (zero rated) for 0. */
function defaultCategory(rate: Decimal): string {
  return rate.gt(0) ? 'S' : 'Z';
}

/** DATETIME text from the driver is already the service's 'YYYY-MM-DD HH:MM:SS' (UTC). */
function timestamp(text: string): string {
  return text.slice(0, 19);
}

/** The read answer of an invoice (without the envelope's status): also an event's `data`. */
function invoiceAnswer(
  invoice: InvoiceRow,
  lines: LineRow[],
  breakdown: TaxGroupRow[],
  payments: PaymentRow[],
  sends: SendRow[],
): { [key: string]: Json } {
  const currency = invoice.currency;
  const documentRate = new Decimal(invoice.tax_rate);
  const defaultTaxes: Json = [
    {
      name: invoice.tax_name,
      category: defaultCategory(documentRate),
      rate: new NumberText(documentRate.toFixed()),
    },
  ];
  return {
    invoice: [invoiceFields(invoice)],
    items: lines.map((line) => {
      const taxes = lineTaxes(line.taxes);
      return {
        description: line.description,
        quantity: new NumberText(new Decimal(line.quantity).toFixed()),
        rate: rate(new Decimal(line.rate), currency),
        amount: money(new Decimal(line.amount), currency),
        unit: line.unit,
        discount_percent:
          line.discount_percent === null
            ? null
            : new NumberText(new Decimal(line.discount_percent).toFixed()),
        discount_amount: money(new Decimal(line.discount_amount), currency),
        taxes:
          taxes === null
            ? defaultTaxes
            : taxes.map((tax) => ({
                name: tax.name,
                category: tax.category,
                rate: new NumberText(new Decimal(tax.rate).toFixed()),
              })),
      };
    }),
    tax_breakdown: breakdown.map((group) => ({
      name: group.name,
      category: group.category,
      rate: new NumberText(new Decimal(group.rate).toFixed()),
      taxable_amount: money(new Decimal(group.taxable_amount), currency),
      tax_amount: money(new Decimal(group.tax_amount), currency),
      exemption_reason: group.exemption_reason,
      exemption_code: group.exemption_code,
    })),
    payments: payments.map((payment) => ({
      status: payment.status,
      reference: payment.reference,
      amount: new NumberText(money(new Decimal(payment.amount), currency)),
      bank: payment.method,
      payment_date: payment.payment_date,
      created_at: timestamp(payment.created_at),
      reason: payment.reason,
      credit_note_id: payment.credit_note_id === null ? '' : String(payment.credit_note_id),
    })),
    send_log: sends.map((entry) => ({
      email: entry.email,
      date: timestamp(entry.sent_at),
      // A message being sent still shows queued; a send without an outbox row never went.
      delivery:
        entry.delivery_status === null
          ? 'failed'
          : entry.delivery_status === 'sending'
            ? 'queued'
            : entry.delivery_status,
      attempts: entry.attempts ?? 0,
      kind: entry.kind,
    })),
  };
}

// ---- HTTP ----

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }

  static invalid(field: string, message: string): HttpError {
    return new HttpError(422, 'The given data was invalid', { [field]: [message] });
  }
}

function reply(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new HttpError(413, 'The request body is too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Digits only, leading zeros ignored; null when it names no possible row. */
function parseId(text: unknown): number | null {
  if (typeof text !== 'string' || !/^\d+$/.test(text)) return null;
  const id = Number(text.replace(/^0+(?=\d)/, ''));
  return Number.isSafeInteger(id) && id > 0 && id <= 0xffffffff ? id : null;
}

function wholeNumber(text: string | null, field: string, max: number): number | undefined {
  if (text === null) return undefined;
  const value = /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(value >= 1 && value <= max)) {
    throw HttpError.invalid(field, `${field} must be a whole number from 1 to ${max}`);
  }
  return value;
}

function isCalendarDate(text: unknown): text is string {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
}

function paymentReference(): string {
  let code = 'PAY-';
  for (let index = 0; index < 16; index++) code += REFERENCE_ALPHABET[randomInt(32)];
  return code;
}

/** UTC, whole seconds, as the service's clock. */
function now(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

export class RawBaseline {
  /** `actor` is what the service records events by: its API key's short id, or `open`. */
  constructor(
    private readonly pool: Pool,
    private readonly actor: string,
  ) {}

  async invoice(id: number): Promise<string> {
    const [invoices] = await this.pool.execute<InvoiceReadRow[]>(
      `SELECT ${INVOICE_COLUMNS}, ${BREAKDOWN} AS tax_breakdown
       FROM invoices WHERE id = ? AND deleted_at IS NULL`,
      [id],
    );
    if (invoices.length === 0) throw new HttpError(404, `Invoice ${id} not found`);
    const invoice = invoices[0];
    const [lines] = await this.pool.execute<LineRow[]>(
      'SELECT description, quantity, rate, amount, unit, discount_percent, discount_amount, taxes FROM invoice_line_items WHERE invoice_id = ? ORDER BY position',
      [id],
    );
    const [payments] = await this.pool.execute<PaymentRow[]>(
      'SELECT status, reference, amount, method, payment_date, reason, credit_note_id, created_at FROM invoice_payments WHERE invoice_id = ? ORDER BY id',
      [id],
    );
    const [sends] = await this.pool.execute<SendRow[]>(
      `SELECT entry.email, entry.sent_at, entry.kind, delivery.status AS delivery_status, delivery.attempts
       FROM invoice_send_log entry
       LEFT JOIN document_outbox delivery ON delivery.kind = 'invoice' AND delivery.send_log_id = entry.id
       WHERE entry.invoice_id = ? ORDER BY entry.id`,
      [id],
    );
    const breakdown = breakdownRows(invoice.tax_breakdown);
    return writeJson({
      status: 'success',
      ...invoiceAnswer(invoice, lines, breakdown, payments, sends),
    });
  }

  async list(query: URLSearchParams): Promise<string> {
    const pageParam = wholeNumber(query.get('page'), 'page', MAX_PAGE);
    const perPageParam = wholeNumber(query.get('per_page'), 'per_page', MAX_PER_PAGE);
    const columns = `${INVOICE_COLUMNS}, created_at, updated_at`;
    const live = 'FROM invoices WHERE deleted_at IS NULL';
    const toItem = (row: InvoiceRow) => ({
      ...invoiceFields(row),
      created_at: timestamp(row.created_at ?? ''),
      updated_at: timestamp(row.updated_at ?? ''),
    });
    if (pageParam === undefined && perPageParam === undefined) {
      const [rows] = await this.pool.query<InvoiceRow[]>(`SELECT ${columns} ${live} ORDER BY id`);
      return writeJson({ status: 'success', data: rows.map(toItem) });
    }
    const page = pageParam ?? 1;
    const perPage = perPageParam ?? DEFAULT_PER_PAGE;
    const [rows] = await this.pool.execute<InvoiceRow[]>(
      `SELECT ${columns} ${live} ORDER BY id LIMIT ? OFFSET ?`,
      [perPage, (page - 1) * perPage],
    );
    const [counted] = await this.pool.execute<RowDataPacket[]>(`SELECT COUNT(*) AS total ${live}`);
    return writeJson({
      status: 'success',
      data: rows.map(toItem),
      meta: { page, per_page: perPage, total: Number((counted[0] as { total: number }).total) },
    });
  }

  async recordPayment(body: string): Promise<string> {
    let input: { [key: string]: unknown };
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
      input = parsed as { [key: string]: unknown };
    } catch {
      throw new HttpError(400, 'The request body is not valid JSON');
    }
    if (input.id === undefined) throw HttpError.invalid('id', 'id is required');
    if (typeof input.id !== 'string' || !/^\d+$/.test(input.id)) {
      throw HttpError.invalid('id', 'id must be a string of digits');
    }
    const id = parseId(input.id);
    if (id === null) throw new HttpError(404, `Invoice ${input.id} not found`);
    if (!isCalendarDate(input.payment_date)) {
      throw HttpError.invalid('payment_date', 'payment_date must be a date YYYY-MM-DD');
    }
    const amountText =
      typeof input.amount_paid === 'number' ? String(input.amount_paid) : input.amount_paid;
    if (typeof amountText !== 'string' || !/^\d+(\.\d{1,4})?$/.test(amountText.trim())) {
      throw HttpError.invalid('amount_paid', 'amount_paid must be a decimal with at most 4 places');
    }
    const amount = new Decimal(amountText.trim());
    if (amount.lte(0) || amount.gte('1e13')) {
      throw HttpError.invalid('amount_paid', 'amount_paid must be above 0 and below 10^13');
    }
    let method = 'Others';
    if (input.payment_method !== undefined) {
      const named = PAYMENT_METHODS.find(
        (known) =>
          typeof input.payment_method === 'string' &&
          known.toLowerCase() === input.payment_method.trim().toLowerCase(),
      );
      if (!named) throw HttpError.invalid('payment_method', 'payment_method is not a known method');
      method = named;
    }
    const paymentDate = input.payment_date;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.inTransaction((connection) =>
          this.pay(connection, id, amount, method, paymentDate),
        );
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'ER_LOCK_DEADLOCK' || attempt >= DEADLOCK_ATTEMPTS) throw error;
      }
    }
  }

  private async pay(
    connection: PoolConnection,
    id: number,
    amount: Decimal,
    method: string,
    paymentDate: string,
  ): Promise<string> {
    // The invoice locked and read whole in one statement, as the service does: the event
    // records it after the change without reading it again.
    const [invoices] = await connection.execute<LockedInvoiceRow[]>(LOCKED_DETAIL, [id]);
    if (invoices.length === 0) throw new HttpError(404, `Invoice ${id} not found`);
    const invoice = invoices[0];
    // A void invoice takes no change but archiving.
    if (invoice.voided_at !== null) {
      throw new HttpError(409, `Invoice ${invoice.invoice_no} is void`);
    }
    const digits = minorUnits(invoice.currency);
    if (amount.decimalPlaces() > digits) {
      throw HttpError.invalid(
        'amount_paid',
        `amount_paid must have at most ${digits} decimals for ${invoice.currency}`,
      );
    }
    const paid = new Decimal(invoice.amount_paid);
    const outstanding = new Decimal(invoice.total).minus(paid);
    if (amount.gt(outstanding)) {
      const left = money(outstanding, invoice.currency);
      throw new HttpError(422, `The payment exceeds the outstanding balance of ${left}`, {
        amount_paid: [`amount_paid must not exceed the outstanding balance ${left}`],
      });
    }
    const newPaid = paid.plus(amount);
    const status = outstanding.minus(amount).lte(0) ? 'Paid' : invoice.payment_status;
    const at = now();
    const entry = {
      status: 'Completed',
      reference: paymentReference(),
      amount: amount.toFixed(4),
      method,
      payment_date: paymentDate,
      reason: '',
      credit_note_id: null,
      created_at: at,
    };
    await connection.execute(
      'INSERT INTO invoice_payments (invoice_id, reference, status, amount, method, payment_date, reason, credit_note_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [id, entry.reference, entry.status, entry.amount, method, paymentDate, '', null, at],
    );
    // The ledger's sums, as the service writes them after every move.
    await connection.execute(
      'UPDATE invoices SET amount_paid = ?, amount_credited = ?, payment_status = ?, updated_at = ? WHERE id = ?',
      [newPaid.toFixed(4), invoice.amount_credited ?? '0', status, at, id],
    );
    const lines = childRows<LineRow>(invoice.line_items).sort((a, b) => a.position - b.position);
    const breakdown = childRows<TaxGroupRow>(invoice.tax_breakdown).sort(
      (a, b) => a.position - b.position,
    );
    const payments = childRows<PaymentRow>(invoice.ledger).sort((a, b) => a.id - b.id);
    const sends = childRows<SendRow>(invoice.send_log).sort((a, b) => a.id - b.id);
    const changed = { ...invoice, amount_paid: newPaid.toFixed(4), payment_status: status };
    const after = invoiceAnswer(
      changed,
      lines,
      breakdown,
      [...payments, entry as PaymentRow],
      sends,
    );
    const [event] = await connection.execute<ResultSetHeader>(
      'INSERT INTO events (type, created_at, actor, object, object_id, data, changes) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        EVENT_TYPE,
        at,
        this.actor,
        'invoice',
        id,
        writeJson(after),
        writeJson(fieldChanges(invoiceFields(invoice), invoiceFields(changed))),
      ],
    );
    // The service's fan-out: one delivery per subscribed endpoint, in the same statement.
    await connection.execute(
      `INSERT INTO webhook_deliveries
         (event_id, endpoint_id, status, attempts, next_attempt_at, claimed_at, delivered_at,
          last_error, last_status_code, created_at)
       SELECT ?, id, 'queued', 0, ?, NULL, NULL, '', NULL, ?
       FROM webhook_endpoints
       WHERE enabled = 1 AND deleted_at IS NULL
         AND (events LIKE '%"*"%' OR events LIKE ? ESCAPE '!')`,
      [event.insertId, at, at, `%"${EVENT_TYPE.replace(/[!%_]/g, '!$&')}"%`],
    );
    const shown = money(amount, invoice.currency);
    return writeJson({
      status: 'success',
      message: `Payment of ${shown} ${invoice.currency} recorded for invoice ${invoice.invoice_no}`,
    });
  }

  private async inTransaction<T>(work: (connection: PoolConnection) => Promise<T>): Promise<T> {
    const connection = await this.pool.getConnection();
    try {
      await connection.query('BEGIN');
      const result = await work(connection);
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      await connection.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      connection.release();
    }
  }
}

export interface RawBaselineOptions {
  /** mysql://user@host:port/database (mariadb:// is taken as mysql://). */
  databaseUrl: string;
  port?: number;
  host?: string;
  /** Required as `Authorization: Bearer <key>` when given (checked as the service does). */
  apiKey?: string;
}

export interface RunningBaseline {
  url: string;
  close(): Promise<void>;
}

export async function startRawBaseline(options: RawBaselineOptions): Promise<RunningBaseline> {
  const pool = createPool({
    uri: options.databaseUrl.replace(/^mariadb:/, 'mysql:'),
    connectionLimit: POOL_SIZE,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  const keyDigest = options.apiKey ? sha256(options.apiKey) : null;
  const baseline = new RawBaseline(pool, keyDigest?.toString('hex').slice(0, 12) ?? 'open');
  const server = createServer((request, response) => {
    void handle(baseline, keyDigest, request, response);
  });
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function authorised(keyDigest: Buffer | null, header: string | undefined): boolean {
  if (keyDigest === null) return true;
  const key = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return timingSafeEqual(sha256(key), keyDigest);
}

async function handle(
  baseline: RawBaseline,
  keyDigest: Buffer | null,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    const url = new URL(request.url ?? '/', 'http://baseline');
    const path = url.pathname;
    if (!authorised(keyDigest, request.headers.authorization)) {
      response.setHeader('www-authenticate', 'Bearer');
      throw new HttpError(401, 'A valid API key is required');
    }
    if (request.method === 'GET' && path === '/v1/invoice/all') {
      return reply(response, 200, await baseline.list(url.searchParams));
    }
    if (request.method === 'POST' && path === '/v1/invoice/record-payment') {
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        throw new HttpError(415, 'The request body must be JSON');
      }
      return reply(response, 200, await baseline.recordPayment(await readBody(request)));
    }
    const match = /^\/v1\/invoice\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && match) {
      const id = parseId(match[1]);
      if (id === null) throw new HttpError(404, `Invoice ${match[1]} not found`);
      return reply(response, 200, await baseline.invoice(id));
    }
    throw new HttpError(404, 'Not found');
  } catch (error) {
    if (error instanceof HttpError) {
      const body: { [key: string]: Json } = { status: 'error', message: error.message };
      if (error.errors) body.errors = error.errors;
      return reply(response, error.status, writeJson(body));
    }
    // Nothing internal in the answer: driver messages quote the values sent.
    console.error('baseline: unexpected error', (error as { code?: string }).code ?? error);
    reply(response, 500, writeJson({ status: 'error', message: 'Internal server error' }));
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      port: { type: 'string', default: '3100' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string' },
    },
  });
  const databaseUrl = values['database-url'];
  if (!databaseUrl) throw new Error('--database-url mysql://user@host:3306/<database> is required');
  const baseline = await startRawBaseline({
    databaseUrl,
    port: Number(values.port),
    host: values.host,
    apiKey: values['api-key'] ?? process.env.BASELINE_API_KEY,
  });
  console.log(`raw baseline listening on ${baseline.url}`);
  const stop = () => void baseline.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
