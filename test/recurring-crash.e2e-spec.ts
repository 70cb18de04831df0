import { setTimeout as delay } from 'node:timers/promises';
import { agent } from 'supertest';
import { createClient } from './factories/clients';
import { RecurringInvoiceOutput, recurringInvoiceInput } from './factories/recurring-invoices';
import { eventually } from './setup/eventually';
import { invariantViolations, openSql, Sql } from './setup/invariants';
import { prng } from './setup/seeded-random';
import { ServiceProcess, startService } from './setup/service-process';
import { createTestDatabase, dropTestDatabase } from './setup/test-database';

/*
 * docs/recurring.md under a crash: two processes of the built service (`npm run build` first)
 * on one MariaDB database, each scanning every 50 ms, catch up on schedules with months of
 * missed periods; while they do, one of them is killed with SIGKILL (a period's transaction
 * may be cut short) and started again, three times over. Once every schedule is up to date,
 * each must have made exactly one invoice per period (no gap, none twice), and the invoice
 * series must run 1…N in each year, each number once: a transaction a kill cut short took
 * neither its period nor its number with it. MariaDB only (jest.config.js): two processes on
 * one SQLite file answer 503 whenever their transactions cross.
 *
 * The schedules' start dates, the moments of the kills and the instance each kills come from
 * one seed, printed with every run; replay a run with CRASH_SEED=<seed> (the interleaving of
 * the two instances is up to the scheduler, so a replay repeats the plan, not the exact race).
 * The service keeps the real clock: the periods run up to the real today (UTC). About 25–45 s.
 */

const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DATABASE_URL = process.env.DATABASE_URL!;
/** Daily schedules that start two to three months back: most of the periods to catch up on. */
const DAILY = { schedules: 40, daysBack: 60, spread: 20 };
/** Weekly schedules that start in the year before: the series runs in two years. */
const WEEKLY = { schedules: 4, daysBack: 400, spread: 30 };
/** The kills, one after another (the instance killed is started again before the next). */
const KILLS = 3;
/** They fall once these shares of all the periods are made: one in each third of the range. */
const KILL_AT = { min: 0.1, spread: 0.7 };
/** How long each wait may take: for the kill's moment, then for the last period. */
const WAIT_MS = 45_000;

const DAY_MS = 86_400_000;
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
/** The service's today: the UTC date of the real clock. */
const utcToday = () => new Date().toISOString().slice(0, 10);

interface Plan {
  interval: 'day' | 'week';
  startDate: string;
}

const stepOf = (plan: Plan) => (plan.interval === 'day' ? 1 : 7);

/** Every period date of the plan from its start through `today`. */
function periodDates(plan: Plan, today: string): string[] {
  const dates: string[] = [];
  for (let date = plan.startDate; date <= today; date = addDays(date, stepOf(plan))) {
    dates.push(date);
  }
  return dates;
}

/** The values found more than once. */
const twiceIn = (values: string[]) => [
  ...new Set(values.filter((value, at) => values.indexOf(value) !== at)),
];
const short = (values: string[]) =>
  `[${values.slice(0, 12).join(', ')}${values.length > 12 ? ', …' : ''}]`;

