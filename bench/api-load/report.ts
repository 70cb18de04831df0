import { LoadResult } from './load-run';

/** One side of an operation: the mean of its runs. */
export interface SideSummary {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
  /** Mean of the runs' server CPU time per response (see LoadResult). */
  cpuMsPerResponse?: number;
  /** Mean of the runs' database CPU time per response (MariaDB only). */
  databaseCpuMsPerResponse?: number;
  runs: LoadResult[];
}

export interface OperationReport {
  name: string;
  request: string;
  service?: SideSummary;
  baseline?: SideSummary;
  /** service / baseline requests per second. */
  ratio?: number;
  skipped?: string;
}

export interface UnpagedListReport {
  skipped?: string;
  invoices?: number;
  medianMs?: number;
  timesMs?: number[];
  bodyBytes?: number;
  rssBeforeMiB?: number;
  rssPeakDuringMiB?: number;
  rssGrowthMiB?: number;
}

/** A report (or the client read next to it) asked for one request at a time. */
export interface ReportTiming {
  name: string;
  request: string;
  skipped?: string;
  /** The one request before the timed ones (not in the median), in milliseconds. */
  firstMs?: number;
  /** Wall time in the client, from sending to the last byte of the body. */
  timesMs?: number[];
  medianMs?: number;
  maxMs?: number;
  status?: number;
  bodyBytes?: number;
  /** Service RSS just before its first request, and the highest sampled during its requests. */
  rssBeforeMiB?: number;
  rssPeakMiB?: number;
  /** What the answer was checked against: the seed's figures and what the report said. */
  check?: string;
}

export interface ReportsReport {
  skipped?: string;
  /** The seed's busiest calendar year, the period of profit and loss and the tax summary. */
  year?: number;
  statementClient?: { id: number; seededInvoices: number };
  /** Target of the issue for aging and a year's profit and loss (MariaDB). */
  targetMs?: number;
  rssBeforeMiB?: number;
  rssPeakMiB?: number;
  rssAfterMiB?: number;
  timings: ReportTiming[];
}

export interface DialectReport {
  dialect: 'mariadb' | 'sqlite';
  invoices: number;
  seed: { reused: boolean; seconds: number };
  operations: OperationReport[];
  unpagedList: UnpagedListReport;
  reports?: ReportsReport;
  memory: { servicePeakRssMiB: number; baselinePeakRssMiB?: number };
  notes: string[];
  warnings: string[];
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
}

