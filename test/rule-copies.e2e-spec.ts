import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { daysBetween, shiftDate } from '../src/common/clock';
import { minorUnits } from '../src/common/money/currency';
import { Decimal, ZERO } from '../src/common/money/decimal';
import { isUniqueViolation } from '../src/database/database';
import { outstandingBalance } from '../src/documents/domain/document-totals';
import { numberTaken } from '../src/documents/domain/document-number';
import { formatMoney } from '../src/common/money/money';
import {
  INVOICE_STATUSES,
  InvoiceStatus,
  invoiceStatus,
  openUntilOf,
  settlementFacts,
  settlementOf,
  StatusFacts,
} from '../src/invoices/domain/invoice-status';
import { AGING_BUCKETS, agingBalance, agingBucket } from '../src/reports/domain/aging';
import { cashIncome } from '../src/reports/domain/cash-income';
import { createClient } from './factories/clients';
import { createTestApp, TestApp } from './setup/create-app';
import { openSql, Sql } from './setup/invariants';
import { TestClock } from './setup/test-clock';
import { SLOW_RUN } from './setup/test-run';

/*
 * One home per rule: the status of an invoice, the rounding of money and the numbering of
 * documents are each defined once (src/invoices/domain/invoice-status.ts,
 * src/common/money/money.ts, src/documents/domain/document-number.ts), and the copies that speed
 * keeps in SQL must agree with them. Generated invoices (three currencies, amounts from one minor
 * unit to billions, payments, refunds, credit notes with and without refund, marks by hand,
 * voids, due dates around today) go in through the HTTP API; then, for every invoice, what the
 * domain functions say of its stored facts must be what each copy says:
 *
 *   - the generated columns `settlement` and `open_until` (per dialect, in the migrations);
 *   - the status filter, `GET /invoice/all?status=` for each status;
 *   - the list mapper, which works the status and the outstanding balance out from a row read
 *     as text;
 *   - the aging report, as of today and of past dates (its sums, and on MySQL its correction
 *     for entries dated after the date): in a bucket exactly when owing, by the status rule;
 *   - the cash basis of profit and loss, which rounds each entry without its tax in SQL on
 *     MySQL (cashIncomeSql): equal to cashIncome of each entry, summed. Tax rates of 100% make
 *     half the odd payments fall on a rounding midpoint.
 *
 * Numbering then has generated numbers of each kind, half of them archived, and their variants
 * (case, NFD, inner spaces, a suffix): the unique index (a number changed in place, under no
 * check) and the API's check before a write refuse one exactly when numberTaken says it is taken.
 *
 * RULES_SEED=<n> replays a run, RULES_CASES=<n> sets how many invoices (100 in `npm test`, 400
 * in `npm run test:slow`).
 */

const SEED =
  process.env.RULES_SEED === undefined || process.env.RULES_SEED === ''
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.RULES_SEED);
const CASES = Number(process.env.RULES_CASES ?? (SLOW_RUN ? 400 : 100));

const TODAY = '2026-06-15';
const AGING_DATES = [TODAY, shiftDate(TODAY, -1), shiftDate(TODAY, -20), shiftDate(TODAY, -45)];
const CURRENCIES = ['USD', 'JPY', 'KWD'] as const;
const TAX_RATES = ['0', '7.125', '19', '100'] as const;

type Move =
  | { kind: 'pay'; share: number; daysAgo: number }
  | { kind: 'refund'; share: number; daysAgo: number }
  | { kind: 'credit'; share: number; refund: boolean; daysAgo: number }
  | { kind: 'mark'; paid: boolean };

interface Case {
  currency: (typeof CURRENCIES)[number];
  taxRate: (typeof TAX_RATES)[number];
  /** The one line's rate in minor units. */
  rate: bigint;
  /** Due date from today, and the issue date so many days before the due date or today. */
  due: number;
  issuedBefore: number;
  addedPaid: boolean;
  moves: Move[];
  voided: boolean;
  /** A draft (docs/numbering.md): no number, no moves, outside every report. */
  draft: boolean;
  /** A document discount in percent (docs/taxes.md), or none: income is net of it. */
  discountPercent: string | null;
}

