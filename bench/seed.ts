import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Connection, createConnection } from 'mysql2/promise';

/*
 * Seeds a benchmark database straight through the schema (the migrations make the tables, then
 * bulk multi-row inserts fill them), far faster than going through the API. Every invoice is
 * consistent money: 3 lines summing to its sub-total, 25 % tax, total 1000.00, one VAT
 * breakdown group (the default tax `Tax`, category S, taxable = sub-total: what the taxes
 * migration gives every earlier document; no discounts, net prices, so the sums checks hold),
 * and a ledger that sums to its amount paid. Each invoice is one of four kinds (SeedPlan.kind), interleaved
 * by a hash of its id so that every status has rows all along the id range:
 *
 *   unpaid   77 %  one payment of 100.00, 900.00 outstanding (thousands of 0.01 payments fit);
 *                  its due date is spread over the year before the run's date and the quarter
 *                  after, so about 7 in 8 are overdue on the day of the run and the rest open
 *   paid     20 %  Paid, one payment of 1000.00
 *   settled   2 %  Not Paid (set by hand) with nothing outstanding: one payment of 1000.00; open
 *   void      1 %  voided before anything was received: no ledger entry, amount paid 0
 *
 * Every unpaid, paid and settled invoice's ledger entry is dated on its issue date, so the
 * receivables reports (aging, profit and loss on either basis, tax summary, client statements)
 * have a year of invoices and payments to sum; one expense per EXPENSE_EVERY invoices, in one of
 * the eleven categories, is dated over the same year. No credit notes or refunds are seeded.
 *
 * Dates are relative to the day the seed is made (UTC), so `overdue` and `open` mean the same
 * thing in every run; a kept MariaDB seed made on another day is seeded again.
 */

const ROOT = resolve(__dirname, '..');

/** The part of better-sqlite3 the seed uses (the package ships no type declarations). */
interface SqliteStatement {
  run(parameters: SqlValue[]): unknown;
}
interface SqliteDatabase {
  pragma(statement: string): unknown;
  prepare(sql: string): SqliteStatement;
  transaction(work: () => void): () => void;
  close(): void;
}
const Sqlite = createRequire(__filename)('better-sqlite3') as new (file: string) => SqliteDatabase;
const run = promisify(execFile);

/** The client that holds exactly BUSY_CLIENT_INVOICES invoices (ids 1 to 50). */
export const BUSY_CLIENT_ID = 1;
export const BUSY_CLIENT_INVOICES = 50;
const INVOICES_PER_CLIENT = 20;
/** Invoices 1, 1001, 2001… have one send-log entry, delivered. */
const SENT_EVERY = 1000;
/** Invoices 1, 11, 21… come with one expense each (expense ids 1, 2, 3…). */
const EXPENSE_EVERY = 10;
export const SMALLEST_SEED = 100;

export const SEED_TOTAL = '1000.00';
export const SEED_PAID = '100.00';
const SEED_TAX_RATE = '25';
const SEED_LINES = [
  { description: 'Consulting hours', quantity: '2', rate: '150', amount: '300' },
  { description: 'Software licence', quantity: '1', rate: '250', amount: '250' },
  { description: 'Support tickets', quantity: '5', rate: '50', amount: '250' },
];
const SEED_SUB_TOTAL = '800';
const SEED_TAX_AMOUNT = '200';
/** The default tax's name (TAX_NAME's default) and its UNCL 5305 category: S above 0, else Z. */
const SEED_TAX_NAME = 'Tax';
const SEED_TAX_CATEGORY = Number(SEED_TAX_RATE) > 0 ? 'S' : 'Z';
const SEED_NOTE = 'Thank you for your business.';
const SEED_VOID_REASON = 'Issued in error';

/** What a seeded invoice is apart from today's date: the generated column `settlement`. */
export type SeedKind = 'void' | 'paid' | 'settled' | 'unpaid';
/** Its status as the API computes it (docs/rules.md): the kind, and the due date against today. */
export type SeedStatus = 'open' | 'overdue' | 'paid' | 'void';

/** Of every 1,000 invoices, how many are of each kind. */
const KIND_SHARES: Array<[SeedKind, number]> = [
  ['void', 10],
  ['paid', 200],
  ['settled', 20],
  ['unpaid', 770],
];
/** Issue dates fall on the 365 days up to the run's date; payment terms vary. */
const ISSUE_DAYS = 365;
const PAYMENT_TERMS_DAYS = [14, 30, 30, 60, 90];

