import { randomBytes } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { invariantViolations, openSql, Sql } from './setup/invariants';
import { ServiceProcess, startService } from './setup/service-process';
import { createTestDatabase, dropTestDatabase } from './setup/test-database';
import {
  Answer,
  bodyOf,
  Instance,
  Recorder,
  runWorkload,
  Seeded,
  seedDocuments,
  toScaled,
  workloadSeed,
} from './setup/workload';

/*
 * Two processes of the built service on one MariaDB database, under a seeded random workload of
 * payments, updates, marks, archives, sends, conversions and retries with and without an
 * Idempotency-Key, each request to either instance. Afterwards the database and the recorded
 * answers must agree. WORKLOAD_SEED=<seed> replays a run's operations (the interleaving
 * differs), WORKLOAD_OPERATIONS=<n> runs more of them. Not run on SQLite (jest.config.js): two
 * processes on one SQLite file answer 503 whenever their transactions cross (SQLITE_BUSY_SNAPSHOT).
 */

const OPERATIONS = Number(process.env.WORKLOAD_OPERATIONS ?? 1100);
const VIRTUAL_CLIENTS = 12;
const SEED_SIZE = { clients: 6, invoices: 60, estimates: 24 };
const API_KEY = randomBytes(24).toString('hex');

const seed = workloadSeed();
const recorder = new Recorder(API_KEY);
const services: ServiceProcess[] = [];
let sql: Sql;
let seeded: Seeded;
let workloadMs = 0;
let startupMs = 0;
let seedMs = 0;

type Row = Record<string, unknown>;

const text = (value: unknown) => String(value);
const ok = (answer: Answer) => answer.status === 200 && !answer.replayed;
const workloadAnswers = () => recorder.answers.filter((answer) => answer.kind !== 'seed');
const describeAnswer = (answer: Answer) =>
  `op ${answer.op} ${answer.kind} ${answer.instance} ${answer.method} ${answer.path} ` +
  `key=${answer.idempotencyKey ?? '-'} → ${answer.status}${answer.replayed ? ' (replayed)' : ''} ` +
  `${answer.error ?? answer.text.slice(0, 200)}`;

