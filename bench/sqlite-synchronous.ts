import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

/*
 * What `PRAGMA synchronous = FULL` costs against NORMAL on the SQLite default, through HTTP
 * only, against the built service:
 *
 *   npm run bench:sqlite-sync                                   # 400 writes per run, 3 rounds
 *   npm run bench:sqlite-sync -- --writes 1000 --rounds 5 --parallel 8
 *
 * The service sets FULL; the script preloads a hook on better-sqlite3 that rewrites that one
 * pragma to the mode under test and prints what it reads back, so both runs are the same
 * build. Runs alternate FULL, NORMAL, FULL, … so that the load of other processes on the
 * machine falls on both alike. Each run starts a fresh file and measures sequential payments
 * (one client, each waits for the previous answer: the commit latency), sequential invoice
 * adds, and payments from --parallel concurrent clients.
 * Last, the bare commit in-process, with no HTTP or TypeORM around it.
 */

const ROOT = resolve(__dirname, '..');
const MAIN = join(ROOT, 'dist', 'main.js');

type Mode = 'FULL' | 'NORMAL';

interface RunResult {
  mode: Mode;
  readBack: string;
  sequentialPaymentMs: number;
  sequentialInvoiceMs: number;
  parallelPaymentsPerSecond: number;
}

const { values } = parseArgs({
  options: {
    writes: { type: 'string', default: '400' },
    rounds: { type: 'string', default: '3' },
    parallel: { type: 'string', default: '8' },
  },
});
const WRITES = Number(values.writes);
const ROUNDS = Number(values.rounds);
const PARALLEL = Number(values.parallel);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A preload that swaps the service's `synchronous = FULL` for the mode under test. */
async function writePreload(dir: string): Promise<string> {
  const file = join(dir, 'synchronous-override.js');
  const betterSqlite3 = require.resolve('better-sqlite3', { paths: [ROOT] });
  await writeFile(
    file,
    `const Database = require(${JSON.stringify(betterSqlite3)});
const pragma = Database.prototype.pragma;
Database.prototype.pragma = function (source, options) {
  if (/^\\s*synchronous\\s*=/i.test(source)) {
    const result = pragma.call(this, 'synchronous = ' + process.env.BENCH_SQLITE_SYNCHRONOUS);
    process.stderr.write('bench synchronous=' + pragma.call(this, 'synchronous', { simple: true }) + '\\n');
    return result;
  }
  return pragma.call(this, source, options);
};
`,
  );
  return file;
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function run(mode: Mode, dir: string, preload: string, round: number): Promise<RunResult> {
  const file = join(dir, `bench-${mode}-${round}.sqlite`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${file}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      OUTBOX_POLL_MS: '0',
      NODE_ENV: 'test',
      BENCH_SQLITE_SYNCHRONOUS: mode,
      NODE_OPTIONS: `--require ${preload}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await fetch(`${url}/health/ready`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (tries > 300) throw new Error(`The service did not start:\n${output}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    const client = (await post(`${url}/v1/client/add`, { names: 'Bench' })) as {
      data: Array<{ id: string }>;
    };
    const clientId = client.data[0].id;
    const addInvoice = async (number: string) =>
      (
        (await post(`${url}/v1/invoice/add`, {
          client: clientId,
          invoice_no: number,
          payment_status: 'Not Paid',
          items: [{ description: 'Bench', quantity: 1, rate: '1000000.00' }],
        })) as { invoice: Array<{ id: string }> }
      ).invoice[0].id;
    const invoiceId = await addInvoice('BENCH-0');
    const pay = () =>
      post(`${url}/v1/invoice/record-payment`, {
        id: invoiceId,
        amount_paid: '1.00',
        payment_date: '2026-03-10',
      });
    for (let warm = 0; warm < 20; warm += 1) await pay();

    let started = performance.now();
    for (let index = 0; index < WRITES; index += 1) await pay();
    const sequentialPaymentMs = (performance.now() - started) / WRITES;

    started = performance.now();
    for (let index = 0; index < WRITES; index += 1) await addInvoice(`BENCH-${index + 1}`);
    const sequentialInvoiceMs = (performance.now() - started) / WRITES;

    let next = 0;
    started = performance.now();
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < WRITES) {
          next += 1;
          await pay();
        }
      }),
    );
    const parallelPaymentsPerSecond = WRITES / ((performance.now() - started) / 1000);
    const readBack = /bench synchronous=(\d)/.exec(output)?.[1] ?? 'nothing: no pragma set';
    return { mode, readBack, sequentialPaymentMs, sequentialInvoiceMs, parallelPaymentsPerSecond };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await Promise.all(['', '-wal', '-shm'].map((end) => rm(`${file}${end}`, { force: true })));
  }
}

