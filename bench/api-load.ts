import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { compareBodies } from './api-load/compare-bodies';
import { LoadRequest, LoadResult, LoadTarget, runLoad } from './api-load/load-run';
import {
  lastPage,
  Operation,
  PER_PAGE,
  readOperations,
  TWENTY_LINE_KINDS,
  TwentyLineKind,
  twentyLineInvoice,
  twentyLineReadName,
  twentyLineReadOperations,
  writeOperations,
} from './api-load/operations';
import {
  ChildServer,
  cpuTimeMs,
  killAllChildren,
  mariadbPid,
  RssSampler,
} from './api-load/processes';
import {
  DialectReport,
  markdownReport,
  OperationReport,
  ReportsReport,
  ReportTiming,
  summarise,
  UnpagedListReport,
} from './api-load/report';
import { runSoak, soakMarkdown, SoakReport } from './api-load/soak';
import { measurePipeline } from './pipeline-stages';
import { dropMariadb, seedMariadb, SeedOutcome, SeedPlan, seedSqlite, SeedStatus } from './seed';

/*
 * Throughput and latency of the API under load, through HTTP only, against the built service
 * (`node dist/main.js`) on a seeded MariaDB database and on a seeded SQLite file; on MariaDB
 * the hottest operations are also measured against a hand-written node:http + mysql2 baseline
 * (bench/raw-baseline.ts), alternately service, baseline, service, baseline.
 *
 *   npm run bench                                   # 10,000 invoices, both dialects
 *   npm run bench -- --invoices 100000 --dialect mariadb --keep
 *
 * Options: --invoices N (10000), --dialect mariadb|sqlite|both (both), --duration S seconds per
 * load run (5), --connections C (16), --keep (keep invoicing_bench_<N> for the next run),
 * --reseed (seed it again even if it holds the seed), --only <regular expression> (measure only
 * the operations whose names match, e.g. --only status: to repeat a disturbed figure), --reverse
 * (measure the reads, and then the writes, in the reverse order: alternate it between runs of a
 * comparison so that neither side always goes first), --label L,
 * --webhook queue|deliver (before the load, one webhook endpoint subscribed to ["*"] is added
 * through the API, on a node:http receiver on 127.0.0.1 in this process answering 200 at once;
 * the service runs with WEBHOOK_ALLOW_PRIVATE=true and, with `queue`, OUTBOX_POLL_MS=0 so every
 * write's delivery row only queues; with `deliver`, OUTBOX_POLL_MS=20 so the service's worker
 * delivers them during the load; the endpoint is deleted after the runs), --query-timeout-ms MS
 * (the service's DATABASE_QUERY_TIMEOUT_MS; its default, 10000, when not given: a statement
 * past it answers 503).
 *
 * The 20-line operations (`--only '20 lines'`) weigh taxes per line: an add of 20 lines at the
 * document's one rate against the same 20 lines with rates of their own (7 % and 19 %, GST + PST
 * on three), a line discount and a document discount; and reads of each kind, on
 * TWENTY_LINE_INVOICES of each added through the API after the other reads and the unpaged list
 * (only when a 20-line read is selected), checked against the baseline on MariaDB.
 *
 * After the load, the receivables reports are timed one request at a time (one untimed request,
 * then REPORT_REQUESTS timed ones; wall time in this process up to the body's last byte), with
 * the service's RSS sampled around each: aging (as_of today) as JSON and as CSV, profit and loss
 * of the seed's busiest calendar year on accrual and on cash basis, the tax summary of that
 * year; then the statement of a client with the ordinary 20 invoices alternately with
 * `GET /v1/client/{id}` of that client (QUICK_REQUESTS each). Their names all begin with
 * `report: ` (`--only report` measures only them). Each answer is checked against the seed.
 *
 * Writes bench/results/api-<dialect>-<N>.json, or api-<dialect>-<N>-<label>.json (label
 * `partial` with --only and no --label), and the reports' figures alone to
 * bench/results/reports-<dialect>-<N>[-<label>].json.
 *
 * Last, the fixed cost of a request and its per-stage table (bench/pipeline-stages.ts, on an
 * empty MariaDB database; `--only pipeline` runs only that).
 *
 * --soak SECONDS runs none of the above: one mixed load for that long, sampled every minute
 * (bench/api-load/soak.ts), written to bench/results/soak-<dialect>-<N>-<SECONDS>s[-<label>]
 * .json and .md; with --heap-snapshots DIR the service writes heap snapshots there.
 *
 * --cpu-profile DIR starts the service with `node --cpu-prof --cpu-prof-dir=DIR`: it writes a
 * V8 CPU profile of its whole life (start-up included) there when it stops. Sampling costs the
 * service CPU, so the figures of such a run are not comparable with others; and the time the
 * thread is preempted in a socket write is counted in `writeBuffer` / `writev`, so trust the
 * CPU per answer of a run without it over the profile's share of those.
 *
 *   npm run bench -- --dialect mariadb --soak 1800 --keep
 */

const ROOT = resolve(__dirname, '..');
/** The name `--only` matches to run the per-stage table of bench/pipeline-stages.ts. */
const PIPELINE_SECTION = 'pipeline';
const PIPELINE_SECONDS = 3;
const MARIADB_SERVER = 'mysql://root@127.0.0.1:3306';
const WARM_UP_SECONDS = 1;
/** Above this many invoices the unpaged list is not requested: its body alone is ~70 MB. */
const UNPAGED_LIST_LIMIT = 100_000;
const UNPAGED_LIST_REQUESTS = 3;
/** Timed requests of each report, after one untimed one. */
const REPORT_REQUESTS = 3;
/** Timed requests of the statement and of the client read next to it, alternately. */
const QUICK_REQUESTS = 20;
/** The issue's target for aging and a year's profit and loss at 1,000,000 invoices on MariaDB. */
const REPORT_TARGET_MS = 2000;
const REPORT_TIMEOUT_MS = 600_000;
/** --soak: the outbox worker's poll (production's default is 1000 ms), and the sample window. */
const SOAK_OUTBOX_POLL_MS = 200;
const SOAK_WINDOW_SECONDS = 60;
/** A client with the ordinary number of invoices (BUSY_CLIENT_ID has 50). */
const STATEMENT_CLIENT_ID = 2;
/** 20-line invoices of each kind added for their reads, and how many adds run at once. */
const TWENTY_LINE_INVOICES = 100;
const TWENTY_LINE_ADDS_AT_ONCE = 4;
/** Load of each 20-line read before the first is measured (each then has its own warm-up too). */
const TWENTY_LINE_WARM_UP_SECONDS = 3;
/** The VAT breakdown groups of a 20-line invoice of each kind (operations.ts). */
const TWENTY_LINE_GROUPS: Record<TwentyLineKind, number> = { 'one rate': 1, 'mixed rates': 4 };

type Dialect = 'mariadb' | 'sqlite';
type WebhookMode = 'queue' | 'deliver';

