import { randomBytes } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { invariantViolations, openSql, Sql } from './setup/invariants';
import { ServiceProcess, startService } from './setup/service-process';
import { createTestDatabase, dropTestDatabase } from './setup/test-database';
import {
  Answer,
  bodyOf,
  cashHeld,
  Instance,
  LedgerEntryAnswer,
  ledgerPaid,
  MINOR_DIGITS,
  Recorder,
  RequestType,
  requestTypeOf,
  runWorkload,
  Seeded,
  seedDocuments,
  toScaled,
  workloadSeed,
} from './setup/workload';

/*
 * Two processes of the built service on one MariaDB database, under a seeded random workload of
 * payments, refunds, credit notes (with and without refund), voids, bursts of them on one
 * invoice from both instances at once, updates, marks, archives, sends, conversions and retries
 * with and without an Idempotency-Key, each request to either instance. Afterwards the database
 * and the recorded answers must agree. WORKLOAD_SEED=<seed> replays a run's operations (the interleaving
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

const requestOf = <T>(answer: Answer) => JSON.parse(answer.requestBody ?? '{}') as T;
const typeOf = (answer: Answer): RequestType => requestTypeOf(answer);

interface InvoiceAnswer {
  id: string;
  total: number;
  amount_paid: string;
  outstanding_balance: string;
  payment_status: string;
  status: string;
}
interface RefundAnswer {
  invoice: InvoiceAnswer[];
  entry: LedgerEntryAnswer;
}
interface CreditNoteRequest {
  invoice: string;
  credit_note_no: string;
  items: Array<{ description: string; quantity: string; rate: string }>;
  refund: boolean;
}
interface CreditNoteAnswer {
  credit_note: Array<{
    id: string;
    credit_note_no: string;
    invoice_id: string;
    total: number;
    refunded: string;
  }>;
  invoice: InvoiceAnswer[];
}

/** Why a 409 was answered, from its message. */
type Conflict = 'idempotency' | 'void' | 'holds-cash' | 'duplicate-number' | 'converted' | 'other';

function conflictOf(answer: Answer): Conflict {
  const { message } = bodyOf<{ message: string }>(answer);
  if (/Idempotency-Key/.test(message)) return 'idempotency';
  if (/ is void$/.test(message)) return 'void';
  if (/refund it before voiding$/.test(message)) return 'holds-cash';
  if (/ is already in use$/.test(message)) return 'duplicate-number';
  if (/ was already converted /.test(message)) return 'converted';
  return 'other';
}

/** The reasons a request of each type may be refused with 409 (beside a keyed one's). */
const CONFLICTS: Partial<Record<RequestType, Conflict[]>> = {
  payment: ['void'],
  refund: ['void'],
  'credit-note': ['void', 'duplicate-number'],
  void: ['void', 'holds-cash'],
  update: ['void'],
  mark: ['void'],
  'send-invoice': ['void'],
  convert: ['converted'],
};