/** Description and vendor of a seeded expense, and the category the service gives them. */
const SEED_EXPENSES: Array<[string, string, string]> = [
  ['Flight to client site', 'Blue Sky Airways', 'Travel'],
  ['Team lunch', 'Corner Bistro', 'Meals'],
  ['Cloud hosting', 'Nimbus Compute', 'Software'],
  ['Printer toner', 'Paper & Co', 'Office Supplies'],
  ['Laptop for new hire', 'Compu Store', 'Equipment'],
  ['Internet, monthly', 'FiberNet', 'Utilities'],
  ['Office rent', 'Springfield Realty', 'Rent'],
  ['Advertising campaign', 'AdWorks', 'Marketing'],
  ['Accountant fees', 'Numbers LLP', 'Professional Services'],
  ['Fuel', 'Gas & Go', 'Vehicle'],
  ['Courier delivery', 'Fast Parcel', 'General'],
];

/** What the reports of one calendar year should find in the seed (before any load writes). */
export interface SeedYear {
  year: number;
  /** Invoices issued in the year that are not void: income on accrual, the tax summary. */
  invoices: number;
  /** Σ sub_total of those invoices, in cents. */
  incomeCents: number;
  /** Σ of their ledger entries (dated on the issue date) without tax, in cents. */
  cashCents: number;
  expenses: number;
  expenseCents: number;
}

