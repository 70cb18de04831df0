import { eventually } from './setup/eventually';
import { createHash, randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createClient } from './factories/clients';
import { createExpense } from './factories/expenses';
import { createTestApp, TestApp } from './setup/create-app';
import { itWithoutDatabase } from './setup/test-database';
import {
  keyList,
  expectError,
  expectSuccess,
  expectValidationError,
  keysOf,
  parseTimestamp,
} from './setup/expectations';
import { embeddedIPv4Urls } from './setup/address-forms';
import { ReceivedWebhook, verifiesWith, WebhookReceiver } from './setup/webhook-receiver';

/*
 * Signed webhooks (Standard Webhooks), end to end: endpoints managed through the API, events
 * POSTed to a real receiver on 127.0.0.1 that checks every signature with the standardwebhooks
 * package, retries, the attempt log, switching a failing endpoint off, the address rules, the
 * secret's rotation, read-only keys, and logs free of secrets.
 */

interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_reason: string;
  created_at: string;
  updated_at: string;
}

interface WebhookWithSecret extends Webhook {
  secret: string;
}

interface Attempt {
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string;
  response_body: string;
}

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  attempt_log: Attempt[];
}

interface EventOutput {
  id: string;
  type: string;
  created_at: string;
  actor: string;
  object: string;
  object_id: string;
  data: unknown;
  changes: unknown;
}

