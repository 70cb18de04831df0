import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import { createEstimate, estimateInput, sendEstimate } from './factories/estimates';
import { createExpense } from './factories/expenses';
import {
  createInvoice,
  InvoiceDetail,
  invoiceInput,
  payInvoice,
  readInvoice,
  refundInvoice,
  sendInvoice,
} from './factories/invoices';
import { recurringInvoiceInput } from './factories/recurring-invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  HostileRequest,
  hostileRequests,
  readOpenApiDocument,
  SeededLedger,
  SeedRecords,
  VALID_URL,
  validRequests,
} from './setup/openapi-requests';

/*
 * Property-based hostile input (docs/rules.md, Errors: no input, however malformed, answers 500;
 * a refused request changes nothing). test/setup/openapi-requests.ts derives, from the
 * committed OpenAPI document, requests to every /v1 operation that each carry at least one
 * defect; every one must answer a 4xx in the error envelope, and the database must read back
 * exactly as seeded.
 *
 * FC_SEED=<n> replays a run, FC_RUNS=<n> changes the number of requests (1,000 in `npm test`,
 * a score or so to every operation, on each database; 10,000 in `npm run test:slow`),
 * FC_READ_BACK_EVERY=<n> how many requests share one read-back of the database (a mismatch
 * replays them one by one to name the culprit), FC_SHOW=<text> prints the answers to the
 * requests whose operation or defects contain the text.
 */

const RUNS = Number(process.env.FC_RUNS ?? (process.env.TEST_SLOW === '1' ? 10_000 : 1_000));
const SEED =
  process.env.FC_SEED === undefined
    ? Date.now() ^ (Math.random() * 2 ** 31)
    : Number(process.env.FC_SEED);
const READ_BACK_EVERY = Number(process.env.FC_READ_BACK_EVERY ?? 20);
const SHOW = process.env.FC_SHOW;

/** Tables whose rows no request may change; the migrations' bookkeeping is not data. */
const IGNORED_TABLES = new Set(['migrations', 'typeorm_metadata', 'sqlite_sequence']);