export function summarise(runs: LoadResult[]): SideSummary {
  const mean = (pick: (run: LoadResult) => number) =>
    runs.reduce((total, run) => total + pick(run), 0) / runs.length;
  return {
    requestsPerSecond: mean((run) => run.requestsPerSecond),
    latencyP50: mean((run) => run.latencyP50),
    latencyP99: mean((run) => run.latencyP99),
    non2xx: runs.reduce((total, run) => total + run.non2xx, 0),
    errors: runs.reduce((total, run) => total + run.errors, 0),
    cpuMsPerResponse: runs.every((run) => run.cpuMsPerResponse !== undefined)
      ? mean((run) => run.cpuMsPerResponse ?? 0)
      : undefined,
    databaseCpuMsPerResponse: runs.every((run) => run.databaseCpuMsPerResponse !== undefined)
      ? mean((run) => run.databaseCpuMsPerResponse ?? 0)
      : undefined,
    runs,
  };
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined ? '' : value.toFixed(digits);

/** Process CPU per request in µs, the database's in parentheses: `412 (180)`. */
function cpuCell(side: SideSummary): string {
  if (side.cpuMsPerResponse === undefined) return '';
  const service = (side.cpuMsPerResponse * 1000).toFixed(0);
  const database = side.databaseCpuMsPerResponse;
  return database === undefined ? service : `${service} (${(database * 1000).toFixed(0)})`;
}

export function markdownReport(report: DialectReport): string {
  const withBaseline = report.operations.some((operation) => operation.baseline);
  const header = withBaseline
    ? '| operation | req/s | p50 ms | p99 ms | non-2xx | CPU µs/req (db) | baseline req/s | baseline p50 ms | baseline p99 ms | baseline CPU µs/req (db) | service/baseline |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|'
    : '| operation | req/s | p50 ms | p99 ms | non-2xx | CPU µs/req (db) |\n|---|--:|--:|--:|--:|--:|';
  const rows = report.operations.map((operation) => {
    const service = operation.service;
    const name = `${operation.name} \`${operation.request}\``;
    if (!service) {
      return withBaseline
        ? `| ${name} | skipped: ${operation.skipped ?? ''} | | | | | | | | | |`
        : `| ${name} | skipped: ${operation.skipped ?? ''} | | | | |`;
    }
    const cells = [
      name,
      fixed(service.requestsPerSecond, 0),
      fixed(service.latencyP50, 2),
      fixed(service.latencyP99, 2),
      String(service.non2xx + service.errors),
      cpuCell(service),
    ];
    if (withBaseline) {
      const baseline = operation.baseline;
      cells.push(
        fixed(baseline?.requestsPerSecond, 0),
        fixed(baseline?.latencyP50, 2),
        fixed(baseline?.latencyP99, 2),
        baseline ? cpuCell(baseline) : '',
        operation.ratio === undefined ? '' : operation.ratio.toFixed(2),
      );
    }
    return `| ${cells.join(' | ')} |`;
  });
  const list = report.unpagedList;
  const reports = report.reports ? reportsMarkdown(report.reports) : [];
  const lines = [
    `### ${report.dialect === 'mariadb' ? 'MariaDB' : 'SQLite'}, ${report.invoices.toLocaleString('en')} invoices`,
    '',
    header,
    ...rows,
    '',
    list.skipped
      ? `Unpaged \`GET /v1/invoice/all\`: skipped (${list.skipped}).`
      : `Unpaged \`GET /v1/invoice/all\` (${list.invoices?.toLocaleString('en')} invoices): median ${fixed(list.medianMs, 0)} ms of 3, body ${((list.bodyBytes ?? 0) / 1024 / 1024).toFixed(1)} MiB; service RSS ${fixed(list.rssBeforeMiB, 0)} MiB before, ${fixed(list.rssPeakDuringMiB, 0)} MiB peak during (+${fixed(list.rssGrowthMiB, 0)} MiB).`,
    `Service peak RSS over the run: ${report.memory.servicePeakRssMiB.toFixed(0)} MiB` +
      (report.memory.baselinePeakRssMiB === undefined
        ? '.'
        : `; baseline ${report.memory.baselinePeakRssMiB.toFixed(0)} MiB.`),
    ...reports,
    `Seed: ${report.seed.reused ? 'reused' : 'seeded'} in ${report.seed.seconds.toFixed(1)} s.`,
    ...report.notes.map((note) => `- ${note}`),
    ...report.warnings.map((warning) => `- **WARNING**: ${warning}`),
  ];
  return lines.join('\n');
}

/** Names of the timings the table marks against the target (aging, a year's profit and loss). */
export const TARGETED_REPORTS = /^report: (aging|profit and loss)/;

export function reportsMarkdown(reports: ReportsReport): string[] {
  if (reports.skipped) return ['', `Reports: skipped (${reports.skipped}).`];
  const rows = reports.timings.map((timing) => {
    const name = `${timing.name} \`${timing.request}\``;
    if (timing.skipped) return `| ${name} | skipped: ${timing.skipped} | | | | | | |`;
    const over =
      reports.targetMs !== undefined &&
      TARGETED_REPORTS.test(timing.name) &&
      (timing.maxMs ?? 0) > reports.targetMs
        ? ' **over target**'
        : '';
    const failed = timing.status !== 200 ? `**answered ${timing.status ?? '?'}**` : '';
    return `| ${[
      name,
      `${fixed(timing.medianMs, 1)}${over}${failed}`,
      fixed(timing.maxMs, 1),
      fixed(timing.firstMs, 1),
      String(timing.timesMs?.length ?? 0),
      ((timing.bodyBytes ?? 0) / 1024).toFixed(1),
      `${fixed(timing.rssBeforeMiB, 0)} → ${fixed(timing.rssPeakMiB, 0)}`,
      timing.status === 200 ? (timing.check ?? '') : `status ${timing.status ?? '?'}`,
    ].join(' | ')} |`;
  });
  const statement = reports.timings.find((timing) => timing.name === 'report: statement');
  const read = reports.timings.find((timing) => timing.name === 'report: client read');
  const comparison =
    statement?.medianMs !== undefined && read?.medianMs !== undefined
      ? `Statement of client ${reports.statementClient?.id} (${reports.statementClient?.seededInvoices} seeded invoices): median ${statement.medianMs.toFixed(1)} ms against ${read.medianMs.toFixed(1)} ms for \`GET /v1/client/${reports.statementClient?.id}\` (${(statement.medianMs / read.medianMs).toFixed(2)}×).`
      : null;
  return [
    '',
    `Reports (sequential requests after the load; profit and loss and tax summary over ${reports.year}; wall time in the client, ms; target ${reports.targetMs ?? '-'} ms for aging and profit and loss):`,
    '',
    '| report | median ms | max ms | first ms | timed | body KiB | RSS before → peak MiB | check |',
    '|---|--:|--:|--:|--:|--:|--:|---|',
    ...rows,
    '',
    `Service RSS over the reports: ${fixed(reports.rssBeforeMiB, 0)} MiB before, ${fixed(reports.rssPeakMiB, 0)} MiB peak during (+${fixed((reports.rssPeakMiB ?? 0) - (reports.rssBeforeMiB ?? 0), 0)} MiB), ${fixed(reports.rssAfterMiB, 0)} MiB after.`,
    ...(comparison ? [comparison] : []),
  ];
}
