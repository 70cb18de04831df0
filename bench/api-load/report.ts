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

export interface DialectReport {
  dialect: 'mariadb' | 'sqlite';
  invoices: number;
  seed: { reused: boolean; seconds: number };
  operations: OperationReport[];
  unpagedList: UnpagedListReport;
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
    runs,
  };
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined ? '' : value.toFixed(digits);

export function markdownReport(report: DialectReport): string {
  const withBaseline = report.operations.some((operation) => operation.baseline);
  const header = withBaseline
    ? '| operation | req/s | p50 ms | p99 ms | non-2xx | baseline req/s | baseline p50 ms | baseline p99 ms | service/baseline |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|'
    : '| operation | req/s | p50 ms | p99 ms | non-2xx |\n|---|--:|--:|--:|--:|';
  const rows = report.operations.map((operation) => {
    const service = operation.service;
    const name = `${operation.name} \`${operation.request}\``;
    if (!service) {
      return withBaseline
        ? `| ${name} | skipped: ${operation.skipped ?? ''} | | | | | | | |`
        : `| ${name} | skipped: ${operation.skipped ?? ''} | | | |`;
    }
    const cells = [
      name,
      fixed(service.requestsPerSecond, 0),
      fixed(service.latencyP50, 2),
      fixed(service.latencyP99, 2),
      String(service.non2xx + service.errors),
    ];
    if (withBaseline) {
      const baseline = operation.baseline;
      cells.push(
        fixed(baseline?.requestsPerSecond, 0),
        fixed(baseline?.latencyP50, 2),
        fixed(baseline?.latencyP99, 2),
        operation.ratio === undefined ? '' : operation.ratio.toFixed(2),
      );
    }
    return `| ${cells.join(' | ')} |`;
  });
  const list = report.unpagedList;
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
    `Seed: ${report.seed.reused ? 'reused' : 'seeded'} in ${report.seed.seconds.toFixed(1)} s.`,
    ...report.notes.map((note) => `- ${note}`),
    ...report.warnings.map((warning) => `- **WARNING**: ${warning}`),
  ];
  return lines.join('\n');
}
