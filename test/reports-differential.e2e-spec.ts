import DecimalJs from 'decimal.js';
import type { Response } from 'supertest';
import { createTestApp, TestApp } from './setup/create-app';
import { TestClock } from './setup/test-clock';
import { Random } from './setup/workload';

/*
 * A differential test of the receivables reports (docs/receivables.md): a seeded random but
 * valid data set goes in through the HTTP API (clients, invoices in four currencies with
 * payments, refunds, credit notes with and without refund, voids, archives, hand-marked
 * statuses, expenses), a model of every request says what the service must have stored, and
 * the records read back must agree with it. An oracle then recomputes every report from those
 * records with exact decimals, on its own, and each answer of the service must equal it:
 * aging of today and three past dates, profit and loss on both bases over several ranges, the
 * tax summary, and every client's statement with and without `from`. Report dates are drawn
 * mostly from the dates of the data, and a few invoices are set up on purpose (due on each
 * aging bucket's edge, a name shared by two clients, payments worth half a minor unit net of
 * tax), so that an off-by-one, an order or a rounding mistake shows on any seed.
 *
 * REPORTS_SEED=<n> replays a run.
 */

const SEED =
  process.env.REPORTS_SEED === undefined || process.env.REPORTS_SEED === ''
    ? Math.floor(Math.random() * 2 ** 32) >>> 0
    : Number(process.env.REPORTS_SEED) >>> 0;

/** The service's today: issue dates run from about 21 months before to 3 months after it. */
const TODAY = '2026-06-15';

/** The oracle's own exact decimals: half away from zero, as docs/rules.md rounds money. */
const D = DecimalJs.clone({
  precision: 80,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -80,
  toExpPos: 80,
});
type Dec = DecimalJs;
const ZERO = new D(0);

/** ISO 4217 minor units of the currencies used. */
const DIGITS: Record<string, number> = { EUR: 2, GBP: 2, JPY: 0, KWD: 3, USD: 2 };
const PAYMENT_METHODS = ['Cash', 'Bank Transfer', 'Cheque', 'Credit Card', 'Others'];
/** Days past due on the edges of the aging buckets. */
const EDGES = [0, 1, 30, 31, 60, 61, 90, 91];
/** Invoices FIRST_EDGE… are due on those edges today. */
const FIRST_EDGE = 7;
const TAX_RATES = ['0', '5', '7.125', '8.8875', '10', '19', '20', '100'];
/** The invoice whose payments are each worth half a minor unit net of tax. */
const HALVES = 15;
const EXPENSES: Array<[string, string]> = [
  ['Flight to Lisbon', 'Travel'],
  ['Hotel two nights', 'Travel'],
  ['Team lunch', 'Meals'],
  ['Cloud hosting', 'Software'],
  ['Printer toner', 'Office Supplies'],
  ['New laptop', 'Equipment'],
  ['Internet line', 'Utilities'],
  ['Office rent', 'Rent'],
  ['Ads campaign', 'Marketing'],
  ['Accountant fees', 'Professional Services'],
  ['Fuel', 'Vehicle'],
  ['Bank fees', 'General'],
];

// ---------------------------------------------------------------------------------------------
// Dates and money.

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** `to` − `from` in days. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}

