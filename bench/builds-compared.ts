import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LoadRequest, runLoad } from './api-load/load-run';
import { TWENTY_LINE_KINDS, TwentyLineKind, twentyLineBody } from './api-load/operations';
import { ChildServer, cpuTimeMs, killAllChildren } from './api-load/processes';
import { createThrowawayDatabase, ThrowawayDatabase } from './throwaway-database';

/*
 * This build against an earlier commit, on the 20-line invoices of bench/api-load.ts: the
 * earlier build adds and reads 20 lines at one rate, this one at one rate and at mixed rates
 * (issue 33: "an add and a read of a 20-line mixed-rate invoice cost no more than today's
 * single-rate one"). Same-build comparisons are `npm run bench -- --only '20 lines'`.
 *
 *   npm run build && npm run bench:builds -- --against 857baef [--dialect sqlite|mariadb|both]
 *     [--rounds 8] [--seconds 2] [--label L]
 *
 * The commit is checked out in a temporary git worktree sharing this node_modules (the
 * dependencies must be the same) and built there with `nest build`. Both services run at once,
 * each on a fresh database of its own (MariaDB at BENCH_MARIADB_URL, default
 * mariadb://root@127.0.0.1:3306), and are loaded in turn: one warm-up round, then --rounds
 * rounds of a --seconds burst of each side (the order reversed every other round, so neither
 * always goes first), reads first, then adds. A burst's service CPU per answer comes from
 * /proc; the medians over the rounds are reported, with every burst's requests per second.
 * Writes bench/results/builds-<label>.json and .md.
 */

const ROOT = resolve(__dirname, '..');
const API_KEY = 'bench-builds-compared-key-0123456789';
const CONNECTIONS = 8;
/** Invoices of each kind added before the reads, read at random. */
const READ_POOL = 200;

interface Side {
  name: string;
  kind: TwentyLineKind;
  server: ChildServer;
  client: string;
  ids: number[];
}

interface Burst {
  requestsPerSecond: number;
  cpuMsPerAnswer: number;
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      against: { type: 'string' },
      dialect: { type: 'string', default: 'both' },
      rounds: { type: 'string', default: '8' },
      seconds: { type: 'string', default: '2' },
      label: { type: 'string' },
    },
  });
  const against = values.against ?? '';
  if (!/^[0-9a-f]{7,40}$/.test(against)) throw new Error('--against must be a commit (hex)');
  const dialects = values.dialect === 'both' ? ['sqlite', 'mariadb'] : [values.dialect ?? ''];
  if (!dialects.every((dialect) => dialect === 'sqlite' || dialect === 'mariadb')) {
    throw new Error('--dialect must be sqlite, mariadb or both');
  }
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) throw new Error('--rounds 1 to 50');
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60)
    throw new Error('--seconds 1 to 60');
  const label = values.label ?? `against-${against}`;
  if (!/^[\w-]{1,40}$/.test(label))
    throw new Error('--label must be 1 to 40 letters, digits, _ or -');
  return { against, dialects, rounds, seconds, label };
}

function progress(message: string): void {
  process.stderr.write(`[builds-compared] ${message}\n`);
}

/** The commit checked out beside this one and built; answers its folder. */
function buildAgainst(commit: string, folder: string): string {
  const checkout = join(folder, 'against');
  execFileSync('git', ['worktree', 'add', '--detach', checkout, commit], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  return checkout;
}

async function json(server: ChildServer, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok)
    throw new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, Array<{ id: string }>>;
}

async function startSide(name: string, kind: TwentyLineKind, server: ChildServer): Promise<Side> {
  const added = await json(server, 'POST', '/v1/client/add', {
    names: `Bench ${name}`,
    email: 'bench@example.com',
  });
  const side: Side = { name, kind, server, client: added.data[0].id, ids: [] };
  for (let index = 0; index < READ_POOL; index++) {
    const invoice = await json(
      server,
      'POST',
      '/v1/invoice/add',
      twentyLineBody(kind, `R-${kind === 'one rate' ? 'S' : 'M'}-${index}`, side.client),
    );
    side.ids.push(Number(invoice.invoice[0].id));
  }
  return side;
}