/** Requests that change an invoice: after its void, each answers 409. */
const CHANGES: RequestType[] = [
  'payment',
  'refund',
  'credit-note',
  'void',
  'update',
  'mark',
  'send-invoice',
];

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
    // Status tallies per request type, whichever operation sent it.
    const byType = new Map<string, Map<string, number>>();
    for (const answer of answers) {
      const tally = byType.get(typeOf(answer)) ?? new Map<string, number>();
      const status = `${answer.status}${answer.replayed ? 'r' : ''}`;
      tally.set(status, (tally.get(status) ?? 0) + 1);
      byType.set(typeOf(answer), tally);
    }
    lines.push(
      `by request (r: replayed): ${[...byType]
        .map(([type, tally]) => `${type} ${JSON.stringify(Object.fromEntries(tally))}`)
        .join(', ')}`,
    );
    const creditNotes = answers.filter((a) => typeOf(a) === 'credit-note' && ok(a));
    const withRefund = creditNotes.filter((a) => requestOf<CreditNoteRequest>(a).refund);
    const refunding = withRefund.filter(
      (a) => toScaled(bodyOf<CreditNoteAnswer>(a).credit_note[0].refunded) > 0n,
    );
    lines.push(
      `credit notes issued ${creditNotes.length} (${withRefund.length} with refund: true, ` +
        `${refunding.length} of them refunding), refused 422 ` +
        `${answers.filter((a) => typeOf(a) === 'credit-note' && a.status === 422).length}, ` +
        `409 for a number ${answers.filter((a) => a.status === 409 && conflictOf(a) === 'duplicate-number').length}`,
    );
    const conflicts = countBy(
      answers.filter((a) => a.status === 409),
      (a) => `${typeOf(a)} ${conflictOf(a)}`,
    );
    lines.push(`409 by reason: ${JSON.stringify(Object.fromEntries(conflicts))}`);
    const bursts = [
      ...groupBy(
        answers.filter((a) => a.kind === 'burst'),
        (a) => String(a.op),
      ),
    ];
    const burstWrites = answers.filter((a) => a.kind === 'burst' && a.method === 'POST');
    lines.push(
      `bursts ${bursts.length}: ${burstWrites.length} writes on one invoice at once ` +
        `(${JSON.stringify(Object.fromEntries(countBy(burstWrites, (a) => `${typeOf(a)} ${a.status}`)))})`,
    );
    return lines.join('\n');
  }

  it('answers every request, none with a 5xx', () => {
    const failed = workloadAnswers()
      .filter((answer) => answer.status === 0 || answer.status >= 500)
      .map(describeAnswer);
    expect({ seed, failed }).toEqual({ seed, failed: [] });
  });

  it('answers each request with one of its documented statuses', () => {
    const allowed: Record<RequestType, number[]> = {
      seed: [200],
      read: [200, 404],
      payment: [200, 404, 409, 422],
      refund: [200, 404, 409, 422],
      // An archived invoice is a 422 naming `invoice`, as an unknown client is.
      'credit-note': [200, 409, 422],
      void: [200, 404, 409],
      update: [200, 404, 409, 422],
      mark: [200, 404, 409],
      'send-invoice': [200, 404, 409, 422],
      'send-estimate': [200, 404, 409, 422],
      convert: [200, 404, 409],
      'archive-invoice': [200, 404],
      'archive-estimate': [200, 404],
    };
    const unexpected = workloadAnswers()
      .filter((answer) => !allowed[typeOf(answer)].includes(answer.status))
      .map(describeAnswer);
    expect({ seed, unexpected }).toEqual({ seed, unexpected: [] });
    // The workload does what it says: both instances, every kind of outcome.
    const statuses = countBy(workloadAnswers(), (answer) => `${typeOf(answer)} ${answer.status}`);
    const missing = [
      'payment 200',
      'payment 422',
      'refund 200',
      'refund 422',
      'credit-note 200',
      'credit-note 422',
      'void 200',
      'void 409',
      'update 200',
      'update 422',
      'convert 200',
      'convert 409',
    ].filter((outcome) => !statuses.has(outcome));
    expect({ seed, missing }).toEqual({ seed, missing: [] });
    expect(countBy(workloadAnswers(), (answer) => answer.instance).size).toBe(2);
  });

  it('answers 409 only for a reason the request can have: a void invoice, a taken number, a key', () => {
    const voids = groupBy(
      workloadAnswers().filter((answer) => typeOf(answer) === 'void' && ok(answer)),
      (answer) => answer.invoiceId,
    );
    const wrong: string[] = [];
    for (const answer of workloadAnswers().filter((candidate) => candidate.status === 409)) {
      const conflict = conflictOf(answer);
      const reasons = [
        ...(CONFLICTS[typeOf(answer)] ?? []),
        ...(answer.idempotencyKey !== undefined ? ['idempotency'] : []),
      ];
      if (!reasons.includes(conflict)) {
        wrong.push(`${conflict}: ${describeAnswer(answer)}`);
      } else if (conflict === 'void') {
        // The invoice was voided by a request that had begun before this one was answered.
        const voided = (voids.get(answer.invoiceId ?? '') ?? []).some(
          (candidate) => candidate.sentAt < answer.answeredAt,
        );
        if (!voided) wrong.push(`void, never voided: ${describeAnswer(answer)}`);
      }
    }
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    // Changes after a void were refused as such, and a taken credit note number was.
    const reasons = countBy(
      workloadAnswers().filter((answer) => answer.status === 409),
      (answer) => `${typeOf(answer) === 'void' ? 'void' : 'change'} ${conflictOf(answer)}`,
    );
    const missing = ['change void', 'change duplicate-number'].filter(
      (reason) => !reasons.has(reason),
    );
    expect({ seed, missing }).toEqual({ seed, missing: [] });
  });

  it('voids an invoice once, and answers every change sent after the void with 409', async () => {
    const answers = workloadAnswers();
    const voids = groupBy(
      answers.filter((answer) => typeOf(answer) === 'void' && ok(answer)),
      (answer) => answer.invoiceId,
    );
    const wrong: string[] = [];
    for (const [invoiceId, [voided, ...again]] of voids) {
      if (again.length > 0) wrong.push(`invoice ${invoiceId}: voided ${again.length + 1} times`);
      const changed = answers.filter(
        (answer) =>
          answer.invoiceId === invoiceId &&
          CHANGES.includes(typeOf(answer)) &&
          ok(answer) &&
          answer !== voided &&
          answer.sentAt > voided.answeredAt,
      );
      for (const answer of changed) wrong.push(`after the void: ${describeAnswer(answer)}`);
      // Read after it: void; answered before it was sent: not yet.
      for (const read of answers.filter(
        (answer) => answer.invoiceId === invoiceId && typeOf(answer) === 'read' && ok(answer),
      )) {
        const { status } = bodyOf<{ invoice: InvoiceAnswer[] }>(read).invoice[0];
        const after = read.sentAt > voided.answeredAt;
        const before = read.answeredAt < voided.sentAt;
        if ((after && status !== 'void') || (before && status === 'void')) {
          wrong.push(`read ${status}: ${describeAnswer(read)}`);
        }
      }
    }
    // In the database: void exactly where a void was answered, nothing recorded after it.
    const rows = (await sql.query(
      'SELECT id, voided_at FROM invoices WHERE voided_at IS NOT NULL',
    )) as Row[];
    const stored = new Map(rows.map((row) => [text(row.id), text(row.voided_at)]));
    for (const id of voids.keys()) if (!stored.has(id)) wrong.push(`invoice ${id}: not void`);
    for (const id of stored.keys()) if (!voids.has(id)) wrong.push(`invoice ${id}: void unasked`);
    const later = (await sql.query(
      `SELECT 'entry' AS what, p.invoice_id, p.created_at AS at FROM invoice_payments p
         JOIN invoices i ON i.id = p.invoice_id WHERE p.created_at > i.voided_at
       UNION ALL SELECT 'credit note', c.invoice_id, c.created_at FROM credit_notes c
         JOIN invoices i ON i.id = c.invoice_id WHERE c.created_at > i.voided_at
       UNION ALL SELECT 'send', s.invoice_id, s.sent_at FROM invoice_send_log s
         JOIN invoices i ON i.id = s.invoice_id WHERE s.sent_at > i.voided_at`,
    )) as Row[];
    for (const row of later) {
      wrong.push(
        `invoice ${text(row.invoice_id)}: ${text(row.what)} at ${text(row.at)}, void at ${stored.get(text(row.invoice_id))}`,
      );
    }
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    // Something was voided, and something was refused for holding cash or being void already.
    expect(voids.size).toBeGreaterThan(0);
  });

  it('holds every database invariant', async () => {
    const violations = await invariantViolations(sql);
    expect({ seed, violations }).toEqual({ seed, violations: [] });
  });

  it('records exactly the payments answered 200: none lost, none doubled', async () => {
    const stored = (await sql.query(
      "SELECT invoice_id, amount FROM invoice_payments WHERE status = 'Completed' ORDER BY id",
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
    // The ledger only reaches the seeded invoices: the converted ones are never paid.
    const seededIds = new Set(seeded.invoices.map((invoice) => invoice.id));
    const everyEntry = (await sql.query('SELECT invoice_id FROM invoice_payments')) as Row[];
    const elsewhere = everyEntry.filter((row) => !seededIds.has(text(row.invoice_id))).length;
    expect({ seed, lost, doubled, elsewhere, differences }).toEqual({
      seed,
      lost: 0,
      doubled: 0,
      elsewhere: 0,
      differences: [],
    });
  });

  it('records exactly the refunds answered 200, each once, as asked', async () => {
    const stored = (await sql.query(
      "SELECT invoice_id, reference, amount FROM invoice_payments WHERE status = 'Refunded' AND credit_note_id IS NULL",
    )) as Row[];
    const inDatabase = groupBy(stored, (row) => text(row.reference));
    const refunds = workloadAnswers().filter((answer) => typeOf(answer) === 'refund');
    const answered = groupBy(
      refunds.filter(ok),
      (answer) => bodyOf<RefundAnswer>(answer).entry.reference,
    );
    const wrong: string[] = [];
    for (const [reference, answers] of answered) {
      const rows = inDatabase.get(reference) ?? [];
      const [answer] = answers;
      const { id, amount } = requestOf<{ id: string; amount: string }>(answer);
      if (answers.length > 1) wrong.push(`${reference}: answered by ${answers.length} requests`);
      if (rows.length !== 1)
        wrong.push(`${reference}: ${rows.length} rows for ${describeAnswer(answer)}`);
      for (const row of rows) {
        if (text(row.invoice_id) !== id || toScaled(text(row.amount)) !== toScaled(amount)) {
          wrong.push(
            `${reference}: stored ${text(row.amount)} on ${text(row.invoice_id)}, asked ${amount} on ${id}`,
          );
        }
      }
    }
    for (const [reference] of inDatabase) {
      if (!answered.has(reference)) wrong.push(`${reference}: stored, never answered 200`);
    }
    // A replay answers the entry the first request wrote: no other reference.
    for (const answer of refunds.filter((candidate) => candidate.replayed)) {
      if (!answered.has(bodyOf<RefundAnswer>(answer).entry.reference)) {
        wrong.push(`replay of an entry no request wrote: ${describeAnswer(answer)}`);
      }
    }
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    expect(answered.size).toBeGreaterThan(0);
  });

  it('issues exactly the credit notes answered 200, each once, with the lines asked', async () => {
    const notes = (await sql.query(
      'SELECT id, credit_note_no, invoice_id, total, refunded FROM credit_notes ORDER BY id',
    )) as Row[];
    const lines = groupBy(
      (await sql.query(
        'SELECT credit_note_id, description, quantity, rate FROM credit_note_line_items ORDER BY credit_note_id, position',
      )) as Row[],
      (row) => text(row.credit_note_id),
    );
    const creditNotes = workloadAnswers().filter((answer) => typeOf(answer) === 'credit-note');
    const answered = groupBy(
      creditNotes.filter(ok),
      (answer) => bodyOf<CreditNoteAnswer>(answer).credit_note[0].id,
    );
    const wrong: string[] = [];
    for (const note of notes) {
      const id = text(note.id);
      const answers = answered.get(id) ?? [];
      if (answers.length !== 1) {
        wrong.push(
          `credit note ${id} (${text(note.credit_note_no)}): answered 200 ${answers.length} times`,
        );
        continue;
      }
      const request = requestOf<CreditNoteRequest>(answers[0]);
      const [output] = bodyOf<CreditNoteAnswer>(answers[0]).credit_note;
      const storedLines = (lines.get(id) ?? []).map(
        (line) =>
          `${text(line.description)} ${toScaled(text(line.quantity))} × ${toScaled(text(line.rate))}`,
      );
      const askedLines = request.items.map(
        (line) => `${line.description} ${toScaled(line.quantity)} × ${toScaled(line.rate)}`,
      );
      const differences = [
        text(note.credit_note_no) !== request.credit_note_no && 'number',
        text(note.invoice_id) !== request.invoice && 'invoice',
        toScaled(text(note.total)) !== toScaled(output.total) && 'total',
        toScaled(text(note.refunded)) !== toScaled(output.refunded) && 'refunded',
        !request.refund && toScaled(text(note.refunded)) !== 0n && 'refunded without refund: true',
        storedLines.join() !== askedLines.join() && 'lines',
      ].filter(Boolean);
      if (differences.length > 0) {
        wrong.push(
          `credit note ${id}: ${differences.join(', ')} differ: ${describeAnswer(answers[0])}`,
        );
      }
    }
    const storedIds = new Set(notes.map((note) => text(note.id)));
    for (const [id, answers] of answered) {
      if (!storedIds.has(id))
        wrong.push(`credit note ${id}: answered, not stored: ${describeAnswer(answers[0])}`);
    }
    // A 409 for a number: that number was issued; a replay: the credit note its key issued.
    const numbers = new Set(notes.map((note) => text(note.credit_note_no)));
    for (const answer of creditNotes) {
      if (answer.status === 409 && conflictOf(answer) === 'duplicate-number') {
        const number = requestOf<CreditNoteRequest>(answer).credit_note_no;
        if (!numbers.has(number))
          wrong.push(`409 for ${number}, never issued: ${describeAnswer(answer)}`);
      }
      if (answer.replayed && !answered.has(bodyOf<CreditNoteAnswer>(answer).credit_note[0].id)) {
        wrong.push(`replay of a credit note no request issued: ${describeAnswer(answer)}`);
      }
    }
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    expect(notes.length).toBeGreaterThan(0);
  });

  it('keeps the ledger in bounds at every entry, and answers it as it stood after each one', async () => {
    // Every ledger write holds the invoice's row lock until it commits, so on one invoice the
    // entries' ids are in the order the writes happened: each prefix is a state it passed.
    const entries = groupBy(
      (await sql.query(
        'SELECT id, invoice_id, reference, status, amount, credit_note_id FROM invoice_payments ORDER BY id',
      )) as Row[],
      (row) => text(row.invoice_id),
    );
    const paidAfter = new Map<string, bigint>();
    const wrong: string[] = [];
    for (const invoice of seeded.invoices) {
      let paid = 0n;
      let held = 0n;
      let credited = 0n;
      for (const entry of entries.get(invoice.id) ?? []) {
        const amount = toScaled(text(entry.amount));
        if (entry.status === 'Completed') [paid, held] = [paid + amount, held + amount];
        if (entry.status === 'Refunded') [paid, held] = [paid - amount, held - amount];
        if (entry.status === 'Credited') [paid, credited] = [paid + amount, credited + amount];
        const name = `invoice ${invoice.id} entry ${text(entry.id)} ${text(entry.status)} ${text(entry.amount)}`;
        if (held < 0n) wrong.push(`${name}: refunds more than was held (${held} × 10⁻⁴)`);
        if (paid < 0n) wrong.push(`${name}: amount paid below 0`);
        // A payment-only invoice keeps the total it was added with.
        const total =
          BigInt(invoice.totalMinor) * 10n ** BigInt(4 - MINOR_DIGITS[invoice.currency]);
        if (invoice.paymentOnly && (paid > total || credited > total)) {
          wrong.push(`${name}: paid ${paid}, credited ${credited} of ${total} × 10⁻⁴`);
        }
        paidAfter.set(`${text(entry.status)} ${text(entry.reference)}`, paid);
        if (entry.status === 'Credited') paidAfter.set(`note ${text(entry.credit_note_id)}`, paid);
      }
    }
    const changes = workloadAnswers().filter(
      (answer) => ['refund', 'credit-note'].includes(typeOf(answer)) && answer.status === 200,
    );
    for (const answer of changes) {
      const refund = typeOf(answer) === 'refund';
      const [invoice] = refund
        ? bodyOf<RefundAnswer>(answer).invoice
        : bodyOf<CreditNoteAnswer>(answer).invoice;
      const key = refund
        ? `Refunded ${bodyOf<RefundAnswer>(answer).entry.reference}`
        : `note ${bodyOf<CreditNoteAnswer>(answer).credit_note[0].id}`;
      const paid = toScaled(invoice.amount_paid);
      const outstanding = toScaled(invoice.outstanding_balance);
      if (paidAfter.get(key) !== paid) {
        wrong.push(
          `answered amount paid ${invoice.amount_paid}, ledger ${paidAfter.get(key)}: ${describeAnswer(answer)}`,
        );
      }
      if (paid < 0n || outstanding < 0n || paid + outstanding !== toScaled(invoice.total)) {
        wrong.push(`answered out of bounds: ${describeAnswer(answer)}`);
      }
      // A refund reopening a balance makes it Not Paid; a credit settling it makes it Paid.
      if (refund && outstanding > 0n && invoice.payment_status !== 'Not Paid') {
        wrong.push(`refunded, balance open, ${invoice.payment_status}: ${describeAnswer(answer)}`);
      }
      if (!refund && outstanding === 0n && invoice.payment_status !== 'Paid') {
        wrong.push(`credited to 0, ${invoice.payment_status}: ${describeAnswer(answer)}`);
      }
      if (refund) {
        const { entry } = bodyOf<RefundAnswer>(answer);
        const asked = requestOf<{ amount: string }>(answer).amount;
        if (entry.status !== 'Refunded' || toScaled(entry.amount) !== toScaled(asked)) {
          wrong.push(
            `entry ${entry.status} ${entry.amount}, asked ${asked}: ${describeAnswer(answer)}`,
          );
        }
      }
    }
    expect({ seed, wrong }).toEqual({ seed, wrong: [] });
  });

  it('decides bursts on one invoice from both instances: some writes accepted, some refused', () => {
    const bursts = [
      ...groupBy(
        workloadAnswers().filter((answer) => answer.kind === 'burst' && answer.method === 'POST'),
        (answer) => String(answer.op),
      ).values(),
    ];
    const decided = bursts.filter(
      (burst) =>
        burst.some(ok) &&
        burst.some((answer) => answer.status === 422) &&
        new Set(burst.map((answer) => answer.instance)).size === 2,
    );
    // Each kind of write was accepted in a burst, and each kind refused in one.
    const outcomes = countBy(bursts.flat(), (answer) => `${typeOf(answer)} ${answer.status}`);
    const missing = [
      'payment 200',
      'payment 422',
      'refund 200',
      'refund 422',
      'credit-note 200',
      'credit-note 422',
    ].filter((outcome) => !outcomes.has(outcome));
    expect({ seed, bursts: bursts.length, missing }).toEqual({
      seed,
      bursts: bursts.length,
      missing: [],
    });
    expect(decided.length).toBeGreaterThan(0);
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
    // A refund that may have committed between the settling payment and the read reopens it.
    const refunds = groupBy(
      workloadAnswers().filter((answer) => typeOf(answer) === 'refund' && ok(answer)),
      (answer) => answer.invoiceId,
    );
    const settling = new Map(
      workloadAnswers()
        .filter((answer) => answer.kind === 'pay-rest' && typeOf(answer) === 'payment')
        .map((answer) => [answer.op, answer]),
    );
    const reopened = (read: Answer) => {
      const paid = settling.get(read.op);
      return (refunds.get(read.invoiceId ?? '') ?? []).some(
        (refund) => !paid || (refund.sentAt < read.answeredAt && refund.answeredAt > paid.sentAt),
      );
    };
    const reads = workloadAnswers().filter(
      (answer) =>
        answer.kind === 'settled-read' &&
        answer.status === 200 &&
        paymentOnly.has(answer.invoiceId ?? '') &&
        !reopened(answer),
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

  it('reads an invoice whose amount paid is its ledger and balance the rest, in bounds', () => {
    const inconsistent = workloadAnswers()
      .filter((answer) => typeOf(answer) === 'read' && answer.status === 200)
      .filter((answer) => {
        const detail = bodyOf<{ invoice: InvoiceAnswer[]; payments: LedgerEntryAnswer[] }>(answer);
        const [invoice] = detail.invoice;
        const paid = ledgerPaid(detail.payments);
        return (
          toScaled(invoice.amount_paid) !== paid ||
          toScaled(invoice.outstanding_balance) !== toScaled(invoice.total) - paid ||
          paid < 0n ||
          paid > toScaled(invoice.total) ||
          cashHeld(detail.payments) < 0n ||
          (invoice.status === 'void' && cashHeld(detail.payments) !== 0n)
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