/** Exact decimal text with the currency's minor digits; the value must already be exact. */
function fmt(value: Dec, currency: string): string {
  const digits = DIGITS[currency];
  if (!value.equals(value.toDecimalPlaces(digits))) {
    throw new Error(`oracle: ${value.toFixed()} ${currency} has more than ${digits} decimals`);
  }
  const text = value.toFixed(digits);
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

function roundMoney(value: Dec, currency: string): Dec {
  return value.toDecimalPlaces(DIGITS[currency], DecimalJs.ROUND_HALF_UP);
}

function minorOf(value: Dec, currency: string): number {
  return value.times(new D(10).pow(DIGITS[currency])).toNumber();
}

function fromMinor(minor: number, currency: string): Dec {
  return new D(minor).div(new D(10).pow(DIGITS[currency]));
}

/** A JSON number or decimal string of an answer, exactly. */
function dec(value: unknown): Dec {
  if (typeof value !== 'number' && typeof value !== 'string') {
    throw new Error(`Not a number: ${JSON.stringify(value)}`);
  }
  return new D(String(value));
}

interface LineInput {
  description: string;
  quantity: string;
  rate: string;
}

/** docs/rules.md, money: line amounts rounded, then the tax on the sum, rounded. */
function price(lines: LineInput[], taxRate: string, currency: string) {
  const subTotal = lines.reduce(
    (sum, line) => sum.plus(roundMoney(new D(line.quantity).times(line.rate), currency)),
    ZERO,
  );
  const taxAmount = roundMoney(subTotal.times(taxRate).div(100), currency);
  return { subTotal, taxAmount, total: subTotal.plus(taxAmount) };
}

// ---------------------------------------------------------------------------------------------
// The model: what was asked of the service, and what it must have stored.

type EntryStatus = 'Completed' | 'Refunded' | 'Credited';

interface ModelEntry {
  /** Creation order over every invoice: the order of the entries' ids. */
  seq: number;
  status: EntryStatus;
  amount: Dec;
  date: string;
  creditNoteId: string;
}

interface ModelCreditNote {
  id: string;
  no: string;
  invoiceKey: number;
  issue: string;
  subTotal: Dec;
  taxAmount: Dec;
  total: Dec;
  refunded: Dec;
}

type Step =
  | { kind: 'pay'; date: string; full: boolean; minor?: number }
  | { kind: 'refund'; date: string; full: boolean; minor?: number }
  | { kind: 'credit'; date: string; refund: boolean }
  | { kind: 'mark'; status: 'Paid' | 'Not Paid' }
  | { kind: 'void'; date: string }
  | { kind: 'archive' };

interface ModelInvoice {
  key: number;
  id: string;
  no: string;
  client: number;
  currency: string;
  taxRate: string;
  issue: string;
  due: string;
  lines: LineInput[];
  initialStatus: 'Paid' | 'Not Paid';
  subTotal: Dec;
  taxAmount: Dec;
  total: Dec;
  paid: Dec;
  credited: Dec;
  paymentStatus: 'Paid' | 'Not Paid';
  entries: ModelEntry[];
  creditNotes: ModelCreditNote[];
  voided: boolean;
  archived: boolean;
  plan: Step[];
}

interface ModelClient {
  id: string;
  names: string;
  email: string;
  archived: boolean;
}

interface ModelExpense {
  id: string;
  description: string;
  category: string;
  amount: Dec;
  currency: string;
  date: string;
  archived: boolean;
}

// ---------------------------------------------------------------------------------------------
// The parts of the API's answers this file reads.

/** What an add answers: the id of what it created. */
interface Created {
  data: Array<{ id: string }>;
  invoice: Array<{ id: string }>;
  credit_note: Array<{ id: string }>;
  expense: Array<{ id: string }>;
}

interface ClientRow {
  id: string;
  names: string;
  email: string;
}

interface InvoiceRead {
  invoice: Array<{
    id: string;
    invoice_no: string;
    customer_id: string;
    currency: string;
    tax_rate: number;
    issue_date: string;
    due_date: string;
    sub_total: number;
    tax_amount: number;
    total: number;
    amount_paid: string;
    outstanding_balance: string;
    payment_status: string;
    status: string;
  }>;
  payments: Array<{
    status: EntryStatus;
    amount: number;
    payment_date: string;
    reference: string;
    credit_note_id: string;
  }>;
}

interface CreditNoteRow {
  id: string;
  credit_note_no: string;
  invoice_id: string;
  currency: string;
  tax_rate: number;
  sub_total: number;
  tax_amount: number;
  total: number;
  refunded: string;
  issue_date: string;
}

interface ExpenseRow {
  id: string;
  category: string;
  amount: string;
  currency: string;
  issued_date: string;
}

// ---------------------------------------------------------------------------------------------
// The records the oracle reads: as the API answers them.

interface RecordEntry {
  seq: number;
  status: EntryStatus;
  amount: Dec;
  date: string;
  reference: string;
  creditNoteId: string;
}

interface RecordInvoice {
  id: string;
  no: string;
  clientId: string;
  currency: string;
  taxRate: Dec;
  subTotal: Dec;
  taxAmount: Dec;
  total: Dec;
  outstanding: Dec;
  paymentStatus: string;
  isVoid: boolean;
  issue: string;
  due: string;
  entries: RecordEntry[];
}

interface RecordCreditNote {
  id: string;
  no: string;
  invoiceId: string;
  currency: string;
  taxRate: Dec;
  subTotal: Dec;
  taxAmount: Dec;
  issue: string;
}

interface RecordExpense {
  category: string;
  amount: Dec;
  currency: string;
  date: string;
}

interface RecordClient {
  id: string;
  names: string;
  email: string;
}

interface Records {
  /** Every client, archived ones with the name they kept. */
  clients: Map<string, RecordClient>;
  /** Live invoices (archived ones are unreadable), void ones included. */
  invoices: RecordInvoice[];
  creditNotes: RecordCreditNote[];
  /** Live expenses. */
  expenses: RecordExpense[];
}

// ---------------------------------------------------------------------------------------------
// The oracle: docs/receivables.md, from the records alone.

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Live, non-void invoices and the credit notes of those. */
function counted(records: Records) {
  const invoices = records.invoices.filter((invoice) => !invoice.isVoid);
  const ids = new Set(invoices.map((invoice) => invoice.id));
  const creditNotes = records.creditNotes.filter((note) => ids.has(note.invoiceId));
  return { invoices, creditNotes };
}

const BUCKETS = ['current', '1-30', '31-60', '61-90', 'over_90'] as const;

function agingOracle(records: Records, asOf: string) {
  type Row = { invoices: number; buckets: Dec[] };
  const perCurrency = new Map<string, Map<string, Row>>();
  for (const invoice of counted(records).invoices) {
    if (invoice.issue > asOf) continue;
    if (invoice.paymentStatus === 'Paid' && invoice.outstanding.gt(0)) continue;
    const balance = invoice.entries
      .filter((entry) => entry.date <= asOf)
      .reduce(
        (sum, entry) =>
          entry.status === 'Refunded' ? sum.plus(entry.amount) : sum.minus(entry.amount),
        invoice.total,
      );
    if (balance.lte(0)) continue;
    const late = daysBetween(invoice.due, asOf);
    const bucket = late <= 0 ? 0 : late <= 30 ? 1 : late <= 60 ? 2 : late <= 90 ? 3 : 4;
    const clients = perCurrency.get(invoice.currency) ?? new Map<string, Row>();
    perCurrency.set(invoice.currency, clients);
    const row = clients.get(invoice.clientId) ?? { invoices: 0, buckets: BUCKETS.map(() => ZERO) };
    clients.set(invoice.clientId, row);
    row.invoices += 1;
    row.buckets[bucket] = row.buckets[bucket].plus(balance);
  }
  const figures = (currency: string, row: Row) => ({
    invoices: row.invoices,
    ...Object.fromEntries(BUCKETS.map((name, index) => [name, fmt(row.buckets[index], currency)])),
    total: fmt(
      row.buckets.reduce((sum, value) => sum.plus(value), ZERO),
      currency,
    ),
  });
  return {
    as_of: asOf,
    currencies: [...perCurrency.keys()].sort(byCode).map((currency) => {
      const clients = [...perCurrency.get(currency)!.entries()]
        .map(([id, row]) => ({ id, name: records.clients.get(id)!.names, row }))
        .sort((a, b) => byCode(a.name, b.name) || Number(a.id) - Number(b.id));
      const totals: Row = { invoices: 0, buckets: BUCKETS.map(() => ZERO) };
      for (const { row } of clients) {
        totals.invoices += row.invoices;
        totals.buckets = totals.buckets.map((value, index) => value.plus(row.buckets[index]));
      }
      return {
        currency,
        clients: clients.map(({ id, name, row }) => ({
          client_id: id,
          client: name,
          ...figures(currency, row),
        })),
        totals: figures(currency, totals),
      };
    }),
  };
}

function profitAndLossOracle(
  records: Records,
  from: string,
  to: string,
  basis: 'accrual' | 'cash',
) {
  type Month = { income: Dec; expenses: Map<string, Dec> };
  const perCurrency = new Map<string, Map<string, Month>>();
  const month = (currency: string, date: string): Month => {
    const months = perCurrency.get(currency) ?? new Map<string, Month>();
    perCurrency.set(currency, months);
    const key = date.slice(0, 7);
    const found = months.get(key) ?? { income: ZERO, expenses: new Map<string, Dec>() };
    months.set(key, found);
    return found;
  };
  const inRange = (date: string) => date >= from && date <= to;
  const { invoices, creditNotes } = counted(records);
  if (basis === 'accrual') {
    for (const invoice of invoices.filter((each) => inRange(each.issue))) {
      const figure = month(invoice.currency, invoice.issue);
      figure.income = figure.income.plus(invoice.subTotal);
    }
    for (const note of creditNotes.filter((each) => inRange(each.issue))) {
      const figure = month(note.currency, note.issue);
      figure.income = figure.income.minus(note.subTotal);
    }
  } else {
    for (const invoice of invoices) {
      for (const entry of invoice.entries) {
        if (entry.status === 'Credited' || !inRange(entry.date)) continue;
        // A total of 0 has no tax share: the entry counts whole.
        const net = invoice.total.isZero()
          ? entry.amount
          : roundMoney(entry.amount.times(invoice.subTotal).div(invoice.total), invoice.currency);
        const figure = month(invoice.currency, entry.date);
        figure.income =
          entry.status === 'Completed' ? figure.income.plus(net) : figure.income.minus(net);
      }
    }
  }
  for (const expense of records.expenses.filter((each) => inRange(each.date))) {
    const figure = month(expense.currency, expense.date);
    figure.expenses.set(
      expense.category,
      (figure.expenses.get(expense.category) ?? ZERO).plus(expense.amount),
    );
  }
  const figures = (currency: string, figure: Month) => {
    const expensesTotal = [...figure.expenses.values()].reduce((sum, v) => sum.plus(v), ZERO);
    return {
      income: fmt(figure.income, currency),
      expenses: Object.fromEntries(
        [...figure.expenses].map(([category, amount]) => [category, fmt(amount, currency)]),
      ),
      expenses_total: fmt(expensesTotal, currency),
      profit: fmt(figure.income.minus(expensesTotal), currency),
    };
  };
  return {
    basis,
    from,
    to,
    currencies: [...perCurrency.keys()].sort(byCode).map((currency) => {
      const months = [...perCurrency.get(currency)!.entries()].sort(([a], [b]) => byCode(a, b));
      const totals: Month = { income: ZERO, expenses: new Map() };
      for (const [, figure] of months) {
        totals.income = totals.income.plus(figure.income);
        for (const [category, amount] of figure.expenses) {
          totals.expenses.set(category, (totals.expenses.get(category) ?? ZERO).plus(amount));
        }
      }
      return {
        currency,
        months: months.map(([key, figure]) => ({ month: key, ...figures(currency, figure) })),
        totals: figures(currency, totals),
      };
    }),
  };
}

function taxSummaryOracle(records: Records, from: string, to: string) {
  type Rate = { rate: Dec; invoices: number; creditNotes: number; taxable: Dec; tax: Dec };
  const perCurrency = new Map<string, Map<string, Rate>>();
  const rate = (currency: string, taxRate: Dec): Rate => {
    const rates = perCurrency.get(currency) ?? new Map<string, Rate>();
    perCurrency.set(currency, rates);
    const key = taxRate.toFixed();
    const found = rates.get(key) ?? {
      rate: taxRate,
      invoices: 0,
      creditNotes: 0,
      taxable: ZERO,
      tax: ZERO,
    };
    rates.set(key, found);
    return found;
  };
  const inRange = (date: string) => date >= from && date <= to;
  const { invoices, creditNotes } = counted(records);
  for (const invoice of invoices.filter((each) => inRange(each.issue))) {
    const figure = rate(invoice.currency, invoice.taxRate);
    figure.invoices += 1;
    figure.taxable = figure.taxable.plus(invoice.subTotal);
    figure.tax = figure.tax.plus(invoice.taxAmount);
  }
  for (const note of creditNotes.filter((each) => inRange(each.issue))) {
    const figure = rate(note.currency, note.taxRate);
    figure.creditNotes += 1;
    figure.taxable = figure.taxable.minus(note.subTotal);
    figure.tax = figure.tax.minus(note.taxAmount);
  }
  return {
    from,
    to,
    currencies: [...perCurrency.keys()].sort(byCode).map((currency) => {
      const rates = [...perCurrency.get(currency)!.values()].sort((a, b) => a.rate.cmp(b.rate));
      const sum = (pick: (each: Rate) => Dec) =>
        rates.reduce((s, each) => s.plus(pick(each)), ZERO);
      return {
        currency,
        // Each document of this data set carries one tax, its default: named Tax, category S,
        // or Z at rate 0 (docs/taxes.md), so a rate is a tax group.
        rates: rates.map((each) => ({
          tax_rate: each.rate.toNumber(),
          name: 'Tax',
          category: each.rate.isZero() ? 'Z' : 'S',
          invoices: each.invoices,
          credit_notes: each.creditNotes,
          taxable: fmt(each.taxable, currency),
          tax: fmt(each.tax, currency),
        })),
        totals: {
          invoices: rates.reduce((s, each) => s + each.invoices, 0),
          credit_notes: rates.reduce((s, each) => s + each.creditNotes, 0),
          taxable: fmt(
            sum((each) => each.taxable),
            currency,
          ),
          tax: fmt(
            sum((each) => each.tax),
            currency,
          ),
        },
      };
    }),
  };
}

function statementOracle(records: Records, clientId: string, from: string | null, to: string) {
  const client = records.clients.get(clientId)!;
  const { invoices, creditNotes } = counted(records);
  const own = invoices.filter((invoice) => invoice.clientId === clientId);
  const noteNumbers = new Map(creditNotes.map((note) => [note.id, note.no]));
  type Event = {
    date: string;
    rank: number;
    order: number;
    type: string;
    reference: string;
    invoiceNo: string;
    amount: Dec;
  };
  // A currency is in the statement once something in it is dated on or before `to`.
  const datedByTo = own.filter(
    (invoice) => invoice.issue <= to || invoice.entries.some((entry) => entry.date <= to),
  );
  const currencies = [...new Set(datedByTo.map((invoice) => invoice.currency))].sort(byCode);
  return {
    client: { id: client.id, names: client.names, email: client.email },
    from: from ?? '',
    to,
    currencies: currencies.map((currency) => {
      const events: Event[] = [];
      for (const invoice of own.filter((each) => each.currency === currency)) {
        events.push({
          date: invoice.issue,
          rank: 0,
          order: Number(invoice.id),
          type: 'invoice',
          reference: invoice.no,
          invoiceNo: invoice.no,
          amount: invoice.total,
        });
        for (const entry of invoice.entries) {
          events.push({
            date: entry.date,
            rank: 1,
            order: entry.seq,
            type: { Completed: 'payment', Refunded: 'refund', Credited: 'credit_note' }[
              entry.status
            ],
            reference:
              entry.status === 'Credited' ? noteNumbers.get(entry.creditNoteId)! : entry.reference,
            invoiceNo: invoice.no,
            amount: entry.status === 'Refunded' ? entry.amount : entry.amount.neg(),
          });
        }
      }
      const opening =
        from === null
          ? ZERO
          : events
              .filter((event) => event.date < from)
              .reduce((sum, event) => sum.plus(event.amount), ZERO);
      let balance = opening;
      const lines = events
        .filter((event) => (from === null || event.date >= from) && event.date <= to)
        .sort((a, b) => byCode(a.date, b.date) || a.rank - b.rank || a.order - b.order)
        .map((event) => {
          balance = balance.plus(event.amount);
          return {
            date: event.date,
            type: event.type,
            reference: event.reference,
            invoice_no: event.invoiceNo,
            amount: fmt(event.amount, currency),
            balance: fmt(balance, currency),
          };
        });
      return {
        currency,
        opening_balance: fmt(opening, currency),
        lines,
        closing_balance: fmt(balance, currency),
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------

describe('Receivables reports against an independent oracle', () => {
  let test: TestApp;
  const clock = new TestClock();
  const random = new Random(SEED);
  const clients: ModelClient[] = [];
  const invoices: ModelInvoice[] = [];
  const expenses: ModelExpense[] = [];
  let records: Records;
  let entrySeq = 0;
  let creditNoteSeq = 0;
  /** Every date something happened on: report boundaries are drawn from it half the time. */
  const eventDates: string[] = [];

  const replay = `REPORTS_SEED=${SEED}`;

  /** Awaits a request and answers its body; anything but 2xx fails with the answer. */
  async function ok<T = Created>(pending: PromiseLike<Response>, what: string): Promise<T> {
    const response = await pending;
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`${what} answered ${response.status}: ${response.text} (${replay})`);
    }
    return response.body as T;
  }

  const money = (value: Dec, currency: string) => fmt(value, currency);

  function randomLine(currency: string): LineInput {
    const quantity = random.chance(0.4)
      ? String(random.int(1, 12))
      : new D(random.int(1, 99_999)).div(10 ** random.pick([2, 3, 4])).toFixed();
    const places = random.int(0, 4);
    const scale = currency === 'JPY' ? 100 : 1;
    const rate = new D(random.int(1, 500 * scale * 10 ** places)).div(10 ** places).toFixed();
    return { description: `Work ${random.int(1, 99)}`, quantity, rate };
  }

  /**
   * A date from `low` to `high`, mostly one on which something the reports count is dated
   * (of the client, if given), so that the edges of a range or an as_of are met exactly.
   */
  function dateAmong(
    kinds: Array<'issue' | 'entry' | 'note' | 'expense'>,
    low: string,
    high: string,
    client?: string,
  ): string {
    const live = invoices.filter(
      (invoice) =>
        !invoice.voided &&
        !invoice.archived &&
        (client === undefined || clients[invoice.client].id === client),
    );
    const dates = [
      ...(kinds.includes('issue') ? live.map((invoice) => invoice.issue) : []),
      ...(kinds.includes('entry') ? live.flatMap((inv) => inv.entries.map((e) => e.date)) : []),
      ...(kinds.includes('note') ? live.flatMap((inv) => inv.creditNotes.map((n) => n.issue)) : []),
      ...(kinds.includes('expense') && client === undefined
        ? expenses.filter((expense) => !expense.archived).map((expense) => expense.date)
        : []),
    ].filter((date) => date >= low && date <= high);
    if (dates.length > 0 && random.chance(0.8)) return random.pick(dates);
    return addDays(low, random.int(0, Math.max(0, daysBetween(low, high))));
  }

  /** A random plan of corrections for one invoice, dated from its issue date on. */
  function randomPlan(issue: string): Step[] {
    const plan: Step[] = [];
    let cursor = issue;
    const next = () => {
      if (random.chance(0.06)) return addDays(issue, random.int(-20, 200));
      cursor = addDays(cursor, random.chance(0.25) ? 0 : random.int(1, 70));
      return cursor;
    };
    const count = random.weighted({ none: 15, few: 45, many: 40 });
    const steps = count === 'none' ? 0 : count === 'few' ? random.int(1, 2) : random.int(3, 5);
    for (let index = 0; index < steps; index += 1) {
      const kind = random.weighted({
        pay: 50,
        payFull: 20,
        refund: 12,
        refundFull: 4,
        credit: 12,
        creditRefund: 8,
        markPaid: 5,
        markNotPaid: 3,
      });
      if (kind === 'pay' || kind === 'payFull') {
        plan.push({ kind: 'pay', date: next(), full: kind === 'payFull' });
      } else if (kind === 'refund' || kind === 'refundFull') {
        plan.push({ kind: 'refund', date: next(), full: kind === 'refundFull' });
      } else if (kind === 'credit' || kind === 'creditRefund') {
        plan.push({
          kind: 'credit',
          date: maxDate(next(), issue),
          refund: kind === 'creditRefund',
        });
      } else {
        plan.push({ kind: 'mark', status: kind === 'markPaid' ? 'Paid' : 'Not Paid' });
      }
    }
    if (random.chance(0.1)) plan.push({ kind: 'void', date: addDays(cursor, random.int(0, 30)) });
    if (random.chance(0.08)) plan.push({ kind: 'archive' });
    return plan;
  }

  async function createInvoice(invoice: ModelInvoice): Promise<void> {
    const body = await ok(
      test.http.post('/v1/invoice/add').send({
        client: clients[invoice.client].id,
        invoice_no: invoice.no,
        payment_status: invoice.initialStatus,
        currency: invoice.currency,
        tax_rate: invoice.taxRate,
        issue_date: invoice.issue,
        due_date: invoice.due,
        items: invoice.lines,
      }),
      `add invoice ${invoice.no}`,
    );
    invoice.id = body.invoice[0].id;
    eventDates.push(invoice.issue, invoice.due);
  }

  function addEntry(invoice: ModelInvoice, entry: Omit<ModelEntry, 'seq'>): void {
    entrySeq += 1;
    invoice.entries.push({ seq: entrySeq, ...entry });
    eventDates.push(entry.date);
  }

  /** The credit-ledger rules of docs/corrections.md, applied to the model as the service must. */
  function refundInModel(invoice: ModelInvoice, amount: Dec, date: string, noteId = ''): void {
    invoice.paid = invoice.paid.minus(amount);
    if (invoice.total.minus(invoice.paid).gt(0)) invoice.paymentStatus = 'Not Paid';
    addEntry(invoice, { status: 'Refunded', amount, date, creditNoteId: noteId });
  }

  async function pay(invoice: ModelInvoice, date: string, full: boolean, minor?: number) {
    const outstanding = minorOf(invoice.total.minus(invoice.paid), invoice.currency);
    if (outstanding <= 0) return;
    const part = outstanding > 1 ? random.int(1, outstanding - 1) : outstanding;
    const amount = fromMinor(
      full ? outstanding : Math.min(minor ?? part, outstanding),
      invoice.currency,
    );
    await ok(
      test.http.post('/v1/invoice/record-payment').send({
        id: invoice.id,
        amount_paid: money(amount, invoice.currency),
        payment_date: date,
        payment_method: random.pick(PAYMENT_METHODS),
      }),
      `payment on ${invoice.no}`,
    );
    invoice.paid = invoice.paid.plus(amount);
    if (invoice.total.minus(invoice.paid).lte(0)) invoice.paymentStatus = 'Paid';
    addEntry(invoice, { status: 'Completed', amount, date, creditNoteId: '' });
  }

  async function refund(invoice: ModelInvoice, date: string, full: boolean, minor?: number) {
    const held = minorOf(invoice.paid.minus(invoice.credited), invoice.currency);
    if (held <= 0) return;
    const part = Math.min(minor ?? random.int(1, held), held);
    const amount = fromMinor(full ? held : part, invoice.currency);
    await ok(
      test.http.post('/v1/invoice/refund').send({
        id: invoice.id,
        amount: money(amount, invoice.currency),
        refund_date: date,
        reason: 'Returned',
      }),
      `refund on ${invoice.no}`,
    );
    refundInModel(invoice, amount, date);
  }

  /** Lines at the invoice's tax rate whose total is at most `limit`, near `target`; or null. */
  function creditLines(invoice: ModelInvoice, target: Dec, limit: Dec): LineInput[] | null {
    const { currency, taxRate } = invoice;
    let sub = target
      .div(new D(1).plus(new D(taxRate).div(100)))
      .toDecimalPlaces(DIGITS[currency], DecimalJs.ROUND_DOWN);
    if (random.chance(0.5)) {
      const quantity = random.pick(['2', '0.5', '3', '1.5', '0.25']);
      const rate = sub.div(quantity).toDecimalPlaces(4, DecimalJs.ROUND_DOWN);
      const lines = [{ description: 'Correction', quantity, rate: rate.toFixed() }];
      const { total } = price(lines, taxRate, currency);
      if (rate.gt(0) && total.gt(0) && total.lte(limit)) return lines;
    }
    const unit = fromMinor(1, currency);
    for (let attempt = 0; attempt < 5 && sub.gt(0); attempt += 1) {
      const lines = [{ description: 'Correction', quantity: '1', rate: sub.toFixed() }];
      const { total } = price(lines, taxRate, currency);
      if (total.gt(0) && total.lte(limit)) return lines;
      sub = sub.minus(unit);
    }
    return null;
  }

  async function credit(invoice: ModelInvoice, date: string, withRefund: boolean): Promise<void> {
    const { currency } = invoice;
    const outstanding = invoice.total.minus(invoice.paid);
    const creditable = invoice.total.minus(invoice.credited);
    const limit = withRefund ? creditable : D.min(outstanding, creditable);
    const limitMinor = minorOf(limit, currency);
    if (limitMinor <= 0) return;
    const outstandingMinor = minorOf(outstanding, currency);
    // With refund, mostly more than the balance, so that a part is refunded.
    const targetMinor =
      withRefund && limitMinor > outstandingMinor && random.chance(0.75)
        ? random.int(outstandingMinor + 1, limitMinor)
        : random.int(1, limitMinor);
    const lines = creditLines(invoice, fromMinor(targetMinor, currency), limit);
    if (lines === null) return;
    const totals = price(lines, invoice.taxRate, currency);
    creditNoteSeq += 1;
    const no = `CN-${String(creditNoteSeq).padStart(4, '0')}`;
    const body = await ok(
      test.http.post('/v1/credit-note/add').send({
        invoice: invoice.id,
        credit_note_no: no,
        items: lines,
        issue_date: date,
        reason: 'Correction',
        refund: withRefund,
      }),
      `credit note ${no} on ${invoice.no}`,
    );
    const id: string = body.credit_note[0].id;
    const excess = totals.total.minus(outstanding);
    const refunded = excess.gt(0) ? excess : ZERO;
    if (refunded.gt(0)) refundInModel(invoice, refunded, date, id);
    invoice.paid = invoice.paid.plus(totals.total);
    invoice.credited = invoice.credited.plus(totals.total);
    if (invoice.total.minus(invoice.paid).lte(0)) invoice.paymentStatus = 'Paid';
    addEntry(invoice, { status: 'Credited', amount: totals.total, date, creditNoteId: id });
    invoice.creditNotes.push({
      id,
      no,
      invoiceKey: invoice.key,
      issue: date,
      ...totals,
      refunded,
    });
  }

  async function runStep(invoice: ModelInvoice, step: Step): Promise<void> {
    switch (step.kind) {
      case 'pay':
        return pay(invoice, step.date, step.full, step.minor);
      case 'refund':
        return refund(invoice, step.date, step.full, step.minor);
      case 'credit':
        return credit(invoice, step.date, step.refund);
      case 'mark':
        await ok(
          test.http.get(
            `/v1/invoice/${step.status === 'Paid' ? 'paid' : 'not-paid'}/${invoice.id}`,
          ),
          `mark ${invoice.no} ${step.status}`,
        );
        invoice.paymentStatus = step.status;
        return;
      case 'void':
        // Only while no cash is held: give it back first.
        await refund(invoice, step.date, true);
        await ok(
          test.http.post(`/v1/invoice/${invoice.id}/void`).send({ reason: 'Issued in error' }),
          `void ${invoice.no}`,
        );
        invoice.voided = true;
        return;
      case 'archive':
        await ok(test.http.delete(`/v1/invoice/${invoice.id}`), `archive ${invoice.no}`);
        invoice.archived = true;
        return;
    }
  }

  // -------------------------------------------------------------------------------------------

  async function buildDataSet(): Promise<void> {
    // Seven clients: two share a name (ordered by id), one gets no invoice, one has no e-mail.
    const shuffled = ['Acme Trading', 'Borealis GmbH', 'Cobalt Studio', 'Delta Works'];
    shuffled.push('Delta Works', 'Ember Foods');
    for (let index = shuffled.length - 1; index > 0; index -= 1) {
      const other = random.int(0, index);
      [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
    }
    for (const [index, name] of [...shuffled, 'Fjord Systems'].entries()) {
      const email = index === 2 ? '' : `billing${index}@example.com`;
      const body = await ok(
        test.http.post('/v1/client/add').send(email ? { names: name, email } : { names: name }),
        `add client ${name}`,
      );
      clients.push({ id: body.data[0].id, names: name, email, archived: false });
    }

    const twins = [0, 1, 2, 3, 4, 5].filter((index) => clients[index].names === 'Delta Works');

    // Forty invoices of the first six clients; a few of them with a plan of set cases.
    const issueDates: string[] = [];
    for (let key = 0; key < 40; key += 1) {
      const drawn = random.weighted({ USD: 4, EUR: 3, JPY: 2, KWD: 1 });
      const set: Record<number, string> = {
        5: 'KWD',
        6: 'JPY',
        [FIRST_EDGE]: 'EUR',
        [FIRST_EDGE + 1]: 'EUR',
      };
      const currency = set[key] ?? drawn;
      let issue: string;
      let due: string;
      const edge = EDGES[key - FIRST_EDGE];
      if (edge !== undefined || random.chance(0.1)) {
        // Due on the edge of an aging bucket today.
        due = addDays(TODAY, -(edge ?? random.pick(EDGES)));
        // The first is issued today, the last day an aging of today counts.
        issue = key === FIRST_EDGE ? due : addDays(due, -random.int(0, 45));
      } else {
        issue =
          random.chance(0.25) && issueDates.length > 0
            ? random.pick(issueDates)
            : addDays(TODAY, random.int(-640, 90));
        due = addDays(issue, random.pick([0, 7, 14, 30, 30, 45, 60, 90]));
      }
      issueDates.push(issue);
      // At 100 % an odd payment is half a minor unit net of tax: rounded half away from zero.
      const taxRate = key === HALVES ? '100' : random.pick(TAX_RATES);
      let lines: LineInput[];
      let totals: ReturnType<typeof price>;
      do {
        // Tiny quantities and rates can round to nothing: an invoice owes something.
        lines = Array.from({ length: random.int(1, 4) }, () => randomLine(currency));
        totals = price(lines, taxRate, currency);
      } while (totals.subTotal.lte(0));
      const initialStatus = random.chance(0.05) ? 'Paid' : 'Not Paid';
      invoices.push({
        key,
        id: '',
        no: `INV-${String(key + 1).padStart(4, '0')}`,
        // The same name twice, both owing today in one currency: ordered by id.
        client:
          key === FIRST_EDGE ? twins[0] : key === FIRST_EDGE + 1 ? twins[1] : random.int(0, 5),
        currency,
        taxRate,
        issue,
        due,
        lines,
        initialStatus,
        ...totals,
        paid: ZERO,
        credited: ZERO,
        paymentStatus: initialStatus,
        entries: [],
        creditNotes: [],
        voided: false,
        archived: false,
        plan: randomPlan(issue),
      });
    }
    const after = (invoice: ModelInvoice, days: number) => addDays(invoice.issue, days);
    // One invoice still owing today on each edge of a bucket.
    for (const invoice of invoices.slice(FIRST_EDGE, FIRST_EDGE + EDGES.length)) {
      invoice.initialStatus = 'Not Paid';
      invoice.paymentStatus = 'Not Paid';
      invoice.plan = random.chance(0.5)
        ? []
        : [{ kind: 'pay', date: after(invoice, 1), full: false }];
    }
    const halves = invoices[HALVES];
    halves.plan = [
      { kind: 'pay', date: after(halves, 2), full: false, minor: 1 },
      { kind: 'pay', date: after(halves, 2), full: false, minor: 3 },
      { kind: 'refund', date: after(halves, 5), full: false, minor: 1 },
      { kind: 'pay', date: after(halves, 40), full: false, minor: 5 },
    ];
    const [voided, archived, handPaid, refundCredit, mixed] = invoices;
    voided.plan = [
      { kind: 'pay', date: after(voided, 3), full: false },
      { kind: 'credit', date: after(voided, 5), refund: false },
      { kind: 'void', date: after(voided, 9) },
    ];
    archived.plan = [
      { kind: 'pay', date: after(archived, 10), full: true },
      { kind: 'credit', date: after(archived, 12), refund: true },
      { kind: 'archive' },
    ];
    handPaid.initialStatus = 'Not Paid';
    handPaid.paymentStatus = 'Not Paid';
    handPaid.plan = [
      { kind: 'pay', date: after(handPaid, 1), full: false },
      { kind: 'mark', status: 'Paid' },
    ];
    refundCredit.plan = [
      { kind: 'pay', date: after(refundCredit, 20), full: true },
      { kind: 'credit', date: after(refundCredit, 40), refund: true },
    ];
    mixed.plan = [
      { kind: 'pay', date: after(mixed, 0), full: false },
      { kind: 'refund', date: after(mixed, 0), full: false },
      { kind: 'pay', date: after(mixed, 31), full: false },
      { kind: 'credit', date: after(mixed, 31), refund: false },
    ];

    // Creations and corrections interleaved at random, so ids follow no date.
    const queues = invoices.map((invoice) => ({
      invoice,
      steps: [null as Step | null, ...invoice.plan],
    }));
    const renamed = clients[random.pick([0, 1, 2, 3, 4, 5].filter((i) => !twins.includes(i)))];
    let done = 0;
    const half = queues.reduce((sum, queue) => sum + queue.steps.length, 0) / 2;
    for (
      let pending = queues;
      pending.length > 0;
      pending = pending.filter((q) => q.steps.length)
    ) {
      const queue = random.pick(pending);
      const step = queue.steps.shift()!;
      if (step === null) await createInvoice(queue.invoice);
      else await runStep(queue.invoice, step);
      done += 1;
      if (done === Math.floor(half)) {
        // The reports name a client as it is now, not as its older invoices copied it.
        await ok(
          test.http.put(`/v1/client/${renamed.id}`).send({ names: 'Zephyr Partners' }),
          'rename a client',
        );
        renamed.names = 'Zephyr Partners';
      }
    }

    // Expenses: all categories, two GBP ones (a currency without invoices), one archived.
    for (let index = 0; index < 21; index += 1) {
      const currency =
        index < 2 ? 'GBP' : random.weighted({ USD: 4, EUR: 3, JPY: 2, KWD: 1 } as const);
      const [description, category] = EXPENSES[index % EXPENSES.length];
      const date =
        random.chance(0.2) && eventDates.length > 0
          ? random.pick(eventDates)
          : addDays(TODAY, random.int(-640, 60));
      const amount = fromMinor(random.int(1, 400_000), currency);
      const body = await ok(
        test.http.post('/v1/expense/add').send({
          description,
          issue_date: date,
          amount: money(amount, currency),
          currency,
          vendor: random.pick(['', 'Northwind', 'Contoso']),
        }),
        `add expense ${description}`,
      );
      expenses.push({
        id: body.expense[0].id,
        description,
        category,
        amount,
        currency,
        date,
        archived: false,
      });
    }
    const archivedExpense = random.pick(expenses);
    await ok(test.http.delete(`/v1/expense/${archivedExpense.id}`), 'archive an expense');
    archivedExpense.archived = true;

    // A client with invoices is archived last: its name stays in the reports.
    const withInvoices = clients.filter((_, index) => invoices.some((inv) => inv.client === index));
    const gone = random.pick(withInvoices.filter((client) => client !== renamed));
    await ok(test.http.delete(`/v1/client/${gone.id}`), 'archive a client');
    gone.archived = true;
  }

  /** Reads every record back, checks it against the model, and answers the oracle's input. */
  async function readRecords(): Promise<Records> {
    const problems: string[] = [];
    const check = (label: string, actual: unknown, expected: unknown) => {
      try {
        expect(actual).toEqual(expected);
      } catch (error) {
        problems.push(`${label}: ${(error as Error).message}`);
      }
    };

    const liveClients = (
      await ok<{ data: ClientRow[] }>(test.http.get('/v1/client/all'), 'client list')
    ).data;
    check(
      'clients',
      liveClients.map(({ id, names, email }) => ({ id, names, email })),
      clients.filter((c) => !c.archived).map(({ id, names, email }) => ({ id, names, email })),
    );

    const readInvoices: RecordInvoice[] = [];
    for (const invoice of invoices) {
      const response = await test.http.get(`/v1/invoice/${invoice.id}`);
      if (invoice.archived) {
        check(`archived ${invoice.no}`, response.status, 404);
        continue;
      }
      const body = await ok<InvoiceRead>(Promise.resolve(response), `read ${invoice.no}`);
      const read = body.invoice[0];
      const { currency } = invoice;
      check(
        `invoice ${invoice.no}`,
        {
          invoice_no: read.invoice_no,
          customer_id: read.customer_id,
          currency: read.currency,
          tax_rate: dec(read.tax_rate).toFixed(),
          issue_date: read.issue_date,
          due_date: read.due_date,
          sub_total: fmt(dec(read.sub_total), currency),
          tax_amount: fmt(dec(read.tax_amount), currency),
          total: fmt(dec(read.total), currency),
          amount_paid: read.amount_paid,
          outstanding_balance: read.outstanding_balance,
          payment_status: read.payment_status,
          void: read.status === 'void',
          payments: body.payments.map((entry) => [
            entry.status,
            fmt(dec(entry.amount), currency),
            entry.payment_date,
            entry.credit_note_id,
          ]),
        },
        {
          invoice_no: invoice.no,
          customer_id: clients[invoice.client].id,
          currency,
          tax_rate: new D(invoice.taxRate).toFixed(),
          issue_date: invoice.issue,
          due_date: invoice.due,
          sub_total: fmt(invoice.subTotal, currency),
          tax_amount: fmt(invoice.taxAmount, currency),
          total: fmt(invoice.total, currency),
          amount_paid: fmt(invoice.paid, currency),
          outstanding_balance: fmt(invoice.total.minus(invoice.paid), currency),
          payment_status: invoice.paymentStatus,
          void: invoice.voided,
          payments: invoice.entries.map((entry) => [
            entry.status,
            fmt(entry.amount, currency),
            entry.date,
            entry.creditNoteId,
          ]),
        },
      );
      readInvoices.push({
        id: read.id,
        no: read.invoice_no,
        clientId: read.customer_id,
        currency: read.currency,
        taxRate: dec(read.tax_rate),
        subTotal: dec(read.sub_total),
        taxAmount: dec(read.tax_amount),
        total: dec(read.total),
        outstanding: dec(read.outstanding_balance),
        paymentStatus: read.payment_status,
        isVoid: read.status === 'void',
        issue: read.issue_date,
        due: read.due_date,
        entries: body.payments.map((entry, index) => ({
          // Entries are listed by id; the model knows the order they were created in overall.
          seq: invoice.entries[index]?.seq ?? Number.MAX_SAFE_INTEGER,
          status: entry.status,
          amount: dec(entry.amount),
          date: entry.payment_date,
          reference: entry.reference,
          creditNoteId: entry.credit_note_id,
        })),
      });
    }

    const notes = (
      await ok<{ data: CreditNoteRow[] }>(test.http.get('/v1/credit-note/all'), 'credit notes')
    ).data;
    const modelNotes = invoices.flatMap((invoice) => invoice.creditNotes);
    check(
      'credit notes',
      notes.map((note) => ({
        id: note.id,
        credit_note_no: note.credit_note_no,
        invoice_id: note.invoice_id,
        issue_date: note.issue_date,
        tax_rate: dec(note.tax_rate).toFixed(),
        sub_total: fmt(dec(note.sub_total), note.currency),
        tax_amount: fmt(dec(note.tax_amount), note.currency),
        total: fmt(dec(note.total), note.currency),
        refunded: note.refunded,
      })),
      modelNotes
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((note) => {
          const invoice = invoices[note.invoiceKey];
          return {
            id: note.id,
            credit_note_no: note.no,
            invoice_id: invoice.id,
            issue_date: note.issue,
            tax_rate: new D(invoice.taxRate).toFixed(),
            sub_total: fmt(note.subTotal, invoice.currency),
            tax_amount: fmt(note.taxAmount, invoice.currency),
            total: fmt(note.total, invoice.currency),
            refunded: fmt(note.refunded, invoice.currency),
          };
        }),
    );

    const readExpenses = (
      await ok<{ data: ExpenseRow[] }>(test.http.get('/v1/expense/all'), 'expense list')
    ).data;
    check(
      'expenses',
      readExpenses.map(({ id, category, amount, currency, issued_date }) => ({
        id,
        category,
        amount,
        currency,
        issued_date,
      })),
      expenses
        .filter((expense) => !expense.archived)
        .map(({ id, category, amount, currency, date }) => ({
          id,
          category,
          amount: fmt(amount, currency),
          currency,
          issued_date: date,
        })),
    );

    if (problems.length > 0) {
      throw new Error(`The records disagree with the model (${replay}):\n${problems.join('\n')}`);
    }
    return {
      // The archived client cannot be read: the model knows the name it kept.
      clients: new Map([
        ...clients.map((c): [string, RecordClient] => [c.id, c]),
        ...liveClients.map((c): [string, RecordClient] => [
          c.id,
          { id: c.id, names: c.names, email: c.email },
        ]),
      ]),
      invoices: readInvoices,
      creditNotes: notes.map((note) => ({
        id: note.id,
        no: note.credit_note_no,
        invoiceId: note.invoice_id,
        currency: note.currency,
        taxRate: dec(note.tax_rate),
        subTotal: dec(note.sub_total),
        taxAmount: dec(note.tax_amount),
        issue: note.issue_date,
      })),
      expenses: readExpenses.map((expense) => ({
        category: expense.category,
        amount: dec(expense.amount),
        currency: expense.currency,
        date: expense.issued_date,
      })),
    };
  }

  beforeAll(async () => {
    console.info(`reports-differential: ${replay} (today ${TODAY})`);
    clock.setToday(TODAY);
    test = await createTestApp({ clock });
    await buildDataSet();
    records = await readRecords();
  }, 120_000);

  afterAll(async () => {
    await test?.close();
  });

  /** Runs each request, compares its answer with the oracle's, and fails once with them all. */
  async function compareAll(
    cases: Array<{ label: string; path: string; expected: unknown }>,
  ): Promise<void> {
    const failures: string[] = [];
    for (const { label, path, expected } of cases) {
      const response = await test.http.get(path);
      try {
        expect({ status: response.status, body: response.body as unknown }).toEqual({
          status: 200,
          body: { status: 'success', data: expected },
        });
      } catch (error) {
        failures.push(`${label} — GET ${path}\n${(error as Error).message}`);
      }
    }
    if (failures.length > 0) {
      throw new Error(
        `${failures.length} of ${cases.length} answers disagree with the oracle (${replay}):\n\n${failures.join('\n\n')}`,
      );
    }
  }

  it('answers the aging of today and of three past dates', async () => {
    const [past, yesterday] = [addDays(TODAY, -500), addDays(TODAY, -1)];
    const dates = [
      dateAmong(['issue'], past, yesterday),
      dateAmong(['entry'], past, yesterday),
      addDays(TODAY, -random.int(1, 400)),
    ];
    const cases = [
      {
        label: 'aging, today by default',
        path: '/v1/report/aging',
        expected: agingOracle(records, TODAY),
      },
      ...dates.map((asOf) => ({
        label: `aging as of ${asOf}`,
        path: `/v1/report/aging?as_of=${asOf}`,
        expected: agingOracle(records, asOf),
      })),
    ];
    // The data set leaves something owed today in several buckets, so a wrong answer shows.
    const today = cases[0].expected;
    expect(today.currencies.length).toBeGreaterThan(0);
    expect(today.currencies.flatMap((currency) => currency.clients).length).toBeGreaterThan(1);
    await compareAll(cases);
  });

  it('answers profit and loss on the accrual and the cash basis', async () => {
    const ranges: Array<[string, string]> = [];
    const start = addDays(TODAY, -640);
    const first = dateAmong(['entry'], start, TODAY);
    ranges.push([
      first,
      random.chance(0.15)
        ? first
        : dateAmong(['issue', 'expense'], addDays(first, 20), addDays(first, 420)),
    ]);
    const second = dateAmong(['issue', 'note'], start, TODAY);
    ranges.push([
      second,
      dateAmong(['entry', 'expense'], addDays(second, 20), addDays(second, 420)),
    ]);
    // And a range holding everything.
    ranges.push([addDays(TODAY, -800), addDays(TODAY, 500)]);
    const cases = ranges.flatMap(([from, to]) => [
      {
        label: `profit and loss, accrual by default, ${from}…${to}`,
        path: `/v1/report/profit-and-loss?from=${from}&to=${to}`,
        expected: profitAndLossOracle(records, from, to, 'accrual'),
      },
      {
        label: `profit and loss, cash, ${from}…${to}`,
        path: `/v1/report/profit-and-loss?from=${from}&to=${to}&basis=${random.pick(['cash', 'Cash', 'CASH'])}`,
        expected: profitAndLossOracle(records, from, to, 'cash'),
      },
    ]);
    const yearStart = `${TODAY.slice(0, 4)}-01-01`;
    cases.push({
      label: 'profit and loss, all defaults',
      path: '/v1/report/profit-and-loss',
      expected: profitAndLossOracle(records, yearStart, TODAY, 'accrual'),
    });
    const everything = cases[cases.length - 3].expected;
    expect(everything.currencies.map((c) => c.currency)).toEqual(
      expect.arrayContaining(['EUR', 'GBP', 'USD']),
    );
    expect(cases[cases.length - 2].expected.currencies.length).toBeGreaterThan(0);
    await compareAll(cases);
  });

  it('answers the tax summary', async () => {
    const from = dateAmong(['note'], addDays(TODAY, -640), addDays(TODAY, -30));
    const to = dateAmong(['issue', 'note'], addDays(from, 30), addDays(from, 500));
    const wideFrom = addDays(TODAY, -800);
    const wideTo = addDays(TODAY, 500);
    const cases = [
      {
        label: `tax summary ${from}…${to}`,
        path: `/v1/report/tax-summary?from=${from}&to=${to}`,
        expected: taxSummaryOracle(records, from, to),
      },
      {
        label: 'tax summary of everything',
        path: `/v1/report/tax-summary?from=${wideFrom}&to=${wideTo}`,
        expected: taxSummaryOracle(records, wideFrom, wideTo),
      },
      {
        label: 'tax summary, defaults',
        path: '/v1/report/tax-summary',
        expected: taxSummaryOracle(records, `${TODAY.slice(0, 4)}-01-01`, TODAY),
      },
    ];
    expect(cases[1].expected.currencies.length).toBeGreaterThan(2);
    await compareAll(cases);
  });

  it('answers every client’s statement with and without from, and 404 for an archived one', async () => {
    const cases: Array<{ label: string; path: string; expected: unknown }> = [];
    let lines = 0;
    for (const client of clients.filter((each) => !each.archived)) {
      const whole = statementOracle(records, client.id, null, TODAY);
      lines += whole.currencies.reduce((sum, currency) => sum + currency.lines.length, 0);
      cases.push({
        label: `statement of ${client.names} (${client.id})`,
        path: `/v1/client/${client.id}/statement`,
        expected: whole,
      });
      const from = dateAmong(['issue', 'entry'], addDays(TODAY, -500), TODAY, client.id);
      const to = random.chance(0.5)
        ? null
        : dateAmong(['issue', 'entry'], from, addDays(from, 300), client.id);
      const part = statementOracle(records, client.id, from, to ?? TODAY);
      cases.push({
        label: `statement of ${client.names} (${client.id}) from ${from} to ${to ?? 'today'}`,
        path: `/v1/client/${client.id}/statement?from=${from}${to ? `&to=${to}` : ''}`,
        expected: part,
      });
    }
    expect(lines).toBeGreaterThan(20);
    await compareAll(cases);
    for (const client of clients.filter((each) => each.archived)) {
      expect((await test.http.get(`/v1/client/${client.id}/statement`)).status).toBe(404);
    }
  });
});