interface Options {
  invoices: number;
  dialects: Dialect[];
  duration: number;
  connections: number;
  keep: boolean;
  reseed: boolean;
  only: RegExp | null;
  reverse: boolean;
  label: string | null;
  webhook: WebhookMode | null;
  queryTimeoutMs: number | null;
  /** --soak: seconds of one mixed load instead of the measured operations. */
  soak: number | null;
  /** --heap-snapshots: a folder for the service's heap snapshots during --soak. */
  heapSnapshots: string | null;
  /** --cpu-profile: a folder for the service's CPU profile. */
  cpuProfile: string | null;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      invoices: { type: 'string', default: '10000' },
      dialect: { type: 'string', default: 'both' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '16' },
      keep: { type: 'boolean', default: false },
      reseed: { type: 'boolean', default: false },
      reverse: { type: 'boolean', default: false },
      only: { type: 'string' },
      label: { type: 'string' },
      webhook: { type: 'string' },
      'query-timeout-ms': { type: 'string' },
      soak: { type: 'string' },
      'heap-snapshots': { type: 'string' },
      'cpu-profile': { type: 'string' },
    },
  });
  const whole = (name: string, text: string, min: number, max: number): number => {
    const value = /^\d+$/.test(text.replace(/_/g, '')) ? Number(text.replace(/_/g, '')) : NaN;
    if (!(value >= min && value <= max)) {
      throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
    }
    return value;
  };
  const dialects: Record<string, Dialect[]> = {
    mariadb: ['mariadb'],
    sqlite: ['sqlite'],
    both: ['mariadb', 'sqlite'],
  };
  const dialect = dialects[values.dialect];
  if (!dialect) throw new Error('--dialect must be mariadb, sqlite or both');
  if (values.webhook !== undefined && !['queue', 'deliver'].includes(values.webhook)) {
    throw new Error('--webhook must be queue or deliver');
  }
  if (values.label !== undefined && !/^[\w-]{1,40}$/.test(values.label)) {
    throw new Error('--label must be 1 to 40 letters, digits, _ or -');
  }
  return {
    invoices: whole('invoices', values.invoices, 100, 10_000_000),
    dialects: dialect,
    duration: whole('duration', values.duration, 1, 600),
    connections: whole('connections', values.connections, 1, 1000),
    keep: values.keep,
    reseed: values.reseed,
    reverse: values.reverse,
    only: values.only === undefined ? null : new RegExp(values.only),
    label: values.label ?? (values.only === undefined ? null : 'partial'),
    webhook: (values.webhook as WebhookMode | undefined) ?? null,
    queryTimeoutMs:
      values['query-timeout-ms'] === undefined
        ? null
        : whole('query-timeout-ms', values['query-timeout-ms'], 1000, 600_000),
    soak: values.soak === undefined ? null : whole('soak', values.soak, 60, 24 * 3600),
    heapSnapshots:
      values['heap-snapshots'] === undefined ? null : resolve(values['heap-snapshots']),
    cpuProfile: values['cpu-profile'] === undefined ? null : resolve(values['cpu-profile']),
  };
}

const started = performance.now();

function progress(message: string): void {
  const seconds = Math.round((performance.now() - started) / 1000);
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  process.stderr.write(`[api-bench +${clock}] ${message}\n`);
}

