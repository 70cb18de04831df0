import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { Connection, createConnection } from 'mysql2/promise';

/*
 * The statements of a status-filtered invoice list, straight against a seeded benchmark
 * database (npm run bench -- --keep leaves one on MariaDB; --sqlite takes a file seeded by
 * bench/seed.ts), each in several variants: as the service sends it (the optimiser chooses),
 * told to walk the primary key, and through a named index. For each it prints every plan
 * chosen over the random cursors (with how often: MariaDB's choice changes with the cursor),
 * the time per statement (median and 90th percentile over the same cursors for every variant)
 * and, on MariaDB, the index entries and rows the server went through (Handler_read_* plus
 * the entries index condition pushdown passed over: not disturbed by other load on the
 * machine, unlike the times). Keyset statements run once per cursor, the others 5 times.
 *
 *   npx ts-node bench/status-list-plans.ts --database invoicing_bench_1000000 [--samples 30]
 *     [--index idx_invoices_settlement_id]   (a further index to force, if the database has it)
 *     [--open-until]   (overdue and open on the column open_until, if the database has it)
 *   npx ts-node bench/status-list-plans.ts --sqlite /tmp/bench.sqlite [--samples 30]
 */

type Status = 'overdue' | 'open' | 'paid' | 'void';
const STATUSES: Status[] = ['overdue', 'open', 'paid', 'void'];
const PER_PAGE = 50;

interface Variant {
  name: string;
  /** MySQL index hint after the table name (or SQLite INDEXED BY / NOT INDEXED). */
  hint: string;
}

/**
 * The service's conditions for a status (src/invoices/domain/invoice-status.ts), with `after`.
 * `openUntil`: the alternative encoding measured beside it, a generated column `open_until`
 * (the due date while a balance is outstanding, 9999-12-31 when settled, NULL when paid or
 * void) that makes overdue and open one range each: `open_until < today`, `>= today`.
 */
function condition(
  status: Status,
  today: string,
  after: number | null,
  openUntil: boolean,
): [string, unknown[]] {
  const keyset = after === null ? '' : ' AND id > ?';
  const cursor = after === null ? [] : [after];
  if (openUntil && (status === 'overdue' || status === 'open')) {
    const compare = status === 'overdue' ? '<' : '>=';
    return [`open_until ${compare} ? AND deleted_at IS NULL${keyset}`, [today, ...cursor]];
  }
  switch (status) {
    case 'void':
    case 'paid':
      return [`settlement = ? AND deleted_at IS NULL${keyset}`, [status, ...cursor]];
    case 'overdue':
      return [
        `settlement = ? AND due_date < ? AND deleted_at IS NULL${keyset}`,
        ['unpaid', today, ...cursor],
      ];
    case 'open':
      return [
        `((settlement = ? AND deleted_at IS NULL${keyset}) OR (settlement = ? AND due_date >= ? AND deleted_at IS NULL${keyset}))`,
        ['settled', ...cursor, 'unpaid', today, ...cursor],
      ];
  }
}

interface Statement {
  kind: 'keyset' | 'page 1' | 'count';
  sql: string;
  parameters: unknown[];
}

