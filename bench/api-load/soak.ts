import { createConnection } from 'mysql2/promise';
import { BUSY_CLIENT_ID, SeedPlan } from '../seed';
import { LoadRequest, LoadResult, LoadTarget, runLoad } from './load-run';
import { PER_PAGE } from './operations';
import { memoryMap, RssSampler } from './processes';

/*
 * `npm run bench -- --soak SECONDS`: one long mixed load, to see whether the service's memory
 * and rate hold as the data grows. The mix is the traffic of an ordinary day: invoice reads,
 * payments, added invoices (each with texts of its own, so every PDF of one prints words no
 * earlier document printed), pages, client reads and sends, whose PDFs the service's outbox
 * worker renders and writes out while the load goes on. It runs in windows of SAMPLE_SECONDS;
 * after each, the service's resident memory (at the end and the highest sampled in it), its
 * V8 heap and off-heap memory (from /metrics), the events table's size and the outbox's
 * backlog are read. The first window is the warm-up: the bound is stated against its end.
 * With --heap-snapshots DIR the service writes a heap snapshot there after the first window
 * and after the last (bench/heap-summary.ts compares two).
 */

/** The share of each kind of request in the mix, out of their sum. */
const MIX: Array<[SoakRequestKind, number]> = [
  ['invoice read', 30],
  ['record payment', 20],
  ['invoice add', 12],
  ['list page', 12],
  ['client read', 10],
  ['invoice send', 8],
  ['keyset page', 8],
];

export type SoakRequestKind =
  | 'invoice read'
  | 'record payment'
  | 'invoice add'
  | 'list page'
  | 'client read'
  | 'invoice send'
  | 'keyset page';

export interface SoakWindow {
  /** Seconds since the load began, at the end of the window. */
  endSecond: number;
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  responses: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  rssMiB: number;
  rssPeakMiB: number;
  /** V8's heap in use, the heap V8 holds from the system, and what it knows of outside it. */
  heapUsedMiB: number | null;
  heapTotalMiB: number | null;
  externalMiB: number | null;
  /** Resident memory by mapping (see memoryMap): malloc's main arena, other anonymous. */
  mallocHeapMiB: number | null;
  anonymousMiB: number | null;
  /** Rows in `events` (its highest id) and e-mails still queued or being sent. */
  events: number | null;
  outboxWaiting: number | null;
  emailsSent: number | null;
  /** Service CPU per answer over the window, and MariaDB's (none on SQLite). */
  cpuMsPerResponse?: number;
  databaseCpuMsPerResponse?: number;
  /** 1-minute load average of the machine at the end of the window. */
  loadAverage: number;
  /** Each kind's median answer time in the window, in ms (wall time seen by the load). */
  medianMsByKind: Partial<Record<SoakRequestKind, number>>;
}

export interface SoakReport {
  seconds: number;
  connections: number;
  sampleSeconds: number;
  mix: Record<string, number>;
  windows: SoakWindow[];
  requests: Record<SoakRequestKind, number>;
  firstFailure?: LoadResult['firstFailure'];
  summary: string[];
}

export interface SoakContext {
  plan: SeedPlan;
  runId: string;
  target: LoadTarget;
  /** The service's process. */
  pid: number;
  sampler: RssSampler;
  /** MariaDB server URL and database, for the table sizes; null on SQLite. */
  mariadb: { server: string; database: string } | null;
  cpuTimeMs: () => Promise<number | null>;
  /** MariaDB's CPU time so far, or null (SQLite). */
  databaseCpuTimeMs: () => Promise<number | null>;
  loadAverage: () => number;
  progress: (message: string) => void;
  /** Takes a heap snapshot of the service (--heap-snapshots): after the warm-up and at the end. */
  snapshot?: () => Promise<void>;
}