/** Node's options for --cpu-profile. */
function cpuProfileOptions(options: Options): string[] {
  return options.cpuProfile === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfile}`];
}

function loudWarning(message: string): void {
  const bar = '!'.repeat(78);
  process.stderr.write(`\n${bar}\n!! WARNING: ${message}\n${bar}\n\n`);
}

interface Answer {
  status: number;
  text: string;
}

async function call(target: LoadTarget, request: LoadRequest, timeoutMs = 30_000): Promise<Answer> {
  const response = await fetch(`${target.baseUrl}${request.path}`, {
    method: request.method,
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: request.body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, text: await response.text() };
}

function describe(request: LoadRequest): string {
  return `${request.method} ${request.path}${request.body ? ` ${request.body}` : ''}`;
}

/** Everything a run started, so an interruption can still clean up. */
class RunState {
  readonly servers = new Set<ChildServer>();
  readonly warnings: string[] = [];
  mariadbDatabase: string | null = null;
  tempDir: string | null = null;

  warn(message: string): void {
    this.warnings.push(message);
    loudWarning(message);
  }
}

/** A webhook receiver on 127.0.0.1 answering 200 with an empty body once a body has arrived. */
class WebhookReceiver {
  requests = 0;
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        this.requests++;
        response.writeHead(200, { 'content-length': '0' });
        response.end();
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

class DialectBench {
  private readonly notes: string[] = [];
  private readonly warnings: string[] = [];
  private readonly plan: SeedPlan;
  private service!: ChildServer;
  private baseline: ChildServer | null = null;

  constructor(
    private readonly dialect: Dialect,
    private readonly options: Options,
    private readonly state: RunState,
    private readonly apiKey: string,
    private readonly runId: string,
    private readonly machine: Record<string, unknown>,
  ) {
    this.plan = new SeedPlan(options.invoices);
  }

  private get headers(): Record<string, string> {
    return { authorization: `Bearer ${this.apiKey}` };
  }

  private target(server: ChildServer): LoadTarget {
    return { baseUrl: server.baseUrl, headers: this.headers };
  }

  private warn(message: string): void {
    this.warnings.push(message);
    this.state.warn(`${this.dialect}: ${message}`);
  }

  async run(): Promise<DialectReport> {
    const seed = await this.seed();
    // Other work on the machine shows in every figure: say how busy it was.
    const load = loadavg()[0];
    this.notes.push(
      `1-minute load average when the service started: ${load.toFixed(2)} on ${cpus().length} CPUs.`,
    );
    if (load > 1) {
      progress(
        `${this.dialect}: note: load average ${load.toFixed(2)} before the runs: something else is busy`,
      );
    }
    const tempDir = this.state.tempDir ?? tmpdir();
    this.service = await this.start(
      ChildServer.startService({
        databaseUrl: this.databaseUrl,
        apiKey: this.apiKey,
        mailDir: join(tempDir, `mail-${this.dialect}`),
        env: {
          ...(this.options.webhook
            ? {
                WEBHOOK_ALLOW_PRIVATE: 'true',
                OUTBOX_POLL_MS: this.options.webhook === 'deliver' ? '20' : '0',
              }
            : {}),
          ...(this.options.queryTimeoutMs === null
            ? {}
            : { DATABASE_QUERY_TIMEOUT_MS: String(this.options.queryTimeoutMs) }),
        },
        nodeOptions: cpuProfileOptions(this.options),
      }),
    );
    const sampler = new RssSampler(this.service.pid);
    await sampler.start();
    progress(`${this.dialect}: service up (pid ${this.service.pid}) at ${this.service.baseUrl}`);
    await this.checkSeed();
    let baselineSampler: RssSampler | null = null;
    if (this.dialect === 'mariadb') {
      this.baseline = await this.start(
        ChildServer.startBaseline({
          databaseUrl: this.databaseUrl,
          apiKey: this.apiKey,
          workDir: join(this.state.tempDir ?? tmpdir(), 'baseline'),
        }),
      );
      baselineSampler = new RssSampler(this.baseline.pid);
      await baselineSampler.start();
      progress(`${this.dialect}: raw baseline up at ${this.baseline.baseUrl}`);
      await this.compareWithBaseline();
    }
    const keyset = await this.probeKeyset();
    const webhook = this.options.webhook ? await this.addWebhook() : null;
    const operations: OperationReport[] = [];
    for (const operation of this.inOrder(readOperations(this.plan, keyset))) {
      operations.push(await this.measure(operation));
    }
    if (!keyset && !this.options.only) {
      operations.push(
        {
          name: 'keyset, random',
          request: 'GET /v1/invoice/all?after={random id}&per_page=50',
          skipped: 'keyset paging not answered yet',
        },
        {
          name: 'keyset, tail',
          request: `GET /v1/invoice/all?after=${this.plan.invoices - PER_PAGE}&per_page=50`,
          skipped: 'keyset paging not answered yet',
        },
      );
    }
    const unpagedList = this.selected({ name: 'unpaged list' })
      ? await this.unpagedList(sampler)
      : { skipped: `not selected by --only ${String(this.options.only)}` };
    // The 20-line invoices are added only when their reads are selected, and after the reads
    // and the unpaged list above, which the exact seed is part of.
    const twentyLineReads = TWENTY_LINE_KINDS.some((kind) =>
      this.selected({ name: twentyLineReadName(kind) }),
    );
    if (twentyLineReads) {
      const ids = await this.addTwentyLineInvoices();
      await this.compareWithBaseline(
        TWENTY_LINE_KINDS.map((kind) => ({ method: 'GET', path: `/v1/invoice/${ids[kind][0]}` })),
        '20-line invoice reads, one rate and mixed rates',
      );
      const reads = this.inOrder(twentyLineReadOperations(ids));
      // Both kinds under load before either is measured: on SQLite the read measured first
      // after the adds ran up to 40 % slower than the same read measured second.
      for (const operation of reads) {
        progress(`${this.dialect}: ${operation.name}: warm-up ${TWENTY_LINE_WARM_UP_SECONDS} s`);
        await runLoad(this.target(this.service), operation.next, {
          connections: this.options.connections,
          seconds: TWENTY_LINE_WARM_UP_SECONDS,
        });
        await this.settle();
      }
      for (const operation of reads) operations.push(await this.measure(operation));
    }
    const writes = this.inOrder(writeOperations(this.plan, this.runId));
    for (const operation of writes) {
      operations.push(await this.measure(operation));
    }
    // The baseline check (MariaDB) records 4 payments of 0.01 before the reports too.
    const reports = await this.reports(
      sampler,
      writes.length > 0 || this.baseline !== null || twentyLineReads,
    );
    if (webhook) await this.removeWebhook(webhook);
    const servicePeak = await sampler.stop();
    const baselinePeak = baselineSampler ? await baselineSampler.stop() : undefined;
    for (const server of [this.service, this.baseline]) {
      if (server) {
        await server.stop();
        this.state.servers.delete(server);
      }
    }
    return {
      dialect: this.dialect,
      invoices: this.plan.invoices,
      seed,
      operations,
      unpagedList,
      reports,
      memory: { servicePeakRssMiB: servicePeak, baselinePeakRssMiB: baselinePeak },
      notes: this.notes,
      warnings: this.warnings,
      machine: this.machine,
      options: {
        ...this.options,
        only: this.options.only?.source ?? null,
        cpuProfile: this.options.cpuProfile !== null,
        warmUpSeconds: WARM_UP_SECONDS,
        perPage: PER_PAGE,
      },
    };
  }

  /**
   * --soak: the seed, then one mixed load (bench/api-load/soak.ts) against the service with its
   * outbox worker on, so sends render their PDFs as they would in production.
   */
  async soak(seconds: number): Promise<SoakReport & { seed: SeedOutcome; notes: string[] }> {
    const seed = await this.seed();
    const load = loadavg()[0];
    this.notes.push(
      `1-minute load average when the service started: ${load.toFixed(2)} on ${cpus().length} CPUs.`,
    );
    const tempDir = this.state.tempDir ?? tmpdir();
    const snapshots = this.options.heapSnapshots;
    if (snapshots !== null) await mkdir(snapshots, { recursive: true });
    this.service = await this.start(
      ChildServer.startService({
        databaseUrl: this.databaseUrl,
        apiKey: this.apiKey,
        mailDir: join(tempDir, `mail-${this.dialect}`),
        env: { OUTBOX_POLL_MS: String(SOAK_OUTBOX_POLL_MS) },
        nodeOptions: [
          ...(snapshots === null
            ? []
            : ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshots}`]),
          ...cpuProfileOptions(this.options),
        ],
      }),
    );
    const sampler = new RssSampler(this.service.pid);
    await sampler.start();
    progress(`${this.dialect}: service up (pid ${this.service.pid}) at ${this.service.baseUrl}`);
    await this.checkSeed();
    const service = this.service;
    const report = await runSoak(
      {
        plan: this.plan,
        runId: this.runId,
        target: this.target(service),
        pid: service.pid,
        sampler,
        mariadb:
          this.dialect === 'mariadb'
            ? { server: MARIADB_SERVER, database: this.databaseName }
            : null,
        cpuTimeMs: () => cpuTimeMs(service.pid),
        databaseCpuTimeMs: async () => {
          const database = this.dialect === 'mariadb' ? mariadbPid() : null;
          return database === null ? null : cpuTimeMs(database);
        },
        loadAverage: () => loadavg()[0],
        progress,
        snapshot:
          snapshots === null ? undefined : () => heapSnapshot(service.pid, snapshots, progress),
      },
      { seconds, connections: this.options.connections, sampleSeconds: SOAK_WINDOW_SECONDS },
    );
    await sampler.stop();
    await service.stop();
    this.state.servers.delete(service);
    if (report.firstFailure) {
      this.warn(
        `soak: first answer not 2xx: ${report.firstFailure.status} for ${describe(report.firstFailure.request)}: ${report.firstFailure.body.slice(0, 300)}`,
      );
    }
    return { ...report, seed, notes: [...this.notes, ...this.warnings] };
  }

  /** --webhook: one endpoint for every event type on a receiver in this process. */
  private async addWebhook(): Promise<{ id: string; receiver: WebhookReceiver }> {
    const receiver = new WebhookReceiver();
    await receiver.start();
    const added = await call(this.target(this.service), {
      method: 'POST',
      path: '/v1/webhook/add',
      body: JSON.stringify({ url: receiver.url, events: ['*'], description: 'bench receiver' }),
    });
    if (added.status !== 200) {
      await receiver.stop();
      throw new Error(`--webhook: POST /v1/webhook/add answered ${added.status}: ${added.text}`);
    }
    const id = (JSON.parse(added.text) as { webhook: Array<{ id: string }> }).webhook[0].id;
    progress(
      `${this.dialect}: webhook endpoint ${id} subscribed to ["*"] (${this.options.webhook})`,
    );
    return { id, receiver };
  }

  /** Counts its deliveries, then deletes it (its waiting deliveries fail) and stops the receiver. */
  private async removeWebhook(webhook: { id: string; receiver: WebhookReceiver }): Promise<void> {
    const target = this.target(this.service);
    const listed = await call(target, {
      method: 'GET',
      path: `/v1/webhook/${webhook.id}/deliveries?page=1&per_page=1`,
    });
    const total = listed.status === 200 ? (JSON.parse(listed.text) as ListBody).meta?.total : null;
    const removed = await call(target, { method: 'DELETE', path: `/v1/webhook/${webhook.id}` });
    if (removed.status !== 200) {
      this.warn(`--webhook: DELETE /v1/webhook/${webhook.id} answered ${removed.status}`);
    }
    await webhook.receiver.stop();
    this.notes.push(
      `--webhook ${this.options.webhook}: one endpoint subscribed to ["*"] (WEBHOOK_ALLOW_PRIVATE=true, OUTBOX_POLL_MS=${this.options.webhook === 'deliver' ? 20 : 0}); ${total ?? '?'} deliveries made during the runs, ${webhook.receiver.requests} received by the receiver on 127.0.0.1.`,
    );
    progress(
      `${this.dialect}: webhook: ${total ?? '?'} deliveries, ${webhook.receiver.requests} received`,
    );
  }

  /** The operations --only selects, in the order --reverse says. */
  private inOrder(operations: Operation[]): Operation[] {
    const selected = operations.filter(this.selected);
    return this.options.reverse ? selected.reverse() : selected;
  }

  /** Whether --only (if given) selects the operation. */
  private readonly selected = (operation: { name: string }): boolean =>
    this.options.only === null || this.options.only.test(operation.name);

  private async start(starting: Promise<ChildServer>): Promise<ChildServer> {
    const server = await starting;
    this.state.servers.add(server);
    return server;
  }

  private get databaseName(): string {
    return `invoicing_bench_${this.plan.invoices}`;
  }

  private get sqliteFile(): string {
    return join(this.state.tempDir ?? tmpdir(), 'sqlite', 'bench.sqlite');
  }

  private get databaseUrl(): string {
    return this.dialect === 'mariadb'
      ? `mariadb://root@127.0.0.1:3306/${this.databaseName}`
      : `sqlite:${this.sqliteFile}`;
  }

  private async seed(): Promise<SeedOutcome> {
    const n = this.plan.invoices.toLocaleString('en');
    progress(`${this.dialect}: seeding ${n} invoices…`);
    let outcome: SeedOutcome;
    if (this.dialect === 'mariadb') {
      this.state.mariadbDatabase = this.databaseName;
      outcome = await seedMariadb(MARIADB_SERVER, this.databaseName, this.plan, {
        reseed: this.options.reseed,
        progress,
      });
    } else {
      await mkdir(join(this.state.tempDir ?? tmpdir(), 'sqlite'), { recursive: true });
      outcome = await seedSqlite(this.sqliteFile, this.plan, progress);
    }
    progress(
      `${this.dialect}: ${outcome.reused ? 'seed reused' : 'seeded'} in ${outcome.seconds.toFixed(1)} s`,
    );
    return outcome;
  }

  /**
   * The seed as the API sees it: an invoice with 3 lines, its one payment (none when void) and
   * the status the plan gives it; N in the list, and as many of each status as the plan has.
   */
  private async checkSeed(): Promise<void> {
    const target = this.target(this.service);
    const id = Math.floor(this.plan.invoices / 2) + 1;
    const read = await call(target, { method: 'GET', path: `/v1/invoice/${id}` });
    const detail = read.status === 200 ? (JSON.parse(read.text) as InvoiceDetailBody) : null;
    const payments = this.plan.kind(id) === 'void' ? 0 : 1;
    if (
      !detail ||
      detail.items.length !== 3 ||
      detail.payments.length !== payments ||
      detail.invoice[0]?.status !== this.plan.status(id)
    ) {
      throw new Error(
        `seed check: GET /v1/invoice/${id} answered ${read.status} ${read.text.slice(0, 500)}`,
      );
    }
    const first = await call(target, { method: 'GET', path: '/v1/invoice/1' });
    const sent = first.status === 200 ? (JSON.parse(first.text) as InvoiceDetailBody) : null;
    if (sent?.send_log.length !== 1 || sent.send_log[0].delivery !== 'sent') {
      throw new Error(
        `seed check: GET /v1/invoice/1 has no delivered send: ${first.text.slice(0, 500)}`,
      );
    }
    const page = await call(target, {
      method: 'GET',
      path: `/v1/invoice/all?page=1&per_page=${PER_PAGE}`,
    });
    const total = page.status === 200 ? (JSON.parse(page.text) as ListBody).meta?.total : undefined;
    if (total !== this.plan.invoices) {
      throw new Error(
        `seed check: the list's meta.total is ${total}, not ${this.plan.invoices}: ${page.text.slice(0, 300)}`,
      );
    }
    const statuses = this.plan.counts().statuses;
    for (const status of Object.keys(statuses) as SeedStatus[]) {
      const path = `/v1/invoice/all?status=${status}&page=1&per_page=${PER_PAGE}`;
      const answer = await call(target, { method: 'GET', path }, 120_000);
      const counted =
        answer.status === 200 ? (JSON.parse(answer.text) as ListBody).meta?.total : undefined;
      if (counted !== statuses[status]) {
        throw new Error(
          `seed check: GET ${path} counts ${counted}, not ${statuses[status]} (the plan's, today ${this.plan.today}): ${answer.text.slice(0, 300)}`,
        );
      }
    }
    const mix = Object.entries(statuses)
      .map(([status, count]) => `${status} ${count.toLocaleString('en')}`)
      .join(', ');
    this.notes.push(
      `Seed statuses on ${this.plan.today} (UTC), as the API counts them: ${mix}. Payments and updates go to unpaid invoices only (void answers 409, settled or paid 422).`,
    );
    progress(
      `${this.dialect}: seed checked through the API (invoice ${id}: 3 lines, ${payments} payment(s); total ${total}; ${mix})`,
    );
  }

  /**
   * TWENTY_LINE_INVOICES 20-line invoices of each kind through the API, the kinds in turn, a
   * few at a time, then each read back once, the kinds in turn: every answer is checked for its
   * lines and breakdown, and the read path is as warm for one kind as for the other before the
   * first of them is measured. Answers their ids by kind.
   */
  private async addTwentyLineInvoices(): Promise<Record<TwentyLineKind, number[]>> {
    const target = this.target(this.service);
    const ids: Record<TwentyLineKind, number[]> = { 'one rate': [], 'mixed rates': [] };
    const queue = Array.from({ length: TWENTY_LINE_INVOICES }, (_, index) =>
      TWENTY_LINE_KINDS.map((kind) => ({ kind, index })),
    ).flat();
    const begin = performance.now();
    const add = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { kind, index } = next;
        const number = `B20${kind === 'one rate' ? 'S' : 'M'}-${this.runId}-r${index + 1}`;
        const request: LoadRequest = {
          method: 'POST',
          path: '/v1/invoice/add',
          body: JSON.stringify(twentyLineInvoice(this.plan, kind, number)),
        };
        const answer = await call(target, request);
        const body =
          answer.status === 200
            ? (JSON.parse(answer.text) as {
                invoice: Array<{ id: string }>;
                items: unknown[];
                tax_breakdown?: unknown[];
              })
            : null;
        if (body?.items.length !== 20 || body.tax_breakdown?.length !== TWENTY_LINE_GROUPS[kind]) {
          throw new Error(
            `adding a 20-line invoice (${kind}): ${describe(request)} answered ${answer.status} ${answer.text.slice(0, 500)}`,
          );
        }
        ids[kind].push(Number(body.invoice[0].id));
      }
    };
    await Promise.all(Array.from({ length: TWENTY_LINE_ADDS_AT_ONCE }, add));
    for (let index = 0; index < TWENTY_LINE_INVOICES; index++) {
      for (const kind of TWENTY_LINE_KINDS) {
        const path = `/v1/invoice/${ids[kind][index]}`;
        const answer = await call(target, { method: 'GET', path });
        const body =
          answer.status === 200
            ? (JSON.parse(answer.text) as { items: unknown[]; tax_breakdown?: unknown[] })
            : null;
        if (body?.items.length !== 20 || body.tax_breakdown?.length !== TWENTY_LINE_GROUPS[kind]) {
          throw new Error(
            `reading a 20-line invoice (${kind}): GET ${path} answered ${answer.status} ${answer.text.slice(0, 500)}`,
          );
        }
      }
    }
    const seconds = (performance.now() - begin) / 1000;
    this.notes.push(
      `Before the 20-line reads, ${TWENTY_LINE_INVOICES} 20-line invoices of each kind were added through the API and read back once (${seconds.toFixed(1)} s); each read picks one of its kind at random.`,
    );
    progress(
      `${this.dialect}: added and read back ${TWENTY_LINE_INVOICES} 20-line invoices of each kind in ${seconds.toFixed(1)} s`,
    );
    await this.settle();
    return ids;
  }

  /**
   * The same requests to both (by default the seed's: invoice reads, pages, a payment); the
   * bodies must be the same JSON.
   */
  private async compareWithBaseline(
    given?: LoadRequest[],
    what = 'invoice reads, pages, a payment and its read-back',
  ): Promise<void> {
    if (!this.baseline) return;
    const requests = given ?? this.seedComparisons();
    const service = this.target(this.service);
    const baseline = this.target(this.baseline);
    let differing = 0;
    let textOnly = 0;
    for (const request of requests) {
      const fromService = await call(service, request);
      const fromBaseline = await call(baseline, request);
      if (fromService.status !== 200 || fromBaseline.status !== 200) {
        differing++;
        this.warn(
          `baseline check: ${describe(request)} answered ${fromService.status} (service) and ${fromBaseline.status} (baseline): ${fromService.text.slice(0, 300)} | ${fromBaseline.text.slice(0, 300)}`,
        );
        continue;
      }
      const comparison = compareBodies(fromService.text, fromBaseline.text);
      if (comparison.parsedDifference) {
        differing++;
        this.warn(
          `the baseline's JSON differs from the service's for ${describe(request)}: ${comparison.parsedDifference}`,
        );
      } else if (comparison.textDifference) {
        textOnly++;
        this.warn(
          `same parsed JSON but different text (key order or digits) for ${describe(request)}: ${comparison.textDifference}`,
        );
      }
    }
    if (differing === 0 && textOnly === 0) {
      this.notes.push(
        `The baseline answered byte-identical JSON to the service for ${requests.length} requests (${what}).`,
      );
      progress(
        `${this.dialect}: baseline JSON identical to the service's (${requests.length} requests: ${what})`,
      );
    } else {
      this.notes.push(
        `The baseline's JSON differed from the service's for ${differing + textOnly} of ${requests.length} requests (${what}; ${textOnly} in text only): see the warnings.`,
      );
    }
  }

  /** Reads of seeded invoices, pages, and a payment made by each side, read back by each. */
  private seedComparisons(): LoadRequest[] {
    const n = this.plan.invoices;
    const paid = this.plan.payableFrom(Math.floor(n / 3) + 1);
    const payment: LoadRequest = {
      method: 'POST',
      path: '/v1/invoice/record-payment',
      body: JSON.stringify({ id: String(paid), amount_paid: '0.01', payment_date: '2026-11-01' }),
    };
    return [
      { method: 'GET', path: '/v1/invoice/1' },
      { method: 'GET', path: `/v1/invoice/${n}` },
      { method: 'GET', path: `/v1/invoice/all?page=1&per_page=${PER_PAGE}` },
      {
        method: 'GET',
        path: `/v1/invoice/all?page=${Math.ceil(lastPage(this.plan) / 2)}&per_page=${PER_PAGE}`,
      },
      { method: 'GET', path: '/v1/invoice/all?page=2&per_page=7' },
      payment,
      payment,
      // Both payments, each written by one side, read back by each.
      { method: 'GET', path: `/v1/invoice/${paid}` },
    ];
  }

  /** Keyset paging (`after`) is being added: measured once the service answers it. */
  private async probeKeyset(): Promise<boolean> {
    const after = this.plan.invoices - PER_PAGE;
    const path = `/v1/invoice/all?after=${after}&per_page=${PER_PAGE}`;
    const answer = await call(this.target(this.service), { method: 'GET', path });
    if (answer.status === 422) {
      this.notes.push(`Keyset paging skipped: GET ${path} answered 422 (not supported yet).`);
      return false;
    }
    if (answer.status !== 200) {
      this.warn(`keyset probe GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      return false;
    }
    const body = JSON.parse(answer.text) as ListBody;
    if (!body.meta || !('next_after' in body.meta)) {
      this.notes.push(
        `Keyset paging skipped: GET ${path} answered 200 without meta.next_after (\`after\` is ignored; meta ${JSON.stringify(body.meta)}).`,
      );
      return false;
    }
    if (body.data[0]?.id !== String(after + 1) || body.data.length !== PER_PAGE) {
      this.warn(
        `keyset probe GET ${path}: expected ${PER_PAGE} invoices from ${after + 1}, got ${body.data.length} from ${body.data[0]?.id}`,
      );
    }
    return true;
  }

  private async measure(operation: Operation): Promise<OperationReport> {
    const load = { connections: this.options.connections, seconds: this.options.duration };
    const sides: Array<['service' | 'baseline', ChildServer]> =
      operation.againstBaseline && this.baseline
        ? [
            ['service', this.service],
            ['baseline', this.baseline],
          ]
        : [['service', this.service]];
    for (const [side, server] of sides) {
      progress(`${this.dialect}: ${operation.name}: ${side} warm-up ${WARM_UP_SECONDS} s`);
      const warmUp = await runLoad(this.target(server), operation.next, {
        ...load,
        seconds: WARM_UP_SECONDS,
      });
      await this.settle();
      this.checkRun(operation, side, 'warm-up', warmUp);
    }
    const runs: Record<'service' | 'baseline', LoadResult[]> = { service: [], baseline: [] };
    const rounds = sides.length === 2 ? 2 : 1;
    for (let round = 1; round <= rounds; round++) {
      for (const [side, server] of sides) {
        const database = this.dialect === 'mariadb' ? mariadbPid() : null;
        const cpuBefore = await cpuTimeMs(server.pid);
        const databaseBefore = database === null ? null : await cpuTimeMs(database);
        const result = await runLoad(this.target(server), operation.next, load);
        const cpuAfter = await cpuTimeMs(server.pid);
        const databaseAfter = database === null ? null : await cpuTimeMs(database);
        if (cpuBefore !== null && cpuAfter !== null && result.responses > 0) {
          result.cpuMsPerResponse = (cpuAfter - cpuBefore) / result.responses;
        }
        if (databaseBefore !== null && databaseAfter !== null && result.responses > 0) {
          result.databaseCpuMsPerResponse = (databaseAfter - databaseBefore) / result.responses;
        }
        await this.settle();
        this.checkRun(operation, side, `run ${round}`, result);
        runs[side].push(result);
        progress(
          `${this.dialect}: ${operation.name}: ${side} run ${round} of ${rounds}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyP50.toFixed(2)} ms, p99 ${result.latencyP99.toFixed(2)} ms, ${side} CPU ${result.cpuMsPerResponse?.toFixed(2) ?? '?'} ms/response (database ${result.databaseCpuMsPerResponse?.toFixed(2) ?? '-'}), load ${loadavg()[0].toFixed(2)}`,
        );
      }
    }
    const service = summarise(runs.service);
    const baseline = runs.baseline.length > 0 ? summarise(runs.baseline) : undefined;
    return {
      name: operation.name,
      request: operation.request,
      service,
      baseline,
      ratio: baseline ? service.requestsPerSecond / baseline.requestsPerSecond : undefined,
    };
  }

  /**
   * Waits until the database runs no statement of the bench database. autocannon stops sending
   * at the end of a run, but requests already queued in a server keep the database busy (at
   * 1,000,000 invoices an offset page takes seconds): without this, the next run would measure
   * that backlog. On SQLite the backlog is in the service itself (see settleService).
   */
  private async settle(): Promise<void> {
    if (this.dialect !== 'mariadb') return this.settleService();
    const connection = await createConnection(MARIADB_SERVER);
    try {
      const deadline = Date.now() + 120_000;
      let quiet = 0;
      while (quiet < 2 && Date.now() < deadline) {
        const [rows] = await connection.query(
          `SELECT COUNT(*) AS busy FROM information_schema.PROCESSLIST
            WHERE DB = ? AND COMMAND = 'Query' AND ID <> CONNECTION_ID()`,
          [this.databaseName],
        );
        const busy = Number((rows as Array<{ busy: number | string }>)[0].busy);
        quiet = busy === 0 ? quiet + 1 : 0;
        await new Promise((done) => setTimeout(done, 200));
      }
      if (quiet < 2) this.warn('the database was still busy 120 s after a run');
    } finally {
      await connection.end();
    }
  }

  /**
   * SQLite runs in the service's process, one statement at a time: the requests still in the
   * service when a run ends (one per connection) are answered after it, and when each takes
   * half a second (some status lists at 1,000,000 invoices) that is seconds of the next run.
   * Waits until a one-invoice read answers within 100 ms twice in a row.
   */
  private async settleService(): Promise<void> {
    const deadline = Date.now() + 120_000;
    let quick = 0;
    while (quick < 2 && Date.now() < deadline) {
      const begin = performance.now();
      await call(this.target(this.service), { method: 'GET', path: '/v1/invoice/1' }, 120_000);
      quick = performance.now() - begin < 100 ? quick + 1 : 0;
    }
    if (quick < 2) this.warn('the service was still busy 120 s after a run');
  }

  private checkRun(operation: Operation, side: string, label: string, result: LoadResult): void {
    if (result.responses === 0 && result.errors === 0) {
      this.warn(
        `${operation.name} (${side}, ${label}): not one answer within the run: each request takes longer than that`,
      );
      return;
    }
    if (result.non2xx === 0 && result.errors === 0) return;
    const failure = result.firstFailure;
    this.warn(
      `${operation.name} (${side}, ${label}): ${result.non2xx} non-2xx answers and ${result.errors} connection errors of ${result.responses}; status codes ${JSON.stringify(result.statusCodes)}` +
        (failure
          ? `; first: ${failure.status} for ${describe(failure.request)}: ${failure.body.slice(0, 500)}`
          : ''),
    );
  }

  /**
   * The receivables reports, one request at a time, after the load (see the file's comment).
   * With no write run before them the answers must hold exactly the seed's figures; after
   * writes (payments of 0.01, added invoices) at least those.
   */
  private async reports(sampler: RssSampler, afterWrites: boolean): Promise<ReportsReport> {
    const year = this.plan.busiestYear();
    const period = `from=${year.year}-01-01&to=${year.year}-12-31`;
    const unpaid = this.plan.counts().kinds.unpaid;
    const statementInvoices = this.plan
      .invoicesOf(STATEMENT_CLIENT_ID)
      .filter((id) => this.plan.kind(id) !== 'void');
    const statementUnpaid = statementInvoices.filter((id) => this.plan.kind(id) === 'unpaid');
    // Exactly the seed's figure without writes before; at least it after them.
    const holds = (answered: number, seeded: number) =>
      afterWrites ? answered >= seeded : answered === seeded;
    const relation = afterWrites ? '≥' : '=';
    const cents = (amount: unknown) => Math.round(Number(amount) * 100);
    const money = (amount: number) => (amount / 100).toFixed(2);
    const totalsOf = (body: ReportBody) => body.data?.currencies?.[0]?.totals ?? {};
    const specs: ReportSpec[] = [
      {
        name: 'report: aging',
        path: '/v1/report/aging',
        check: (body) => {
          const totals = totalsOf(body);
          const seeded = { invoices: unpaid, total: unpaid * 90_000 };
          return {
            // Payments lower the total and added invoices raise it: exact only without writes.
            ok:
              holds(Number(totals.invoices), seeded.invoices) &&
              (afterWrites || cents(totals.total) === seeded.total),
            text: `${totals.invoices} invoices ${relation} ${seeded.invoices}, total ${totals.total} (seed ${money(seeded.total)}), ${body.data?.currencies?.[0]?.clients?.length} clients`,
          };
        },
      },
      {
        name: 'report: aging csv',
        path: '/v1/report/aging?format=csv',
        csv: true,
        check: (_body, text) => {
          const rows = text.split('\r\n').filter((row) => row !== '').length;
          return {
            ok: text.startsWith('currency,line,client_id,client,invoices,'),
            text: `${rows} CSV rows (header, clients, totals)`,
          };
        },
      },
      ...(['accrual', 'cash'] as const).map((basis): ReportSpec => ({
        name: `report: profit and loss ${basis}`,
        path: `/v1/report/profit-and-loss?${period}&basis=${basis}`,
        check: (body) => {
          const totals = totalsOf(body);
          const income = basis === 'accrual' ? year.incomeCents : year.cashCents;
          return {
            ok:
              holds(cents(totals.income), income) &&
              cents(totals.expenses_total) === year.expenseCents,
            text: `income ${totals.income} ${relation} ${money(income)}, expenses ${totals.expenses_total} = ${money(year.expenseCents)} (${year.expenses} expenses), ${body.data?.currencies?.[0]?.months?.length} months`,
          };
        },
      })),
      {
        name: 'report: tax summary',
        path: `/v1/report/tax-summary?${period}`,
        check: (body) => {
          const totals = totalsOf(body);
          return {
            ok:
              holds(Number(totals.invoices), year.invoices) &&
              holds(cents(totals.taxable), year.incomeCents),
            text: `${totals.invoices} invoices ${relation} ${year.invoices}, taxable ${totals.taxable} ${relation} ${money(year.incomeCents)}, tax ${totals.tax}`,
          };
        },
      },
    ];
    const statement: ReportSpec = {
      name: 'report: statement',
      path: `/v1/client/${STATEMENT_CLIENT_ID}/statement`,
      check: (body) => {
        const currency = body.data?.currencies?.[0];
        const lines = currency?.lines?.length ?? 0;
        const seededLines = 2 * statementInvoices.length;
        const closing = statementUnpaid.length * 90_000;
        return {
          ok:
            holds(lines, seededLines) &&
            (afterWrites || cents(currency?.closing_balance) === closing),
          text: `${lines} lines ${relation} ${seededLines} (an invoice and its payment each), closing ${currency?.closing_balance} (seed ${money(closing)})`,
        };
      },
    };
    const clientRead: ReportSpec = {
      name: 'report: client read',
      path: `/v1/client/${STATEMENT_CLIENT_ID}`,
    };
    const chosen = [...specs, statement, clientRead].filter(this.selected);
    if (chosen.length === 0) {
      return { skipped: `not selected by --only ${String(this.options.only)}`, timings: [] };
    }
    // Each report starts on a quiet database: a statement the service gave up on (503 past
    // DATABASE_QUERY_TIMEOUT_MS) goes on running on MariaDB until it is done.
    await this.settle();
    const rssBefore = await sampler.current();
    const timings: ReportTiming[] = [];
    for (const spec of specs.filter(this.selected)) {
      timings.push(...(await this.timeReports([spec], REPORT_REQUESTS, sampler)));
      await this.settle();
    }
    const quick = [statement, clientRead].filter(this.selected);
    if (quick.length > 0) timings.push(...(await this.timeReports(quick, QUICK_REQUESTS, sampler)));
    const rssAfter = await sampler.current();
    return {
      year: year.year,
      statementClient: { id: STATEMENT_CLIENT_ID, seededInvoices: statementInvoices.length },
      targetMs: REPORT_TARGET_MS,
      rssBeforeMiB: rssBefore,
      rssPeakMiB: Math.max(rssBefore, ...timings.map((timing) => timing.rssPeakMiB ?? 0)),
      rssAfterMiB: rssAfter,
      timings,
    };
  }

  /**
   * One untimed request of each, then `requests` rounds of one request of each in turn, with
   * the service's RSS sampled from just before the first to the last.
   */
  private async timeReports(
    specs: ReportSpec[],
    requests: number,
    sampler: RssSampler,
  ): Promise<ReportTiming[]> {
    const rssBefore = await sampler.beginWindow();
    const timings = specs.map((spec): ReportTiming => ({
      name: spec.name,
      request: `GET ${spec.path}`,
      timesMs: [],
    }));
    const failed = new Set<number>();
    for (let round = 0; round <= requests; round++) {
      for (const [index, spec] of specs.entries()) {
        if (failed.has(index)) continue;
        const timing = timings[index];
        const answer = await this.timedGet(spec.path);
        timing.status = answer.status;
        timing.bodyBytes = answer.body.length;
        if (round === 0) timing.firstMs = answer.ms;
        else timing.timesMs!.push(answer.ms);
        if (answer.status !== 200) {
          failed.add(index);
          this.warn(
            `${spec.name}: GET ${spec.path} answered ${answer.status}: ${answer.body.toString('utf8', 0, 500)}`,
          );
          continue;
        }
        if (round === 0 && spec.check) {
          const text = answer.body.toString('utf8');
          const csv = answer.contentType.startsWith('text/csv');
          if (csv !== (spec.csv ?? false)) {
            this.warn(`${spec.name}: answered content-type ${answer.contentType}`);
          }
          const checked = spec.check(csv ? {} : (JSON.parse(text) as ReportBody), text);
          timing.check = checked.text;
          if (!checked.ok)
            this.warn(`${spec.name}: the answer does not hold the seed: ${checked.text}`);
        }
      }
    }
    const rssPeak = await sampler.endWindow();
    for (const timing of timings) {
      const times = timing.timesMs!;
      if (times.length > 0) {
        timing.medianMs = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
        timing.maxMs = Math.max(...times);
      }
      timing.rssBeforeMiB = rssBefore;
      timing.rssPeakMiB = rssPeak;
      progress(
        `${this.dialect}: ${timing.name}: median ${timing.medianMs?.toFixed(1) ?? '?'} ms, max ${timing.maxMs?.toFixed(1) ?? '?'} ms, first ${timing.firstMs?.toFixed(1) ?? '?'} ms (${times.length} timed), ${((timing.bodyBytes ?? 0) / 1024).toFixed(1)} KiB, RSS ${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} MiB${timing.check ? `; ${timing.check}` : ''}`,
      );
    }
    return timings;
  }

  /** One GET, timed from sending to the body's last byte. */
  private async timedGet(
    path: string,
  ): Promise<{ ms: number; status: number; body: Buffer; contentType: string }> {
    const begin = performance.now();
    const response = await fetch(`${this.service.baseUrl}${path}`, {
      headers: this.headers,
      signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
    });
    const body = Buffer.from(await response.arrayBuffer());
    return {
      ms: performance.now() - begin,
      status: response.status,
      body,
      contentType: response.headers.get('content-type') ?? '',
    };
  }

  /** Three sequential full lists (whole body read), with the service's memory around them. */
  private async unpagedList(sampler: RssSampler): Promise<UnpagedListReport> {
    const n = this.plan.invoices;
    if (n > UNPAGED_LIST_LIMIT) {
      const skipped = `more than ${UNPAGED_LIST_LIMIT.toLocaleString('en')} invoices`;
      this.notes.push(`Unpaged list skipped: ${skipped}.`);
      return { skipped };
    }
    progress(`${this.dialect}: unpaged list, ${UNPAGED_LIST_REQUESTS} sequential requests`);
    const rssBefore = await sampler.beginWindow();
    const times: number[] = [];
    let bodyBytes = 0;
    for (let index = 0; index < UNPAGED_LIST_REQUESTS; index++) {
      const begin = performance.now();
      const response = await fetch(`${this.service.baseUrl}/v1/invoice/all`, {
        headers: this.headers,
        signal: AbortSignal.timeout(300_000),
      });
      const body = await response.arrayBuffer();
      times.push(performance.now() - begin);
      bodyBytes = body.byteLength;
      if (response.status !== 200) {
        this.warn(
          `unpaged list answered ${response.status}: ${Buffer.from(body).toString('utf8', 0, 500)}`,
        );
      } else if (index === 0) {
        const listed = (JSON.parse(Buffer.from(body).toString('utf8')) as ListBody).data.length;
        if (listed !== n) this.warn(`unpaged list holds ${listed} invoices, not ${n}`);
      }
    }
    const rssPeak = await sampler.endWindow();
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    progress(
      `${this.dialect}: unpaged list: median ${median.toFixed(0)} ms, ${(bodyBytes / 1048576).toFixed(1)} MiB, RSS ${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} MiB`,
    );
    return {
      invoices: n,
      medianMs: median,
      timesMs: times,
      bodyBytes,
      rssBeforeMiB: rssBefore,
      rssPeakDuringMiB: rssPeak,
      rssGrowthMiB: rssPeak - rssBefore,
    };
  }
}