/** A well-mixed 32-bit hash of an id (murmur3's finaliser): kinds and dates by id. */
function mix(id: number, salt: number): number {
  let hash = Math.imul(id ^ salt, 0x9e3779b1);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** Which seeded client each invoice belongs to, what it is, and the ranges the load picks from. */
export class SeedPlan {
  /** Clients other than the busy one: ids 2 … ordinaryClients + 1. */
  readonly ordinaryClients: number;
  /** The run's date (UTC), YYYY-MM-DD: what `overdue` is measured against. */
  readonly today: string;
  private readonly todayMs: number;
  private tallies?: { kinds: Record<SeedKind, number>; statuses: Record<SeedStatus, number> };
  private yearTallies?: Map<number, SeedYear>;

  constructor(
    readonly invoices: number,
    now: Date = new Date(),
  ) {
    if (!Number.isInteger(invoices) || invoices < SMALLEST_SEED) {
      throw new Error(`--invoices must be a whole number of at least ${SMALLEST_SEED}`);
    }
    this.ordinaryClients = Math.ceil((invoices - BUSY_CLIENT_INVOICES) / INVOICES_PER_CLIENT);
    this.today = isoDate(now.getTime());
    this.todayMs = Date.parse(`${this.today}T00:00:00Z`);
  }

  get clients(): number {
    return this.ordinaryClients + 1;
  }

  clientOf(invoiceId: number): number {
    if (invoiceId <= BUSY_CLIENT_INVOICES) return BUSY_CLIENT_ID;
    return 2 + ((invoiceId - BUSY_CLIENT_INVOICES - 1) % this.ordinaryClients);
  }

  kind(invoiceId: number): SeedKind {
    let share = mix(invoiceId, 0x5eed) % 1000;
    for (const [kind, count] of KIND_SHARES) {
      if (share < count) return kind;
      share -= count;
    }
    return 'unpaid';
  }

  status(invoiceId: number): SeedStatus {
    const kind = this.kind(invoiceId);
    if (kind === 'void' || kind === 'paid') return kind;
    return kind === 'unpaid' && this.dueDate(invoiceId) < this.today ? 'overdue' : 'open';
  }

  /** Takes a payment of 0.01 and an update without changing its status (not void, not settled). */
  isPayable(invoiceId: number): boolean {
    return this.kind(invoiceId) === 'unpaid';
  }

  /** The first payable invoice from this id on (wrapping round to 1). */
  payableFrom(invoiceId: number): number {
    for (
      let id = invoiceId, step = 0;
      step < this.invoices;
      step++, id = (id % this.invoices) + 1
    ) {
      if (this.isPayable(id)) return id;
    }
    throw new Error('the seed has no payable invoice');
  }

  /** Invoices of each kind and of each status today, counted over the whole seed once. */
  counts(): { kinds: Record<SeedKind, number>; statuses: Record<SeedStatus, number> } {
    if (!this.tallies) {
      const kinds: Record<SeedKind, number> = { void: 0, paid: 0, settled: 0, unpaid: 0 };
      const statuses: Record<SeedStatus, number> = { open: 0, overdue: 0, paid: 0, void: 0 };
      for (let id = 1; id <= this.invoices; id++) {
        kinds[this.kind(id)]++;
        statuses[this.status(id)]++;
      }
      this.tallies = { kinds, statuses };
    }
    return this.tallies;
  }

  /** Ledger entries of the seed: one per invoice that is not void, with the invoice's id. */
  get payments(): number {
    return this.invoices - this.counts().kinds.void;
  }

  /** Amount paid (= its one Completed entry, if any) and what stays outstanding. */
  amounts(invoiceId: number): { paid: string; outstanding: string } {
    switch (this.kind(invoiceId)) {
      case 'void':
        return { paid: '0.00', outstanding: SEED_TOTAL };
      case 'unpaid':
        return { paid: SEED_PAID, outstanding: '900.00' };
      default:
        return { paid: SEED_TOTAL, outstanding: '0.00' };
    }
  }

  isSent(invoiceId: number): boolean {
    return invoiceId % SENT_EVERY === 1;
  }

  /** The send-log (and outbox) id of a sent invoice. */
  sendLogId(invoiceId: number): number {
    return (invoiceId - 1) / SENT_EVERY + 1;
  }

  get sendLogEntries(): number {
    return Math.floor((this.invoices - 1) / SENT_EVERY) + 1;
  }

  issueDate(invoiceId: number): string {
    return isoDate(this.todayMs - (mix(invoiceId, 0x1550e) % ISSUE_DAYS) * DAY);
  }

  dueDate(invoiceId: number): string {
    const terms = PAYMENT_TERMS_DAYS[mix(invoiceId, 0xd0e) % PAYMENT_TERMS_DAYS.length];
    return isoDate(Date.parse(`${this.issueDate(invoiceId)}T00:00:00Z`) + terms * DAY);
  }

  get expenses(): number {
    return Math.floor((this.invoices - 1) / EXPENSE_EVERY) + 1;
  }

  hasExpense(invoiceId: number): boolean {
    return invoiceId % EXPENSE_EVERY === 1;
  }

  /** The expense written with invoice 1, 11, 21…: id 1, 2, 3… */
  expenseIdOf(invoiceId: number): number {
    return (invoiceId - 1) / EXPENSE_EVERY + 1;
  }

  expense(expenseId: number): {
    description: string;
    vendor: string;
    category: string;
    cents: number;
    issuedDate: string;
  } {
    const [description, vendor, category] =
      SEED_EXPENSES[mix(expenseId, 0xe4e) % SEED_EXPENSES.length];
    // 10.00 to 509.99
    const cents = 1000 + (mix(expenseId, 0xa3) % 50_000);
    const issuedDate = isoDate(this.todayMs - (mix(expenseId, 0xe1d) % ISSUE_DAYS) * DAY);
    return { description, vendor, category, cents, issuedDate };
  }

  /** The seeded invoices of a client, in id order. */
  invoicesOf(clientId: number): number[] {
    if (clientId === BUSY_CLIENT_ID) {
      return Array.from({ length: BUSY_CLIENT_INVOICES }, (_, index) => index + 1);
    }
    const ids: number[] = [];
    for (
      let id = BUSY_CLIENT_INVOICES + clientId - 1;
      id <= this.invoices;
      id += this.ordinaryClients
    ) {
      ids.push(id);
    }
    return ids;
  }

  /** Per calendar year, what the reports should find in the seed; counted once. */
  years(): Map<number, SeedYear> {
    if (!this.yearTallies) {
      const years = new Map<number, SeedYear>();
      const of = (date: string) => {
        const year = Number(date.slice(0, 4));
        let tally = years.get(year);
        if (!tally) {
          tally = { year, invoices: 0, incomeCents: 0, cashCents: 0, expenses: 0, expenseCents: 0 };
          years.set(year, tally);
        }
        return tally;
      };
      for (let id = 1; id <= this.invoices; id++) {
        const kind = this.kind(id);
        if (kind === 'void') continue;
        const tally = of(this.issueDate(id));
        tally.invoices++;
        tally.incomeCents += 80_000;
        // The one entry without its invoice's tax (sub_total / total = 0.8).
        tally.cashCents += kind === 'unpaid' ? 8_000 : 80_000;
      }
      for (let id = 1; id <= this.expenses; id++) {
        const expense = this.expense(id);
        const tally = of(expense.issuedDate);
        tally.expenses++;
        tally.expenseCents += expense.cents;
      }
      this.yearTallies = years;
    }
    return this.yearTallies;
  }

  /** The calendar year with the most invoices. */
  busiestYear(): SeedYear {
    return [...this.years().values()].reduce((best, year) =>
      year.invoices > best.invoices ? year : best,
    );
  }
}

/** Customer fields, as the client's row and every invoice's copy of it hold them. */
export function clientFields(clientId: number) {
  return {
    names: `Client ${clientId}`,
    email: `billing${clientId}@example.com`,
    phone: `+1 555 ${String(clientId % 10_000_000).padStart(7, '0')}`,
    address: `${clientId} Bench Street, Springfield`,
  };
}

export type Dialect = 'mariadb' | 'sqlite';
type SqlValue = string | number | null;

const DAY = 86_400_000;
/** Seeded rows were written over the year before the benchmark's "now". */
const CREATED_ZERO = Date.UTC(2025, 0, 1, 8);

function isoDate(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 10);
}