function statement(
  kind: Statement['kind'],
  status: Status,
  today: string,
  hint: string,
  after: number,
  openUntil: boolean,
): Statement {
  if (kind === 'count') {
    const [where, parameters] = condition(status, today, null, openUntil);
    return { kind, sql: `SELECT COUNT(1) AS cnt FROM invoices ${hint} WHERE ${where}`, parameters };
  }
  const [where, parameters] = condition(status, today, kind === 'keyset' ? after : null, openUntil);
  const limit = kind === 'keyset' ? PER_PAGE + 1 : PER_PAGE;
  return {
    kind,
    sql: `SELECT * FROM invoices ${hint} WHERE ${where} ORDER BY id ASC LIMIT ${limit}`,
    parameters,
  };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

interface Database {
  explain(statement: Statement): Promise<string>;
  /** Runs it; answers the milliseconds and the index entries and rows read. */
  run(statement: Statement): Promise<{ ms: number; reads: number | null }>;
  maxId(): Promise<number>;
  close(): Promise<void>;
}

async function mariadb(url: string): Promise<Database> {
  const connection: Connection = await createConnection(url);
  const handlerReads = async () => {
    // Entries a range or ref read (Handler_read_*), and those index condition pushdown looked
    // at and passed over without reading their row (Handler_icp_attempts − Handler_icp_match).
    const [rows] = await connection.query(
      "SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_read%' OR Variable_name LIKE 'Handler_icp%'",
    );
    const value = (name: string) =>
      Number(
        (rows as Array<{ Variable_name: string; Value: string }>).find(
          (row) => row.Variable_name === name,
        )?.Value ?? 0,
      );
    const read = ['key', 'first', 'last', 'next', 'prev', 'rnd', 'rnd_next'].reduce(
      (sum, name) => sum + value(`Handler_read_${name}`),
      0,
    );
    return read + value('Handler_icp_attempts') - value('Handler_icp_match');
  };
  return {
    async explain(statement) {
      const [rows] = await connection.query(`EXPLAIN ${statement.sql}`, statement.parameters);
      return (rows as Array<{ type: string; key: string | null; Extra: string | null }>)
        .map((row) => `${row.type} ${row.key ?? 'no key'} (${row.Extra ?? ''})`)
        .join('; ');
    },
    async run(statement) {
      const before = await handlerReads();
      const begin = performance.now();
      await connection.query(statement.sql, statement.parameters);
      const ms = performance.now() - begin;
      // SHOW STATUS itself reads a few rows: measured as the difference of two empty runs.
      return { ms, reads: (await handlerReads()) - before };
    },
    async maxId() {
      const [rows] = await connection.query('SELECT MAX(id) AS id FROM invoices');
      return Number((rows as Array<{ id: number }>)[0].id);
    },
    close: () => connection.end(),
  };
}

interface SqliteStatement {
  all(parameters: unknown[]): unknown[];
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

function sqlite(file: string): Database {
  const Sqlite = createRequire(__filename)('better-sqlite3') as new (
    file: string,
    options: { readonly: boolean },
  ) => SqliteDatabase;
  const db = new Sqlite(file, { readonly: true });
  return {
    explain(statement) {
      const rows = db
        .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
        .all(statement.parameters) as Array<{ detail: string }>;
      return Promise.resolve(rows.map((row) => row.detail).join('; '));
    },
    run(statement) {
      const prepared = db.prepare(statement.sql);
      const begin = performance.now();
      prepared.all(statement.parameters);
      return Promise.resolve({ ms: performance.now() - begin, reads: null });
    },
    maxId() {
      const [row] = db.prepare('SELECT MAX(id) AS id FROM invoices').all([]) as Array<{
        id: number;
      }>;
      return Promise.resolve(row.id);
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      database: { type: 'string' },
      server: { type: 'string', default: 'mysql://root@127.0.0.1:3306' },
      sqlite: { type: 'string' },
      samples: { type: 'string', default: '30' },
      index: { type: 'string', multiple: true, default: [] },
      status: { type: 'string', multiple: true, default: STATUSES },
      kind: { type: 'string', multiple: true, default: ['keyset', 'page 1', 'count'] },
      today: { type: 'string', default: new Date().toISOString().slice(0, 10) },
      'open-until': { type: 'boolean', default: false },
    },
  });
  const samples = Number(values.samples);
  const onSqlite = values.sqlite !== undefined;
  const database = onSqlite
    ? sqlite(values.sqlite as string)
    : await mariadb(`${values.server}/${values.database ?? 'invoicing_bench_1000000'}`);
  const variants: Variant[] = onSqlite
    ? [
        { name: 'as sent (planner)', hint: '' },
        { name: 'NOT INDEXED (rowid)', hint: 'NOT INDEXED' },
        ...values.index.map((index) => ({
          name: `INDEXED BY ${index}`,
          hint: `INDEXED BY ${index}`,
        })),
      ]
    : [
        { name: 'as sent (optimizer)', hint: '' },
        { name: 'USE INDEX (PRIMARY)', hint: 'USE INDEX (PRIMARY)' },
        // USE INDEX is the only hint TypeORM writes (findList's useIndex); FORCE for comparison.
        ...values.index.flatMap((index) =>
          ['USE', 'FORCE'].map((kind) => ({
            name: `${kind} INDEX (${index})`,
            hint: `${kind} INDEX (${index})`,
          })),
        ),
      ];
  try {
    const n = await database.maxId();
    // The same random cursors for every variant.
    const cursors = Array.from({ length: samples }, () =>
      Math.floor(Math.random() * (n - PER_PAGE)),
    );
    let overhead = 0;
    if (!onSqlite) {
      const empty = await database.run({ kind: 'count', sql: 'SELECT 1', parameters: [] });
      overhead = empty.reads ?? 0;
    }
    process.stdout.write(
      `${onSqlite ? values.sqlite : values.database}: ${n.toLocaleString('en')} invoices, today ${values.today}, ${samples} samples\n\n`,
    );
    process.stdout.write(
      '| status | statement | variant | plan | median ms | p90 ms | rows read (median) |\n',
    );
    process.stdout.write('|---|---|---|---|--:|--:|--:|\n');
    for (const status of values.status as Status[]) {
      for (const kind of values.kind as Statement['kind'][]) {
        for (const variant of variants) {
          if (kind === 'count' && variant.hint !== '') continue;
          const at = (after: number) =>
            statement(kind, status, values.today, variant.hint, after, values['open-until']);
          const times: number[] = [];
          const reads: number[] = [];
          // The plan can change with the cursor (MariaDB estimates each range): every one seen.
          const plans = new Map<string, number>();
          const runs = kind === 'keyset' ? cursors : cursors.slice(0, Math.min(5, samples));
          for (const after of runs) {
            const described = await database.explain(at(after));
            plans.set(described, (plans.get(described) ?? 0) + 1);
            const result = await database.run(at(after));
            times.push(result.ms);
            if (result.reads !== null) reads.push(result.reads - overhead);
          }
          const plan = [...plans]
            .sort((a, b) => b[1] - a[1])
            .map(([described, count]) => (plans.size > 1 ? `${count}× ${described}` : described))
            .join(' / ');
          const read = reads.length > 0 ? String(percentile(reads, 0.5)) : '';
          process.stdout.write(
            `| ${status} | ${kind} | ${variant.name} | ${plan} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.9).toFixed(1)} | ${read} |\n`,
          );
        }
      }
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