interface InvoiceDetailBody {
  invoice: Array<{ status?: string }>;
  items: unknown[];
  payments: unknown[];
  send_log: Array<{ delivery: string }>;
}

/** A report as timed: its request, and what its answer must hold of the seed. */
interface ReportSpec {
  name: string;
  path: string;
  /** Answers text/csv. */
  csv?: boolean;
  check?: (body: ReportBody, text: string) => { ok: boolean; text: string };
}

/** The parts of the reports' JSON the checks read. */
interface ReportBody {
  data?: {
    currencies?: Array<{
      totals?: Record<string, string | number | undefined>;
      clients?: unknown[];
      months?: unknown[];
      lines?: unknown[];
      closing_balance?: string;
    }>;
  };
}

interface ListBody {
  data: Array<{ id: string }>;
  meta?: { total?: number; next_after?: unknown };
}

/**
 * Asks the service for a heap snapshot (SIGUSR2 with --heapsnapshot-signal) and waits until its
 * file in `folder` has stopped growing. Writing one stops the service for seconds.
 */
async function heapSnapshot(
  pid: number,
  folder: string,
  report: (message: string) => void,
): Promise<void> {
  const snapshotFiles = async () =>
    (await readdir(folder)).filter((name) => name.endsWith('.heapsnapshot'));
  const before = new Set(await snapshotFiles());
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 300_000;
  let lastSize = -1;
  while (Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 1000));
    const file = (await snapshotFiles()).find((name) => !before.has(name));
    if (file === undefined) continue;
    const { size } = await stat(join(folder, file));
    if (size > 0 && size === lastSize) {
      report(`heap snapshot ${join(folder, file)} (${(size / 1048576).toFixed(0)} MiB)`);
      return;
    }
    lastSize = size;
  }
  report(`no heap snapshot appeared in ${folder} within 300 s`);
}