/**
 * A DATETIME as each dialect keeps it: MariaDB 'YYYY-MM-DD HH:MM:SS'; SQLite the text TypeORM's
 * better-sqlite3 driver writes, 'YYYY-MM-DD HH:MM:SS.000' (UTC; seen on a row the API wrote).
 */
function timestamp(milliseconds: number, dialect: Dialect): string {
  const text = new Date(milliseconds).toISOString().replace('T', ' ');
  return dialect === 'sqlite' ? text.slice(0, 23) : text.slice(0, 19);
}

/** Decimal columns: DECIMAL(17,4) on MariaDB, the transformer's 4-place text on SQLite. */
function decimal(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(4, '0')}`;
}

/** Crockford base 32, as the service's short codes; 'S' + 7 digits never repeats below 32^7. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function seedShortCode(id: number): string {
  let code = '';
  for (let rest = id, index = 0; index < 7; index++, rest = Math.floor(rest / 32)) {
    code = ALPHABET[rest % 32] + code;
  }
  return `S${code}`;
}

interface TableRows {
  table: string;
  columns: string[];
  rows: SqlValue[][];
}

const CLIENT_COLUMNS = ['id', 'names', 'email', 'phone', 'address', 'created_at', 'updated_at'];
const INVOICE_COLUMNS = [
  'id',
  'short_code',
  'invoice_no',
  'description',
  'client_id',
  'customer_name',
  'customer_phone',
  'customer_address',
  'payment_status',
  'currency',
  'tax_rate',
  'sub_total',
  'tax_amount',
  'total',
  'amount_paid',
  'amount_credited',
  'issue_date',
  'due_date',
  'note',
  'voided_at',
  'void_reason',
  'created_at',
  'updated_at',
];
// unit ('C62'), the discounts (none) and taxes (NULL: the invoice's default tax) keep their defaults.
const LINE_COLUMNS = ['invoice_id', 'position', 'description', 'quantity', 'rate', 'amount'];
/** One VAT breakdown group per invoice, with the invoice's id as its own. */
const BREAKDOWN_COLUMNS = [
  'id',
  'invoice_id',
  'position',
  'name',
  'category',
  'rate',
  'taxable_amount',
  'tax_amount',
];
const PAYMENT_COLUMNS = [
  'id',
  'invoice_id',
  'reference',
  'status',
  'amount',
  'method',
  'payment_date',
  'reason',
  'credit_note_id',
  'created_at',
];
// `kind` (migration 1764600000000) is left to its default, 'document': sent by the API.
const SEND_LOG_COLUMNS = ['id', 'invoice_id', 'email', 'phone', 'sent_at'];
const EXPENSE_COLUMNS = [
  'id',
  'short_code',
  'category',
  'description',
  'amount',
  'currency',
  'vendor',
  'issued_date',
  'created_at',
  'updated_at',
];
const OUTBOX_COLUMNS = [
  'id',
  'kind',
  'document_id',
  'send_log_id',
  'recipient',
  'document_view',
  'status',
  'attempts',
  'next_attempt_at',
  'claimed_at',
  'sent_at',
  'last_error',
  'created_at',
];

function clientRows(plan: SeedPlan, first: number, last: number, dialect: Dialect): TableRows {
  const rows: SqlValue[][] = [];
  for (let id = first; id <= last; id++) {
    const client = clientFields(id);
    const created = timestamp(CREATED_ZERO - DAY + id * 1000, dialect);
    rows.push([id, client.names, client.email, client.phone, client.address, created, created]);
  }
  return { table: 'clients', columns: CLIENT_COLUMNS, rows };
}

/**
 * The invoices first … last with their lines, VAT breakdowns, payments, send-log entries and
 * expenses.
 */
function invoiceBatch(plan: SeedPlan, first: number, last: number, dialect: Dialect): TableRows[] {
  const invoices: SqlValue[][] = [];
  const lines: SqlValue[][] = [];
  const breakdown: SqlValue[][] = [];
  const payments: SqlValue[][] = [];
  const sends: SqlValue[][] = [];
  const outbox: SqlValue[][] = [];
  const expenses: SqlValue[][] = [];
  for (let id = first; id <= last; id++) {
    const clientId = plan.clientOf(id);
    const client = clientFields(clientId);
    const createdAt = CREATED_ZERO + id * 10_000;
    const created = timestamp(createdAt, dialect);
    const kind = plan.kind(id);
    const amounts = plan.amounts(id);
    // Voided two hours after it was written, before anything was received.
    const voidedAt = kind === 'void' ? timestamp(createdAt + 7_200_000, dialect) : null;
    invoices.push([
      id,
      seedShortCode(id),
      `INV-${id}`,
      `Seeded invoice ${id}`,
      clientId,
      client.names,
      client.phone,
      client.address,
      kind === 'paid' ? 'Paid' : 'Not Paid',
      'USD',
      decimal(SEED_TAX_RATE),
      decimal(SEED_SUB_TOTAL),
      decimal(SEED_TAX_AMOUNT),
      decimal(SEED_TOTAL),
      decimal(amounts.paid),
      decimal('0'),
      plan.issueDate(id),
      plan.dueDate(id),
      SEED_NOTE,
      voidedAt,
      kind === 'void' ? SEED_VOID_REASON : '',
      created,
      voidedAt ?? created,
    ]);
    SEED_LINES.forEach((line, position) => {
      lines.push([
        id,
        position,
        line.description,
        decimal(line.quantity),
        decimal(line.rate),
        decimal(line.amount),
      ]);
    });
    breakdown.push([
      id,
      id,
      0,
      SEED_TAX_NAME,
      SEED_TAX_CATEGORY,
      decimal(SEED_TAX_RATE),
      decimal(SEED_SUB_TOTAL),
      decimal(SEED_TAX_AMOUNT),
    ]);
    // amount_paid is the sum of the ledger: its one Completed entry, none on a void invoice.
    if (kind !== 'void') {
      payments.push([
        id,
        id,
        `SEED-${id}`,
        'Completed',
        decimal(amounts.paid),
        'Bank Transfer',
        plan.issueDate(id),
        '',
        null,
        timestamp(createdAt + 3_600_000, dialect),
      ]);
    }
    if (plan.isSent(id)) {
      const sendLogId = plan.sendLogId(id);
      const sentAt = createdAt + 60_000;
      sends.push([sendLogId, id, client.email, '', timestamp(sentAt, dialect)]);
      const instant = new Date(sentAt).toISOString().replace('T', ' ').slice(0, 23);
      outbox.push([
        sendLogId,
        'invoice',
        id,
        sendLogId,
        client.email,
        documentView(plan, id),
        'sent',
        1,
        null,
        instant,
        timestamp(sentAt + 1000, dialect),
        '',
        timestamp(sentAt, dialect),
      ]);
    }
    if (plan.hasExpense(id)) {
      const expenseId = plan.expenseIdOf(id);
      const expense = plan.expense(expenseId);
      const recorded = timestamp(Date.parse(`${expense.issuedDate}T17:00:00Z`), dialect);
      expenses.push([
        expenseId,
        seedShortCode(expenseId),
        expense.category,
        expense.description,
        decimal((expense.cents / 100).toFixed(2)),
        'USD',
        expense.vendor,
        expense.issuedDate,
        recorded,
        recorded,
      ]);
    }
  }
  return [
    { table: 'invoices', columns: INVOICE_COLUMNS, rows: invoices },
    { table: 'invoice_line_items', columns: LINE_COLUMNS, rows: lines },
    { table: 'invoice_tax_breakdown', columns: BREAKDOWN_COLUMNS, rows: breakdown },
    { table: 'invoice_payments', columns: PAYMENT_COLUMNS, rows: payments },
    { table: 'invoice_send_log', columns: SEND_LOG_COLUMNS, rows: sends },
    { table: 'document_outbox', columns: OUTBOX_COLUMNS, rows: outbox },
    { table: 'expenses', columns: EXPENSE_COLUMNS, rows: expenses },
  ].filter((part) => part.rows.length > 0);
}

/** The outbox's snapshot of the document as sent (the shape the service writes). */
function documentView(plan: SeedPlan, id: number): string {
  const client = clientFields(plan.clientOf(id));
  const tax = { name: SEED_TAX_NAME, category: SEED_TAX_CATEGORY, rate: SEED_TAX_RATE };
  return JSON.stringify({
    kind: 'invoice',
    number: `INV-${id}`,
    description: `Seeded invoice ${id}`,
    issueDate: plan.issueDate(id),
    dueDate: plan.dueDate(id),
    currency: 'USD',
    customer: { name: client.names, phone: client.phone, address: client.address },
    lines: SEED_LINES.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      rate: `${line.rate}.00`,
      amount: `${line.amount}.00`,
      unit: 'C62',
      discount: '0.00',
      taxes: [tax],
    })),
    subTotal: `${SEED_SUB_TOTAL}.00`,
    discount: '0.00',
    pricesIncludeTax: false,
    taxRate: SEED_TAX_RATE,
    taxBreakdown: [
      {
        ...tax,
        taxableAmount: `${SEED_SUB_TOTAL}.00`,
        taxAmount: `${SEED_TAX_AMOUNT}.00`,
        exemptionReason: '',
        exemptionCode: '',
      },
    ],
    taxAmount: `${SEED_TAX_AMOUNT}.00`,
    total: SEED_TOTAL,
    note: SEED_NOTE,
    amountPaid: plan.amounts(id).paid,
    balanceDue: plan.amounts(id).outstanding,
  });
}

/** Runs the service's migrations on a database, as `npm run migration:run` does. */
export async function runMigrations(databaseUrl: string): Promise<void> {
  try {
    await run(
      process.execPath,
      [
        resolve(ROOT, 'node_modules/typeorm/cli.js'),
        'migration:run',
        '-d',
        resolve(ROOT, 'dist/database/data-source.js'),
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`migrations failed on ${databaseUrl}: ${stderr.slice(-2000)}`);
  }
}

type Progress = (message: string) => void;

/** Invoices per multi-row INSERT on MariaDB (about 700 KB of SQL, under max_allowed_packet). */
const MARIADB_BATCH = 2000;
/** Two writers: one formats the next batch while the server stores the other's. */
const MARIADB_WRITERS = 2;

export interface SeedOutcome {
  reused: boolean;
  seconds: number;
}

/**
 * Makes `database` on the MariaDB server hold exactly the seed: reuses it when it already does
 * (after removing what earlier runs added), else drops it and seeds it afresh.
 */
export async function seedMariadb(
  serverUrl: string,
  database: string,
  plan: SeedPlan,
  options: { reseed: boolean; progress: Progress },
): Promise<SeedOutcome> {
  if (!/^invoicing_bench_\d+$/.test(database)) throw new Error(`refusing database ${database}`);
  const started = performance.now();
  const server = await createConnection(serverUrl);
  try {
    const [found] = await server.query(`SHOW DATABASES LIKE '${database}'`);
    const exists = (found as unknown[]).length > 0;
    if (exists && !options.reseed) {
      await runMigrations(`${serverUrl.replace(/^mysql:/, 'mariadb:')}/${database}`);
      if (await trimToSeed(serverUrl, database, plan)) {
        options.progress(`mariadb: reusing ${database} (earlier runs' additions removed)`);
        return { reused: true, seconds: (performance.now() - started) / 1000 };
      }
      options.progress(`mariadb: ${database} does not hold the seed; seeding it again`);
    }
    await server.query(`DROP DATABASE IF EXISTS ${database}`);
    await server.query(
      `CREATE DATABASE ${database} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await server.end();
  }
  await runMigrations(`${serverUrl.replace(/^mysql:/, 'mariadb:')}/${database}`);
  const writers = await Promise.all(
    Array.from({ length: MARIADB_WRITERS }, () =>
      createConnection({ uri: `${serverUrl}/${database}`, charset: 'utf8mb4_unicode_ci' }),
    ),
  );
  try {
    for (const writer of writers) {
      // Ids are given and unique by construction: skip the per-row foreign-key and unique probes.
      await writer.query('SET SESSION foreign_key_checks = 0, unique_checks = 0');
    }
    for (let first = 1; first <= plan.clients; first += 10_000) {
      const last = Math.min(plan.clients, first + 9_999);
      await insertMariadb(writers[0], clientRows(plan, first, last, 'mariadb'));
    }
    let next = 1;
    let reported = 0;
    await Promise.all(
      writers.map(async (writer) => {
        while (next <= plan.invoices) {
          const first = next;
          const last = Math.min(plan.invoices, first + MARIADB_BATCH - 1);
          next = last + 1;
          await writer.beginTransaction();
          for (const part of invoiceBatch(plan, first, last, 'mariadb')) {
            await insertMariadb(writer, part);
          }
          await writer.commit();
          if (last - reported >= plan.invoices / 10 || last === plan.invoices) {
            reported = last;
            options.progress(`mariadb: seeded ${last.toLocaleString('en')} invoices`);
          }
        }
      }),
    );
    // Void invoices have no ledger entry, so the highest seeded entry id can be below N: the
    // load's payments must still get ids above N (trimToSeed removes those).
    await writers[0].query(`ALTER TABLE invoice_payments AUTO_INCREMENT = ${plan.invoices + 1}`);
  } finally {
    await Promise.all(writers.map((writer) => writer.end()));
  }
  return { reused: false, seconds: (performance.now() - started) / 1000 };
}

async function insertMariadb(connection: Connection, part: TableRows): Promise<void> {
  const values = part.rows.map((row) => `(${row.map(sqlLiteral).join(',')})`).join(',');
  await connection.query(`INSERT INTO ${part.table} (${part.columns.join(',')}) VALUES ${values}`);
}

/** Seeded values are ASCII written here; quotes and backslashes are escaped all the same. */
function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/[\\']/g, '\\$&')}'`;
}

