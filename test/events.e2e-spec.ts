import { eventually } from './setup/eventually';
import { createHash, randomBytes } from 'node:crypto';
import type { Response, Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource, QueryRunner } from 'typeorm';
import { apiKeyId } from '../src/http/auth/api-key-ring';
import { ClientOutput, createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import { createEstimate, estimateInput, EstimateWriteResult } from './factories/estimates';
import { addExpense, expenseInput, ExpenseOutput } from './factories/expenses';
import {
  createInvoice,
  InvoiceDetail,
  invoiceInput,
  InvoiceOutput,
  payInvoice,
  sendInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  ID,
  NON_DIGIT_IDS,
  TIMESTAMP,
  timeWindow,
  UNKNOWN_IDS,
} from './setup/expectations';
import { closedPort, SmtpSink } from './setup/smtp-sink';
import { testDialect } from './setup/test-database';
import { TestClock } from './setup/test-clock';

/*
 * Events (docs/events.md): every committed change
 * writes exactly its event(s) in its own transaction, with the record as its read operation
 * answers it and the fields that changed; a refused or rolled-back request writes none. GET
 * /event/all is the history of a record and a feed to poll; GET /event/{id} reads one.
 */

const FULL_KEY = `events-full-${randomBytes(12).toString('hex')}`;
const SECOND_KEY = `events-second-${randomBytes(12).toString('hex')}`;
const READ_ONLY_KEY = `events-read-${randomBytes(12).toString('hex')}`;
/** The first 12 hex digits of the key's SHA-256, computed here independently of the service. */
const keyId = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12);
const ACTOR = keyId(FULL_KEY);
const WEBHOOK_URL = 'http://127.0.0.1:9/x';

interface EventOutput {
  id: string;
  type: string;
  created_at: string;
  actor: string;
  object: string;
  object_id: string;
  data: unknown;
  changes: Record<string, [unknown, unknown]>;
}

interface EventList {
  data: EventOutput[];
  meta?: { page?: number; per_page: number; total?: number; next_after?: string | null };
}

type Answer = Record<string, unknown>;

const realToday = () => new Date().toISOString().slice(0, 10);

/** Every request of `http` carries this header (an API key): answers still go to the recorder. */
function withHeader(http: TestAgent, name: string, value: string): TestAgent {
  return new Proxy(http, {
    get(target, property, receiver) {
      const method: unknown = Reflect.get(target, property, receiver);
      if (typeof method !== 'function' || typeof property !== 'string') return method;
      return (url: string) => (method as (url: string) => Test).call(target, url).set(name, value);
    },
  });
}

/** A read answer without its envelope's `status`: what an event's `data` holds. */
function withoutStatus(body: Answer): Answer {
  const { status: _status, ...rest } = body;
  return rest;
}

/** The event a change must have written; the id and time are checked for shape. */
function expected(
  type: string,
  object: string,
  objectId: string,
  data: unknown,
  changes: Record<string, unknown> = {},
  actor = ACTOR,
) {
  return {
    id: expect.stringMatching(ID),
    type,
    created_at: expect.stringMatching(TIMESTAMP),
    actor,
    object,
    object_id: objectId,
    data,
    changes,
  };
}

/** The event list and its reads, through one agent. */
function eventReader(agent: () => TestAgent) {
  const list = async (query = ''): Promise<EventList> => {
    const response = await agent().get(`/v1/event/all${query}`);
    return withoutStatus(expectSuccess(response)) as unknown as EventList;
  };
  const all = async () => (await list()).data;
  const lastId = async () => {
    const events = await all();
    return events.length === 0 ? 0 : Number(events[events.length - 1].id);
  };
  const total = async () => Number((await list('?page=1&per_page=1')).meta?.total);
  /** Runs the request; answers its response and every event written meanwhile. */
  const track = async (write: () => Test | Promise<Response>) => {
    const since = await lastId();
    const response = await write();
    const events = (await all()).filter((event) => Number(event.id) > since);
    return { response, events };
  };
  /** The events of one record, oldest first. */
  const history = async (object: string, id: string) =>
    (await list(`?object=${object}&object_id=${id}`)).data;
  return { list, all, lastId, total, track, history };
}

/** Writes an event in `runner`'s open transaction, leaves it uncommitted, and answers its id. */
async function writeUncommitted(runner: QueryRunner, createdAt: Date | string): Promise<number> {
  await runner.query(
    `INSERT INTO events (type, created_at, actor, object, object_id, data, changes)
     VALUES ('client.created', ?, 'test', 'client', 1, '{}', '{}')`,
    [createdAt],
  );
  const inserted = (await runner.query(
    testDialect() === 'sqlite'
      ? 'SELECT last_insert_rowid() AS id'
      : 'SELECT LAST_INSERT_ID() AS id',
  )) as Array<{ id: number | string }>;
  return Number(inserted[0].id);
}