async function burst(side: Side, next: () => LoadRequest, seconds: number): Promise<Burst> {
  const before = await cpuTimeMs(side.server.pid);
  const result = await runLoad(
    { baseUrl: side.server.baseUrl, headers: { authorization: `Bearer ${API_KEY}` } },
    next,
    { connections: CONNECTIONS, seconds },
  );
  const after = await cpuTimeMs(side.server.pid);
  if (result.non2xx > 0 || result.errors > 0 || before === null || after === null) {
    throw new Error(`${side.name}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return {
    requestsPerSecond: result.requestsPerSecond,
    cpuMsPerAnswer: (after - before) / result.responses,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function compare(
  dialect: string,
  against: string,
  checkout: string,
  options: ReturnType<typeof parseOptions>,
) {
  const databases: ThrowawayDatabase[] = [];
  const server = async (root: string | undefined) => {
    const database = await createThrowawayDatabase(
      dialect === 'mariadb'
        ? (process.env.BENCH_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306')
        : undefined,
    );
    databases.push(database);
    return ChildServer.startService({
      databaseUrl: database.url,
      apiKey: API_KEY,
      mailDir: join(tmpdir(), 'bench-builds-mail'),
      root,
    });
  };
  const earlier = await server(checkout);
  const current = await server(undefined);
  try {
    const sides = [
      await startSide(`${against}, one rate`, 'one rate', earlier),
      ...(await Promise.all(
        TWENTY_LINE_KINDS.map((kind) => startSide(`this build, ${kind}`, kind, current)),
      )),
    ];
    progress(
      `${dialect}: ${READ_POOL} invoices of each side added; load average ${loadavg()[0].toFixed(2)}`,
    );
    const bursts: Record<string, Burst[]> = {};
    let added = 0;
    for (const operation of ['read', 'add'] as const) {
      for (let round = -1; round < options.rounds; round++) {
        for (const side of round % 2 === 0 ? [...sides].reverse() : sides) {
          const next = (): LoadRequest =>
            operation === 'read'
              ? {
                  method: 'GET',
                  path: `/v1/invoice/${side.ids[Math.floor(Math.random() * side.ids.length)]}`,
                }
              : {
                  method: 'POST',
                  path: '/v1/invoice/add',
                  body: JSON.stringify(twentyLineBody(side.kind, `B-${++added}`, side.client)),
                };
          const result = await burst(side, next, options.seconds);
          if (round >= 0) (bursts[`${operation}: ${side.name}`] ??= []).push(result);
        }
      }
      progress(`${dialect}: ${operation} done`);
    }
    return Object.entries(bursts).map(([name, results]) => ({
      name,
      requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
      cpuMsPerAnswer: median(results.map((result) => result.cpuMsPerAnswer)),
      bursts: results.map((result) => Math.round(result.requestsPerSecond)),
    }));
  } finally {
    await earlier.stop();
    await current.stop();
    for (const database of databases) await database.drop();
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (!existsSync(join(ROOT, 'dist/main.js'))) throw new Error('run `npm run build` first');
  const folder = await mkdtemp(join(tmpdir(), 'bench-builds-'));
  const commit = execFileSync('git', ['rev-parse', '--short', options.against], { cwd: ROOT })
    .toString()
    .trim();
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })
    .toString()
    .trim();
  const dirty =
    execFileSync('git', ['status', '--porcelain'], { cwd: ROOT }).toString().trim() !== '';
  try {
    const checkout = buildAgainst(commit, folder);
    await symlink(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    progress(`building ${commit} in ${checkout}`);
    execFileSync('npx', ['nest', 'build'], { cwd: checkout, stdio: 'inherit' });
    const results: Record<string, Awaited<ReturnType<typeof compare>>> = {};
    for (const dialect of options.dialects) {
      results[dialect] = await compare(dialect, commit, checkout, options);
    }
    const lines = [
      `# This build (${head}${dirty ? ', with uncommitted changes' : ''}) against ${commit}: 20-line invoices`,
      '',
      `${options.rounds} rounds of ${options.seconds} s bursts per side, ${CONNECTIONS} connections; medians.`,
      '',
      '| dialect | operation | req/s | service CPU ms per answer | req/s of each burst |',
      '| ------- | --------- | ----: | ------------------------: | ------------------- |',
      ...Object.entries(results).flatMap(([dialect, rows]) =>
        rows.map(
          (row) =>
            `| ${dialect} | ${row.name} | ${row.requestsPerSecond.toFixed(0)} | ${row.cpuMsPerAnswer.toFixed(3)} | ${row.bursts.join(' ')} |`,
        ),
      ),
      '',
    ];
    const out = join(ROOT, 'bench/results', `builds-${options.label}`);
    await writeFile(
      `${out}.json`,
      JSON.stringify({ head, dirty, against: commit, options, results }, null, 2),
    );
    await writeFile(`${out}.md`, lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', join(folder, 'against')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    await rm(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  killAllChildren();
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