describe('generated hostile input (OpenAPI-derived, fast-check)', () => {
  let test: TestApp;
  let seed: SeedRecords;
  let tables: string[];

  beforeAll(async () => {
    test = await createTestApp({
      // The address rule holds (non-public webhook URLs are among the defects; valid ones name
      // a public address), and no delivery worker runs (OUTBOX_POLL_MS=0: none, not merely a
      // slow one), so the seeded deliveries stay queued and no attempt is written however long
      // the run takes.
      env: { WEBHOOK_ALLOW_PRIVATE: 'false', OUTBOX_POLL_MS: '0' },
    });
    const { http } = test;
    const [client, other, archivedClient] = [
      await createClient(http),
      await createClient(http),
      await createClient(http),
    ];
    const invoice = await createInvoice(http, {
      client,
      items: [{ description: 'Audit', quantity: 2, rate: '100.00' }],
    });
    await payInvoice(http, invoice.id, '50.00');
    await sendInvoice(http, invoice.id, 'billing@example.com');
    const otherInvoice = await createInvoice(http, { client: other });
    const archivedInvoice = await createInvoice(http, { client: other });
    // The corrections' records. A credit note's base: 2,000.00, paid 600.00, 100.00 of it
    // refunded, 100.00 credited: 500.00 cash held, 1,400.00 outstanding, 1,900.00 creditable.
    const credited = await createInvoice(http, {
      client,
      issue_date: '2026-02-15',
      due_date: '2026-03-15',
      items: [{ description: 'Retainer', quantity: 2, rate: '1000.00' }],
    });
    await payInvoice(http, credited.id, '600.00');
    await refundInvoice(http, credited.id, '100.00');
    const creditNote = await addCreditNote(http, credited.id, {
      items: [{ description: 'Discount', quantity: 1, rate: '100.00' }],
    });
    await http
      .post('/v1/credit-note/send')
      .send({ id: creditNote.credit_note[0].id, email: 'billing@example.com' })
      .expect(200);
    // A void's base: paid and refunded in full, then credited 10.00: it holds no cash.
    const voidable = await createInvoice(http, { client: other });
    await payInvoice(http, voidable.id, '30.00');
    await refundInvoice(http, voidable.id, '30.00');
    const voidableNote = await addCreditNote(http, voidable.id);
    // Void, with a credit note: its number and the credit note's stay taken.
    const voided = await createInvoice(http, { client: other });
    const voidedNote = await addCreditNote(http, voided.id);
    await http.post(`/v1/invoice/${voided.id}/void`).send({ reason: 'Issued twice' }).expect(200);
    const archivedNote = await addCreditNote(http, archivedInvoice.id);
    const creditNotes = [creditNote, voidableNote, voidedNote, archivedNote].map(
      (written) => written.credit_note[0],
    );
    const estimate = await createEstimate(http, { client });
    await sendEstimate(http, estimate.id, 'billing@example.com');
    const otherEstimate = await createEstimate(http, { client: other });
    const archivedEstimate = await createEstimate(http, { client: other });
    // The issue operations' bases: a draft of each (docs/numbering.md), which the valid request
    // issues last.
    const draftOf = async (kind: 'invoice' | 'estimate', body: Record<string, unknown>) => {
      const { invoice_no: _i, estimate_no: _e, ...rest } = body;
      const added = await http
        .post(`/v1/${kind}/add`)
        .send({ ...rest, draft: true })
        .expect(200);
      return (added.body as Record<string, Array<{ id: string }>>)[kind][0].id;
    };
    const draftInvoice = await draftOf('invoice', { ...invoiceInput(other) });
    const draftEstimate = await draftOf('estimate', { ...estimateInput(other) });
    // Recurring invoices (docs/recurring.md): an active one and a paused one, the bases of the
    // valid pause and resume; no scan runs (OUTBOX_POLL_MS=0), so none makes an invoice.
    const addSchedule = async (): Promise<string> => {
      const added = await http
        .post('/v1/recurring-invoice/add')
        .send(recurringInvoiceInput(client))
        .expect(200);
      return (added.body as { recurring_invoice: Array<{ id: string }> }).recurring_invoice[0].id;
    };
    const [activeSchedule, pausedSchedule, archivedSchedule] = [
      await addSchedule(),
      await addSchedule(),
      await addSchedule(),
    ];
    await http.post(`/v1/recurring-invoice/${pausedSchedule}/pause`).expect(200);
    const expense = await createExpense(http);
    const archivedExpense = await createExpense(http, { description: 'Taxi to airport' });
    // Webhook endpoints: a live one subscribed to everything, and one archived below, so that
    // the deletions each make a delivery of each (the archived one's is failed with it).
    const hook = await addWebhook(http, { url: `${VALID_URL}/live`, events: ['*'] });
    const archivedHook = await addWebhook(http, {
      url: `${VALID_URL}/archived`,
      events: ['expense.deleted', 'client.deleted'],
      description: 'Archived below',
    });
    // Archived last: the archived client's own documents stay live records.
    await http.delete(`/v1/invoice/${archivedInvoice.id}`).expect(200);
    await http.delete(`/v1/estimate/${archivedEstimate.id}`).expect(200);
    await http.delete(`/v1/expense/${archivedExpense}`).expect(200);
    await http.delete(`/v1/client/${archivedClient}`).expect(200);
    await http.delete(`/v1/webhook/${archivedHook}`).expect(200);
    await http.delete(`/v1/recurring-invoice/${archivedSchedule}`).expect(200);
    const dataSource = test.app.get(DataSource);
    // An archived endpoint's deliveries are listed nowhere: read from the table.
    const deliveries = async (endpoint: string): Promise<Array<{ id: string; status: string }>> =>
      (
        await dataSource.query<Array<{ id: number | string; status: string }>>(
          'SELECT id, status FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id',
          [Number(endpoint)],
        )
      ).map((row) => ({ id: String(row.id), status: row.status }));
    // The live endpoint has one of each event since it was added (the other's creation, the five
    // deletions), the archived one the two it was subscribed to, failed by its own deletion.
    // None is ever attempted.
    const [liveDeliveries, archivedDeliveries] = [
      await deliveries(hook),
      await deliveries(archivedHook),
    ];
    expect(liveDeliveries.length).toBeGreaterThanOrEqual(6);
    expect(new Set(liveDeliveries.map((row) => row.status))).toEqual(new Set(['queued']));
    expect(archivedDeliveries.map((row) => row.status)).toEqual(['failed', 'failed']);
    const events = (
      (await http.get('/v1/event/all').expect(200)).body as { data: Array<{ id: string }> }
    ).data.map((event) => event.id);
    const liveInvoices = [invoice, otherInvoice, credited, voidable];
    seed = {
      live: {
        client: [client, other],
        invoice: liveInvoices.map((live) => live.id),
        estimate: [estimate.id, otherEstimate.id],
        expense: [expense],
        'credit-note': creditNotes.map((note) => note.id),
        // The first event and the last (the archived endpoint's deletion).
        event: [events[0], events[events.length - 1]],
        webhook: [hook],
        'webhook-delivery': liveDeliveries.map((row) => row.id),
        'recurring-invoice': [activeSchedule, pausedSchedule],
      },
      void: [voided.id],
      taken: {
        invoice_no: [otherInvoice, credited, voidable, voided].map((taken) => taken.invoice_no),
        estimate_no: [otherEstimate.estimate_no],
        credit_note_no: creditNotes.map((note) => note.credit_note_no),
      },
      outstanding: '150.00',
      ledgers: await Promise.all(liveInvoices.map((live) => readLedger(http, live.id))),
      bases: {
        credit_note: credited.id,
        void: voidable.id,
        issue: { invoice: draftInvoice, estimate: draftEstimate },
        pause: activeSchedule,
        resume: pausedSchedule,
      },
      archived: {
        client: [archivedClient],
        invoice: [archivedInvoice.id],
        estimate: [archivedEstimate.id],
        expense: [archivedExpense],
        // A credit note is never archived, not even with its invoice.
        'credit-note': [],
        // Events are kept as they are: none is archived.
        event: [],
        webhook: [archivedHook],
        // A delivery of an archived endpoint: retrying it answers 404.
        'webhook-delivery': archivedDeliveries.map((row) => row.id),
        'recurring-invoice': [archivedSchedule],
      },
    };
    // The figures the rules are built on, as worked out above.
    expect(seed.ledgers.find((ledger) => ledger.id === credited.id)).toEqual({
      id: credited.id,
      issue_date: '2026-02-15',
      total: '2000.00',
      amount_paid: '600.00',
      cash_held: '500.00',
      outstanding: '1400.00',
      creditable: '1900.00',
    });
    expect(seed.ledgers.find((ledger) => ledger.id === voidable.id)).toMatchObject({
      amount_paid: '10.00',
      cash_held: '0.00',
    });
    tables = await dataTables(dataSource);
    // Every change writes its event and its deliveries, and a refusal none: the read-back
    // covers the event log and the webhook tables like every other.
    expect(tables).toEqual(
      expect.arrayContaining([
        'events',
        'webhook_endpoints',
        'webhook_deliveries',
        'webhook_delivery_attempts',
      ]),
    );
  });

  afterAll(async () => {
    const started = Date.now();
    await test?.close();
    console.log(`generated-input: close() took ${Date.now() - started} ms`);
  });

  it(`answers a 4xx in the error envelope to ${RUNS} invalid requests and changes nothing`, async () => {
    const dataSource = test.app.get(DataSource);
    const document = readOpenApiDocument();
    const operations = hostileRequests(document, seed);
    // Every /v1 operation of the document has its requests: lists, reads, writes, corrections.
    expect(operations.map(({ operation }) => operation).sort()).toEqual(v1Operations(document));
    expect(operations.length).toBeGreaterThanOrEqual(35);
    /** Per operation, how many requests answered each status. */
    const counts = new Map<string, Map<number, number>>();
    const statuses = new Map<number, number>();
    let pristine = await fingerprint(dataSource, tables);
    let batch: HostileRequest[] = [];

    const send = (request: HostileRequest): Promise<Response> => sendRequest(test, request);

    /** Replays the batch one request at a time, from the state the batch left. */
    const culprits = async (requests: HostileRequest[]): Promise<string[]> => {
      const found: string[] = [];
      let before = await fingerprint(dataSource, tables);
      for (const request of requests) {
        const response = await send(request);
        const after = await fingerprint(dataSource, tables);
        if (after !== before) found.push(`${describeRequest(request)} → ${response.status}`);
        before = after;
      }
      return found;
    };

    console.log(
      `generated-input: seed ${SEED}, ${RUNS} requests over ${operations.length} operations, ` +
        `read back (${tables.join(', ')}) every ${READ_BACK_EVERY}; ` +
        `replay with FC_SEED=${SEED} FC_RUNS=${RUNS}`,
    );
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(...operations.map(({ weight, arbitrary }) => ({ weight, arbitrary }))),
        async (request) => {
          const response = await send(request);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const answered = counts.get(request.operation) ?? new Map<number, number>();
          answered.set(response.status, (answered.get(response.status) ?? 0) + 1);
          counts.set(request.operation, answered);
          if (SHOW && [request.operation, ...request.defects].some((text) => text.includes(SHOW)))
            process.stdout.write(
              `${describeRequest(request)}\n  → ${response.status} ${response.text.slice(0, 300)}\n`,
            );
          const problem = answerProblem(response);
          if (problem !== null) throw new Error(`${problem}\n${describeRequest(request)}`);
          batch.push(request);
          if (batch.length < READ_BACK_EVERY) return;
          const requests = batch;
          batch = [];
          const now = await fingerprint(dataSource, tables);
          if (now === pristine) return;
          // The database changed: carry on from here, and name the requests that change it.
          pristine = now;
          const named = await culprits(requests);
          pristine = await fingerprint(dataSource, tables);
          throw new Error(
            `A refused request changed the database; one at a time, these change it again:\n` +
              (named.length > 0
                ? named.join('\n')
                : `(none: one of)\n${requests.map(describeRequest).join('\n')}`),
          );
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    // The last partial batch.
    expect(await fingerprint(dataSource, tables)).toBe(pristine);
    // With the default count, each operation is sent dozens of requests: none may be left out.
    if (RUNS >= 2_000) {
      expect(operations.filter(({ operation }) => !counts.has(operation))).toEqual([]);
    }
    console.log(
      `generated-input: ${RUNS} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `statuses: ${[...statuses].map(([status, count]) => `${status} ×${count}`).join(', ')}; per operation: ` +
        [...counts]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(
            ([operation, answered]) =>
              `${operation} ${[...answered.values()].reduce((a, b) => a + b, 0)} ` +
              `(${[...answered]
                .sort(([a], [b]) => a - b)
                .map(([status, count]) => `${status} ×${count}`)
                .join(', ')})`,
          )
          .join(', '),
    );
  }, 600_000);

  // Last, as it writes: without their defects the same requests are accepted, so each refusal
  // above is the defect's doing, and the read-back sees what an accepted one changes.
  it('accepts the valid requests the defects break, in every encoding', async () => {
    const dataSource = test.app.get(DataSource);
    const document = readOpenApiDocument();
    const requests = validRequests(document, seed);
    // Every operation with a body has its valid twin, the corrections' included; those with a
    // document's terms a second one, in their other form (gross prices, an amount off, a period).
    expect([...new Set(requests.map(({ operation }) => operation))].sort()).toEqual(
      v1Operations(document).filter((operation) => /^(POST|PUT) /.test(operation)),
    );
    expect(
      requests.filter(({ noise }) => noise.some((text) => text.startsWith('gross'))).length,
    ).toBeGreaterThanOrEqual(5);
    const refused: string[] = [];
    const unchanged: string[] = [];
    for (const request of requests) {
      const before = await fingerprint(dataSource, tables);
      const response = await sendRequest(test, request);
      if (response.status !== 200)
        refused.push(`${describeRequest(request)}\n  → ${response.status} ${response.text}`);
      else if ((await fingerprint(dataSource, tables)) === before)
        unchanged.push(describeRequest(request));
    }
    expect(refused).toEqual([]);
    expect(unchanged).toEqual([]);
  });
});

/** Adds a webhook endpoint through the API and answers its id. */
async function addWebhook(
  http: TestAgent,
  input: { url: string; events: string[]; description?: string },
): Promise<string> {
  const response = await http.post('/v1/webhook/add').send(input).expect(200);
  return (response.body as { webhook: Array<{ id: string }> }).webhook[0].id;
}

/** `POST /v1/invoice/add`-style names of every /v1 operation of the document, sorted. */
function v1Operations(document: ReturnType<typeof readOpenApiDocument>): string[] {
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

/** An invoice's ledger, summed from its entries (docs/corrections.md), in USD. */
async function readLedger(http: TestAgent, id: string): Promise<SeededLedger> {
  const detail: InvoiceDetail = await readInvoice(http, id);
  const [invoice] = detail.invoice;
  const cents = (amount: number | string): number => Math.round(Number(amount) * 100);
  const sum = (status: string): number =>
    detail.payments
      .filter((entry) => entry.status === status)
      .reduce((total, entry) => total + cents(entry.amount), 0);
  const money = (amount: number): string => (amount / 100).toFixed(2);
  const total = cents(invoice.total);
  const paid = sum('Completed') + sum('Credited') - sum('Refunded');
  if (paid !== cents(invoice.amount_paid)) {
    throw new Error(
      `Invoice ${id}: amount_paid ${invoice.amount_paid}, its entries ${money(paid)}`,
    );
  }
  return {
    id,
    issue_date: invoice.issue_date,
    total: money(total),
    amount_paid: money(paid),
    cash_held: money(sum('Completed') - sum('Refunded')),
    outstanding: money(total - paid),
    creditable: money(total - sum('Credited')),
  };
}

function sendRequest(test: TestApp, request: HostileRequest): Promise<Response> {
  const method = request.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  const call = test.http[method](request.url);
  // The bytes as generated: superagent would send a Buffer under a JSON type as the JSON of
  // the Buffer object (`{"type":"Buffer","data":[…]}`), a valid body of unknown keys.
  return request.body
    ? call
        .set('Content-Type', request.body.contentType)
        .set(request.body.encoding ? { 'Content-Encoding': request.body.encoding } : {})
        .serialize((data: string) => data)
        .send(request.body.data)
    : call;
}

/** Why an answer breaks the rule (a 4xx in the error envelope), or null. */
function answerProblem(response: Response): string | null {
  const shown = `${response.status} ${response.text?.slice(0, 300)}`;
  if (response.status < 400 || response.status >= 500) return `answered ${shown}`;
  if (!/json/.test(response.type)) return `answered ${response.status} as ${response.type}`;
  const body = response.body as { status?: unknown; message?: unknown; errors?: unknown } | null;
  if (body?.status !== 'error') return `no status "error": ${shown}`;
  if (typeof body.message !== 'string' || body.message === '') return `no message: ${shown}`;
  if (body.errors !== undefined) {
    const errors = body.errors;
    const valid =
      typeof errors === 'object' &&
      errors !== null &&
      !Array.isArray(errors) &&
      Object.values(errors).every(
        (messages) =>
          Array.isArray(messages) && messages.every((message) => typeof message === 'string'),
      );
    if (!valid) return `errors is not a map of messages: ${shown}`;
  }
  return null;
}

function describeRequest(request: HostileRequest): string {
  const body = request.body
    ? ` [${request.body.contentType}] ${clip(request.body.data.toString())}`
    : '';
  return `${request.method} ${clip(request.url)}${body}\n  defects: ${request.defects.join('; ')}\n  noise: ${request.noise.join('; ')}`;
}

function clip(text: string): string {
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text;
}

async function dataTables(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ name: string }> =
    dataSource.options.type === 'better-sqlite3' || dataSource.options.type === 'sqlite'
      ? await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
      : await dataSource.query(
          `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()`,
        );
  return rows
    .map((row) => row.name)
    .filter((name) => !IGNORED_TABLES.has(name))
    .sort();
}

/** A hash of every row of every table: cheap on the handful of pristine records. */
async function fingerprint(dataSource: DataSource, tables: string[]): Promise<string> {
  const hash = createHash('sha1');
  for (const table of tables) {
    const rows: unknown[] = await dataSource.query(
      `SELECT * FROM ${dataSource.driver.escape(table)}`,
    );
    hash.update(table);
    hash.update(
      rows
        .map((row) => JSON.stringify(row))
        .sort()
        .join('\n'),
    );
  }
  return hash.digest('hex');
}
