import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS } from '../src/app.options';
import { configureApp, createHttpAdapter } from '../src/app.setup';
import { Clock } from '../src/common/clock';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/environment';
import { RecurringInvoiceJob } from '../src/recurring-invoices/recurring-invoice-job';
import { RecurringInvoicesService } from '../src/recurring-invoices/recurring-invoices.service';
import { createThrowawayDatabase } from './throwaway-database';

/*
 * One scan of the recurring-invoice job (RecurringInvoiceJob.run, as every instance runs it at
 * start-up and every RECURRING_SCAN_MS) over SCHEDULES schedules that each have one period due
 * today: its wall time, the invoices it made (checked: one per schedule), invoices per second,
 * the statements it sent per invoice, and the process's memory while it ran (RSS and heap
 * sampled every SAMPLE_MS; the heap after, before and after a full GC).
 *
 * The schedules are added through the API (POST /v1/recurring-invoice/add, SEED_CONCURRENCY at
 * once, into the app listening on 127.0.0.1), monthly from today for one client, two lines and
 * a tax, so each is a schedule exactly as the API writes it. The instance runs no job loop
 * (OUTBOX_POLL_MS=0: neither the start-up scan nor the periodic one, nor the outbox and
 * reminders), and RECURRING_SCAN_MS is a day besides: the one scan measured is the bench's.
 *   npm run bench:recurring                                          # SQLite, 10,000 schedules
 *   BENCH_MARIADB_URL=mariadb://root@127.0.0.1:3306 npm run bench:recurring
 * BENCH_SCHEDULES sets the number of schedules. Run with --expose-gc (the npm script does) for
 * the heap after a GC.
 */

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 10_000);
const MARIADB_SERVER = process.env.BENCH_MARIADB_URL;
const SEED_CONCURRENCY = 8;
const SAMPLE_MS = 50;

const mib = (bytes: number) => bytes / 1_048_576;

async function createApp(env: Record<string, string>): Promise<INestApplication> {
  // warn: a schedule the scan could not make is logged (and the count check fails after).
  const environment = validateEnvironment({ ...process.env, LOG_LEVEL: 'warn', ...env });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(new AppConfig(new ConfigService(environment)))
    .compile();
  const app = configureApp(moduleRef.createNestApplication(createHttpAdapter(), APP_OPTIONS));
  await app.listen(0, '127.0.0.1');
  return app;
}

async function post(base: string, path: string, body: object): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