describe(`Recurring invoices: kill -9 of one of two instances while catching up (CRASH_SEED=${SEED})`, () => {
  const services: ServiceProcess[] = [];
  let sql: Sql | undefined;

  const env = {
    DATABASE_URL,
    RECURRING_SCAN_MS: '50',
    // The periodic jobs run only where the outbox is polled (test-environment.ts turns it off).
    OUTBOX_POLL_MS: '200',
    // No load balancer to wait for at the end.
    SHUTDOWN_DRAIN_MS: '0',
  };

  beforeAll(async () => {
    // Printed up front: a run that hangs or times out can still be replayed.
    console.log(`recurring-crash: replay with CRASH_SEED=${SEED}`);
    await createTestDatabase();
  });

  afterAll(async () => {
    await sql?.close();
    await Promise.all(services.map((service) => service.kill('SIGKILL')));
    await dropTestDatabase();
  });

  it('makes each period once and numbers the series without a gap, through a kill -9', async () => {
    const random = prng(SEED);
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    // The first runs the migrations; the second starts on the migrated database.
    services.push(await startService(env));
    services.push(await startService(env));
    const db = await openSql(DATABASE_URL);
    sql = db;
    const invoiceCount = async () =>
      Number((await db.query('SELECT COUNT(*) AS n FROM invoices'))[0].n);

    const today = utcToday();
    const plans: Plan[] = [
      ...Array.from({ length: DAILY.schedules }, () => ({
        interval: 'day' as const,
        startDate: addDays(today, -DAILY.daysBack - Math.floor(random() * DAILY.spread)),
      })),
      ...Array.from({ length: WEEKLY.schedules }, () => ({
        interval: 'week' as const,
        startDate: addDays(today, -WEEKLY.daysBack - Math.floor(random() * WEEKLY.spread)),
      })),
    ];
    const total = plans.reduce((sum, plan) => sum + periodDates(plan, today).length, 0);

    // Added through one instance; both make periods from the next scan after each add.
    const http = agent(services[0].url);
    const client = await createClient(http, { email: 'billing@example.com' });
    const ids: string[] = [];
    for (const [index, plan] of plans.entries()) {
      const response = await http
        .post('/v1/recurring-invoice/add')
        .send(
          recurringInvoiceInput(client, {
            interval: plan.interval,
            start_date: plan.startDate,
            due_days: 14,
            items: [{ description: `Service ${index}`, quantity: 1, rate: '10.00' }],
          }),
        )
        .expect(200);
      const schedule = (response.body as { recurring_invoice: RecurringInvoiceOutput[] })
        .recurring_invoice[0];
      expect(schedule).toMatchObject({ start_date: plan.startDate, next_date: plan.startDate });
      ids.push(schedule.id);
    }
    const addedMs = elapsed();

    // The kills: each once a seeded share of the periods is made, and a few ms more; each of a
    // seeded instance, started again at once. A kill falls inside a period's transaction most
    // of the time (the instances do little else), but where exactly is chance: three of them
    // make it likelier that one falls where a crash would do harm.
    const kills: string[] = [];
    for (let round = 0; round < KILLS; round += 1) {
      const share = KILL_AT.min + (round * KILL_AT.spread) / KILLS;
      const killAt = Math.floor(total * (share + (random() * KILL_AT.spread) / KILLS));
      const jitterMs = Math.floor(random() * 40);
      const victim = random() < 0.5 ? 0 : 1;
      await eventually(invoiceCount, (made) => made >= killAt, WAIT_MS);
      await delay(jitterMs);
      await services[victim].kill('SIGKILL');
      const madeAtKill = await invoiceCount();
      kills.push(`instance ${victim} at ${elapsed()} ms with ${madeAtKill} made`);
      // The kill fell while periods were still being made: else it proves nothing.
      expect(madeAtKill).toBeLessThan(total);
      services[victim] = await startService(env);
    }

    // Up to date: no schedule has a period left on or before today (a timeout names those
    // that have, with the period each is stuck on).
    const { day: end } = await eventually(
      async () => {
        const day = utcToday();
        const left = await db.query(
          `SELECT id, next_date, invoices_made FROM recurring_invoices WHERE next_date <= '${day}'`,
        );
        return { day, left };
      },
      ({ left }) => left.length === 0,
      WAIT_MS,
    );
    const caughtUpMs = elapsed();
    // Nothing is made from here on (unless midnight UTC passed in these few ms): both stop, and
    // one that makes nothing (no periodic job without the outbox poll) answers the reads.
    await Promise.all(services.map((service) => service.kill('SIGKILL')));
    services.length = 0;
    services.push(await startService({ ...env, OUTBOX_POLL_MS: '0' }));
    const reader = agent(services[0].url);

    // Each schedule as read: one invoice per period date, in order, and the count of them.
    const problems: string[] = [];
    const expectedOf = new Map(ids.map((id, index) => [id, periodDates(plans[index], end)]));
    const answered: Array<{ id: string; invoice_no: string; issue_date: string }> = [];
    for (const [index, id] of ids.entries()) {
      const response = await reader.get(`/v1/recurring-invoice/${id}`).expect(200);
      const schedule = (response.body as { recurring_invoice: RecurringInvoiceOutput[] })
        .recurring_invoice[0];
      const expected = expectedOf.get(id)!;
      // Every invoice it made, from the invoice list's filter; the schedule shows the latest 12.
      const listed = (
        (await reader.get(`/v1/invoice/all?recurring_invoice=${id}`).expect(200)).body as {
          data: Array<{ id: string; invoice_no: string; issue_date: string }>;
        }
      ).data.sort((a, b) => a.issue_date.localeCompare(b.issue_date));
      const made = listed.map((invoice) => invoice.issue_date);
      const latest = listed.slice(-12).map(({ id: invoice, invoice_no, issue_date }) => ({
        id: invoice,
        invoice_no,
        issue_date,
      }));
      if (JSON.stringify(schedule.invoices) !== JSON.stringify(latest)) {
        problems.push(`schedule ${id}: shows ${JSON.stringify(schedule.invoices).slice(0, 200)}`);
      }
      const plan = `schedule ${id} (${plans[index].interval} from ${plans[index].startDate})`;
      if (made.join() !== expected.join()) {
        problems.push(
          `${plan}: ${made.length} invoices for ${expected.length} periods; ` +
            `missing ${short(expected.filter((date) => !made.includes(date)))}, ` +
            `twice ${short(twiceIn(made))}, ` +
            `not a period ${short(made.filter((date) => !expected.includes(date)))}`,
        );
      }
      if (schedule.invoices_made !== expected.length) {
        problems.push(
          `${plan}: invoices_made ${schedule.invoices_made}, ${expected.length} periods`,
        );
      }
      const next = addDays(expected[expected.length - 1], stepOf(plans[index]));
      if (schedule.next_date !== next || schedule.status !== 'active') {
        problems.push(`${plan}: ${schedule.status}, next_date ${schedule.next_date}, not ${next}`);
      }
      answered.push(...listed);
    }

    // The table: no (schedule, period) twice, each invoice dated its period, numbered from the
    // series, live, and the very invoices the schedules answer.
    const pairsTwice = await db.query(
      `SELECT recurring_invoice_id, recurring_period, COUNT(*) AS n FROM invoices
         GROUP BY recurring_invoice_id, recurring_period HAVING COUNT(*) > 1`,
    );
    problems.push(...pairsTwice.map((row) => `period billed twice: ${JSON.stringify(row)}`));
    const invoices = await db.query(
      `SELECT id, invoice_no, issue_date, recurring_invoice_id, recurring_period, deleted_at,
              number_from_series
         FROM invoices ORDER BY id`,
    );
    const periods = [...expectedOf.values()].flat();
    if (invoices.length !== periods.length) {
      problems.push(`${invoices.length} invoices in the table, ${periods.length} periods in all`);
    }
    const oddRows = invoices.filter(
      (row) =>
        !expectedOf.has(String(row.recurring_invoice_id)) ||
        row.recurring_period !== row.issue_date ||
        row.deleted_at !== null ||
        Number(row.number_from_series) !== 1,
    );
    problems.push(...oddRows.slice(0, 10).map((row) => `invoice row ${JSON.stringify(row)}`));
    const listed = (rows: Array<Record<string, unknown>>) =>
      rows
        .map((row) => `${String(row.id)} ${String(row.invoice_no)} ${String(row.issue_date)}`)
        .sort()
        .join('\n');
    if (listed(answered) !== listed(invoices)) {
      problems.push('the schedules answer other invoices than the table holds');
    }

    // The series: in each year exactly INV-YYYY-0001 … INV-YYYY-N, N the number of periods
    // dated in that year and the year's counter.
    const numbersByYear = new Map<string, string[]>();
    for (const row of invoices) {
      const year = String(row.issue_date).slice(0, 4);
      numbersByYear.set(year, [...(numbersByYear.get(year) ?? []), String(row.invoice_no)]);
    }
    const periodsByYear = new Map<string, number>();
    for (const date of periods) {
      periodsByYear.set(date.slice(0, 4), (periodsByYear.get(date.slice(0, 4)) ?? 0) + 1);
    }
    const counters = await db.query(
      "SELECT period, last_value FROM number_counters WHERE kind = 'invoice'",
    );
    // The weekly schedules reach into the year before: two years of the series at least.
    expect(periodsByYear.size).toBeGreaterThanOrEqual(2);
    const years = new Set([
      ...periodsByYear.keys(),
      ...numbersByYear.keys(),
      ...counters.map((row) => String(row.period)),
    ]);
    for (const year of years) {
      const n = periodsByYear.get(year) ?? 0;
      const expected = Array.from(
        { length: n },
        (_, index) => `INV-${year}-${String(index + 1).padStart(4, '0')}`,
      );
      const numbers = [...(numbersByYear.get(year) ?? [])].sort();
      if (numbers.join() !== expected.join()) {
        problems.push(
          `series ${year}: ${numbers.length} numbers for ${n} periods; ` +
            `missing ${short(expected.filter((number) => !numbers.includes(number)))}, ` +
            `twice ${short(twiceIn(numbers))}, ` +
            `not expected ${short(numbers.filter((number) => !expected.includes(number)))}`,
        );
      }
      const counter = counters.find((row) => String(row.period) === year);
      if (Number(counter?.last_value ?? 0) !== n) {
        problems.push(`series ${year}: counter at ${String(counter?.last_value)}, ${n} periods`);
      }
    }

    // Each period's event commits with its invoice: one `invoiced` per period made.
    const events = await db.query(
      `SELECT object_id, type, COUNT(*) AS n FROM events WHERE object = 'recurring_invoice'
         GROUP BY object_id, type`,
    );
    for (const [id, expected] of expectedOf) {
      for (const [type, n] of [
        ['recurring_invoice.created', 1],
        ['recurring_invoice.invoiced', expected.length],
      ] as const) {
        const row = events.find((event) => String(event.object_id) === id && event.type === type);
        const found = Number(row?.n ?? 0);
        if (found !== n) problems.push(`schedule ${id}: ${found} ${type} events, not ${n}`);
      }
    }
    // The invariants of every record (schedules included: one created event each, none deleted).
    problems.push(...(await invariantViolations(db)).map((text) => `invariant: ${text}`));

    console.log(
      `recurring-crash, CRASH_SEED=${SEED}: ${plans.length} schedules, ${periods.length} ` +
        `periods through ${end}, series years ${[...periodsByYear.keys()].sort().join(', ')}; ` +
        `two instances up and schedules added at ${addedMs} ms; killed ${kills.join(', ')}; ` +
        `all made at ${caughtUpMs} ms; checked at ${elapsed()} ms`,
    );
    if (problems.length > 0) {
      throw new Error(`CRASH_SEED=${SEED}:\n${problems.slice(0, 40).join('\n')}`);
    }
  }, 110_000);
});