/** True about once in `times`. */
function sometimes(times: number): fc.Arbitrary<boolean> {
  return fc.integer({ min: 1, max: times }).map((roll) => roll === 1);
}

/** Mostly around today; now and then far on either side. */
const dueDay = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -2, max: 2 }) },
  { weight: 2, arbitrary: fc.integer({ min: -100, max: 40 }) },
);
/** Which part of what a move may take: all of it, one minor unit, or a share between. */
const share = fc.oneof(fc.constant(1), fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true }));
const daysAgo = fc.integer({ min: 0, max: 60 });
const move: fc.Arbitrary<Move> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), share, daysAgo }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), share, daysAgo }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('credit' as const),
      share,
      refund: fc.boolean(),
      daysAgo,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mark' as const), paid: fc.boolean() }) },
);
const invoiceCase: fc.Arbitrary<Case> = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  taxRate: fc.constantFrom(...TAX_RATES),
  rate: fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: 1n, max: 100_000n }) },
    { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 4_000_000_000_000n }) },
  ),
  due: dueDay,
  issuedBefore: fc.integer({ min: 0, max: 30 }),
  addedPaid: sometimes(10),
  moves: fc.array(move, { maxLength: 4 }),
  voided: sometimes(7),
  draft: sometimes(9),
  discountPercent: fc.option(fc.constantFrom('5', '12.5', '33.3333'), { freq: 3 }),
});

/** Minor units as decimal text of the currency. */
function money(minor: bigint, currency: string): string {
  return new Decimal(minor.toString())
    .dividedBy(10 ** minorUnits(currency))
    .toFixed(minorUnits(currency));
}

/** Decimal text as minor units of the currency (exact). */
function minor(text: string, currency: string): bigint {
  return BigInt(new Decimal(text).times(10 ** minorUnits(currency)).toFixed(0));
}

/** A share of `limit` minor units: all, one, or a part between (never 0 while limit > 0). */
function part(limit: bigint, share: number): bigint {
  if (limit <= 0n) return 0n;
  if (share === 0) return 1n;
  const taken = BigInt(Math.floor(Number(limit) * share));
  return taken < 1n ? 1n : taken > limit ? limit : taken;
}

/** Clients hold a few invoices each, so that the aging report sums a few per row. */
const INVOICES_PER_CLIENT = 4;

/** `work` on every item, a few at a time (each item's requests in order, items side by side). */
async function inLanes<T, R>(items: T[], work: (item: T, index: number) => Promise<R>) {
  const results: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: 6 }, lane));
  return results;
}

interface Written {
  id: string;
  client: string;
}

/** The invoice's row, as the database holds it. */
interface StoredInvoice {
  id: number;
  clientId: number;
  currency: string;
  paymentStatus: 'Paid' | 'Not Paid';
  total: string;
  /** The sub-total net of the document discount and of tax: total − tax_amount. */
  net: string;
  amountPaid: string;
  issueDate: string;
  dueDate: string;
  voided: boolean;
  draft: boolean;
  settlement: string | null;
  openUntil: string | null;
}

interface StoredEntry {
  invoiceId: number;
  status: 'Completed' | 'Refunded' | 'Credited';
  amount: string;
  date: string;
}