function between(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

/** The requests of the mix; ids of the invoices it adds are learnt from their answers. */
export class SoakMix {
  private readonly added: number[] = [];
  private addCount = 0;
  private readonly total = MIX.reduce((sum, [, weight]) => sum + weight, 0);
  readonly counts = Object.fromEntries(MIX.map(([kind]) => [kind, 0])) as Record<
    SoakRequestKind,
    number
  >;

  constructor(
    private readonly plan: SeedPlan,
    private readonly runId: string,
  ) {}

  next = (): LoadRequest => {
    let pick = Math.random() * this.total;
    let kind: SoakRequestKind = MIX[0][0];
    for (const [candidate, weight] of MIX) {
      pick -= weight;
      if (pick < 0) {
        kind = candidate;
        break;
      }
    }
    this.counts[kind]++;
    const request = this.request(kind);
    this.kindOf.set(request, kind);
    return request;
  };

  /** Each kind's answer times (ms) since the last `takeTimes`. */
  private times = new Map<SoakRequestKind, number[]>();
  private readonly kindOf = new WeakMap<LoadRequest, SoakRequestKind>();

  /** Each kind's median answer time (ms) since the last call, and starts counting again. */
  takeTimes(): Partial<Record<SoakRequestKind, number>> {
    const medians: Partial<Record<SoakRequestKind, number>> = {};
    for (const [kind, times] of this.times) {
      times.sort((a, b) => a - b);
      medians[kind] = times[Math.floor(times.length / 2)];
    }
    this.times = new Map();
    return medians;
  }

  /** Times the answer by kind; keeps the id of an added invoice for later reads and sends. */
  answered = (request: LoadRequest, status: number, body: string, milliseconds: number): void => {
    const kind = this.kindOf.get(request);
    if (kind !== undefined) {
      let times = this.times.get(kind);
      if (times === undefined) this.times.set(kind, (times = []));
      times.push(milliseconds);
    }
    if (status !== 200 || request.path !== '/v1/invoice/add') return;
    const id = /"id":"(\d+)"/.exec(body)?.[1];
    if (id !== undefined) this.added.push(Number(id));
  };

  /** A seeded invoice that is not void, or one this run added (a third of the time, once any). */
  private someInvoice(): number {
    if (this.added.length > 0 && Math.random() < 1 / 3) {
      return this.added[between(0, this.added.length - 1)];
    }
    let id = between(1, this.plan.invoices);
    while (this.plan.kind(id) === 'void') id = between(1, this.plan.invoices);
    return id;
  }

  private request(kind: SoakRequestKind): LoadRequest {
    const n = this.plan.invoices;
    switch (kind) {
      case 'invoice read':
        return { method: 'GET', path: `/v1/invoice/${this.someInvoice()}` };
      case 'client read':
        return { method: 'GET', path: `/v1/client/${between(1, this.plan.clients)}` };
      case 'list page':
        return {
          method: 'GET',
          path: `/v1/invoice/all?page=${between(1, Math.ceil(n / PER_PAGE))}&per_page=${PER_PAGE}`,
        };
      case 'keyset page':
        return {
          method: 'GET',
          path: `/v1/invoice/all?after=${between(0, n + this.added.length)}&per_page=${PER_PAGE}`,
        };
      case 'record payment':
        return {
          method: 'POST',
          path: '/v1/invoice/record-payment',
          body: JSON.stringify({
            id: String(this.plan.payableFrom(between(1, n))),
            amount_paid: '0.01',
            payment_date: '2026-11-01',
          }),
        };
      case 'invoice send': {
        const id = this.someInvoice();
        return {
          method: 'POST',
          path: '/v1/invoice/send',
          body: JSON.stringify({ id: String(id), email: `soak${id}@example.com` }),
        };
      }
      case 'invoice add': {
        const number = ++this.addCount;
        const word = `${this.runId}${number.toString(36)}`;
        return {
          method: 'POST',
          path: '/v1/invoice/add',
          body: JSON.stringify({
            client: String(between(BUSY_CLIENT_ID + 1, this.plan.clients)),
            invoice_no: `SOAK-${this.runId}-${number}`,
            payment_status: 'Not Paid',
            description: `Services for project ${word}`,
            currency: 'USD',
            tax_rate: '8.25',
            issue_date: '2026-11-01',
            due_date: '2026-12-01',
            note: `Reference ${word}, payable within 30 days.`,
            items: [
              { description: `Workshop ${word}`, quantity: '1', rate: '1200.00' },
              { description: `Implementation of ${word}`, quantity: '4.5', rate: '850.00' },
              { description: 'Hosting, monthly', quantity: '12', rate: '49.99' },
            ],
          }),
        };
      }
    }
  }
}

/** The figures /metrics gives of the process's memory, in MiB. */
async function heapFigures(
  target: LoadTarget,
): Promise<{ heapUsed: number | null; heapTotal: number | null; external: number | null }> {
  try {
    const response = await fetch(`${target.baseUrl}/metrics`, {
      headers: target.headers,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const gauge = (name: string) => {
      const match = new RegExp(`^${name} ([0-9.e+]+)$`, 'm').exec(text);
      return match ? Number(match[1]) / 1048576 : null;
    };
    return {
      heapUsed: gauge('nodejs_heap_size_used_bytes'),
      heapTotal: gauge('nodejs_heap_size_total_bytes'),
      external: gauge('nodejs_external_memory_bytes'),
    };
  } catch {
    return { heapUsed: null, heapTotal: null, external: null };
  }
}

async function tableFigures(
  mariadb: SoakContext['mariadb'],
): Promise<{ events: number | null; outboxWaiting: number | null; emailsSent: number | null }> {
  if (mariadb === null) return { events: null, outboxWaiting: null, emailsSent: null };
  const connection = await createConnection(`${mariadb.server}/${mariadb.database}`);
  try {
    const [rows] = await connection.query(
      `SELECT (SELECT COALESCE(MAX(id), 0) FROM events) AS events,
              (SELECT COUNT(*) FROM document_outbox WHERE status IN ('queued', 'sending')) AS waiting,
              (SELECT COUNT(*) FROM document_outbox WHERE status = 'sent') AS sent`,
    );
    const row = (rows as Array<Record<string, string | number>>)[0];
    return {
      events: Number(row.events),
      outboxWaiting: Number(row.waiting),
      emailsSent: Number(row.sent),
    };
  } finally {
    await connection.end();
  }
}

export async function runSoak(
  context: SoakContext,
  options: { seconds: number; connections: number; sampleSeconds: number },
): Promise<SoakReport> {
  const mix = new SoakMix(context.plan, context.runId);
  const windows: SoakWindow[] = [];
  let firstFailure: LoadResult['firstFailure'];
  let elapsed = 0;
  while (elapsed < options.seconds) {
    const seconds = Math.min(options.sampleSeconds, options.seconds - elapsed);
    await context.sampler.beginWindow();
    const cpuBefore = await context.cpuTimeMs();
    const databaseBefore = await context.databaseCpuTimeMs();
    const result = await runLoad(context.target, mix.next, {
      connections: options.connections,
      seconds,
      onAnswer: mix.answered,
    });
    const cpuAfter = await context.cpuTimeMs();
    const databaseAfter = await context.databaseCpuTimeMs();
    elapsed += seconds;
    firstFailure ??= result.firstFailure;
    const rssPeak = await context.sampler.endWindow();
    const rss = await context.sampler.current();
    const heap = await heapFigures(context.target);
    const mapped = await memoryMap(context.pid);
    const tables = await tableFigures(context.mariadb);
    const window: SoakWindow = {
      endSecond: elapsed,
      requestsPerSecond: result.requestsPerSecond,
      latencyP50: result.latencyP50,
      latencyP99: result.latencyP99,
      responses: result.responses,
      non2xx: result.non2xx,
      errors: result.errors,
      statusCodes: result.statusCodes,
      rssMiB: rss,
      rssPeakMiB: rssPeak,
      heapUsedMiB: heap.heapUsed,
      heapTotalMiB: heap.heapTotal,
      externalMiB: heap.external,
      mallocHeapMiB: mapped?.mallocHeap ?? null,
      anonymousMiB: mapped?.anonymous ?? null,
      ...tables,
      cpuMsPerResponse:
        cpuBefore !== null && cpuAfter !== null && result.responses > 0
          ? (cpuAfter - cpuBefore) / result.responses
          : undefined,
      databaseCpuMsPerResponse:
        databaseBefore !== null && databaseAfter !== null && result.responses > 0
          ? (databaseAfter - databaseBefore) / result.responses
          : undefined,
      loadAverage: context.loadAverage(),
      medianMsByKind: mix.takeTimes(),
    };
    windows.push(window);
    if (context.snapshot && (windows.length === 1 || elapsed >= options.seconds)) {
      await context.snapshot();
    }
    context.progress(
      `soak ${elapsed}/${options.seconds} s: ${window.requestsPerSecond.toFixed(0)} req/s, p99 ${window.latencyP99.toFixed(0)} ms, RSS ${rss.toFixed(0)} MiB (peak ${rssPeak.toFixed(0)}), heap ${window.heapUsedMiB?.toFixed(0) ?? '?'} of ${window.heapTotalMiB?.toFixed(0) ?? '?'} MiB, malloc arena ${window.mallocHeapMiB?.toFixed(0) ?? '?'} MiB, external ${window.externalMiB?.toFixed(0) ?? '?'} MiB, events ${window.events ?? '?'}, outbox waiting ${window.outboxWaiting ?? '?'}, CPU ${window.cpuMsPerResponse?.toFixed(2) ?? '?'} ms/answer (database ${window.databaseCpuMsPerResponse?.toFixed(2) ?? '-'}), non-2xx ${window.non2xx}, load ${window.loadAverage.toFixed(2)}`,
    );
  }
  return {
    seconds: options.seconds,
    connections: options.connections,
    sampleSeconds: options.sampleSeconds,
    mix: Object.fromEntries(MIX),
    windows,
    requests: mix.counts,
    firstFailure,
    summary: summarise(windows),
  };
}

/** What the windows say: memory after the warm-up window, and the rate at the start and end. */
function summarise(windows: SoakWindow[]): string[] {
  if (windows.length < 2) return ['One window only: nothing to compare.'];
  const [warmUp, ...rest] = windows;
  const rss = rest.map((window) => window.rssMiB);
  const peaks = rest.map((window) => window.rssPeakMiB);
  const third = Math.max(1, Math.floor(rest.length / 3));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const firstRate = mean(rest.slice(0, third).map((window) => window.requestsPerSecond));
  const lastRate = mean(rest.slice(-third).map((window) => window.requestsPerSecond));
  const responses = windows.reduce((sum, window) => sum + window.responses, 0);
  const non2xx = windows.reduce((sum, window) => sum + window.non2xx + window.errors, 0);
  return [
    `${responses.toLocaleString('en')} answers, ${non2xx} of them not 2xx or failed.`,
    `RSS after the warm-up window ${warmUp.rssMiB.toFixed(0)} MiB; over the rest ${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MiB at the window ends, highest sampled ${Math.max(...peaks).toFixed(0)} MiB; last window ${rss[rss.length - 1].toFixed(0)} MiB.`,
    `Rate over the first third after the warm-up ${firstRate.toFixed(0)} req/s, over the last third ${lastRate.toFixed(0)} req/s (${((lastRate / firstRate - 1) * 100).toFixed(1)} %).`,
    `Events from ${warmUp.events ?? '?'} to ${windows[windows.length - 1].events ?? '?'}.`,
  ];
}

export function soakMarkdown(report: SoakReport, title: string): string {
  const cell = (value: number | null | undefined, digits = 0) =>
    value === null || value === undefined ? '' : value.toFixed(digits);
  const rows = report.windows.map(
    (window) =>
      `| ${(window.endSecond / 60).toFixed(1)} | ${cell(window.requestsPerSecond)} | ${cell(window.latencyP99)} | ${cell(window.rssMiB)} | ${cell(window.rssPeakMiB)} | ${cell(window.heapUsedMiB)} / ${cell(window.heapTotalMiB)} | ${cell(window.mallocHeapMiB)} | ${cell(window.externalMiB)} | ${cell(window.cpuMsPerResponse, 2)} (${cell(window.databaseCpuMsPerResponse, 2)}) | ${window.events ?? ''} | ${window.outboxWaiting ?? ''} | ${window.emailsSent ?? ''} | ${window.non2xx + window.errors} | ${cell(window.loadAverage, 2)} |`,
  );
  return [
    `### ${title}`,
    '',
    `${report.connections} connections, ${report.seconds} s in windows of ${report.sampleSeconds} s; mix ${Object.entries(
      report.mix,
    )
      .map(([kind, weight]) => `${kind} ${weight}`)
      .join(', ')}.`,
    '',
    '| minute | req/s | p99 ms | RSS MiB | RSS peak | V8 heap used / held | malloc arena | external | CPU ms/answer (database) | events | outbox waiting | e-mails sent | not 2xx | load |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
    '',
    'Median answer time of each kind of request, ms, per window (16 connections: it includes waiting behind the others):',
    '',
    `| minute | ${MIX.map(([kind]) => kind).join(' | ')} |`,
    `|--:|${MIX.map(() => '--:').join('|')}|`,
    ...report.windows.map(
      (window) =>
        `| ${(window.endSecond / 60).toFixed(1)} | ${MIX.map(([kind]) => cell(window.medianMsByKind[kind], 1)).join(' | ')} |`,
    ),
    '',
    ...report.summary.map((line) => `- ${line}`),
  ].join('\n');
}