/** The part of better-sqlite3 the raw measure uses (the package ships no type declarations). */
interface SqliteDatabase {
  pragma(source: string): unknown;
  exec(sql: string): unknown;
  prepare(sql: string): { run(...values: unknown[]): unknown };
  close(): void;
}

/**
 * The same commit without HTTP or TypeORM: one transaction of an UPDATE and an INSERT, as a
 * payment is, so the difference of the two modes is the WAL sync alone.
 */
function rawCommitMs(mode: Mode, dir: string): number {
  const Sqlite = createRequire(join(ROOT, 'package.json'))('better-sqlite3') as new (
    file: string,
  ) => SqliteDatabase;
  const file = join(dir, `raw-${mode}.sqlite`);
  const db = new Sqlite(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${mode}`);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount_paid TEXT NOT NULL)');
    db.exec('CREATE TABLE payments (id INTEGER PRIMARY KEY, invoice_id INTEGER, amount TEXT)');
    db.exec("INSERT INTO invoices VALUES (1, '0')");
    const update = db.prepare('UPDATE invoices SET amount_paid = ? WHERE id = 1');
    const insert = db.prepare("INSERT INTO payments (invoice_id, amount) VALUES (1, '1.00')");
    const started = performance.now();
    for (let index = 0; index < WRITES; index += 1) {
      db.exec('BEGIN IMMEDIATE');
      update.run(String(index));
      insert.run();
      db.exec('COMMIT');
    }
    return (performance.now() - started) / WRITES;
  } finally {
    db.close();
  }
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-synchronous-'));
  try {
    const preload = await writePreload(dir);
    const results: RunResult[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of ['FULL', 'NORMAL'] as const) {
        const result = await run(mode, dir, preload, round);
        results.push(result);
        console.log(
          `${mode.padEnd(6)} (read back ${result.readBack}): payment ${result.sequentialPaymentMs.toFixed(2)} ms, ` +
            `invoice add ${result.sequentialInvoiceMs.toFixed(2)} ms, ` +
            `${PARALLEL} parallel ${result.parallelPaymentsPerSecond.toFixed(0)} payments/s`,
        );
      }
    }
    console.log(`\nMedians over ${ROUNDS} rounds of ${WRITES} writes each:`);
    for (const mode of ['FULL', 'NORMAL'] as const) {
      const mine = results.filter((result) => result.mode === mode);
      console.log(
        `${mode.padEnd(6)}: sequential payment ${median(mine.map((r) => r.sequentialPaymentMs)).toFixed(2)} ms, ` +
          `sequential invoice add ${median(mine.map((r) => r.sequentialInvoiceMs)).toFixed(2)} ms, ` +
          `${PARALLEL} parallel clients ${median(mine.map((r) => r.parallelPaymentsPerSecond)).toFixed(0)} payments/s`,
      );
    }
    const raw = { FULL: [] as number[], NORMAL: [] as number[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of ['FULL', 'NORMAL'] as const) raw[mode].push(rawCommitMs(mode, dir));
      await Promise.all(
        ['FULL', 'NORMAL'].flatMap((mode) =>
          ['', '-wal', '-shm'].map((end) =>
            rm(join(dir, `raw-${mode}.sqlite${end}`), { force: true }),
          ),
        ),
      );
    }
    console.log(
      `raw better-sqlite3 commit (UPDATE + INSERT): FULL ${median(raw.FULL).toFixed(3)} ms, ` +
        `NORMAL ${median(raw.NORMAL).toFixed(3)} ms`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