/** One client and SCHEDULES monthly schedules from `today`, through the API. */
async function seed(base: string, today: string): Promise<void> {
  const client = (await post(base, '/v1/client/add', {
    names: 'Northwind Trading',
    email: 'ap@northwind.example',
  })) as { data: Array<{ id: string }> };
  const clientId = client.data[0].id;
  let next = 0;
  const adder = async (): Promise<void> => {
    while (next < SCHEDULES) {
      const index = next++;
      const answer = (await post(base, '/v1/recurring-invoice/add', {
        client: clientId,
        description: `Retainer ${index + 1}`,
        interval: 'month',
        start_date: today,
        tax_rate: '20',
        items: [
          { description: 'Monthly retainer', quantity: 1, rate: '1000.00' },
          { description: 'Hosting', quantity: 2, rate: '25.00', unit: 'MON' },
        ],
      })) as { recurring_invoice: Array<{ next_date: string; status: string }> };
      const schedule = answer.recurring_invoice[0];
      if (schedule.next_date !== today || schedule.status !== 'active') {
        throw new Error(`schedule ${index + 1} is not due today: ${JSON.stringify(schedule)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, adder));
}

/**
 * The process's RSS and heap used, at most every SAMPLE_MS: from a timer, and from every
 * statement the app sends (`poll`), since on SQLite the scan may hold the event loop all along
 * (better-sqlite3 answers synchronously, so no timer fires until the scan ends).
 */
class MemorySampler {
  peakRss = 0;
  peakHeapUsed = 0;
  samples = 0;
  /** The longest time the timer could not run (the event loop held), beyond its interval. */
  longestStallMs = 0;
  private last = 0;
  private lastTick = 0;
  private timer?: NodeJS.Timeout;

  start(): void {
    this.sample();
    this.lastTick = performance.now();
    this.timer = setInterval(() => this.tick(), SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.tick();
  }

  private tick(): void {
    const now = performance.now();
    this.longestStallMs = Math.max(this.longestStallMs, now - this.lastTick - SAMPLE_MS);
    this.lastTick = now;
    this.sample();
  }

  poll(): void {
    if (performance.now() - this.last >= SAMPLE_MS) this.sample();
  }

  private sample(): void {
    this.last = performance.now();
    const memory = process.memoryUsage();
    this.peakRss = Math.max(this.peakRss, memory.rss);
    this.peakHeapUsed = Math.max(this.peakHeapUsed, memory.heapUsed);
    this.samples += 1;
  }
}

/**
 * Counts the statements the app sends, by kind and table (BEGIN and COMMIT included): every
 * query runner reports each statement to the data source's logger before running it, as
 * test/setup/query-counter.ts counts them. Nothing is kept per statement (many texts carry an
 * id, so a cache by text would grow with the scan); the time spent here is measured.
 */
class StatementCounter {
  readonly byKind = new Map<string, number>();
  total = 0;
  /** Time spent counting and sampling memory, within the scan's wall time. */
  overheadMs = 0;
  private readonly logger: DataSource['logger'];
  private readonly original: DataSource['logger']['logQuery'];

  constructor(dataSource: DataSource, onStatement: () => void) {
    this.logger = dataSource.logger;
    this.original = this.logger.logQuery;
    this.logger.logQuery = (query, ...rest) => {
      const started = performance.now();
      onStatement();
      this.total += 1;
      const kind = kindOf(query);
      this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
      this.overheadMs += performance.now() - started;
      this.original.call(this.logger, query, ...rest);
    };
  }

  restore(): void {
    this.logger.logQuery = this.original;
  }
}

/** "SELECT recurring_invoices", "INSERT invoice_line_items", "COMMIT"… */
function kindOf(sql: string): string {
  // A union's first part (record-rows.ts: `(SELECT …) UNION ALL …` on MySQL/MariaDB) names it.
  const text = sql.trimStart().replace(/^\(/, '');
  const verb = /^\w+/.exec(text)?.[0].toUpperCase() ?? '?';
  const named = (pattern: RegExp) => pattern.exec(text)?.[1] ?? '?';
  switch (verb) {
    case 'SELECT': {
      const lock = /\s(FOR UPDATE|FOR SHARE|LOCK IN SHARE MODE)/i.exec(text)?.[1];
      return `SELECT ${mainTable(text)}${lock ? ` ${lock.toUpperCase()}` : ''}`;
    }
    case 'INSERT':
      return `INSERT ${named(/^INSERT INTO\s+[`"]?(\w+)/i)}`;
    case 'UPDATE':
      return `UPDATE ${named(/^UPDATE\s+[`"]?(\w+)/i)}`;
    case 'DELETE':
      return `DELETE ${named(/^DELETE FROM\s+[`"]?(\w+)/i)}`;
    case 'START':
    case 'BEGIN':
      return 'BEGIN';
    default:
      return verb;
  }
}

const FROM = /\sFROM\s+(\(|[`"]?(\w+))/y;

/**
 * The table of a SELECT's own FROM: the first FROM outside parentheses (not a subquery's), or
 * when it reads a derived table, that one's.
 */
function mainTable(select: string): string {
  let depth = 0;
  for (let at = 1; at < select.length; at++) {
    const char = select[at];
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === 'F' && depth === 0) {
      FROM.lastIndex = at - 1;
      const match = FROM.exec(select);
      if (match) return match[2] ?? mainTable(select.slice(FROM.lastIndex));
    }
  }
  return '?';
}

async function count(dataSource: DataSource, sql: string): Promise<number> {
  const [row] = await dataSource.query<Array<{ n: number | string }>>(sql);
  return Number(row.n);
}

function gc(): boolean {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) return false;
  collect();
  collect();
  return true;
}

async function main(): Promise<void> {
  const database = await createThrowawayDatabase(MARIADB_SERVER);
  const label = MARIADB_SERVER ? 'MariaDB' : 'SQLite';
  let app: INestApplication | undefined;
  try {
    app = await createApp({
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_MINUTE: '0',
      OUTBOX_POLL_MS: '0',
      RECURRING_SCAN_MS: '86400000',
    });
    const dataSource = app.get(DataSource);
    const today = app.get(Clock).today();
    const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();

    const seeding = performance.now();
    await seed(`http://127.0.0.1:${port}`, today);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const due = (await app.get(RecurringInvoicesService).due(SCHEDULES + 1)).length;
    const invoicesBefore = await count(dataSource, 'SELECT COUNT(*) AS n FROM invoices');
    if (due !== SCHEDULES || invoicesBefore !== 0) {
      throw new Error(`before the scan: ${due} schedules due, ${invoicesBefore} invoices`);
    }

    const hasGc = gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;
    const loadBefore = loadavg()[0];
    const sampler = new MemorySampler();
    const statements = new StatementCounter(dataSource, () => sampler.poll());
    sampler.start();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await app.get(RecurringInvoiceJob).run(new AbortController().signal);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    sampler.stop();
    statements.restore();
    const loadAfter = loadavg()[0];
    const heapAfter = process.memoryUsage().heapUsed;
    gc();
    const heapAfterGc = process.memoryUsage().heapUsed;

    const made = await count(
      dataSource,
      'SELECT COUNT(*) AS n FROM invoices WHERE recurring_invoice_id IS NOT NULL',
    );
    const schedulesBilled = await count(
      dataSource,
      `SELECT COUNT(DISTINCT recurring_invoice_id) AS n FROM invoices WHERE issue_date = '${today}'`,
    );
    const numbered = await count(
      dataSource,
      "SELECT COUNT(DISTINCT invoice_no) AS n FROM invoices WHERE invoice_no <> ''",
    );
    const dueAfter = (await app.get(RecurringInvoicesService).due(1)).length;
    if (made !== SCHEDULES || schedulesBilled !== SCHEDULES || numbered !== SCHEDULES) {
      throw new Error(
        `the scan made ${made} invoices for ${schedulesBilled} schedules (${numbered} numbers); ` +
          `expected ${SCHEDULES} of each`,
      );
    }
    if (dueAfter !== 0) throw new Error('schedules are still due after the scan');

    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    console.log(
      `${label}, ${SCHEDULES} due schedules (seeded through the API in ${seedSeconds.toFixed(0)} s, ` +
        `${(SCHEDULES / seedSeconds).toFixed(0)}/s), Node ${process.version}, ` +
        `load average ${loadBefore.toFixed(1)} before the scan, ${loadAfter.toFixed(1)} after:`,
    );
    const rows: Array<[string, string]> = [
      ['invoices made (checked)', String(made)],
      ['scan wall time', `${seconds.toFixed(2)} s`],
      ['invoices per second', (made / seconds).toFixed(0)],
      ['ms per invoice', ((seconds * 1000) / made).toFixed(2)],
      ['statements per invoice', (statements.total / made).toFixed(2)],
      [
        'process CPU during the scan',
        `${cpuSeconds.toFixed(2)} s (${((100 * cpuSeconds) / seconds).toFixed(0)} % of wall)`,
      ],
      [
        'RSS before → peak',
        `${mib(rssBefore).toFixed(0)} → ${mib(sampler.peakRss).toFixed(0)} MiB`,
      ],
      [
        'heap used before → peak',
        `${mib(heapBefore).toFixed(1)} → ${mib(sampler.peakHeapUsed).toFixed(1)} MiB`,
      ],
      [
        `heap used after${hasGc ? ' (after a full GC)' : ''}`,
        `${mib(heapAfter).toFixed(1)}${hasGc ? ` (${mib(heapAfterGc).toFixed(1)})` : ''} MiB`,
      ],
      ['memory samples', String(sampler.samples)],
      ['bench overhead (counting, sampling)', `${(statements.overheadMs / 1000).toFixed(2)} s`],
      ['longest event-loop stall', `${Math.max(0, sampler.longestStallMs).toFixed(0)} ms`],
    ];
    console.log('| figure | value |\n|---|--:|');
    for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
    console.log('\n| statement | per invoice |\n|---|--:|');
    for (const [kind, n] of [...statements.byKind].sort((a, b) => b[1] - a[1])) {
      console.log(`| ${kind} | ${(n / made).toFixed(2)} |`);
    }
  } finally {
    await app?.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