/** Reads until `done` holds, at most `timeoutMs`; fails with the last value read. */
describe('Events', () => {
  describe('with API keys: every write, refusals, rollbacks, listing', () => {
    const clock = new TestClock();
    let test: TestApp;
    let api: TestAgent;
    let readOnly: TestAgent;
    let client: string;
    const events = eventReader(() => api);

    beforeAll(async () => {
      test = await createTestApp({
        clock,
        env: {
          API_KEYS: `${FULL_KEY},${SECOND_KEY}`,
          API_KEYS_READONLY: READ_ONLY_KEY,
          WEBHOOK_ALLOW_PRIVATE: 'true',
          // No delivery worker at all: nothing is delivered, so no event of the service's own
          // (actor system) joins the ones this part counts, however long the file runs.
          OUTBOX_POLL_MS: '0',
        },
      });
      api = withHeader(test.http, 'Authorization', `Bearer ${FULL_KEY}`);
      readOnly = withHeader(test.http, 'X-API-Key', READ_ONLY_KEY);
      client = await createClient(api, { names: 'Events Client', phone: '+44 20 7946 0001' });
    });

    afterEach(() => clock.setToday(realToday()));

    afterAll(async () => {
      await test.close();
    });

    const read = async (path: string): Promise<Answer> =>
      withoutStatus(expectSuccess(await api.get(path)));
    /** `GET /client/{id}` as a client event's data: without the lists of documents. */
    const clientData = async (id: string) => {
      const body = await read(`/v1/client/${id}`);
      expect(Object.keys(body).sort()).toEqual(['data', 'estimates', 'invoices']);
      return { data: body.data as ClientOutput[] };
    };
    const invoiceData = async (id: string) =>
      (await read(`/v1/invoice/${id}`)) as unknown as InvoiceDetail;
    const invoiceOf = (total = '100.00') =>
      createInvoice(api, { client, items: [{ description: 'Work', quantity: 1, rate: total }] });

    describe('one event per committed change, with the record as its read answers it', () => {
      it('the actor is the first 12 hex digits of the SHA-256 of the key', () => {
        expect(ACTOR).toMatch(/^[0-9a-f]{12}$/);
        expect(apiKeyId(FULL_KEY)).toBe(ACTOR);
      });

      it('client add, update, delete: {data: [client]} without its invoices and estimates', async () => {
        clock.setToday('2030-01-01');
        const window = timeWindow();
        const add = await events.track(() =>
          api.post('/v1/client/add').send({
            names: 'Ada Events',
            email: 'ada@example.com',
            phone: '+1 555 0100',
            address: '1 Loop Road',
          }),
        );
        const added = (expectSuccess(add.response) as { data: ClientOutput[] }).data[0];
        const created = await clientData(added.id);
        expect(created.data).toEqual([added]);
        expect(add.events).toEqual([expected('client.created', 'client', added.id, created)]);
        expect(add.events[0].created_at.slice(0, 10)).toBe('2030-01-01');
        expect(window.contains(`${realToday()} ${add.events[0].created_at.slice(11)}`)).toBe(true);

        // A document of the client: in GET /client/{id}, never in the client's events.
        await createInvoice(api, { client: added.id });
        clock.setToday('2030-01-02');
        const update = await events.track(() =>
          api
            .put(`/v1/client/${added.id}`)
            .send({ names: 'Ada Lovelace', email: 'ada@example.org' }),
        );
        expectSuccess(update.response);
        const updated = await clientData(added.id);
        expect((await read(`/v1/client/${added.id}`)).invoices).toHaveLength(1);
        expect(updated.data[0]).toMatchObject({ names: 'Ada Lovelace', phone: '+1 555 0100' });
        expect(update.events).toEqual([
          expected('client.updated', 'client', added.id, updated, {
            names: ['Ada Events', 'Ada Lovelace'],
            email: ['ada@example.com', 'ada@example.org'],
            updated_at: [created.data[0].updated_at, updated.data[0].updated_at],
          }),
        ]);
        expect(updated.data[0].updated_at.slice(0, 10)).toBe('2030-01-02');

        const remove = await events.track(() => api.delete(`/v1/client/${added.id}`));
        expectSuccess(remove.response);
        expect(remove.events).toEqual([expected('client.deleted', 'client', added.id, updated)]);
        expectError(await api.get(`/v1/client/${added.id}`), 404);
      });

      it('invoice add and update: {invoice, items, tax_breakdown, payments, send_log}; changes name the note and the items, not the logs', async () => {
        const add = await events.track(() =>
          api.post('/v1/invoice/add').send(
            invoiceInput(client, {
              note: 'First note',
              items: [
                { description: 'Design', quantity: 2, rate: '10.00' },
                { description: 'Hosting', quantity: 1, rate: '5.00' },
              ],
            }),
          ),
        );
        const invoice = (expectSuccess(add.response) as { invoice: InvoiceOutput[] }).invoice[0];
        const created = await invoiceData(invoice.id);
        expect(Object.keys(created).sort()).toEqual([
          'invoice',
          'items',
          'payments',
          'send_log',
          'tax_breakdown',
        ]);
        expect(add.events).toEqual([expected('invoice.created', 'invoice', invoice.id, created)]);

        // A payment and a send first: the logs differ from add's, and still stay out of changes.
        await payInvoice(api, invoice.id, '5.00');
        await sendInvoice(api, invoice.id, 'billing@example.com');
        const before = await invoiceData(invoice.id);
        const update = await events.track(() =>
          api.put(`/v1/invoice/${invoice.id}`).send(
            invoiceInput(client, {
              invoice_no: invoice.invoice_no,
              note: 'Second note',
              // Same money, other descriptions: only the note and the items change.
              items: [
                { description: 'Design work', quantity: 2, rate: '10.00' },
                { description: 'Hosting', quantity: 1, rate: '5.00' },
              ],
            }),
          ),
        );
        expectSuccess(update.response);
        const after = await invoiceData(invoice.id);
        expect(after.items.map((item) => item.description)).toEqual(['Design work', 'Hosting']);
        // The same money: the breakdown is as it was, so it is not among the changes.
        expect(after.tax_breakdown).toEqual(before.tax_breakdown);
        expect(update.events).toEqual([
          expected('invoice.updated', 'invoice', invoice.id, after, {
            note: ['First note', 'Second note'],
            items: [before.items, after.items],
          }),
        ]);
        expect(after.payments).toHaveLength(1);
        expect(after.send_log).toHaveLength(1);
      });

      it('invoice send, record-payment (partial, then settling), refund, paid, not-paid', async () => {
        const invoice = await invoiceOf('100.00');

        const send = await events.track(() =>
          api.post('/v1/invoice/send').send({ id: invoice.id, email: 'ap@example.com' }),
        );
        expectSuccess(send.response);
        const sent = await invoiceData(invoice.id);
        expect(sent.send_log).toEqual([
          expect.objectContaining({ email: 'ap@example.com', delivery: 'queued' }),
        ]);
        expect(send.events).toEqual([expected('invoice.sent', 'invoice', invoice.id, sent)]);

        const pay = (amount: string) =>
          events.track(() =>
            api
              .post('/v1/invoice/record-payment')
              .send({ id: invoice.id, amount_paid: amount, payment_date: '2026-03-10' }),
          );
        const partial = await pay('40.00');
        expectSuccess(partial.response);
        const afterPartial = await invoiceData(invoice.id);
        expect(afterPartial.payments).toHaveLength(1);
        expect(partial.events).toEqual([
          expected('invoice.payment_recorded', 'invoice', invoice.id, afterPartial, {
            amount_paid: ['0.00', '40.00'],
            outstanding_balance: ['100.00', '60.00'],
          }),
        ]);

        const settling = await pay('60.00');
        expectSuccess(settling.response);
        const paid = await invoiceData(invoice.id);
        expect(settling.events).toEqual([
          expected('invoice.payment_recorded', 'invoice', invoice.id, paid, {
            amount_paid: ['40.00', '100.00'],
            outstanding_balance: ['60.00', '0.00'],
            payment_status: ['Not Paid', 'Paid'],
            status: ['open', 'paid'],
          }),
        ]);

        const refund = await events.track(() =>
          api.post('/v1/invoice/refund').send({
            id: invoice.id,
            amount: '30.00',
            refund_date: '2026-03-12',
            reason: 'Partly returned',
          }),
        );
        expectSuccess(refund.response);
        const refunded = await invoiceData(invoice.id);
        expect(refunded.payments.map((entry) => entry.status)).toEqual([
          'Completed',
          'Completed',
          'Refunded',
        ]);
        expect(refund.events).toEqual([
          expected('invoice.refunded', 'invoice', invoice.id, refunded, {
            amount_paid: ['100.00', '70.00'],
            outstanding_balance: ['0.00', '30.00'],
            payment_status: ['Paid', 'Not Paid'],
            status: ['paid', 'open'],
          }),
        ]);

        const markPaid = await events.track(() => api.get(`/v1/invoice/paid/${invoice.id}`));
        expectSuccess(markPaid.response);
        const markedPaid = await invoiceData(invoice.id);
        expect(markPaid.events).toEqual([
          expected('invoice.marked_paid', 'invoice', invoice.id, markedPaid, {
            payment_status: ['Not Paid', 'Paid'],
            status: ['open', 'paid'],
          }),
        ]);

        const markNotPaid = await events.track(() => api.get(`/v1/invoice/not-paid/${invoice.id}`));
        expectSuccess(markNotPaid.response);
        const markedNotPaid = await invoiceData(invoice.id);
        expect(markNotPaid.events).toEqual([
          expected('invoice.marked_not_paid', 'invoice', invoice.id, markedNotPaid, {
            payment_status: ['Paid', 'Not Paid'],
            status: ['paid', 'open'],
          }),
        ]);
      });

      it('invoice void and delete: delete carries the record as it was', async () => {
        const invoice = await invoiceOf('80.00');
        const voiding = await events.track(() =>
          api.post(`/v1/invoice/${invoice.id}/void`).send({ reason: 'Issued twice' }),
        );
        expectSuccess(voiding.response);
        const voided = await invoiceData(invoice.id);
        expect(voiding.events).toEqual([
          expected('invoice.voided', 'invoice', invoice.id, voided, {
            status: ['open', 'void'],
            void_reason: ['', 'Issued twice'],
          }),
        ]);

        const remove = await events.track(() => api.delete(`/v1/invoice/${invoice.id}`));
        expectSuccess(remove.response);
        expect(remove.events).toEqual([expected('invoice.deleted', 'invoice', invoice.id, voided)]);
        expectError(await api.get(`/v1/invoice/${invoice.id}`), 404);
      });

      it('estimate add, update, send, delete: {estimate, items, tax_breakdown, send_log}', async () => {
        const add = await events.track(() =>
          api.post('/v1/estimate/add').send(estimateInput(client, { note: 'Draft' })),
        );
        const estimate = (expectSuccess(add.response) as unknown as EstimateWriteResult)
          .estimate[0];
        const created = await read(`/v1/estimate/${estimate.id}`);
        expect(Object.keys(created).sort()).toEqual([
          'estimate',
          'items',
          'send_log',
          'tax_breakdown',
        ]);
        expect(add.events).toEqual([
          expected('estimate.created', 'estimate', estimate.id, created),
        ]);

        const update = await events.track(() =>
          api.put(`/v1/estimate/${estimate.id}`).send(
            estimateInput(client, {
              estimate_no: estimate.estimate_no,
              note: 'Final',
              accepted: 'True',
            }),
          ),
        );
        expectSuccess(update.response);
        const updated = await read(`/v1/estimate/${estimate.id}`);
        expect(update.events).toEqual([
          expected('estimate.updated', 'estimate', estimate.id, updated, {
            note: ['Draft', 'Final'],
            accepted: ['False', 'True'],
          }),
        ]);

        const send = await events.track(() =>
          api.post('/v1/estimate/send').send({ id: estimate.id, email: 'buyer@example.com' }),
        );
        expectSuccess(send.response);
        const sent = await read(`/v1/estimate/${estimate.id}`);
        expect(sent.send_log).toHaveLength(1);
        expect(send.events).toEqual([expected('estimate.sent', 'estimate', estimate.id, sent)]);

        const remove = await events.track(() => api.delete(`/v1/estimate/${estimate.id}`));
        expectSuccess(remove.response);
        expect(remove.events).toEqual([
          expected('estimate.deleted', 'estimate', estimate.id, sent),
        ]);
        expectError(await api.get(`/v1/estimate/${estimate.id}`), 404);
      });

      it('estimate convert writes invoice.created and estimate.converted, in that order', async () => {
        const estimate = await createEstimate(api, { client });
        const before = await read(`/v1/estimate/${estimate.id}`);
        const convert = await events.track(() =>
          api.post(`/v1/estimate/${estimate.id}/convert`).send({ invoice_no: 'EVT-CONVERTED-1' }),
        );
        const invoice = (expectSuccess(convert.response) as { invoice: InvoiceOutput[] })
          .invoice[0];
        const converted = await read(`/v1/estimate/${estimate.id}`);
        expect(converted).not.toEqual(before);
        expect(convert.events).toEqual([
          expected('invoice.created', 'invoice', invoice.id, await invoiceData(invoice.id)),
          expected('estimate.converted', 'estimate', estimate.id, converted, {
            accepted: ['False', 'True'],
          }),
        ]);
      });

      it('credit note add writes credit_note.created and invoice.credited; send writes credit_note.sent', async () => {
        const invoice = await invoiceOf('100.00');
        const add = await events.track(() =>
          api.post('/v1/credit-note/add').send({
            invoice: invoice.id,
            credit_note_no: 'EVT-CN-1',
            items: [{ description: 'Discount', quantity: 1, rate: '10.00' }],
          }),
        );
        const creditNote = (expectSuccess(add.response) as { credit_note: Array<{ id: string }> })
          .credit_note[0];
        const note = await read(`/v1/credit-note/${creditNote.id}`);
        expect(Object.keys(note).sort()).toEqual([
          'credit_note',
          'items',
          'send_log',
          'tax_breakdown',
        ]);
        const credited = await invoiceData(invoice.id);
        expect(add.events).toEqual([
          expected('credit_note.created', 'credit_note', creditNote.id, note),
          expected('invoice.credited', 'invoice', invoice.id, credited, {
            amount_paid: ['0.00', '10.00'],
            outstanding_balance: ['100.00', '90.00'],
          }),
        ]);

        // Settling the rest: the invoice becomes paid, as a payment makes it.
        const settle = await events.track(() =>
          api.post('/v1/credit-note/add').send({
            invoice: invoice.id,
            credit_note_no: 'EVT-CN-2',
            items: [{ description: 'Write-off', quantity: 1, rate: '90.00' }],
          }),
        );
        const second = (expectSuccess(settle.response) as { credit_note: Array<{ id: string }> })
          .credit_note[0];
        expect(settle.events).toEqual([
          expected(
            'credit_note.created',
            'credit_note',
            second.id,
            await read(`/v1/credit-note/${second.id}`),
          ),
          expected('invoice.credited', 'invoice', invoice.id, await invoiceData(invoice.id), {
            amount_paid: ['10.00', '100.00'],
            outstanding_balance: ['90.00', '0.00'],
            payment_status: ['Not Paid', 'Paid'],
            status: ['open', 'paid'],
          }),
        ]);

        const send = await events.track(() =>
          api.post('/v1/credit-note/send').send({ id: creditNote.id, email: 'ap@example.com' }),
        );
        expectSuccess(send.response);
        const sent = await read(`/v1/credit-note/${creditNote.id}`);
        expect(sent.send_log).toHaveLength(1);
        expect(send.events).toEqual([
          expected('credit_note.sent', 'credit_note', creditNote.id, sent),
        ]);
      });

      it('expense add, update, delete: {expense: [...]}', async () => {
        clock.setToday('2030-03-01');
        const add = await events.track(() =>
          api.post('/v1/expense/add').send(expenseInput({ description: 'Printer paper' })),
        );
        const expense = (expectSuccess(add.response) as { expense: ExpenseOutput[] }).expense[0];
        const created = await read(`/v1/expense/${expense.id}`);
        expect(created).toEqual({ expense: [expense] });
        expect(add.events).toEqual([expected('expense.created', 'expense', expense.id, created)]);

        clock.setToday('2030-03-02');
        const update = await events.track(() =>
          api
            .put(`/v1/expense/${expense.id}`)
            .send(expenseInput({ description: 'Taxi to the airport', amount: '20.00' })),
        );
        expectSuccess(update.response);
        const updated = await read(`/v1/expense/${expense.id}`);
        const [was] = created.expense as ExpenseOutput[];
        const [is] = updated.expense as ExpenseOutput[];
        expect(update.events).toEqual([
          expected('expense.updated', 'expense', expense.id, updated, {
            description: ['Printer paper', 'Taxi to the airport'],
            amount: ['12.50', '20.00'],
            category: ['Office Supplies', 'Travel'],
            updated_at: [was.updated_at, is.updated_at],
          }),
        ]);

        const remove = await events.track(() => api.delete(`/v1/expense/${expense.id}`));
        expectSuccess(remove.response);
        expect(remove.events).toEqual([
          expected('expense.deleted', 'expense', expense.id, updated),
        ]);
        expectError(await api.get(`/v1/expense/${expense.id}`), 404);
      });

      it('webhook endpoint add, update, rotate-secret, delete: {webhook: [...]}, never the secret', async () => {
        const add = await events.track(() =>
          api.post('/v1/webhook/add').send({
            url: WEBHOOK_URL,
            events: ['invoice.created'],
            description: 'Back office',
          }),
        );
        const endpoint = (
          expectSuccess(add.response) as { webhook: Array<{ id: string; secret: string }> }
        ).webhook[0];
        expect(endpoint.secret).toMatch(/^whsec_/);
        const created = await read(`/v1/webhook/${endpoint.id}`);
        expect(add.events).toEqual([
          expected('webhook_endpoint.created', 'webhook_endpoint', endpoint.id, created),
        ]);

        clock.setToday('2030-04-01');
        const update = await events.track(() =>
          api
            .put(`/v1/webhook/${endpoint.id}`)
            .send({ description: 'Back office feed', events: ['*'] }),
        );
        expectSuccess(update.response);
        const updated = await read(`/v1/webhook/${endpoint.id}`);
        const updatedAt = (answer: Answer) =>
          (answer.webhook as Array<{ updated_at: string }>)[0].updated_at;
        expect(update.events).toEqual([
          expected('webhook_endpoint.updated', 'webhook_endpoint', endpoint.id, updated, {
            description: ['Back office', 'Back office feed'],
            events: [['invoice.created'], ['*']],
            updated_at: [updatedAt(created), updatedAt(updated)],
          }),
        ]);

        clock.setToday('2030-04-02');
        const rotate = await events.track(() =>
          api.post(`/v1/webhook/${endpoint.id}/rotate-secret`),
        );
        const rotated = (expectSuccess(rotate.response) as { webhook: Array<{ secret: string }> })
          .webhook[0];
        expect(rotated.secret).not.toBe(endpoint.secret);
        const afterRotation = await read(`/v1/webhook/${endpoint.id}`);
        expect(rotate.events).toEqual([
          expected(
            'webhook_endpoint.secret_rotated',
            'webhook_endpoint',
            endpoint.id,
            afterRotation,
            {
              updated_at: [updatedAt(updated), updatedAt(afterRotation)],
            },
          ),
        ]);

        // Subscribed to every type now: the next event becomes one delivery to it.
        clock.setToday(realToday());
        const next = await events.track(() => api.post('/v1/client/add').send({ names: 'Hooked' }));
        expect(next.events.map((event) => event.type)).toEqual(['client.created']);
        const deliveries = (
          expectSuccess(await api.get(`/v1/webhook/${endpoint.id}/deliveries`)) as {
            data: Array<{ event_id: string; event_type: string }>;
          }
        ).data.filter((delivery) => delivery.event_id === next.events[0].id);
        expect(deliveries).toEqual([
          expect.objectContaining({ event_id: next.events[0].id, event_type: 'client.created' }),
        ]);

        const remove = await events.track(() => api.delete(`/v1/webhook/${endpoint.id}`));
        expectSuccess(remove.response);
        expect(remove.events).toEqual([
          expected('webhook_endpoint.deleted', 'webhook_endpoint', endpoint.id, afterRotation),
        ]);
        expectError(await api.get(`/v1/webhook/${endpoint.id}`), 404);

        // The secret is in no event: not in data, not in changes.
        const text = JSON.stringify(await events.all());
        expect(text).not.toContain(endpoint.secret);
        expect(text).not.toContain(rotated.secret);
      });
    });

    describe('actor', () => {
      it('names the key that made the change, whichever header carries it', async () => {
        const byBearer = await events.track(() =>
          api.post('/v1/client/add').send({ names: 'By bearer' }),
        );
        const second = withHeader(test.http, 'X-API-Key', SECOND_KEY);
        const bySecond = await events.track(() =>
          second.post('/v1/client/add').send({ names: 'By second key' }),
        );
        const viaHeader = withHeader(test.http, 'X-API-Key', FULL_KEY);
        const byHeader = await events.track(() =>
          viaHeader.post('/v1/client/add').send({ names: 'By header' }),
        );
        expect([...byBearer.events, ...bySecond.events, ...byHeader.events]).toEqual([
          expect.objectContaining({ type: 'client.created', actor: ACTOR }),
          expect.objectContaining({ type: 'client.created', actor: keyId(SECOND_KEY) }),
          expect.objectContaining({ type: 'client.created', actor: ACTOR }),
        ]);
        expect(keyId(SECOND_KEY)).not.toBe(ACTOR);
      });

      it('a read-only key reads the feed and one event, and writes none', async () => {
        const all = await events.all();
        expect(all.length).toBeGreaterThan(0);
        const feed = expectSuccess(await readOnly.get('/v1/event/all')) as unknown as EventList;
        expect(feed.data).toEqual(all);
        const last = all[all.length - 1];
        const one = expectSuccess(await readOnly.get(`/v1/event/${last.id}`)) as unknown as {
          data: EventOutput[];
        };
        expect(one.data).toEqual([last]);

        const before = await events.total();
        expectError(await readOnly.post('/v1/client/add').send({ names: 'Read only' }), 403);
        // A GET that writes is a write.
        const invoice = await invoiceOf();
        const withInvoice = await events.total();
        expectError(await readOnly.get(`/v1/invoice/paid/${invoice.id}`), 403);
        expect(await events.total()).toBe(withInvoice);
        expect(withInvoice).toBe(before + 1);
        expectError(await test.http.get('/v1/event/all'), 401);
        expect(await events.total()).toBe(withInvoice);
      });
    });

    describe('refused requests write no event', () => {
      /** The request answers `status` and writes no event (each test compares the count too). */
      const expectNoEvent = async (status: number, write: () => Test) => {
        const { response, events: written } = await events.track(write);
        expectError(response, status);
        expect(written).toEqual([]);
        return response;
      };

      it('404: unknown or archived records, non-digit ids', async () => {
        const archived = await invoiceOf();
        await api.delete(`/v1/invoice/${archived.id}`).expect(200);
        const total = await events.total();
        await expectNoEvent(404, () =>
          api.put('/v1/invoice/999999').send(invoiceInput(client, { note: 'x' })),
        );
        await expectNoEvent(404, () =>
          api
            .post('/v1/invoice/record-payment')
            .send({ id: archived.id, amount_paid: '1.00', payment_date: '2026-03-10' }),
        );
        await expectNoEvent(404, () => api.get(`/v1/invoice/paid/${archived.id}`));
        await expectNoEvent(404, () => api.get('/v1/invoice/not-paid/abc'));
        await expectNoEvent(404, () => api.delete(`/v1/invoice/${archived.id}`));
        await expectNoEvent(404, () => api.delete('/v1/client/999999'));
        await expectNoEvent(404, () =>
          api.post('/v1/estimate/send').send({ id: '999999', email: 'a@example.com' }),
        );
        await expectNoEvent(404, () =>
          api.post('/v1/estimate/999999/convert').send({ invoice_no: 'EVT-NOPE' }),
        );
        await expectNoEvent(404, () => api.put('/v1/expense/999999').send(expenseInput()));
        await expectNoEvent(404, () => api.post('/v1/webhook/999999/rotate-secret'));
        expect(await events.total()).toBe(total);
      });

      it('409: a duplicate number, a change to a void invoice, a second conversion', async () => {
        const taken = await invoiceOf();
        const other = await invoiceOf();
        const total = await events.total();
        await expectNoEvent(409, () =>
          api.post('/v1/invoice/add').send(invoiceInput(client, { invoice_no: taken.invoice_no })),
        );
        await expectNoEvent(409, () =>
          api
            .put(`/v1/invoice/${other.id}`)
            .send(invoiceInput(client, { invoice_no: taken.invoice_no })),
        );
        const estimate = await createEstimate(api, { client });
        await api
          .post(`/v1/estimate/${estimate.id}/convert`)
          .send({ invoice_no: 'EVT-CONVERT-ONCE' })
          .expect(200);
        await api.post(`/v1/invoice/${taken.id}/void`).send({}).expect(200);
        const afterSetup = await events.total();
        expect(afterSetup).toBe(total + 4);
        await expectNoEvent(409, () =>
          api
            .post('/v1/invoice/record-payment')
            .send({ id: taken.id, amount_paid: '1.00', payment_date: '2026-03-10' }),
        );
        await expectNoEvent(409, () => api.get(`/v1/invoice/paid/${taken.id}`));
        await payInvoice(api, other.id, '1.00');
        await expectNoEvent(409, () => api.post(`/v1/invoice/${other.id}/void`).send({}));
        await expectNoEvent(409, () =>
          api.post('/v1/invoice/send').send({ id: taken.id, email: 'a@example.com' }),
        );
        await expectNoEvent(409, () =>
          api.post(`/v1/estimate/${estimate.id}/convert`).send({ invoice_no: 'EVT-CONVERT-2' }),
        );
        await addCreditNote(api, other.id, { credit_note_no: 'EVT-CN-DUP' });
        await expectNoEvent(409, () =>
          api.post('/v1/credit-note/add').send({
            invoice: other.id,
            credit_note_no: 'EVT-CN-DUP',
            items: [{ description: 'Again', quantity: 1, rate: '1.00' }],
          }),
        );
        expect(await events.total()).toBe(afterSetup + 3);
      });

      it('422: an overpayment, a refund above the cash held, malformed input', async () => {
        const invoice = await invoiceOf('50.00');
        await payInvoice(api, invoice.id, '20.00');
        const total = await events.total();
        const before = await invoiceData(invoice.id);
        expectValidationError(
          await expectNoEvent(422, () =>
            api
              .post('/v1/invoice/record-payment')
              .send({ id: invoice.id, amount_paid: '30.01', payment_date: '2026-03-10' }),
          ),
          ['amount_paid'],
        );
        expectValidationError(
          await expectNoEvent(422, () =>
            api
              .post('/v1/invoice/refund')
              .send({ id: invoice.id, amount: '20.01', refund_date: '2026-03-10' }),
          ),
          ['amount'],
        );
        expectValidationError(
          await expectNoEvent(422, () =>
            api.post('/v1/credit-note/add').send({
              invoice: invoice.id,
              credit_note_no: 'EVT-CN-TOO-MUCH',
              items: [{ description: 'Too much', quantity: 1, rate: '30.01' }],
            }),
          ),
          ['items'],
        );
        // Refused after the invoice was read and locked: its total would fall below 20.00 paid.
        await expectNoEvent(422, () =>
          api.put(`/v1/invoice/${invoice.id}`).send(
            invoiceInput(client, {
              invoice_no: invoice.invoice_no,
              items: [{ description: 'Less', quantity: 1, rate: '19.99' }],
            }),
          ),
        );
        await expectNoEvent(422, () => api.post('/v1/client/add').send({ email: 'no-names' }));
        await expectNoEvent(422, () =>
          api.put(`/v1/invoice/${invoice.id}`).send(invoiceInput(client, { items: [] })),
        );
        await expectNoEvent(422, () =>
          api.post('/v1/invoice/send').send({ id: invoice.id, email: 'not an address' }),
        );
        await expectNoEvent(422, () => api.post('/v1/invoice/add').send(invoiceInput('999999')));
        await expectNoEvent(422, () =>
          api.post('/v1/expense/add').send(expenseInput({ amount: '-1' })),
        );
        await expectNoEvent(422, () =>
          api.post('/v1/webhook/add').send({ url: WEBHOOK_URL, events: ['invoice.exploded'] }),
        );
        await expectNoEvent(422, () =>
          api.post('/v1/webhook/add').send({ url: 'ftp://127.0.0.1/x', events: ['*'] }),
        );
        expect(await events.total()).toBe(total);
        expect(await invoiceData(invoice.id)).toEqual(before);
      });

      it('a request that fails after its first write rolls its event back with everything else', async () => {
        const dataSource = test.app.get(DataSource);
        const trigger = 'events_test_payment_fault';
        const ledgerRows = async (id: string) =>
          Number(
            (
              await dataSource.query<Array<{ count: number | string }>>(
                'SELECT COUNT(*) AS count FROM invoice_payments WHERE invoice_id = ?',
                [Number(id)],
              )
            )[0].count,
          );
        const invoice = await invoiceOf('100.00');
        await payInvoice(api, invoice.id, '10.00');
        const before = await invoiceData(invoice.id);
        expect(await ledgerRows(invoice.id)).toBe(1);
        const total = await events.total();

        // Record-payment inserts its ledger entry, then updates the invoice's sums: the update
        // fails when amount_paid would become 22.34 (10.00 + 12.34).
        await dataSource.query(
          testDialect() === 'sqlite'
            ? `CREATE TRIGGER ${trigger} BEFORE UPDATE ON invoices FOR EACH ROW
               WHEN CAST(NEW.amount_paid AS REAL) = 22.34
               BEGIN SELECT RAISE(ABORT, 'injected fault'); END`
            : `CREATE TRIGGER ${trigger} BEFORE UPDATE ON invoices FOR EACH ROW
               BEGIN
                 IF NEW.amount_paid = 22.34 THEN
                   SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected fault';
                 END IF;
               END`,
        );
        let response: Response;
        try {
          response = await api
            .post('/v1/invoice/record-payment')
            .send({ id: invoice.id, amount_paid: '12.34', payment_date: '2026-03-11' });
        } finally {
          await dataSource.query(`DROP TRIGGER IF EXISTS ${trigger}`);
        }

        // Not the client's fault, and not the database being away: a 500.
        expectError(response, 500);
        expect(await invoiceData(invoice.id)).toEqual(before);
        expect(await ledgerRows(invoice.id)).toBe(1);
        expect(await events.total()).toBe(total);

        // The same payment without the fault: one entry, one event.
        const retried = await events.track(() =>
          api
            .post('/v1/invoice/record-payment')
            .send({ id: invoice.id, amount_paid: '12.34', payment_date: '2026-03-11' }),
        );
        expectSuccess(retried.response);
        expect(await ledgerRows(invoice.id)).toBe(2);
        expect(retried.events).toEqual([
          expected(
            'invoice.payment_recorded',
            'invoice',
            invoice.id,
            await invoiceData(invoice.id),
            {
              amount_paid: ['10.00', '22.34'],
              outstanding_balance: ['90.00', '77.66'],
            },
          ),
        ]);
      });
    });

    describe('Idempotency-Key replays write no second event', () => {
      it('POST: the replay answers the first answer and writes nothing', async () => {
        const key = `events-${randomBytes(8).toString('hex')}`;
        const add = () =>
          api.post('/v1/client/add').set('Idempotency-Key', key).send({ names: 'Once only' });
        const first = await events.track(add);
        const second = await events.track(add);
        expectSuccess(first.response);
        expect(second.response.headers['idempotent-replayed']).toBe('true');
        expect(second.response.body).toEqual(first.response.body);
        expect(first.events.map((event) => event.type)).toEqual(['client.created']);
        expect(second.events).toEqual([]);
      });

      it('a payment and an update replayed: one event each', async () => {
        const invoice = await invoiceOf('100.00');
        const payKey = `events-pay-${randomBytes(8).toString('hex')}`;
        const pay = () =>
          api
            .post('/v1/invoice/record-payment')
            .set('Idempotency-Key', payKey)
            .send({ id: invoice.id, amount_paid: '10.00', payment_date: '2026-03-10' });
        const putKey = `events-put-${randomBytes(8).toString('hex')}`;
        const put = () =>
          api
            .put(`/v1/invoice/${invoice.id}`)
            .set('Idempotency-Key', putKey)
            .send(invoiceInput(client, { invoice_no: invoice.invoice_no, note: 'Replayed' }));
        const written = [];
        for (const write of [pay, pay, put, put]) {
          const { response, events: tracked } = await events.track(write);
          expectSuccess(response);
          written.push(tracked.map((event) => event.type));
        }
        expect(written).toEqual([['invoice.payment_recorded'], [], ['invoice.updated'], []]);
        expect((await invoiceData(invoice.id)).payments).toHaveLength(1);
      });
    });

    describe('GET /event/all and GET /event/{id}', () => {
      it('the history of one record: object and object_id, oldest first', async () => {
        const invoice = await invoiceOf('100.00');
        await api
          .put(`/v1/invoice/${invoice.id}`)
          .send(invoiceInput(client, { invoice_no: invoice.invoice_no, note: 'Changed' }))
          .expect(200);
        await payInvoice(api, invoice.id, '25.00');
        await sendInvoice(api, invoice.id, 'history@example.com');
        await api.get(`/v1/invoice/paid/${invoice.id}`).expect(200);

        const history = await events.history('invoice', invoice.id);
        expect(history.map((event) => event.type)).toEqual([
          'invoice.created',
          'invoice.updated',
          'invoice.payment_recorded',
          'invoice.sent',
          'invoice.marked_paid',
        ]);
        const ids = history.map((event) => Number(event.id));
        expect([...ids].sort((a, b) => a - b)).toEqual(ids);
        expect(history).toEqual(
          (await events.all()).filter(
            (event) => event.object === 'invoice' && event.object_id === invoice.id,
          ),
        );
        // object_id alone: every kind of record with that id.
        expect((await events.list(`?object_id=${invoice.id}`)).data).toEqual(
          (await events.all()).filter((event) => event.object_id === invoice.id),
        );
      });

      it('filters by type and by object', async () => {
        await addExpense(api);
        const all = await events.all();
        for (const type of ['client.created', 'invoice.payment_recorded', 'expense.created']) {
          const filtered = (await events.list(`?type=${type}`)).data;
          expect(filtered.length).toBeGreaterThan(0);
          expect(filtered).toEqual(all.filter((event) => event.type === type));
        }
        for (const object of ['invoice', 'webhook_endpoint', 'expense']) {
          const filtered = (await events.list(`?object=${object}`)).data;
          expect(filtered.length).toBeGreaterThan(0);
          expect(filtered).toEqual(all.filter((event) => event.object === object));
        }
        expect((await events.list('?type=expense.created&object=client')).data).toEqual([]);
      });

      it('filters by from and to: dates of created_at, UTC, inclusive', async () => {
        const made: Record<string, string[]> = {};
        for (const date of ['2020-05-01', '2020-05-02', '2020-05-03']) {
          clock.setToday(date);
          const first = await events.track(() => api.post('/v1/expense/add').send(expenseInput()));
          const second = await events.track(() =>
            api.post('/v1/client/add').send({ names: `Client of ${date}` }),
          );
          made[date] = [...first.events, ...second.events].map((event) => event.id);
        }
        clock.setToday(realToday());
        const all = await events.all();
        const between = (from: string, to: string) =>
          all
            .filter((event) => {
              const date = event.created_at.slice(0, 10);
              return date >= from && date <= to;
            })
            .map((event) => event.id);
        const ids = async (query: string) =>
          (await events.list(query)).data.map((event) => event.id);

        expect(await ids('?from=2020-05-02&to=2020-05-02')).toEqual(made['2020-05-02']);
        expect(await ids('?from=2020-05-02&to=2020-05-03')).toEqual([
          ...made['2020-05-02'],
          ...made['2020-05-03'],
        ]);
        expect(await ids('?to=2020-05-01')).toEqual(made['2020-05-01']);
        expect(await ids('?from=2020-05-03')).toEqual(between('2020-05-03', '9999-12-31'));
        expect(await ids('?from=2020-05-03')).toContain(all[all.length - 1].id);
        expect(await ids('?from=2020-05-04&to=2020-05-31')).toEqual([]);
        expect(await ids('?type=client.created&from=2020-05-01&to=2020-05-03')).toEqual([
          made['2020-05-01'][1],
          made['2020-05-02'][1],
          made['2020-05-03'][1],
        ]);
      });

      it('page and per_page: one page, with meta {page, per_page, total}', async () => {
        const all = await events.all();
        expect(all.length).toBeGreaterThan(8);
        const page = await events.list('?page=2&per_page=3');
        expect(page).toEqual({
          data: all.slice(3, 6),
          meta: { page: 2, per_page: 3, total: all.length },
        });
        const invoices = all.filter((event) => event.object === 'invoice');
        expect(await events.list('?object=invoice&page=1&per_page=2')).toEqual({
          data: invoices.slice(0, 2),
          meta: { page: 1, per_page: 2, total: invoices.length },
        });
        expect(await events.list(`?page=${all.length + 1}&per_page=1`)).toEqual({
          data: [],
          meta: { page: all.length + 1, per_page: 1, total: all.length },
        });
      });

      it('keyset after=: walks every event exactly once, in order, meta {per_page, next_after}', async () => {
        const all = await events.all();
        expect(all.length).toBeGreaterThan(20);
        const seen: EventOutput[] = [];
        let after: string | null = '0';
        let pages = 0;
        while (after !== null) {
          const page = await events.list(`?after=${after}&per_page=7`);
          pages += 1;
          expect(Object.keys(page).sort()).toEqual(['data', 'meta']);
          const last = page.data[page.data.length - 1];
          const more = seen.length + page.data.length < all.length;
          expect(page.meta).toEqual({ per_page: 7, next_after: more ? last.id : null });
          seen.push(...page.data);
          after = page.meta?.next_after ?? null;
          expect(pages).toBeLessThanOrEqual(Math.ceil(all.length / 7));
        }
        expect(seen).toEqual(all);
        expect(pages).toBe(Math.ceil(all.length / 7));

        // After the last event: nothing, and nothing more to fetch.
        expect(await events.list(`?after=${all[all.length - 1].id}`)).toEqual({
          data: [],
          meta: { per_page: 50, next_after: null },
        });
        // A filter walks its own index: the history of every expense, two at a time.
        const expenses = all.filter((event) => event.object === 'expense');
        const walked: EventOutput[] = [];
        for (let cursor: string | null = '0'; cursor !== null;) {
          const page = await events.list(`?object=expense&after=${cursor}&per_page=2`);
          walked.push(...page.data);
          cursor = page.meta?.next_after ?? null;
        }
        expect(walked).toEqual(expenses);
      });

      it('GET /event/{id}: the event as the list has it; 404 for an unknown or non-digit id', async () => {
        const all = await events.all();
        for (const event of [all[0], all[Math.floor(all.length / 2)], all[all.length - 1]]) {
          const body = expectSuccess(await api.get(`/v1/event/${event.id}`));
          expect(body).toEqual({ status: 'success', data: [event] });
        }
        const beyond = String(Number(all[all.length - 1].id) + 1);
        for (const id of [beyond, ...UNKNOWN_IDS, ...NON_DIGIT_IDS]) {
          expectError(await api.get(`/v1/event/${id}`), 404);
        }
      });

      it('422 for a malformed filter or page', async () => {
        const cases: Array<[string, string[]]> = [
          ['?type=invoice.exploded', ['type']],
          ['?type=*', ['type']],
          ['?object=payment', ['object']],
          ['?object_id=abc', ['object_id']],
          ['?from=2026-02-30', ['from']],
          ['?to=yesterday', ['to']],
          ['?after=5&page=1', ['after']],
          ['?after=abc', ['after']],
          ['?per_page=0', ['per_page']],
          ['?page=0', ['page']],
        ];
        for (const [query, fields] of cases) {
          expectValidationError(await api.get(`/v1/event/all${query}`), fields);
        }
      });

      // On MariaDB the gap it leaves holds every keyset page for a while: the one test after
      // it moves the clock past that first.
      it('the feed never skips an event: a keyset page ends before a transaction still committing', async () => {
        const dataSource = test.app.get(DataSource);
        const before = await events.lastId();
        const caughtUp = { data: [], meta: { per_page: 50, next_after: null } };
        const runner = dataSource.createQueryRunner();
        await runner.connect();
        try {
          // Another transaction has written its event (taking the next id) and not committed.
          await runner.startTransaction();
          const gap = await writeUncommitted(runner, '2026-01-01 00:00:00');
          expect(gap).toBeGreaterThan(before);
          if (testDialect() === 'sqlite') {
            // SQLite: one transaction at a time, so none can commit behind a later one; the
            // rolled-back id is taken again and the page reaches the newest event at once.
            await runner.rollbackTransaction();
            const next = await events.track(() =>
              api.post('/v1/client/add').send({ names: 'After a rollback' }),
            );
            expect(next.events.map((event) => Number(event.id))).toEqual([gap]);
            expect(await events.list(`?after=${before}`)).toEqual({
              data: next.events,
              meta: { per_page: 50, next_after: null },
            });
            return;
          }
          // MariaDB: a later transaction commits first; the page holds before the open one.
          const later = await events.track(() =>
            api.post('/v1/client/add').send({ names: 'Committed first' }),
          );
          expect(later.events).toHaveLength(1);
          expect(Number(later.events[0].id)).toBeGreaterThan(gap);
          expect(await events.list(`?after=${before}`)).toEqual(caughtUp);
          expect(await events.list(`?after=${before}&type=client.created`)).toEqual(caughtUp);
          // Page-numbered and whole lists read history: no horizon there.
          expect((await events.list(`?page=1&per_page=500`)).data).toEqual(await events.all());
          expect((await events.all()).slice(-1)).toEqual(later.events);
          // Rolled back: a gap for good, but a young one, so the page still holds there.
          await runner.rollbackTransaction();
          expect(await events.list(`?after=${before}`)).toEqual(caughtUp);
          // Once the events after it are older than 2 × the query timeout, the page goes on.
          const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
          clock.setToday(tomorrow);
          expect(await events.list(`?after=${before}`)).toEqual({
            data: later.events,
            meta: { per_page: 50, next_after: null },
          });
        } finally {
          if (runner.isTransactionActive) await runner.rollbackTransaction();
          await runner.release();
        }
      });

      if (testDialect() === 'mysql') {
        it('the feed goes on once the transaction it stopped before commits: the late event, then the one after it', async () => {
          // Two days on, every event so far is past the horizon's bound (rolled-back gaps of
          // earlier tests included): only the transaction held open here can stop the page.
          clock.setToday(new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
          const dataSource = test.app.get(DataSource);
          const before = await events.lastId();
          const runner = dataSource.createQueryRunner();
          await runner.connect();
          try {
            await runner.startTransaction();
            const late = await writeUncommitted(runner, clock.now());
            const after = await events.track(() =>
              api.post('/v1/client/add').send({ names: 'Committed before the late one' }),
            );
            expect((await events.list(`?after=${before}`)).data).toEqual([]);
            await runner.commitTransaction();
            const page = await events.list(`?after=${before}`);
            expect(page.data.map((event) => Number(event.id))).toEqual([late, late + 1]);
            expect(page.data.slice(1)).toEqual(after.events);
            expect(page.meta).toEqual({ per_page: 50, next_after: null });
          } finally {
            if (runner.isTransactionActive) await runner.rollbackTransaction();
            await runner.release();
          }
        });
      }
    });
  });

  describe('delivery outcomes over SMTP, and the open API', () => {
    const sink = new SmtpSink();
    let test: TestApp;
    const events = eventReader(() => test.http);

    beforeAll(async () => {
      await sink.start();
      test = await createTestApp({
        env: {
          OUTBOX_POLL_MS: '20',
          MAIL_RETRY_BASE_MS: '20',
          MAIL_FROM: 'billing@acme.example',
          SMTP_URL: sink.url,
        },
      });
    });

    afterAll(async () => {
      await test.close();
      await sink.stop();
    });

    const read = async (path: string): Promise<Answer> =>
      withoutStatus(expectSuccess(await test.http.get(path)));

    it('with no key set, the actor is open', async () => {
      const add = await events.track(() =>
        test.http.post('/v1/client/add').send({ names: 'Open Client' }),
      );
      expect(add.events).toEqual([
        expect.objectContaining({ type: 'client.created', actor: 'open' }),
      ]);
    });

    it('a send writes <object>.sent at once, then <object>.delivery_sent by system once delivered', async () => {
      const client = await createClient(test.http);
      const invoice = await createInvoice(test.http, { client });
      const estimate = await createEstimate(test.http, { client });
      const creditInvoice = await createInvoice(test.http, { client });
      const creditNote = (await addCreditNote(test.http, creditInvoice.id)).credit_note[0];
      const since = await events.lastId();

      await sendInvoice(test.http, invoice.id, 'ap@example.com');
      await test.http
        .post('/v1/estimate/send')
        .send({ id: estimate.id, email: 'buyer@example.com' })
        .expect(200);
      await test.http
        .post('/v1/credit-note/send')
        .send({ id: creditNote.id, email: 'ap@example.com' })
        .expect(200);
      await sink.waitForCount(3);
      const written = await eventually(
        async () => (await events.all()).filter((event) => Number(event.id) > since),
        (list) => list.length >= 6,
      );

      const documents: Array<[string, string, string]> = [
        ['invoice', invoice.id, `/v1/invoice/${invoice.id}`],
        ['estimate', estimate.id, `/v1/estimate/${estimate.id}`],
        ['credit_note', creditNote.id, `/v1/credit-note/${creditNote.id}`],
      ];
      for (const [object, id, path] of documents) {
        const delivered = await read(path);
        const log = delivered.send_log as Array<{ delivery: string; attempts: number }>;
        expect(log).toEqual([expect.objectContaining({ delivery: 'sent', attempts: 1 })]);
        // When sent, the send log's entry was still queued.
        const queued = { ...delivered, send_log: [{ ...log[0], delivery: 'queued', attempts: 0 }] };
        const ofDocument = written.filter(
          (event) => event.object === object && event.object_id === id,
        );
        expect(ofDocument).toEqual([
          expected(`${object}.sent`, object, id, queued, {}, 'open'),
          expected(`${object}.delivery_sent`, object, id, delivered, {}, 'system'),
        ]);
      }
      expect(written).toHaveLength(6);
    });
  });

  describe('delivery outcomes: attempts spent', () => {
    let test: TestApp;
    const events = eventReader(() => test.http);

    beforeAll(async () => {
      test = await createTestApp({
        env: {
          OUTBOX_POLL_MS: '20',
          // The second and last attempt comes 2 s after the first: time enough to delete a
          // document in between.
          MAIL_RETRY_BASE_MS: '2000',
          MAIL_MAX_ATTEMPTS: '2',
          MAIL_FROM: 'billing@acme.example',
          SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
        },
      });
    });

    afterAll(async () => {
      await test.close();
    });

    const read = async (path: string): Promise<Answer> =>
      withoutStatus(expectSuccess(await test.http.get(path)));

    it('writes <object>.delivery_failed by system after the last attempt only; null data for a document deleted since', async () => {
      const client = await createClient(test.http);
      const invoice = await createInvoice(test.http, { client });
      const estimate = await createEstimate(test.http, { client });
      await sendInvoice(test.http, invoice.id, 'ap@example.com');
      await test.http
        .post('/v1/estimate/send')
        .send({ id: estimate.id, email: 'buyer@example.com' })
        .expect(200);
      await test.http.delete(`/v1/estimate/${estimate.id}`).expect(200);

      const failed = await eventually(
        async () => (await events.all()).filter((event) => event.type.endsWith('.delivery_failed')),
        (list) => list.length >= 2,
      );
      const detail = await read(`/v1/invoice/${invoice.id}`);
      expect(detail.send_log).toEqual([
        expect.objectContaining({ delivery: 'failed', attempts: 2 }),
      ]);
      // The two documents' attempts run side by side: their events may come in either order.
      failed.sort((a, b) => a.type.localeCompare(b.type));
      expect(failed).toEqual([
        expected('estimate.delivery_failed', 'estimate', estimate.id, null, {}, 'system'),
        expected('invoice.delivery_failed', 'invoice', invoice.id, detail, {}, 'system'),
      ]);
      // The first failed attempt (a retry followed) wrote nothing: one event, after attempt 2.
      expect((await events.history('invoice', invoice.id)).map((event) => event.type)).toEqual([
        'invoice.created',
        'invoice.sent',
        'invoice.delivery_failed',
      ]);
    });
  });
});