function countBy<T>(values: T[], keyOf: (value: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(keyOf(value), (counts.get(keyOf(value)) ?? 0) + 1);
  return counts;
}

function groupBy<T>(values: T[], keyOf: (value: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    if (key === undefined) continue;
    groups.set(key, [...(groups.get(key) ?? []), value]);
  }
  return groups;
}

/** A payment's amount from the request that made it. */
const requestedAmount = (answer: Answer) =>
  toScaled((JSON.parse(answer.requestBody ?? '{}') as { amount_paid: string }).amount_paid);

describe(`Two instances on one database, seed ${seed}`, () => {
  beforeAll(async () => {
    // The seed is what replays a failure.
    console.info(`two-instances workload: WORKLOAD_SEED=${seed}`);
    const startup = Date.now();
    await createTestDatabase();
    const env = {
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      API_KEYS: API_KEY,
      OUTBOX_POLL_MS: '200',
      // No load balancer to wait for at the end.
      SHUTDOWN_DRAIN_MS: '0',
    };
    // The first runs the migrations; the second starts on the migrated database.
    services.push(await startService(env));
    services.push(await startService(env));
    const instances: Instance[] = services.map((service, index) => ({
      name: 'AB'[index],
      url: service.url,
    }));
    startupMs = Date.now() - startup;
    sql = await openSql(process.env.DATABASE_URL ?? '');
    const seeding = Date.now();
    seeded = await seedDocuments(recorder, instances[0], seed, SEED_SIZE);
    seedMs = Date.now() - seeding;
    const started = Date.now();
    await runWorkload(recorder, seeded, {
      seed,
      operations: OPERATIONS,
      virtualClients: VIRTUAL_CLIENTS,
      instances,
    });
    workloadMs = Date.now() - started;
    // The figures of the run, for the README.
    console.info(summary());
  }, 180_000);

  afterAll(async () => {
    // WORKLOAD_RECORD=<file> keeps every request and answer of the run, to read a failure.
    if (process.env.WORKLOAD_RECORD) {
      await writeFile(process.env.WORKLOAD_RECORD, JSON.stringify(recorder.answers, null, 1));
    }
    await sql?.close();
    await Promise.all(services.map((service) => service.kill('SIGTERM')));
    await dropTestDatabase();
  });

  function summary(): string {
    const answers = workloadAnswers();
    const keyed = answers.filter((answer) => answer.idempotencyKey !== undefined);
    const lines = [
      `seed ${seed}: ${OPERATIONS} operations, ${VIRTUAL_CLIENTS} virtual clients, ` +
        `${answers.length} requests in ${workloadMs} ms (two instances ready in ${startupMs} ms, seeded in ${seedMs} ms)`,
      `by kind: ${JSON.stringify(Object.fromEntries(countBy(answers, (a) => a.kind)))}`,
      `by status: ${JSON.stringify(Object.fromEntries(countBy(answers, (a) => String(a.status))))}`,
      `by instance: ${JSON.stringify(Object.fromEntries(countBy(answers, (a) => a.instance)))}`,
      `keyed requests ${keyed.length}, replayed ${keyed.filter((a) => a.replayed).length}, ` +
        `409 ${keyed.filter((a) => a.status === 409).length}`,
    ];
    const retried = [...groupBy(keyed, (a) => a.idempotencyKey).values()].filter(
      (group) => group.length > 1 && group[0].kind !== 'key-reuse',
    );
    const keyless = new Set(answers.filter((a) => a.kind === 'pay-twice').map((a) => a.op));
    lines.push(
      `retries with a key ${retried.length} (concurrent ` +
        `${retried.filter((group) => group[0].retryMode === 'concurrent').length}), ` +
        `key reused for another request ${new Set(answers.filter((a) => a.kind === 'key-reuse').map((a) => a.op)).size}, ` +
        `payments sent twice without a key ${keyless.size}`,
    );
    return lines.join('\n');
  }

  it('answers every request, none with a 5xx', () => {
    const failed = workloadAnswers()
      .filter((answer) => answer.status === 0 || answer.status >= 500)
      .map(describeAnswer);
    expect({ seed, failed }).toEqual({ seed, failed: [] });
  });

  it('answers each operation with one of its documented statuses', () => {
    const allowed: Record<string, number[]> = {
      pay: [200, 404, 422],
      'pay-keyed': [200, 404, 409, 422],
      'pay-twice': [200, 404, 422],
      'pay-rest': [200, 404, 409, 422],
      'key-reuse': [200, 404, 409, 422],
      update: [200, 404, 409, 422],
      mark: [200, 404],
      'send-invoice': [200, 404, 409, 422],
      'send-estimate': [200, 404, 409, 422],
      convert: [200, 404, 409],
      read: [200, 404],
      'settled-read': [200, 404],
      'archive-invoice': [200, 404],
      'archive-estimate': [200, 404],
    };
    const unexpected = workloadAnswers()
      .filter((answer) => !allowed[answer.kind].includes(answer.status))
      .map(describeAnswer);
    expect({ seed, unexpected }).toEqual({ seed, unexpected: [] });
    // The workload does what it says: both instances, every kind of outcome.
    const statuses = countBy(workloadAnswers(), (answer) => `${answer.kind} ${answer.status}`);
    const missing = [
      'pay 200',
      'pay 422',
      'update 200',
      'update 422',
      'convert 200',
      'convert 409',
    ].filter((outcome) => !statuses.has(outcome));
    expect({ seed, missing }).toEqual({ seed, missing: [] });
    expect(countBy(workloadAnswers(), (answer) => answer.instance).size).toBe(2);
  });

  it('holds every database invariant', async () => {
    const violations = await invariantViolations(sql);
    expect({ seed, violations }).toEqual({ seed, violations: [] });
  });

  it('records exactly the payments answered 200: none lost, none doubled', async () => {
    const stored = (await sql.query(
      'SELECT invoice_id, amount FROM invoice_payments ORDER BY id',
    )) as Row[];
    const inDatabase = groupBy(stored, (row) => text(row.invoice_id));
    const answered = groupBy(
      workloadAnswers().filter(
        (answer) => answer.path === '/v1/invoice/record-payment' && ok(answer),
      ),
      (answer) => answer.invoiceId,
    );
    let lost = 0;
    let doubled = 0;
    const differences: string[] = [];
    for (const invoice of seeded.invoices) {
      const want = countBy(answered.get(invoice.id) ?? [], (a) => String(requestedAmount(a)));
      const have = countBy(inDatabase.get(invoice.id) ?? [], (row) =>
        String(toScaled(text(row.amount))),
      );
      for (const amount of new Set([...want.keys(), ...have.keys()])) {
        const difference = (have.get(amount) ?? 0) - (want.get(amount) ?? 0);
        if (difference < 0) lost -= difference;
        if (difference > 0) doubled += difference;
        if (difference !== 0)
          differences.push(`invoice ${invoice.id} amount ${amount}: ${difference}`);
      }
    }
    // Payments only reach the seeded invoices: the converted ones are never paid.
    const seededIds = new Set(seeded.invoices.map((invoice) => invoice.id));
    const elsewhere = stored.filter((row) => !seededIds.has(text(row.invoice_id))).length;
    expect({ seed, lost, doubled, elsewhere, differences }).toEqual({
      seed,
      lost: 0,
      doubled: 0,
      elsewhere: 0,
      differences: [],
    });
  });

  it('marks a payment-only invoice Paid exactly when its payments settle it', async () => {
    const rows = (await sql.query(
      'SELECT id, total, amount_paid, payment_status FROM invoices',
    )) as Row[];
    const paymentOnly = new Set(
      seeded.invoices.filter((invoice) => invoice.paymentOnly).map((invoice) => invoice.id),
    );
    const wrong = rows
      .filter((row) => paymentOnly.has(text(row.id)))
      .filter((row) => {
        const settled = toScaled(text(row.amount_paid)) === toScaled(text(row.total));
        return settled !== (row.payment_status === 'Paid');
      })
      .map(
        (row) =>
          `invoice ${text(row.id)}: ${text(row.amount_paid)} of ${text(row.total)}, ${text(row.payment_status)}`,
      );
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    // Some were settled, so the check has something to check.
    const settled = rows.filter(
      (row) => paymentOnly.has(text(row.id)) && row.payment_status === 'Paid',
    );
    expect(settled.length).toBeGreaterThan(0);
  });

  it('shows a payment-only invoice Paid, on either instance, once a payment settled it', () => {
    const paymentOnly = new Set(
      seeded.invoices.filter((invoice) => invoice.paymentOnly).map((invoice) => invoice.id),
    );
    const reads = workloadAnswers().filter(
      (answer) =>
        answer.kind === 'settled-read' &&
        answer.status === 200 &&
        paymentOnly.has(answer.invoiceId ?? ''),
    );
    const wrong = reads
      .filter((answer) => {
        const [invoice] = bodyOf<{
          invoice: Array<{ payment_status: string; outstanding_balance: string }>;
        }>(answer).invoice;
        return invoice.payment_status !== 'Paid' || toScaled(invoice.outstanding_balance) !== 0n;
      })
      .map(describeAnswer);
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    expect(reads.length).toBeGreaterThan(0);
  });

  it('reads an invoice whose amount paid is the sum of its payments and balance the rest', () => {
    const inconsistent = workloadAnswers()
      .filter((answer) => /^\/v1\/invoice\/\d+$/.test(answer.path) && answer.method === 'GET')
      .filter((answer) => answer.status === 200)
      .filter((answer) => {
        const detail = bodyOf<{
          invoice: Array<{ total: number; amount_paid: string; outstanding_balance: string }>;
          payments: Array<{ amount: number }>;
        }>(answer);
        const [invoice] = detail.invoice;
        const paid = detail.payments.reduce((sum, entry) => sum + toScaled(entry.amount), 0n);
        return (
          toScaled(invoice.amount_paid) !== paid ||
          toScaled(invoice.outstanding_balance) !== toScaled(invoice.total) - paid ||
          paid > toScaled(invoice.total)
        );
      })
      .map(describeAnswer);
    expect({ seed, inconsistent }).toEqual({ seed, inconsistent: [] });
  });

  it('writes one send-log entry per successful send', async () => {
    for (const kind of ['invoice', 'estimate'] as const) {
      const rows = (await sql.query(
        `SELECT ${kind}_id AS document_id, COUNT(*) AS entries FROM ${kind}_send_log GROUP BY ${kind}_id`,
      )) as Row[];
      const stored = new Map(rows.map((row) => [text(row.document_id), Number(row.entries)]));
      const answered = countBy(
        workloadAnswers().filter((answer) => answer.path === `/v1/${kind}/send` && ok(answer)),
        (answer) => (kind === 'invoice' ? answer.invoiceId : answer.estimateId) ?? '',
      );
      const differences = [...new Set([...stored.keys(), ...answered.keys()])]
        .filter((id) => (stored.get(id) ?? 0) !== (answered.get(id) ?? 0))
        .map(
          (id) => `${kind} ${id}: ${stored.get(id) ?? 0} stored, ${answered.get(id) ?? 0} answered`,
        );
      expect({ seed, differences }).toEqual({ seed, differences: [] });
    }
  });

  it('delivers every send, each claimed by one worker of the two', async () => {
    const pending = async () =>
      Number(
        (
          (await sql.query(
            "SELECT COUNT(*) AS pending FROM document_outbox WHERE status IN ('queued', 'sending')",
          )) as Row[]
        )[0].pending,
      );
    for (let waited = 0; (await pending()) > 0 && waited < 30_000; waited += 250) await delay(250);
    const rows = (await sql.query(
      'SELECT status, COUNT(*) AS messages FROM document_outbox GROUP BY status',
    )) as Row[];
    const byStatus = Object.fromEntries(
      rows.map((row) => [text(row.status), Number(row.messages)]),
    );
    const sends = (await sql.query(
      'SELECT (SELECT COUNT(*) FROM invoice_send_log) + (SELECT COUNT(*) FROM estimate_send_log) AS sends',
    )) as Row[];
    const files = (await readdir(process.env.MAIL_DIR ?? '')).filter((name) =>
      name.endsWith('.eml'),
    );
    // One attempt each: no row was claimed by both instances' workers.
    const retried = (await sql.query(
      'SELECT COUNT(*) AS rows_retried FROM document_outbox WHERE attempts <> 1',
    )) as Row[];
    expect({
      seed,
      byStatus,
      files: files.length,
      retried: Number(retried[0].rows_retried),
    }).toEqual({
      seed,
      byStatus: { sent: Number(sends[0].sends) },
      files: Number(sends[0].sends),
      retried: 0,
    });
  }, 45_000);

  it('converts each estimate at most once: one 200 where instances race, the rest 409', async () => {
    const rows = (await sql.query(
      'SELECT id, converted_invoice_id, accepted FROM estimates',
    )) as Row[];
    const converts = groupBy(
      workloadAnswers().filter((answer) => answer.kind === 'convert'),
      (answer) => answer.estimateId,
    );
    const archived = new Set(
      workloadAnswers()
        .filter((answer) => answer.kind === 'archive-estimate' && answer.status === 200)
        .map((answer) => answer.estimateId),
    );
    const wrong: string[] = [];
    for (const row of rows) {
      const id = text(row.id);
      const answers = converts.get(id) ?? [];
      const successes = answers.filter((answer) => answer.status === 200);
      const converted = row.converted_invoice_id === null ? null : text(row.converted_invoice_id);
      if (successes.length > 1) wrong.push(`estimate ${id}: ${successes.length} conversions`);
      if (successes.length === 1) {
        const invoiceId = bodyOf<{ invoice: Array<{ id: string }> }>(successes[0]).invoice[0].id;
        if (converted !== invoiceId)
          wrong.push(`estimate ${id}: ${converted} stored, ${invoiceId} answered`);
        if (Number(row.accepted) !== 1) wrong.push(`estimate ${id}: converted, not accepted`);
      }
      if (successes.length === 0 && converted !== null)
        wrong.push(`estimate ${id}: converted unanswered`);
      if (answers.some((answer) => answer.status === 409) && successes.length === 0) {
        wrong.push(`estimate ${id}: 409 without a conversion`);
      }
      if (answers.length > 0 && !archived.has(id) && successes.length !== 1) {
        wrong.push(`estimate ${id}: live and asked, ${successes.length} conversions`);
      }
    }
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    // Some race found its estimate unconverted: one instance won, the other answered 409.
    const races = groupBy(
      workloadAnswers().filter((answer) => answer.kind === 'convert'),
      (answer) => String(answer.op),
    );
    const decided = [...races.values()].filter(
      (race) =>
        race
          .map((answer) => answer.status)
          .sort()
          .join() === '200,409',
    );
    expect(decided.length).toBeGreaterThan(0);
  });

  describe('Idempotency-Key across instances', () => {
    const keyedGroups = () =>
      [...groupBy(workloadAnswers(), (answer) => answer.idempotencyKey).entries()].map(
        ([key, answers]) => ({ key, answers }),
      );

    it('never marks an answer to a request without a key as replayed', () => {
      const marked = workloadAnswers()
        .filter((answer) => answer.idempotencyKey === undefined && answer.replayed)
        .map(describeAnswer);
      expect({ seed, marked }).toEqual({ seed, marked: [] });
    });

    it('runs a keyed request at most once: one payment, send or update per key', () => {
      const repeated = keyedGroups()
        .filter(({ answers }) => answers.filter(ok).length > 1)
        .map(({ key, answers }) => `${key}: ${answers.map(describeAnswer).join(' | ')}`);
      expect({ seed, doubled: repeated.length, repeated }).toEqual({
        seed,
        doubled: 0,
        repeated: [],
      });
    });

    it('replays the kept answer byte for byte, or answers 409 while it runs', () => {
      const wrong: string[] = [];
      for (const { key, answers } of keyedGroups()) {
        if (answers[0].kind === 'key-reuse') continue;
        const executed = answers.find(ok);
        for (const answer of answers.filter((candidate) => candidate.replayed)) {
          if (!executed || answer.text !== executed.text || answer.status !== executed.status) {
            wrong.push(`${key}: replay differs: ${answers.map(describeAnswer).join(' | ')}`);
          }
        }
        if (!executed) continue;
        for (const other of answers.filter((answer) => answer !== executed && !answer.replayed)) {
          // Sent after the executed one had answered: only its replay will do.
          if (other.sentAt >= executed.answeredAt) {
            wrong.push(`${key}: retry after the answer not replayed: ${describeAnswer(other)}`);
          } else if (other.status === 200) {
            // Overlapping: a failure gives the key back, so it may come first; a success may not.
            wrong.push(`${key}: run twice: ${answers.map(describeAnswer).join(' | ')}`);
          }
        }
      }
      expect({ seed, wrong }).toEqual({ seed, wrong: [] });
      const replayed = workloadAnswers().filter((answer) => answer.replayed);
      expect(replayed.length).toBeGreaterThan(0);
    });

    it('answers 409 to the same key with a different request once the first was kept', () => {
      const wrong = keyedGroups()
        .filter(({ answers }) => answers[0].kind === 'key-reuse' && answers.length === 2)
        .filter(({ answers: [first, second] }) => ok(first) && second.status !== 409)
        .map(({ key, answers }) => `${key}: ${answers.map(describeAnswer).join(' | ')}`);
      expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    });
  });
});