describe(`One definition per rule, its SQL copies proved equal (RULES_SEED=${SEED})`, () => {
  let test: TestApp;
  let sql: Sql;
  const clock = new TestClock();
  const cases = fc.sample(invoiceCase, { seed: SEED, numRuns: CASES });
  let written: Written[] = [];
  let invoices: Map<string, StoredInvoice>;
  let entries: StoredEntry[];

  /** Adds the case's invoice for a client of its own, then makes its moves, in order. */
  async function write(example: Case, index: number, client: string): Promise<Written> {
    const due = shiftDate(TODAY, example.due);
    const issued = shiftDate(due < TODAY ? due : TODAY, -example.issuedBefore);
    const added = await test.http
      .post('/v1/invoice/add')
      .send({
        client,
        ...(example.draft ? { draft: true } : { invoice_no: `RC-${index}` }),
        payment_status: example.addedPaid && !example.draft ? 'Paid' : 'Not Paid',
        currency: example.currency,
        tax_rate: example.taxRate,
        ...(example.discountPercent === null ? {} : { discount_percent: example.discountPercent }),
        issue_date: issued,
        due_date: due,
        items: [{ description: 'Work', quantity: 1, rate: money(example.rate, example.currency) }],
      })
      .expect(200);
    const invoice = (added.body as { invoice: Array<Record<string, string>> }).invoice[0];
    const id = invoice.id;
    // A draft takes no payment, refund, credit note or void: it stays as added.
    if (example.draft) return { id, client };
    const currency = example.currency;
    let outstanding = minor(invoice.outstanding_balance, currency);
    let paid = minor(invoice.amount_paid, currency);
    let credited = 0n;
    const total = outstanding + paid;
    const since = (days: number) => {
      const date = shiftDate(TODAY, -days);
      return date < issued ? issued : date;
    };
    const after = (body: { invoice: Array<Record<string, string>> }) => {
      paid = minor(body.invoice[0].amount_paid, currency);
      outstanding = minor(body.invoice[0].outstanding_balance, currency);
    };
    for (const step of example.moves) {
      switch (step.kind) {
        case 'pay': {
          if (outstanding <= 0n) break;
          const amount = part(outstanding, step.share);
          await test.http
            .post('/v1/invoice/record-payment')
            .send({ id, amount_paid: money(amount, currency), payment_date: since(step.daysAgo) })
            .expect(200);
          paid += amount;
          outstanding -= amount;
          break;
        }
        case 'refund': {
          const cash = paid - credited;
          if (cash <= 0n) break;
          const response = await test.http
            .post('/v1/invoice/refund')
            .send({
              id,
              amount: money(part(cash, step.share), currency),
              refund_date: since(step.daysAgo),
            })
            .expect(200);
          after(response.body);
          break;
        }
        case 'credit': {
          // The line's rate, so that with its tax the credit note stays within what it may take.
          const limit = step.refund ? total - credited : outstanding;
          const rate =
            (part(limit, step.share) * 100_000n) /
            (100_000n + BigInt(Number(example.taxRate) * 1000));
          if (rate < 1n) break;
          const response = await test.http.post('/v1/credit-note/add').send({
            invoice: id,
            credit_note_no: `RC-${id}-${credited}`,
            items: [{ description: 'Credit', quantity: 1, rate: money(rate, currency) }],
            issue_date: since(step.daysAgo),
            refund: step.refund,
          });
          if (response.status === 422) break; // rounded above what it may take: nothing changed
          expect(response.status).toBe(200);
          const body = response.body as {
            invoice: Array<Record<string, string>>;
            credit_note: Array<{ refunded: string }>;
          };
          const before = paid;
          after(body);
          // paid after = paid − refunded + the credit note's total
          credited += paid - before + minor(body.credit_note[0].refunded, currency);
          break;
        }
        case 'mark':
          await test.http.get(`/v1/invoice/${step.paid ? 'paid' : 'not-paid'}/${id}`).expect(200);
          break;
      }
    }
    if (example.voided) {
      const cash = paid - credited;
      if (cash > 0n) {
        await test.http
          .post('/v1/invoice/refund')
          .send({ id, amount: money(cash, currency), refund_date: TODAY })
          .expect(200);
      }
      await test.http.post(`/v1/invoice/${id}/void`).send({}).expect(200);
    }
    return { id, client };
  }

  beforeAll(async () => {
    clock.setToday(TODAY);
    test = await createTestApp({ clock });
    const clients = await inLanes(
      Array.from({ length: Math.ceil(cases.length / INVOICES_PER_CLIENT) }),
      () => createClient(test.http),
    );
    written = await inLanes(cases, (example, index) =>
      write(example, index, clients[Math.floor(index / INVOICES_PER_CLIENT)]),
    );
    sql = await openSql(process.env.DATABASE_URL!);
    const rows = await sql.query(
      `SELECT id, client_id, currency, payment_status, total, tax_amount, amount_paid,
              issue_date, due_date, voided_at, draft, settlement, open_until
         FROM invoices WHERE deleted_at IS NULL`,
    );
    invoices = new Map(
      rows.map((row) => [
        String(row.id),
        {
          id: Number(row.id),
          clientId: Number(row.client_id),
          currency: String(row.currency),
          paymentStatus: row.payment_status as StoredInvoice['paymentStatus'],
          total: String(row.total),
          net: new Decimal(String(row.total)).minus(String(row.tax_amount)).toFixed(),
          amountPaid: String(row.amount_paid),
          issueDate: String(row.issue_date).slice(0, 10),
          dueDate: String(row.due_date).slice(0, 10),
          voided: row.voided_at !== null,
          draft: Number(row.draft) === 1,
          // As the database holds them: text, or NULL (dates as text on both drivers).
          settlement: row.settlement as string | null,
          openUntil: row.open_until as string | null,
        },
      ]),
    );
    entries = (
      await sql.query('SELECT invoice_id, status, amount, payment_date FROM invoice_payments')
    ).map((row) => ({
      invoiceId: Number(row.invoice_id),
      status: row.status as StoredEntry['status'],
      amount: String(row.amount),
      date: String(row.payment_date).slice(0, 10),
    }));
  }, 120_000);

  afterAll(async () => {
    await sql?.close();
    await test?.close();
  });

  /** What the domain is told of a stored invoice. */
  const factsOf = (invoice: StoredInvoice): StatusFacts => ({
    draft: invoice.draft,
    voidedAt: invoice.voided ? new Date(0) : null,
    paymentStatus: invoice.paymentStatus,
    total: new Decimal(invoice.total),
    amountPaid: new Decimal(invoice.amountPaid),
    dueDate: invoice.dueDate,
  });

  const statusOf = (id: string): InvoiceStatus => invoiceStatus(factsOf(invoices.get(id)!), TODAY);

  it('writes every generated invoice, in every status', () => {
    expect(invoices.size).toBe(cases.length);
    const seen = new Set(written.map(({ id }) => statusOf(id)));
    expect([...seen].sort()).toEqual([...INVOICE_STATUSES].sort());
  });

  it('stores settlement and open_until as settlementOf and openUntilOf say', () => {
    const disagreeing = [...invoices.values()].flatMap((invoice) => {
      const facts = settlementFacts(factsOf(invoice));
      const expected = { settlement: settlementOf(facts), openUntil: openUntilOf(facts) };
      const stored = { settlement: invoice.settlement, openUntil: invoice.openUntil };
      return JSON.stringify(stored) === JSON.stringify(expected) ? [] : [{ invoice, expected }];
    });
    expect(disagreeing).toEqual([]);
  });

  it('lists each invoice under the status filter of its status, and no other', async () => {
    for (const status of INVOICE_STATUSES) {
      const response = await test.http.get(`/v1/invoice/all?status=${status}`).expect(200);
      const listed = (response.body as { data: Array<{ id: string }> }).data.map(({ id }) => id);
      const expected = written.map(({ id }) => id).filter((id) => statusOf(id) === status);
      expect({ status, ids: listed.sort() }).toEqual({ status, ids: expected.sort() });
    }
  });

  it('answers each invoice in the list with the status and balance of the domain', async () => {
    const response = await test.http.get('/v1/invoice/all').expect(200);
    type Listed = { id: string; status: string; outstanding_balance: string };
    const listed = (response.body as { data: Listed[] }).data.map(
      ({ id, status, outstanding_balance }) => ({ id, status, outstanding_balance }),
    );
    const expected = listed.map(({ id }) => {
      const invoice = invoices.get(id)!;
      const balance = outstandingBalance(
        new Decimal(invoice.total),
        new Decimal(invoice.amountPaid),
      );
      return {
        id,
        status: statusOf(id),
        outstanding_balance: formatMoney(balance, invoice.currency),
      };
    });
    expect(listed).toHaveLength(cases.length);
    expect(listed).toEqual(expected);
  });

  it.each(AGING_DATES)('ages as of %s exactly the invoices that owed then', async (asOf) => {
    const response = await test.http.get(`/v1/report/aging?as_of=${asOf}`).expect(200);
    const report = (response.body as { data: AgingAnswer }).data;
    const answered = new Map<string, AgingRow>();
    for (const currency of report.currencies) {
      for (const row of currency.clients) {
        const buckets = AGING_BUCKETS.filter((bucket) => !new Decimal(row[bucket]).isZero());
        answered.set(`${currency.currency} ${row.client_id}`, {
          invoices: row.invoices,
          ...Object.fromEntries(buckets.map((bucket) => [bucket, row[bucket]])),
        });
      }
    }
    const owed = new Map<string, { invoices: number; buckets: Map<string, Decimal> }>();
    for (const { id, client } of written) {
      const invoice = invoices.get(id)!;
      // Drafts are outside every report (docs/numbering.md).
      if (invoice.issueDate > asOf || invoice.draft) continue;
      const undone = entries
        .filter((entry) => String(entry.invoiceId) === id && entry.date > asOf)
        .reduce(
          (sum, entry) =>
            entry.status === 'Refunded' ? sum.minus(entry.amount) : sum.plus(entry.amount),
          ZERO,
        );
      const balance = agingBalance({ ...factsOf(invoice), voided: invoice.voided }, undone);
      const facts = settlementFacts(factsOf(invoice));
      if (asOf === TODAY) {
        // As of today, by the status rule itself: owing is unpaid, and past due is overdue.
        expect({ id, owing: balance !== null }).toEqual({
          id,
          owing: settlementOf(facts) === 'unpaid',
        });
      }
      if (balance === null) continue;
      const bucket = agingBucket(daysBetween(invoice.dueDate, asOf));
      if (asOf === TODAY) {
        expect({ id, overdue: bucket !== 'current' }).toEqual({
          id,
          overdue: statusOf(id) === 'overdue',
        });
      }
      const key = `${invoice.currency} ${client}`;
      const sums = owed.get(key) ?? { invoices: 0, buckets: new Map<string, Decimal>() };
      sums.invoices += 1;
      sums.buckets.set(bucket, (sums.buckets.get(bucket) ?? ZERO).plus(balance));
      owed.set(key, sums);
    }
    const expected = new Map<string, AgingRow>(
      [...owed].map(([key, sums]) => [
        key,
        {
          invoices: sums.invoices,
          ...Object.fromEntries(
            [...sums.buckets].map(([bucket, sum]) => [bucket, formatMoney(sum, key.slice(0, 3))]),
          ),
        },
      ]),
    );
    const sorted = (map: Map<string, AgingRow>) =>
      [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    expect(sorted(answered)).toEqual(sorted(expected));
  });

  it('rounds each entry of the cash basis as cashIncome does', async () => {
    const from = shiftDate(TODAY, -200);
    const response = await test.http
      .get(`/v1/report/profit-and-loss?basis=cash&from=${from}&to=${TODAY}`)
      .expect(200);
    const report = (response.body as { data: ProfitAndLossAnswer }).data;
    const answered = report.currencies.flatMap((currency) =>
      currency.months.map((month) => `${currency.currency} ${month.month} ${month.income}`),
    );
    const sums = new Map<string, Decimal>();
    for (const entry of entries) {
      const invoice = invoices.get(String(entry.invoiceId))!;
      if (invoice.voided || entry.status === 'Credited' || entry.date < from) continue;
      const net = cashIncome(entry.amount, invoice.net, invoice.total, invoice.currency);
      const key = `${invoice.currency} ${entry.date.slice(0, 7)}`;
      const signed = entry.status === 'Refunded' ? net.negated() : net;
      sums.set(key, (sums.get(key) ?? ZERO).plus(signed));
    }
    const expected = [...sums].map(([key, sum]) => `${key} ${formatMoney(sum, key.slice(0, 3))}`);
    expect(answered.sort()).toEqual(expected.sort());
  });
  describe('numbering', () => {
    /** Each kind: its path, its table and number column, its unique index as each dialect names it. */
    const KINDS = [
      { path: 'invoice', table: 'invoices', column: 'invoice_no', index: 'live_invoice_no' },
      {
        path: 'estimate',
        table: 'estimates',
        column: 'estimate_no',
        index: 'live_estimate_no',
      },
      {
        path: 'credit-note',
        table: 'credit_notes',
        column: 'credit_note_no',
        index: 'uq_credit_notes_credit_note_no',
      },
    ] as const;
    const bases = [
      ...new Set(fc.sample(fc.stringMatching(/^[A-Za-zé0-9]{1,5}$/), { seed: SEED, numRuns: 6 })),
    ].map((base) => `N-${base}`);
    /** A number, and numbers an exact comparison tells from it. */
    const variants = (number: string) => [
      ...new Set([
        number,
        number.toUpperCase(),
        number.toLowerCase(),
        number.normalize('NFD'),
        number.replace('-', '  '),
        `${number}.`,
      ]),
    ];

    it.each(KINDS)(
      'gives a new $path a number exactly when numberTaken says it is free, by the check and by the index',
      async ({ path, table, column, index }) => {
        const client = await createClient(test.http);
        // Credit notes of 0.01 on an invoice of a million.
        const parent =
          path === 'credit-note'
            ? (
                (
                  await test.http
                    .post('/v1/invoice/add')
                    .send({
                      client,
                      invoice_no: 'N-PARENT',
                      payment_status: 'Not Paid',
                      items: [{ description: 'Work', quantity: 1, rate: '1000000.00' }],
                    })
                    .expect(200)
                ).body as { invoice: Array<{ id: string }> }
              ).invoice[0].id
            : '';
        /** Adds a document with the number: its id, or null when refused with 409. */
        const add = async (number: string): Promise<string | null> => {
          const items = [{ description: 'Numbered', quantity: 1, rate: '0.01' }];
          const body =
            path === 'credit-note'
              ? { invoice: parent, credit_note_no: number, items }
              : path === 'invoice'
                ? { client, invoice_no: number, items, payment_status: 'Not Paid' }
                : { client, estimate_no: number, items };
          const response = await test.http.post(`/v1/${path}/add`).send(body);
          if (response.status === 409) return null;
          expect({ number, status: response.status }).toEqual({ number, status: 200 });
          const key = path === 'credit-note' ? 'credit_note' : path;
          return (response.body as Record<string, Array<{ id: string }>>)[key][0].id;
        };
        const documents: Array<{ id: string; number: string; archived: boolean }> = [];
        for (const [position, number] of bases.entries()) {
          const id = (await add(number))!;
          const archived = path !== 'credit-note' && position % 2 === 1;
          if (archived) await test.http.delete(`/v1/${path}/${id}`).expect(200);
          documents.push({ id, number, archived });
        }
        // The unique index alone: another document's number changed in place, under no check.
        const probe = (await add(`PROBE-${path}`))!;
        const database = test.app.get(DataSource);
        for (const number of bases.flatMap(variants)) {
          const taken = numberTaken(number, documents);
          let refused = false;
          try {
            await database.query(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [number, probe]);
          } catch (error) {
            if (!isUniqueViolation(error, index, `${table}.${column}`)) throw error;
            refused = true;
          }
          expect({ number, refused }).toEqual({ number, refused: taken });
        }
        await database.query(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [
          `PROBE-${path}`,
          probe,
        ]);
        // The check before a write, through the API.
        for (const number of bases.flatMap(variants)) {
          const taken = numberTaken(number, documents);
          const id = await add(number);
          expect({ number, refused: id === null }).toEqual({ number, refused: taken });
          if (id !== null) documents.push({ id, number, archived: false });
        }
      },
    );
  });
});

interface AgingAnswer {
  currencies: Array<{
    currency: string;
    clients: Array<Record<string, string> & { client_id: string; invoices: number }>;
  }>;
}

/** A client's row in one currency: how many invoices owe, and the buckets that are not 0. */
type AgingRow = { invoices: number } & Record<string, string | number>;

interface ProfitAndLossAnswer {
  currencies: Array<{ currency: string; months: Array<{ month: string; income: string }> }>;
}