async function machineInfo(): Promise<Record<string, unknown>> {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return null;
    }
  };
  let mariadb: string | null = null;
  try {
    const connection = await createConnection(MARIADB_SERVER);
    const [rows] = await connection.query('SELECT VERSION() AS version');
    mariadb = (rows as Array<{ version: string }>)[0].version;
    await connection.end();
  } catch {
    // Not needed for a SQLite-only run.
  }
  const processors = cpus();
  return {
    cpus: processors.length,
    cpuModel: processors[0]?.model,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    mariadb,
    commit: git('rev-parse', '--short', 'HEAD'),
    uncommittedChanges: (git('status', '--porcelain') ?? '').split('\n').filter(Boolean).length,
    date: new Date().toISOString(),
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (!existsSync(join(ROOT, 'dist/main.js'))) {
    throw new Error('dist/main.js is missing: run `npm run build` first (npm run bench does)');
  }
  const state = new RunState();
  let cleaning: Promise<void> | null = null;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const server of state.servers) await server.stop().catch(() => undefined);
      killAllChildren();
      if (state.tempDir) await rm(state.tempDir, { recursive: true, force: true });
      if (state.mariadbDatabase && !options.keep) {
        await dropMariadb(MARIADB_SERVER, state.mariadbDatabase);
        progress(`dropped ${state.mariadbDatabase}`);
      } else if (state.mariadbDatabase) {
        progress(`kept ${state.mariadbDatabase} for the next run (--keep)`);
      }
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      progress(`${signal}: cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  state.tempDir = await mkdtemp(join(tmpdir(), 'invoicing-api-bench-'));
  const machine = await machineInfo();
  const apiKey = randomBytes(24).toString('hex');
  const runId = randomBytes(4).toString('hex');
  const reports: DialectReport[] = [];
  try {
    for (const dialect of options.dialects) {
      if (options.soak !== null) {
        const bench = new DialectBench(dialect, options, state, apiKey, runId, machine);
        const soak = await bench.soak(options.soak);
        const name = `soak-${dialect}-${options.invoices}-${options.soak}s${options.label === null ? '' : `-${options.label}`}`;
        await mkdir(join(ROOT, 'bench/results'), { recursive: true });
        await writeFile(
          join(ROOT, 'bench/results', `${name}.json`),
          // Whether snapshots or a profile were taken, not where: the folders are outside the
          // repository.
          `${JSON.stringify({ ...soak, machine, options: { ...options, only: null, heapSnapshots: options.heapSnapshots !== null, cpuProfile: options.cpuProfile !== null } }, null, 2)}\n`,
        );
        const markdown = soakMarkdown(
          soak,
          `Soak, ${dialect}, ${options.invoices.toLocaleString('en')} invoices seeded, ${machine.date as string}, commit ${machine.commit as string}`,
        );
        await writeFile(
          join(ROOT, 'bench/results', `${name}.md`),
          `${markdown}\n\n${soak.notes.map((note) => `- ${note}`).join('\n')}\n`,
        );
        process.stdout.write(`${markdown}\n\n`);
        progress(`${dialect}: soak written to bench/results/${name}.json and .md`);
        continue;
      }
      const report = await new DialectBench(dialect, options, state, apiKey, runId, machine).run();
      reports.push(report);
      const label = options.label === null ? '' : `-${options.label}`;
      const file = join(ROOT, 'bench/results', `api-${dialect}-${options.invoices}${label}.json`);
      await mkdir(join(ROOT, 'bench/results'), { recursive: true });
      await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
      if (report.reports && !report.reports.skipped) {
        const reportsFile = join(
          ROOT,
          'bench/results',
          `reports-${dialect}-${options.invoices}${label}.json`,
        );
        const { operations, unpagedList, ...rest } = report;
        await writeFile(
          reportsFile,
          `${JSON.stringify({ ...rest, loadOperations: operations.map((operation) => operation.name), unpagedListSkipped: unpagedList.skipped ?? null }, null, 2)}\n`,
        );
        progress(`${dialect}: reports' figures written to ${reportsFile}`);
      }
      process.stdout.write(`${markdownReport(report)}\n\n`);
      progress(`${dialect}: results written to ${file}`);
    }
  } finally {
    await cleanUp();
  }
  if (options.soak === null && (options.only === null || options.only.test(PIPELINE_SECTION))) {
    progress(`${PIPELINE_SECTION}: the fixed cost of a request, stage by stage (about 4 min)`);
    const table = await measurePipeline({
      duration: PIPELINE_SECONDS,
      connections: 8,
      rounds: 2,
      only: null,
      dist: join(ROOT, 'dist'),
    });
    process.stdout.write(`### The request pipeline\n\n${table}\n\n`);
  }
  const minutes = (performance.now() - started) / 60_000;
  progress(
    `done in ${minutes.toFixed(1)} min (${machine.cpus as number} CPUs, Node ${process.version})`,
  );
  if (state.warnings.length > 0) {
    loudWarning(`${state.warnings.length} warning(s) during the run; see above and the tables`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  loudWarning(error instanceof Error ? (error.stack ?? error.message) : String(error));
  killAllChildren();
  process.exit(1);
});