/** GET /webhook/all, GET and PUT /webhook/{id}: an endpoint (an extension: docs/events.md). */
const WEBHOOK_KEYS = keyList(
  'id url events description enabled disabled_reason',
  'created_at updated_at',
);
/** POST /webhook/add, POST /webhook/{id}/rotate-secret: the endpoint with its secret, once. */
const WEBHOOK_WITH_SECRET_KEYS = keyList(
  'id url events description enabled disabled_reason',
  'created_at updated_at secret',
);
/** `whsec_` + base64. */
const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
const SIGNATURE = /^v1,[A-Za-z0-9+/]+={0,2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Polls and retries in milliseconds, every receiver on loopback. */
const FAST = { WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOX_POLL_MS: '20' };

/** Reads until `done` holds, at most `timeoutMs`; fails with the last value read. */
/** Every secret, signature and receiver path a test used: none may reach the logs. */
class Secrets {
  readonly secrets = new Set<string>();
  readonly paths = new Set<string>();

  remember(webhook: WebhookWithSecret): WebhookWithSecret {
    this.secrets.add(webhook.secret);
    return webhook;
  }
}

async function addWebhook(
  http: TestAgent,
  input: { url: string; events: string[]; description?: string },
  secrets?: Secrets,
): Promise<WebhookWithSecret> {
  const body = expectSuccess(await http.post('/v1/webhook/add').send(input));
  const [webhook] = body.webhook as WebhookWithSecret[];
  expect(keysOf(webhook)).toEqual(WEBHOOK_WITH_SECRET_KEYS);
  expect(webhook.secret).toMatch(SECRET);
  secrets?.remember(webhook);
  return webhook;
}

/** An endpoint on `receiver` at a path of its own, whose requests must verify with its secret. */
async function addReceiving(
  http: TestAgent,
  receiver: WebhookReceiver,
  name: string,
  events: string[],
  secrets: Secrets,
): Promise<{ webhook: WebhookWithSecret; path: string }> {
  const path = receiver.newPath(name);
  secrets.paths.add(path);
  const webhook = await addWebhook(http, { url: receiver.url(path), events }, secrets);
  receiver.expectSecret(path, webhook.secret);
  return { webhook, path };
}

async function readWebhook(http: TestAgent, id: string): Promise<Webhook> {
  const body = expectSuccess(await http.get(`/v1/webhook/${id}`));
  const [webhook] = body.webhook as Webhook[];
  expect(keysOf(webhook)).toEqual(WEBHOOK_KEYS);
  return webhook;
}

async function listWebhooks(http: TestAgent): Promise<Webhook[]> {
  return expectSuccess(await http.get('/v1/webhook/all')).data as Webhook[];
}

async function updateWebhook(http: TestAgent, id: string, input: object): Promise<Webhook> {
  const body = expectSuccess(await http.put(`/v1/webhook/${id}`).send(input));
  const [webhook] = body.webhook as Webhook[];
  expect(keysOf(webhook)).toEqual(WEBHOOK_KEYS);
  return webhook;
}

async function deliveriesOf(http: TestAgent, id: string): Promise<Delivery[]> {
  return expectSuccess(await http.get(`/v1/webhook/${id}/deliveries`)).data as Delivery[];
}

async function readEvent(http: TestAgent, id: string): Promise<EventOutput> {
  const body = expectSuccess(await http.get(`/v1/event/${id}`));
  const events = body.data as EventOutput[];
  expect(events).toHaveLength(1);
  return events[0];
}

async function listEvents(http: TestAgent, query: Record<string, string>): Promise<EventOutput[]> {
  return expectSuccess(await http.get('/v1/event/all').query(query)).data as EventOutput[];
}

/** The endpoint's deliveries once every one of them has this status (and there are `count`). */
function deliveriesWhen(http: TestAgent, id: string, count: number, status: string) {
  return eventually(
    () => deliveriesOf(http, id),
    (list) => list.length === count && list.every((delivery) => delivery.status === status),
  );
}

/** A request as the receiver got it: the Standard Webhooks payload, parsed. */
function payloadOf(request: ReceivedWebhook): { type: string; timestamp: string; data: unknown } {
  return JSON.parse(request.body) as { type: string; timestamp: string; data: unknown };
}

/**
 * A delivery request is a signed POST of `{type, timestamp, data}` whose data is the event as
 * GET /event/{id} answers it, with the event's id as webhook-id.
 */
async function expectDeliveryOf(
  http: TestAgent,
  request: ReceivedWebhook,
  eventId: string,
): Promise<EventOutput> {
  const event = await readEvent(http, eventId);
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['webhook-id']).toBe(eventId);
  expect(request.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
  // Signed when the attempt was made: now, give or take the test's run.
  const signedAt = Number(request.headers['webhook-timestamp']);
  expect(Math.abs(signedAt - Math.floor(request.at / 1000))).toBeLessThanOrEqual(2);
  expect(request.headers['webhook-signature']).toMatch(SIGNATURE);
  expect({ verified: request.verified, error: request.verifyError }).toEqual({
    verified: true,
    error: '',
  });
  const payload = payloadOf(request);
  expect(Object.keys(payload)).toEqual(['type', 'timestamp', 'data']);
  expect(payload).toEqual({ type: event.type, timestamp: expect.any(String), data: event });
  expect(payload.timestamp).toMatch(ISO_INSTANT);
  expect(Math.floor(Date.parse(payload.timestamp) / 1000) * 1000).toBe(
    parseTimestamp(event.created_at),
  );
  return event;
}

/** The one event of `type` about one record. */
async function eventAbout(
  http: TestAgent,
  type: string,
  object: string,
  objectId: string,
): Promise<EventOutput> {
  const events = await listEvents(http, { type, object, object_id: objectId });
  expect(events).toHaveLength(1);
  return events[0];
}

/** Changes a client's name: a `client.updated` event. */
async function renameClient(http: TestAgent, id: string, names: string): Promise<void> {
  expectSuccess(await http.put(`/v1/client/${id}`).send({ names }));
}

/**
 * No log line holds a secret, a signature, a receiver path or URL; and there are webhook lines
 * to search (the check is not vacuous).
 */
function expectNoSecretsInLogs(test: TestApp, receiver: WebhookReceiver, secrets: Secrets): void {
  const text = test.logs.lines.join('\n');
  expect(test.logs.lines.some((line) => /webhook/i.test(line))).toBe(true);
  const signatures = receiver.requests.map((request) =>
    String(request.headers['webhook-signature']).replace(/^v1,/, ''),
  );
  const forbidden = [
    ...secrets.secrets,
    ...[...secrets.secrets].map((secret) => secret.slice('whsec_'.length)),
    ...signatures,
    ...secrets.paths,
    receiver.url(''),
    'whsec_',
  ];
  expect(secrets.secrets.size).toBeGreaterThan(0);
  expect(secrets.paths.size).toBeGreaterThan(0);
  expect(forbidden.filter((value) => text.includes(value))).toEqual([]);
}

describe('Webhooks', () => {
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.stop();
  });

  describe('endpoints and signed deliveries', () => {
    let test: TestApp;
    const secrets = new Secrets();
    /** Endpoints to delete after each test, so that no test receives another's events. */
    const live: string[] = [];

    beforeAll(async () => {
      test = await createTestApp({
        env: { ...FAST, WEBHOOK_RETRY_DELAYS_MS: '100,1000,1000', WEBHOOK_TIMEOUT_MS: '5000' },
      });
    });

    afterEach(async () => {
      for (const id of live.splice(0)) {
        const response = await test.http.delete(`/v1/webhook/${id}`);
        expect([200, 404]).toContain(response.status);
      }
    });

    afterAll(async () => {
      await test.close();
    });

    const receiving = async (name: string, events: string[]) => {
      const added = await addReceiving(test.http, receiver, name, events, secrets);
      live.push(added.webhook.id);
      return added;
    };

    describe('management', () => {
      it('adds an endpoint with its secret, shown by add alone; lists, reads, updates and deletes it', async () => {
        const url = receiver.url(receiver.newPath('books'));
        const added = await addWebhook(
          test.http,
          { url, events: ['invoice.created', 'client.created'], description: 'Books' },
          secrets,
        );
        live.push(added.id);
        expect(added).toMatchObject({
          url,
          events: ['invoice.created', 'client.created'],
          description: 'Books',
          enabled: true,
          disabled_reason: '',
        });
        // whsec_ + base64 of 32 random bytes.
        expect(Buffer.from(added.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
        const other = await addWebhook(test.http, { url, events: ['*'] }, secrets);
        live.push(other.id);
        expect(other.secret).not.toBe(added.secret);
        expect(other.description).toBe('');

        const { secret, ...withoutSecret } = added;
        const read = await readWebhook(test.http, added.id);
        expect(read).toEqual(withoutSecret);
        const listed = await listWebhooks(test.http);
        expect(listed.map((webhook) => webhook.id)).toEqual(
          expect.arrayContaining([added.id, other.id]),
        );
        expect(listed.find((webhook) => webhook.id === added.id)).toEqual(withoutSecret);
        listed.forEach((webhook) => expect(keysOf(webhook)).toEqual(WEBHOOK_KEYS));

        const newUrl = receiver.url(receiver.newPath('books-moved'));
        expect(await updateWebhook(test.http, added.id, { url: newUrl })).toEqual({
          ...withoutSecret,
          url: newUrl,
          updated_at: expect.any(String),
        });
        await updateWebhook(test.http, added.id, { events: ['invoice.voided', 'invoice.voided'] });
        await updateWebhook(test.http, added.id, { description: 'Accounting' });
        const off = await updateWebhook(test.http, added.id, { enabled: false });
        expect(off).toMatchObject({
          url: newUrl,
          events: ['invoice.voided'],
          description: 'Accounting',
          enabled: false,
          // Switched off through the API: no reason of the service's.
          disabled_reason: '',
        });
        expect(await readWebhook(test.http, added.id)).toEqual(off);
        expect(await updateWebhook(test.http, added.id, { enabled: true })).toMatchObject({
          enabled: true,
        });
        // Every answer so far but add's is free of the secret.
        const answers = [
          await test.http.get(`/v1/webhook/${added.id}`),
          await test.http.get('/v1/webhook/all'),
          await test.http.put(`/v1/webhook/${added.id}`).send({ description: 'Again' }),
          await test.http.get(`/v1/webhook/${added.id}/deliveries`),
          await test.http.get('/v1/event/all').query({
            object: 'webhook_endpoint',
            object_id: added.id,
          }),
        ];
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          expect(answer.text).not.toContain(secret);
          expect(answer.text).not.toContain('whsec_');
        }

        // Its history: made, changed six times, deleted.
        expectSuccess(await test.http.delete(`/v1/webhook/${added.id}`));
        const history = await listEvents(test.http, {
          object: 'webhook_endpoint',
          object_id: added.id,
        });
        expect(history.map((event) => event.type)).toEqual([
          'webhook_endpoint.created',
          ...Array<string>(6).fill('webhook_endpoint.updated'),
          'webhook_endpoint.deleted',
        ]);
        expect(JSON.stringify(history)).not.toContain('whsec_');

        expectError(await test.http.get(`/v1/webhook/${added.id}`), 404);
        expectError(await test.http.put(`/v1/webhook/${added.id}`).send({ enabled: true }), 404);
        expectError(await test.http.get(`/v1/webhook/${added.id}/deliveries`), 404);
        expectError(await test.http.post(`/v1/webhook/${added.id}/rotate-secret`), 404);
        expectError(await test.http.delete(`/v1/webhook/${added.id}`), 404);
        expect((await listWebhooks(test.http)).map((webhook) => webhook.id)).not.toContain(
          added.id,
        );
      });

      it('keeps ["*"] alone when it is listed among types', async () => {
        const url = receiver.url(receiver.newPath('all'));
        const added = await addWebhook(test.http, { url, events: ['client.created', '*'] });
        secrets.remember(added);
        live.push(added.id);
        expect(added.events).toEqual(['*']);
      });

      it.each([
        ['a missing url', { url: undefined }, ['url']],
        ['an ftp:// url', { url: 'ftp://127.0.0.1/hook' }, ['url']],
        ['a url that is not one', { url: 'hooks here' }, ['url']],
        [
          'a url with a user name and password',
          { url: 'http://user:secret@127.0.0.1:9/hook' },
          ['url'],
        ],
        ['an unknown event type', { events: ['invoice.exploded'] }, ['events']],
        ['an empty events array', { events: [] }, ['events']],
        ['no events', { events: undefined }, ['events']],
        ['events that are not an array', { events: 'client.created' }, ['events']],
      ])('answers 422 to %s and adds nothing', async (_, input, fields) => {
        const before = await listWebhooks(test.http);
        // A valid input but for the one part named.
        const body = { url: receiver.url('/hooks/refused'), events: ['*'], ...input };
        expectValidationError(await test.http.post('/v1/webhook/add').send(body), fields);
        expect(await listWebhooks(test.http)).toEqual(before);
      });

      it('answers 422 to a bad update and changes nothing; 404 for an unknown endpoint', async () => {
        const { webhook } = await receiving('bad-update', ['client.created']);
        const { secret: _secret, ...before } = webhook;
        const update = (input: object) => test.http.put(`/v1/webhook/${webhook.id}`).send(input);
        expectValidationError(await update({ url: 'ftp://127.0.0.1/hook' }), ['url']);
        expectValidationError(await update({ events: [] }), ['events']);
        expectValidationError(await update({ events: ['nothing.happened'] }), ['events']);
        expectValidationError(await update({ enabled: 'perhaps' }), ['enabled']);
        expect(await readWebhook(test.http, webhook.id)).toEqual(before);
        for (const unknown of ['999999', '0']) {
          expectError(await test.http.get(`/v1/webhook/${unknown}`), 404);
          expectError(await test.http.put(`/v1/webhook/${unknown}`).send({ enabled: true }), 404);
          expectError(await test.http.delete(`/v1/webhook/${unknown}`), 404);
        }
      });
    });

    describe('delivery', () => {
      it('POSTs a subscribed event once, signed, with the event as GET /event/{id} answers it; not the others', async () => {
        const { webhook, path } = await receiving('clients', ['client.created']);
        const clientId = await createClient(test.http);
        await renameClient(test.http, clientId, 'Renamed Client');
        await createExpense(test.http);

        // Deliveries are written with the event: every one there will be is already there.
        const [delivery] = await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
        const event = await eventAbout(test.http, 'client.created', 'client', clientId);
        expect(delivery).toMatchObject({
          event_id: event.id,
          event_type: 'client.created',
          status: 'delivered',
          attempts: 1,
          next_attempt_at: null,
          delivered_at: expect.any(String),
        });
        expect(delivery.attempt_log).toEqual([
          {
            attempted_at: expect.any(String),
            status_code: 200,
            duration_ms: expect.any(Number),
            error: '',
            response_body: '',
          },
        ]);
        const requests = receiver.requestsTo(path);
        expect(requests).toHaveLength(1);
        await expectDeliveryOf(test.http, requests[0], event.id);
        expect(payloadOf(requests[0]).data).toMatchObject({
          type: 'client.created',
          object: 'client',
          object_id: clientId,
          actor: 'open',
        });
      });

      it('POSTs every event to an endpoint of ["*"], each once', async () => {
        const { webhook, path } = await receiving('everything', ['*']);
        const clientId = await createClient(test.http);
        await renameClient(test.http, clientId, 'Star Client');
        const expenseId = await createExpense(test.http);

        // Its own creation is an event of a type it subscribes to, written after it was made.
        const deliveries = await deliveriesWhen(test.http, webhook.id, 4, 'delivered');
        const events = [
          await eventAbout(test.http, 'webhook_endpoint.created', 'webhook_endpoint', webhook.id),
          await eventAbout(test.http, 'client.created', 'client', clientId),
          await eventAbout(test.http, 'client.updated', 'client', clientId),
          await eventAbout(test.http, 'expense.created', 'expense', expenseId),
        ];
        expect(deliveries.map((delivery) => delivery.event_id).sort()).toEqual(
          events.map((event) => event.id).sort(),
        );
        const requests = receiver.requestsTo(path);
        expect(requests.map((request) => request.headers['webhook-id']).sort()).toEqual(
          events.map((event) => event.id).sort(),
        );
        for (const request of requests) {
          await expectDeliveryOf(test.http, request, String(request.headers['webhook-id']));
        }
      });

      it('delivers after the receiver comes back, once, with the failed attempts in the log', async () => {
        const down = new WebhookReceiver();
        await down.start();
        await down.stop();
        try {
          const { webhook, path } = await addReceiving(
            test.http,
            down,
            'down',
            ['expense.created'],
            secrets,
          );
          live.push(webhook.id);
          const expenseId = await createExpense(test.http);
          const event = await eventAbout(test.http, 'expense.created', 'expense', expenseId);

          // Two refused attempts (100 ms apart); the third waits a second: time to come back.
          const [failing] = await eventually(
            () => deliveriesOf(test.http, webhook.id),
            (list) => list[0]?.attempt_log.length >= 2,
          );
          await down.start();
          // The delivery row and its attempts are two reads: the third attempt may be under way.
          expect(failing).toMatchObject({
            event_id: event.id,
            status: expect.stringMatching(/^(queued|sending)$/) as unknown,
          });
          expect([2, 3]).toContain(failing.attempts);

          const [delivered] = await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
          expect(delivered).toMatchObject({
            event_id: event.id,
            event_type: 'expense.created',
            attempts: 3,
            next_attempt_at: null,
            delivered_at: expect.any(String),
          });
          const refused = {
            attempted_at: expect.any(String),
            status_code: null,
            duration_ms: expect.any(Number),
            error: 'ECONNREFUSED',
            response_body: '',
          };
          expect(delivered.attempt_log).toEqual([
            refused,
            refused,
            { ...refused, status_code: 200, error: '' },
          ]);
          const requests = down.requestsTo(path);
          expect(requests).toHaveLength(1);
          await expectDeliveryOf(test.http, requests[0], event.id);
        } finally {
          await down.stop();
        }
      });

      it('sends a failed attempt again with the same webhook-id (a connection dropped, then 200)', async () => {
        // A receiver of its own: its first request goes out on a new connection. A kept-alive
        // one dropped under a request is taken for closed by its idle timeout and tried again
        // at once, within the same attempt (src/webhooks/webhook-sender.ts).
        const dropping = new WebhookReceiver();
        await dropping.start();
        try {
          const { webhook, path } = await addReceiving(
            test.http,
            dropping,
            'dropped',
            ['expense.created'],
            secrets,
          );
          live.push(webhook.id);
          dropping.script(path, { destroy: true });
          const expenseId = await createExpense(test.http);
          const event = await eventAbout(test.http, 'expense.created', 'expense', expenseId);

          const [delivered] = await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
          expect(delivered.attempts).toBe(2);
          expect(
            delivered.attempt_log.map(({ status_code, error }) => ({ status_code, error })),
          ).toEqual([
            { status_code: null, error: 'ECONNRESET' },
            { status_code: 200, error: '' },
          ]);
          const requests = dropping.requestsTo(path);
          expect(requests).toHaveLength(2);
          for (const request of requests) await expectDeliveryOf(test.http, request, event.id);
          // The same event: the same body; the same webhook-id on every attempt.
          expect(requests[1].body).toBe(requests[0].body);
        } finally {
          await dropping.stop();
        }
      });

      it('logs a 500 and then the 200, each with at most 1 KiB of the answer', async () => {
        const { webhook, path } = await receiving('errors', ['client.created']);
        const large = 'E'.repeat(5000);
        receiver.script(
          path,
          { status: 500, body: large },
          { status: 200, body: 'k'.repeat(3000) },
        );
        const clientId = await createClient(test.http);
        const event = await eventAbout(test.http, 'client.created', 'client', clientId);

        const [delivered] = await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
        expect(delivered).toMatchObject({ event_id: event.id, attempts: 2 });
        expect(delivered.attempt_log).toEqual([
          {
            attempted_at: expect.any(String),
            status_code: 500,
            duration_ms: expect.any(Number),
            error: '',
            response_body: 'E'.repeat(1024),
          },
          {
            attempted_at: expect.any(String),
            status_code: 200,
            duration_ms: expect.any(Number),
            error: '',
            response_body: 'k'.repeat(1024),
          },
        ]);
        const requests = receiver.requestsTo(path);
        expect(requests.map((request) => request.headers['webhook-id'])).toEqual([
          event.id,
          event.id,
        ]);
        for (const request of requests) await expectDeliveryOf(test.http, request, event.id);
      });

      it('keeps at most 1024 bytes of an answer in several-byte characters', async () => {
        const { webhook, path } = await receiving('euros', ['client.created']);
        // 3 bytes each: 1024 bytes end inside the 342nd.
        receiver.script(path, { status: 500, body: '€'.repeat(2000) });
        await createClient(test.http);

        const [delivered] = await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
        const [failed] = delivered.attempt_log;
        expect(failed.status_code).toBe(500);
        expect(Buffer.byteLength(failed.response_body, 'utf8')).toBeLessThanOrEqual(1024);
        expect(failed.response_body).toMatch(/^€{341,}$/);
      });

      it('counts a redirect as a failure and does not follow it', async () => {
        const { webhook, path } = await receiving('moved', ['client.created']);
        const elsewhere = receiver.newPath('elsewhere');
        receiver.script(path, { status: 307, body: receiver.url(elsewhere) });
        await createClient(test.http);

        const [delivered] = await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
        expect(delivered.attempt_log.map((attempt) => attempt.status_code)).toEqual([307, 200]);
        expect(receiver.requestsTo(elsewhere)).toEqual([]);
        expect(receiver.requestsTo(path)).toHaveLength(2);
      });
    });

    describe('rotation', () => {
      it('signs with the new secret alone after rotate-secret', async () => {
        const { webhook, path } = await receiving('rotating', ['client.created']);
        const oldSecret = webhook.secret;
        await createClient(test.http);
        await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
        const [first] = receiver.requestsTo(path);
        expect(first.verified).toBe(true);
        expect(verifiesWith(first, oldSecret)).toBe(true);

        const body = expectSuccess(await test.http.post(`/v1/webhook/${webhook.id}/rotate-secret`));
        const [rotated] = body.webhook as WebhookWithSecret[];
        secrets.remember(rotated);
        expect(keysOf(rotated)).toEqual(WEBHOOK_WITH_SECRET_KEYS);
        expect(rotated.secret).toMatch(SECRET);
        expect(rotated.secret).not.toBe(oldSecret);
        expect(rotated).toMatchObject({
          id: webhook.id,
          url: webhook.url,
          events: webhook.events,
          enabled: true,
        });
        const read = await test.http.get(`/v1/webhook/${webhook.id}`);
        expect(read.text).not.toContain(rotated.secret);

        receiver.expectSecret(path, rotated.secret);
        const clientId = await createClient(test.http);
        await deliveriesWhen(test.http, webhook.id, 2, 'delivered');
        const requests = receiver.requestsTo(path);
        expect(requests).toHaveLength(2);
        const event = await eventAbout(test.http, 'client.created', 'client', clientId);
        await expectDeliveryOf(test.http, requests[1], event.id);
        expect(verifiesWith(requests[1], rotated.secret)).toBe(true);
        expect(verifiesWith(requests[1], oldSecret)).toBe(false);

        const [rotation] = await listEvents(test.http, {
          type: 'webhook_endpoint.secret_rotated',
          object_id: webhook.id,
          object: 'webhook_endpoint',
        });
        expect(rotation).toBeDefined();
        expect(JSON.stringify(rotation)).not.toContain('whsec_');
      });

      it('shows a secret once: a replay with the Idempotency-Key answers the endpoint without it, and no stored answer holds it', async () => {
        const dataSource = test.app.get(DataSource);
        const path = receiver.newPath('replayed');
        secrets.paths.add(path);
        const input = { url: receiver.url(path), events: ['client.created'] };
        const addKey = `add-${randomBytes(8).toString('hex')}`;
        const first = await test.http
          .post('/v1/webhook/add')
          .set('Idempotency-Key', addKey)
          .send(input);
        const [added] = expectSuccess(first).webhook as WebhookWithSecret[];
        secrets.remember(added);
        live.push(added.id);
        expect(added.secret).toMatch(SECRET);
        expect(first.headers['idempotent-replayed']).toBeUndefined();

        const replayedAdd = await test.http
          .post('/v1/webhook/add')
          .set('Idempotency-Key', addKey)
          .send(input);
        expect(replayedAdd.headers['idempotent-replayed']).toBe('true');
        const [again] = expectSuccess(replayedAdd).webhook as Webhook[];
        expect(keysOf(again)).toEqual(WEBHOOK_KEYS);
        const { secret: _added, ...withoutSecret } = added;
        expect(again).toEqual(withoutSecret);
        expect(await listWebhooks(test.http)).toHaveLength(live.length);

        const rotateKey = `rotate-${randomBytes(8).toString('hex')}`;
        const rotate = () =>
          test.http.post(`/v1/webhook/${added.id}/rotate-secret`).set('Idempotency-Key', rotateKey);
        const [rotated] = expectSuccess(await rotate()).webhook as WebhookWithSecret[];
        secrets.remember(rotated);
        expect(rotated.secret).toMatch(SECRET);
        expect(rotated.secret).not.toBe(added.secret);
        const replayedRotation = await rotate();
        expect(replayedRotation.headers['idempotent-replayed']).toBe('true');
        const [rotatedAgain] = expectSuccess(replayedRotation).webhook as Webhook[];
        const { secret: _rotated, ...rotatedWithoutSecret } = rotated;
        expect(rotatedAgain).toEqual(rotatedWithoutSecret);
        // The replay rotated nothing: deliveries are signed with the secret the first answer gave.
        receiver.expectSecret(path, rotated.secret);
        await createClient(test.http);
        await deliveriesWhen(test.http, added.id, 1, 'delivered');
        expect(verifiesWith(receiver.requestsTo(path)[0], rotated.secret)).toBe(true);

        // The stored answers are there (both keys), and neither holds a secret.
        const stored = await dataSource.query<Array<{ response_body: string }>>(
          'SELECT response_body FROM idempotency_keys WHERE response_body IS NOT NULL',
        );
        const bodies = stored.map((row) => row.response_body);
        expect(bodies.filter((body) => body.includes(`"id":"${added.id}"`))).toHaveLength(2);
        const forbidden = [added.secret, rotated.secret, 'whsec_', '"secret"'];
        expect(forbidden.filter((value) => bodies.some((body) => body.includes(value)))).toEqual(
          [],
        );
      });
    });

    describe('logs', () => {
      it('hold no secret, signature, or receiver URL', () => {
        expect(receiver.requests.length).toBeGreaterThan(5);
        expectNoSecretsInLogs(test, receiver, secrets);
      });
    });
  });

  describe('a slow receiver, spent retries and the manual retry', () => {
    let test: TestApp;
    const secrets = new Secrets();
    const TIMEOUT_MS = 800;

    beforeAll(async () => {
      test = await createTestApp({
        env: {
          ...FAST,
          WEBHOOK_RETRY_DELAYS_MS: '20,20',
          WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        },
      });
    });

    afterAll(async () => {
      await test.close();
    });

    it('gives up on a slow receiver at the timeout, the other endpoint served alongside; 409 on a retry meanwhile', async () => {
      const slow = await addReceiving(test.http, receiver, 'slow', ['expense.created'], secrets);
      const fast = await addReceiving(test.http, receiver, 'fast', ['expense.created'], secrets);
      receiver.answer(slow.path, { status: 200, delayMs: 5_000 });
      const started = Date.now();
      const expenseId = await createExpense(test.http);
      const event = await eventAbout(test.http, 'expense.created', 'expense', expenseId);

      // The slow attempt is under way: its request came, no answer yet.
      const [held] = await eventually(
        () => receiver.requestsTo(slow.path),
        (requests) => requests.length === 1,
      );
      const [sending] = await deliveriesOf(test.http, slow.webhook.id);
      expect(sending.status).toBe('sending');
      expectError(await test.http.post(`/v1/webhook/delivery/${sending.id}/retry`), 409);

      const [timedOut] = await eventually(
        () => deliveriesOf(test.http, slow.webhook.id),
        (list) => list[0]?.attempt_log.length >= 1,
      );
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 3_000);
      const [attempt] = timedOut.attempt_log;
      expect(attempt).toMatchObject({ status_code: null, error: 'TIMEOUT', response_body: '' });
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(attempt.duration_ms).toBeLessThan(TIMEOUT_MS + 1_000);
      await expectDeliveryOf(test.http, held, event.id);

      // The same event reached the other endpoint while the slow one held its request.
      const [delivered] = await deliveriesWhen(test.http, fast.webhook.id, 1, 'delivered');
      expect(delivered).toMatchObject({ event_id: event.id, attempts: 1 });
      const [served] = receiver.requestsTo(fast.path);
      await expectDeliveryOf(test.http, served, event.id);
      expect(served.at - held.at).toBeLessThan(TIMEOUT_MS);

      expectSuccess(await test.http.delete(`/v1/webhook/${slow.webhook.id}`));
      expectSuccess(await test.http.delete(`/v1/webhook/${fast.webhook.id}`));
    });

    it('delivers an event made while a slow attempt is under way without waiting for it', async () => {
      const slow = await addReceiving(test.http, receiver, 'slow2', ['expense.created'], secrets);
      const fast = await addReceiving(test.http, receiver, 'fast2', ['client.created'], secrets);
      receiver.answer(slow.path, { status: 200, delayMs: 5_000 });
      try {
        await createExpense(test.http);
        const [held] = await eventually(
          () => receiver.requestsTo(slow.path),
          (requests) => requests.length === 1,
        );
        const clientId = await createClient(test.http);
        const event = await eventAbout(test.http, 'client.created', 'client', clientId);
        const [served] = await eventually(
          () => receiver.requestsTo(fast.path),
          (requests) => requests.length === 1,
        );
        await expectDeliveryOf(test.http, served, event.id);
        // Due a moment after the slow request came: it goes out before that attempt times out.
        expect(served.at - held.at).toBeLessThan(TIMEOUT_MS);
      } finally {
        expectSuccess(await test.http.delete(`/v1/webhook/${slow.webhook.id}`));
        expectSuccess(await test.http.delete(`/v1/webhook/${fast.webhook.id}`));
      }
    });

    it('fails a delivery when its retries are spent; a manual retry makes it due again', async () => {
      const down = new WebhookReceiver();
      await down.start();
      await down.stop();
      try {
        const { webhook, path } = await addReceiving(
          test.http,
          down,
          'spent',
          ['client.created'],
          secrets,
        );
        const clientId = await createClient(test.http);
        const event = await eventAbout(test.http, 'client.created', 'client', clientId);

        // WEBHOOK_RETRY_DELAYS_MS=20,20: the first attempt and two more.
        const [failed] = await deliveriesWhen(test.http, webhook.id, 1, 'failed');
        expect(failed).toMatchObject({
          event_id: event.id,
          attempts: 3,
          next_attempt_at: null,
          delivered_at: null,
        });
        expect(
          failed.attempt_log.map(({ status_code, error }) => ({ status_code, error })),
        ).toEqual(Array(3).fill({ status_code: null, error: 'ECONNREFUSED' }));

        await down.start();
        const retried = expectSuccess(
          await test.http.post(`/v1/webhook/delivery/${failed.id}/retry`),
        );
        const [due] = retried.delivery as Delivery[];
        expect(due).toMatchObject({
          id: failed.id,
          event_id: event.id,
          status: 'queued',
          attempts: 3,
          next_attempt_at: expect.any(String),
        });
        expect(retried.message).toEqual(expect.any(String));

        const [delivered] = await deliveriesWhen(test.http, webhook.id, 1, 'delivered');
        expect(delivered).toMatchObject({ id: failed.id, attempts: 4 });
        expect(delivered.attempt_log.map((attempt) => attempt.status_code)).toEqual([
          null,
          null,
          null,
          200,
        ]);
        expect(down.requestsTo(path)).toHaveLength(1);
        await expectDeliveryOf(test.http, down.requestsTo(path)[0], event.id);

        // A delivered event may be sent again: the same webhook-id.
        expectSuccess(await test.http.post(`/v1/webhook/delivery/${failed.id}/retry`));
        await eventually(
          () => deliveriesOf(test.http, webhook.id),
          (list) => list[0].status === 'delivered' && list[0].attempts === 5,
        );
        const requests = down.requestsTo(path);
        expect(requests.map((request) => request.headers['webhook-id'])).toEqual([
          event.id,
          event.id,
        ]);
        await expectDeliveryOf(test.http, requests[1], event.id);

        for (const unknown of ['999999', '0']) {
          expectError(await test.http.post(`/v1/webhook/delivery/${unknown}/retry`), 404);
        }
      } finally {
        await down.stop();
      }
    });
  });

  describe('an endpoint failing for WEBHOOK_DISABLE_AFTER_MS', () => {
    let test: TestApp;
    const secrets = new Secrets();

    beforeAll(async () => {
      test = await createTestApp({
        env: {
          ...FAST,
          WEBHOOK_DISABLE_AFTER_MS: '200',
          // Far more attempts than fit in 200 ms: the switch comes before they are spent.
          WEBHOOK_RETRY_DELAYS_MS: Array<string>(20).fill('50').join(','),
        },
      });
    });

    afterAll(async () => {
      await test.close();
    });

    it('is switched off, its deliveries paused, with an event by system; switched on, they are delivered', async () => {
      const { webhook, path } = await addReceiving(
        test.http,
        receiver,
        'failing',
        ['client.created'],
        secrets,
      );
      receiver.answer(path, { status: 500, body: 'down for maintenance' });
      const clients = [await createClient(test.http), await createClient(test.http)];

      const off = await eventually(
        () => readWebhook(test.http, webhook.id),
        (read) => !read.enabled,
      );
      expect(off.disabled_reason).not.toBe('');
      const paused = await deliveriesWhen(test.http, webhook.id, 2, 'paused');
      for (const delivery of paused) {
        expect(delivery.next_attempt_at).toBeNull();
        expect(delivery.delivered_at).toBeNull();
        expect(delivery.attempt_log.every((attempt) => attempt.status_code === 500)).toBe(true);
      }
      expect(paused.some((delivery) => delivery.attempts >= 2)).toBe(true);

      const switchedOff = await listEvents(test.http, { type: 'webhook_endpoint.disabled' });
      expect(switchedOff).toHaveLength(1);
      expect(switchedOff[0]).toMatchObject({
        type: 'webhook_endpoint.disabled',
        object: 'webhook_endpoint',
        object_id: webhook.id,
        actor: 'system',
      });
      expect(switchedOff[0].data).toEqual({ webhook: [off] });
      expect(JSON.stringify(switchedOff[0])).not.toContain('whsec_');

      receiver.answer(path, { status: 200 });
      const on = await updateWebhook(test.http, webhook.id, { enabled: true });
      expect(on).toMatchObject({ enabled: true, disabled_reason: '' });
      const delivered = await deliveriesWhen(test.http, webhook.id, 2, 'delivered');
      for (const delivery of delivered) {
        expect(delivery.attempt_log[delivery.attempt_log.length - 1].status_code).toBe(200);
      }
      const events = await Promise.all(
        clients.map((id) => eventAbout(test.http, 'client.created', 'client', id)),
      );
      const succeeded = receiver
        .requestsTo(path)
        .filter((request) => (request.reply.status ?? 200) === 200);
      expect(succeeded.map((request) => request.headers['webhook-id']).sort()).toEqual(
        events.map((event) => event.id).sort(),
      );
      for (const request of succeeded) {
        await expectDeliveryOf(test.http, request, String(request.headers['webhook-id']));
      }
      // Switched on again by a person: the API's actor, not the service's.
      const [switchedOn] = (
        await listEvents(test.http, {
          type: 'webhook_endpoint.updated',
          object: 'webhook_endpoint',
          object_id: webhook.id,
        })
      ).slice(-1);
      expect(switchedOn.actor).toBe('open');
      expect(switchedOn.changes).toMatchObject({ enabled: [false, true] });
      expect(await readWebhook(test.http, webhook.id)).toMatchObject({ enabled: true });
      expectNoSecretsInLogs(test, receiver, secrets);
    });
  });

  describe('private addresses', () => {
    /** Allows loopback; delivers nothing (OUTBOX_POLL_MS=0). */
    let owner: TestApp;
    /** Refuses private addresses; its worker makes the attempts. */
    let strict: TestApp;
    const secrets = new Secrets();

    beforeAll(async () => {
      owner = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOX_POLL_MS: '0' } });
      strict = await createTestApp({
        sharedDatabase: true,
        env: {
          WEBHOOK_ALLOW_PRIVATE: 'false',
          OUTBOX_POLL_MS: '20',
          WEBHOOK_RETRY_DELAYS_MS: '20,20',
          // An address let through that leads nowhere fails in a second, not ten.
          WEBHOOK_TIMEOUT_MS: '1000',
        },
      });
    });

    afterAll(async () => {
      await strict?.close();
      await owner?.close();
    });

    it.each([
      ['loopback', () => receiver.url('/hooks/loopback')],
      ['localhost', () => `http://localhost:${receiver.port}/hooks/localhost`],
      ['IPv6 loopback', () => 'http://[::1]/'],
      ['IPv4-mapped loopback', () => 'http://[::ffff:127.0.0.1]/'],
      ['private 10/8', () => 'http://10.0.0.1/'],
      ['private 192.168/16', () => 'http://192.168.1.1/'],
      ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data'],
      ['carrier-grade NAT', () => 'http://100.100.100.200/'],
      ['unique-local IPv6', () => 'https://[fd00:ec2::254]/'],
      ['unspecified', () => 'http://0.0.0.0/'],
    ])('refuses a %s URL on add (422 naming url)', async (_, url) => {
      const before = await listWebhooks(strict.http);
      expectValidationError(
        await strict.http.post('/v1/webhook/add').send({ url: url(), events: ['*'] }),
        ['url'],
      );
      expect(await listWebhooks(strict.http)).toEqual(before);
    });

    // The sweeps of every form test the address rule, which no database changes: SQLite's run
    // only. Both runs refuse the forms above on add and a private address at delivery (below).
    itWithoutDatabase(
      'refuses every IPv6 form that carries a loopback, private or metadata IPv4 address, on add and on update',
      async () => {
        const before = await listWebhooks(strict.http);
        const forms = embeddedIPv4Urls('/embedded');
        expect(forms.length).toBeGreaterThan(70);
        const accepted: string[] = [];
        for (const [what, url] of forms) {
          const response = await strict.http.post('/v1/webhook/add').send({ url, events: ['*'] });
          if (response.status !== 422) accepted.push(`${what}: ${url} answered ${response.status}`);
          else expectValidationError(response, ['url']);
        }
        expect(accepted).toEqual([]);
        expect(await listWebhooks(strict.http)).toEqual(before);

        const added = await addWebhook(
          owner.http,
          { url: receiver.url(receiver.newPath('embedded-update')), events: ['invoice.voided'] },
          secrets,
        );
        for (const [what, url] of forms) {
          const response = await strict.http.put(`/v1/webhook/${added.id}`).send({ url });
          if (response.status !== 422) accepted.push(`${what}: ${url} answered ${response.status}`);
        }
        expect(accepted).toEqual([]);
        expect((await readWebhook(strict.http, added.id)).url).toBe(added.url);
        expectSuccess(await owner.http.delete(`/v1/webhook/${added.id}`));
      },
    );

    itWithoutDatabase(
      'refuses every embedded IPv4 form again at delivery: ADDRESS_REFUSED, and the receiver gets nothing',
      async () => {
        // Stored by the instance that allows private addresses, each aimed at the receiver's
        // port, so that a form the strict worker let through would reach it (or fail otherwise).
        const forms = embeddedIPv4Urls().map(([what, url]) => {
          const path = receiver.newPath('embedded');
          const target = new URL(url);
          return {
            what,
            path,
            url: `http://${target.host.replace(/:\d+$/, '')}:${receiver.port}${path}`,
          };
        });
        const endpoints = [];
        for (const form of forms) {
          secrets.paths.add(form.path);
          const webhook = await addWebhook(
            owner.http,
            { url: form.url, events: ['expense.created'] },
            secrets,
          );
          endpoints.push({ ...form, webhook });
        }
        await createExpense(owner.http);

        const wrong: string[] = [];
        for (const { what, url, webhook } of endpoints) {
          const [failed] = await deliveriesWhen(owner.http, webhook.id, 1, 'failed');
          const errors = failed.attempt_log.map(
            ({ status_code, error }) => `${status_code} ${error}`,
          );
          if (errors.join() !== Array(3).fill('null ADDRESS_REFUSED').join()) {
            wrong.push(`${what} (${url}): ${errors.join(', ')}`);
          }
        }
        expect(wrong).toEqual([]);
        expect(forms.flatMap(({ path }) => receiver.requestsTo(path))).toEqual([]);
        for (const { webhook } of endpoints) {
          expectSuccess(await owner.http.delete(`/v1/webhook/${webhook.id}`));
        }
      },
    );

    it('refuses a private URL on update', async () => {
      const added = await addWebhook(
        owner.http,
        { url: receiver.url(receiver.newPath('update')), events: ['invoice.voided'] },
        secrets,
      );
      const response = await strict.http
        .put(`/v1/webhook/${added.id}`)
        .send({ url: 'http://10.1.2.3/hook' });
      expectValidationError(response, ['url']);
      expect((await readWebhook(strict.http, added.id)).url).toBe(added.url);
      expectSuccess(await owner.http.delete(`/v1/webhook/${added.id}`));
    });

    it('refuses the address again at delivery: ADDRESS_REFUSED, and the receiver gets nothing', async () => {
      const { webhook, path } = await addReceiving(
        owner.http,
        receiver,
        'private',
        ['client.created'],
        secrets,
      );
      const clientId = await createClient(owner.http);
      const event = await eventAbout(owner.http, 'client.created', 'client', clientId);

      const [failed] = await deliveriesWhen(owner.http, webhook.id, 1, 'failed');
      expect(failed).toMatchObject({ event_id: event.id, attempts: 3 });
      expect(failed.attempt_log.map(({ status_code, error }) => ({ status_code, error }))).toEqual(
        Array(3).fill({ status_code: null, error: 'ADDRESS_REFUSED' }),
      );
      expect(receiver.requestsTo(path)).toEqual([]);
      expectNoSecretsInLogs(strict, receiver, secrets);
    });
  });

  describe('with API keys', () => {
    const newKey = (kind: string) => `${kind}-${randomBytes(12).toString('hex')}`;
    const FULL_KEY = newKey('full');
    const READ_ONLY_KEY = newKey('read');
    let test: TestApp;
    const secrets = new Secrets();

    beforeAll(async () => {
      test = await createTestApp({
        env: { ...FAST, API_KEYS: FULL_KEY, API_KEYS_READONLY: READ_ONLY_KEY },
      });
    });

    afterAll(async () => {
      await test.close();
    });

    const as = (key: string) => ({
      get: (path: string) => test.http.get(path).set('Authorization', `Bearer ${key}`),
      post: (path: string, body?: object) =>
        test.http.post(path).set('Authorization', `Bearer ${key}`).send(body),
      put: (path: string, body: object) =>
        test.http.put(path).set('Authorization', `Bearer ${key}`).send(body),
      delete: (path: string) => test.http.delete(path).set('Authorization', `Bearer ${key}`),
    });

    it('lets a read-only key read endpoints, deliveries and events, never a secret, and change nothing', async () => {
      const full = as(FULL_KEY);
      const reader = as(READ_ONLY_KEY);
      const path = receiver.newPath('keys');
      secrets.paths.add(path);
      const addAnswer = expectSuccess(
        await full.post('/v1/webhook/add', { url: receiver.url(path), events: ['client.created'] }),
      );
      const [webhook] = addAnswer.webhook as WebhookWithSecret[];
      secrets.remember(webhook);
      const rotateAnswer = expectSuccess(
        await full.post(`/v1/webhook/${webhook.id}/rotate-secret`),
      );
      const [rotated] = rotateAnswer.webhook as WebhookWithSecret[];
      secrets.remember(rotated);
      receiver.expectSecret(path, rotated.secret);
      const client = expectSuccess(
        await full.post('/v1/client/add', { names: 'Keyed Client', email: 'keyed@example.com' }),
      );
      const clientId = (client.data as Array<{ id: string }>)[0].id;
      const [delivery] = await eventually(
        async () =>
          expectSuccess(await full.get(`/v1/webhook/${webhook.id}/deliveries`)).data as Delivery[],
        (list) => list.length === 1 && list[0].status === 'delivered',
      );
      const [request] = receiver.requestsTo(path);
      expect(request.verified).toBe(true);
      const created = (
        expectSuccess(
          await full.get(`/v1/event/all?type=client.created&object=client&object_id=${clientId}`),
        ).data as EventOutput[]
      )[0];
      // The full key's id: the first 12 hex digits of its SHA-256.
      expect(created.actor).toBe(createHash('sha256').update(FULL_KEY).digest('hex').slice(0, 12));

      const reads: Array<[string, Response, Response]> = [];
      for (const route of [
        '/v1/webhook/all',
        `/v1/webhook/${webhook.id}`,
        `/v1/webhook/${webhook.id}/deliveries`,
        '/v1/event/all',
        `/v1/event/all?object=webhook_endpoint&object_id=${webhook.id}`,
        `/v1/event/${created.id}`,
      ]) {
        reads.push([route, await reader.get(route), await full.get(route)]);
      }
      for (const [route, asReader, asOwner] of reads) {
        expect({ route, status: asReader.status }).toEqual({ route, status: 200 });
        expect(asReader.body).toEqual(asOwner.body);
        for (const secret of [webhook.secret, rotated.secret, 'whsec_']) {
          expect(asReader.text).not.toContain(secret);
        }
      }
      const history = (reads[4][1].body as { data: EventOutput[] }).data;
      expect(history.map((event) => event.type)).toEqual([
        'webhook_endpoint.created',
        'webhook_endpoint.secret_rotated',
      ]);

      const before = await full.get(`/v1/webhook/${webhook.id}`);
      const refusals = [
        await reader.post('/v1/webhook/add', { url: receiver.url(path), events: ['*'] }),
        await reader.put(`/v1/webhook/${webhook.id}`, { enabled: false }),
        await reader.delete(`/v1/webhook/${webhook.id}`),
        await reader.post(`/v1/webhook/${webhook.id}/rotate-secret`),
        await reader.post(`/v1/webhook/delivery/${delivery.id}/retry`),
      ];
      for (const refusal of refusals) {
        expectError(refusal, 403);
        expect(refusal.text).not.toContain('whsec_');
      }
      expect((await full.get(`/v1/webhook/${webhook.id}`)).body).toEqual(before.body);
      expect((await full.get('/v1/webhook/all')).body.data).toHaveLength(1);
      const [after] = expectSuccess(await full.get(`/v1/webhook/${webhook.id}/deliveries`))
        .data as Delivery[];
      expect(after).toEqual(delivery);
      expect(receiver.requestsTo(path)).toHaveLength(1);
      // Still signed with the secret the rotation gave: the refused rotation changed nothing.
      await full.post('/v1/client/add', { names: 'Second Keyed', email: 'second@example.com' });
      await eventually(
        async () =>
          expectSuccess(await full.get(`/v1/webhook/${webhook.id}/deliveries`)).data as Delivery[],
        (list) => list.length === 2 && list.every((item) => item.status === 'delivered'),
      );
      expect(receiver.requestsTo(path).map((received) => received.verified)).toEqual([true, true]);
      expectNoSecretsInLogs(test, receiver, secrets);
    });
  });
});