/**
 * True when the database holds the seed (invoices 1…N with their lines, breakdowns, payments,
 * clients and expenses, each kind as many times as the plan says, dated from today), after
 * deleting what benchmark runs added: new invoices with their lines and breakdowns, and payments
 * (whose invoices, all unpaid ones, since the load pays no other kind, get their seeded amount
 * paid back). Updated invoices keep their new lines and breakdown, which the updates wrote with
 * the seed's values.
 */
async function trimToSeed(serverUrl: string, database: string, plan: SeedPlan): Promise<boolean> {
  const connection = await createConnection(`${serverUrl}/${database}`);
  try {
    const count = async (sql: string): Promise<number> => {
      const [rows] = await connection.query(sql);
      return Number((rows as Array<{ count: number | string }>)[0].count);
    };
    const n = plan.invoices;
    const seeded =
      (await count(
        `SELECT COUNT(*) AS count FROM invoices WHERE id <= ${n} AND deleted_at IS NULL`,
      )) === n &&
      (await count(`SELECT COUNT(*) AS count FROM clients WHERE id <= ${plan.clients}`)) ===
        plan.clients &&
      (await count(`SELECT COUNT(*) AS count FROM invoice_payments WHERE id <= ${n}`)) ===
        plan.payments &&
      (await count(`SELECT COUNT(*) AS count FROM invoice_line_items WHERE invoice_id <= ${n}`)) ===
        3 * n &&
      (await count(
        `SELECT COUNT(*) AS count FROM invoice_tax_breakdown WHERE invoice_id <= ${n}`,
      )) === n &&
      (await count(
        `SELECT COUNT(*) AS count FROM expenses WHERE id <= ${plan.expenses} AND deleted_at IS NULL`,
      )) === plan.expenses;
    if (!seeded) return false;
    // An older seed (other kinds, or dated from another day) is seeded again.
    const [kinds] = await connection.query(
      `SELECT settlement, COUNT(*) AS count FROM invoices WHERE id <= ${n} GROUP BY settlement`,
    );
    const expected = plan.counts().kinds;
    const found = kinds as Array<{ settlement: SeedKind; count: number | string }>;
    if (
      found.length !== Object.values(expected).filter((count) => count > 0).length ||
      found.some((row) => Number(row.count) !== expected[row.settlement])
    ) {
      return false;
    }
    const [dated] = await connection.query(
      `SELECT id, DATE_FORMAT(due_date, '%Y-%m-%d') AS due FROM invoices WHERE id IN (1, ${n})`,
    );
    if (
      (dated as Array<{ id: number; due: string }>).some((row) => row.due !== plan.dueDate(row.id))
    ) {
      return false;
    }
    await connection.beginTransaction();
    await connection.query(
      `UPDATE invoices SET amount_paid = ${decimal(SEED_PAID)}, payment_status = 'Not Paid'
       WHERE id IN (SELECT invoice_id FROM invoice_payments WHERE id > ${n})`,
    );
    await connection.query(`DELETE FROM invoice_payments WHERE id > ${n}`);
    await connection.query(`DELETE FROM document_outbox WHERE id > ${plan.sendLogEntries}`);
    await connection.query(`DELETE FROM invoice_send_log WHERE id > ${plan.sendLogEntries}`);
    await connection.query(`DELETE FROM invoice_line_items WHERE invoice_id > ${n}`);
    await connection.query(`DELETE FROM invoice_tax_breakdown WHERE invoice_id > ${n}`);
    await connection.query(`DELETE FROM invoices WHERE id > ${n}`);
    await connection.query(`DELETE FROM clients WHERE id > ${plan.clients}`);
    await connection.query(`DELETE FROM expenses WHERE id > ${plan.expenses}`);
    await connection.commit();
    return true;
  } finally {
    await connection.end();
  }
}

/** Rows per prepared multi-row INSERT on SQLite (24 columns × 200 stays far below its limit). */
const SQLITE_ROWS_PER_STATEMENT = 200;
const SQLITE_BATCH = 10_000;

/** Creates and seeds a fresh SQLite file (its folder must exist). */
export async function seedSqlite(
  file: string,
  plan: SeedPlan,
  progress: Progress,
): Promise<SeedOutcome> {
  const started = performance.now();
  await runMigrations(`sqlite:${file}`);
  const db = new Sqlite(file);
  try {
    // The file is thrown away after the run: no fsync, and ids are unique by construction.
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    const statements = new Map<string, SqliteStatement>();
    const insert = (part: TableRows) => {
      for (let start = 0; start < part.rows.length; start += SQLITE_ROWS_PER_STATEMENT) {
        const rows = part.rows.slice(start, start + SQLITE_ROWS_PER_STATEMENT);
        const key = `${part.table}:${rows.length}`;
        let statement = statements.get(key);
        if (!statement) {
          const row = `(${part.columns.map(() => '?').join(',')})`;
          statement = db.prepare(
            `INSERT INTO ${part.table} (${part.columns.join(',')}) VALUES ${Array(rows.length).fill(row).join(',')}`,
          );
          statements.set(key, statement);
        }
        statement.run(rows.flat());
      }
    };
    db.transaction(() => insert(clientRows(plan, 1, plan.clients, 'sqlite')))();
    for (let first = 1; first <= plan.invoices; first += SQLITE_BATCH) {
      const last = Math.min(plan.invoices, first + SQLITE_BATCH - 1);
      db.transaction(() => invoiceBatch(plan, first, last, 'sqlite').forEach(insert))();
      if (last % (SQLITE_BATCH * 10) === 0 || last === plan.invoices) {
        progress(`sqlite: seeded ${last.toLocaleString('en')} invoices`);
      }
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return { reused: false, seconds: (performance.now() - started) / 1000 };
}

/** Drops a benchmark database; nothing else is ever dropped. */
export async function dropMariadb(serverUrl: string, database: string): Promise<void> {
  if (!/^invoicing_bench_\d+$/.test(database)) throw new Error(`refusing database ${database}`);
  const server = await createConnection(serverUrl);
  try {
    await server.query(`DROP DATABASE IF EXISTS ${database}`);
  } finally {
    await server.end();
  }
}
