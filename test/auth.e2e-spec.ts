import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { clientInput, createClient } from './factories/clients';
import { estimateInput, estimateNumber, createEstimate } from './factories/estimates';
import { IMPORT_EXAMPLE } from '../src/expenses/dto/import-expense.dto';
import { createExpense, expenseInput } from './factories/expenses';
import { addCreditNote, creditNoteInput } from './factories/credit-notes';
import {
  createInvoice,
  invoiceInput,
  invoiceNumber,
  lineItems,
  payInvoice,
} from './factories/invoices';
import { recurringInvoiceInput } from './factories/recurring-invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { describeWithoutDatabase } from './setup/test-database';
import { expectError } from './setup/expectations';

const newKey = (kind: string) => `${kind}-${randomBytes(12).toString('hex')}`;
const FULL_KEY = newKey('full');
const SECOND_FULL_KEY = newKey('full');
const READ_ONLY_KEY = newKey('read');
const WRONG_KEY = newKey('full');

/** Records every route acts on; `paidInvoice` starts Paid so that not-paid would show. */
interface Fixtures {
  client: string;
  invoice: string;
  paidInvoice: string;
  /** Holds a payment of 10.00, so that a refund would succeed. */
  cashInvoice: string;
  /** Holds nothing, so that a void would succeed. */
  voidableInvoice: string;
  creditNote: string;
  estimate: string;
  /** Drafts (docs/numbering.md), so that an issue would succeed. */
  draftInvoice: string;
  draftEstimate: string;
  expense: string;
  /** An expense imported from an e-invoice (POST /v1/expense/import), with its file. */
  importedExpense: string;
  /** An active recurring invoice schedule (docs/recurring.md). */
  recurring: string;
  /** A live webhook endpoint subscribed to every event. */
  webhook: string;
  /** One of its deliveries (never attempted: no delivery worker runs). */
  delivery: string;
  event: string;
}

/** Webhook URLs on loopback: the app under test lifts the address rule. */
const WEBHOOK_ENV = { WEBHOOK_ALLOW_PRIVATE: 'true' };
/** What an e-invoice needs of the issuer (the fixtures' client has its country). */
const EINVOICE_ISSUER_ENV = { COMPANY_COUNTRY: 'DE', COMPANY_TAX_ID: 'DE123456789' };
const webhookInput = () => ({ url: 'http://127.0.0.1:9/auth-hook', events: ['*'] });

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As Nest registers it: `:id` stands for the record named by `record`. */
  path: string;
  record?: keyof Fixtures;
  /** Whether a read-only key is refused (403): every write, and the GETs that change state. */
  writes: boolean;
  /** A valid body: were the key not checked, the request would succeed and change data. */
  body?: (fixtures: Fixtures) => object;
  /** A success that is a file of this type, not the JSON envelope. */
  file?: string;
  /** The query string it needs (an e-invoice's format). */
  query?: string;
  /** A valid body that is a file: an e-invoice, sent as application/xml. */
  upload?: () => string;
}

/** The OpenAPI document's example e-invoice under a number of its own: each import succeeds. */
let imports = 0;
const importedInvoice = () =>
  IMPORT_EXAMPLE.replace('CC-2026-0311', `AUTH-${process.pid}-${++imports}`);

/** Every route under /v1, ordered so that each succeeds once in turn with a full key. */
const ROUTES: Route[] = [
  { method: 'GET', path: '/v1/client/all', writes: false },
  { method: 'GET', path: '/v1/client/:id', record: 'client', writes: false },
  { method: 'POST', path: '/v1/client/add', writes: true, body: () => clientInput() },
  {
    method: 'PUT',
    path: '/v1/client/:id',
    record: 'client',
    writes: true,
    body: () => clientInput({ names: 'Renamed client' }),
  },
  { method: 'GET', path: '/v1/invoice/all', writes: false },
  { method: 'GET', path: '/v1/invoice/:id', record: 'invoice', writes: false },
  {
    method: 'GET',
    path: '/v1/invoice/:id/pdf',
    record: 'invoice',
    writes: false,
    file: 'application/pdf',
  },
  {
    method: 'GET',
    path: '/v1/invoice/:id/einvoice',
    record: 'invoice',
    writes: false,
    file: 'application/xml',
    query: 'format=cii',
  },
  {
    method: 'POST',
    path: '/v1/invoice/add',
    writes: true,
    body: ({ client }) => invoiceInput(client),
  },
  {
    method: 'PUT',
    path: '/v1/invoice/:id',
    record: 'invoice',
    writes: true,
    body: ({ client }) => invoiceInput(client, { description: 'Changed' }),
  },
  {
    method: 'POST',
    path: '/v1/invoice/send',
    writes: true,
    body: ({ invoice }) => ({ id: invoice, email: 'billing@example.com' }),
  },
  {
    method: 'POST',
    path: '/v1/invoice/record-payment',
    writes: true,
    body: ({ invoice }) => ({ id: invoice, amount_paid: '1.00', payment_date: '2026-03-10' }),
  },
  { method: 'GET', path: '/v1/invoice/paid/:id', record: 'invoice', writes: true },
  { method: 'GET', path: '/v1/invoice/not-paid/:id', record: 'paidInvoice', writes: true },
  {
    method: 'POST',
    path: '/v1/invoice/refund',
    writes: true,
    body: ({ cashInvoice }) => ({ id: cashInvoice, amount: '1.00', refund_date: '2026-03-11' }),
  },
  {
    method: 'POST',
    path: '/v1/invoice/:id/void',
    record: 'voidableInvoice',
    writes: true,
    body: () => ({ reason: 'Issued in error' }),
  },
  { method: 'GET', path: '/v1/report/aging', writes: false },
  { method: 'GET', path: '/v1/report/profit-and-loss', writes: false },
  { method: 'GET', path: '/v1/report/tax-summary', writes: false },
  { method: 'GET', path: '/v1/client/:id/statement', record: 'client', writes: false },
  {
    method: 'GET',
    path: '/v1/client/:id/statement/pdf',
    record: 'client',
    writes: false,
    file: 'application/pdf',
  },
  { method: 'GET', path: '/v1/credit-note/all', writes: false },
  { method: 'GET', path: '/v1/credit-note/:id', record: 'creditNote', writes: false },
  {
    method: 'GET',
    path: '/v1/credit-note/:id/pdf',
    record: 'creditNote',
    writes: false,
    file: 'application/pdf',
  },
  {
    method: 'GET',
    path: '/v1/credit-note/:id/einvoice',
    record: 'creditNote',
    writes: false,
    file: 'application/xml',
    query: 'format=cii',
  },
  {
    method: 'POST',
    path: '/v1/credit-note/add',
    writes: true,
    body: ({ cashInvoice }) => creditNoteInput(cashInvoice, { items: lineItems(1) }),
  },
  {
    method: 'POST',
    path: '/v1/credit-note/send',
    writes: true,
    body: ({ creditNote }) => ({ id: creditNote, email: 'billing@example.com' }),
  },
  { method: 'GET', path: '/v1/estimate/all', writes: false },
  { method: 'GET', path: '/v1/estimate/:id', record: 'estimate', writes: false },
  {
    method: 'GET',
    path: '/v1/estimate/:id/pdf',
    record: 'estimate',
    writes: false,
    file: 'application/pdf',
  },
  {
    method: 'POST',
    path: '/v1/estimate/add',
    writes: true,
    body: ({ client }) => estimateInput(client),
  },
  {
    method: 'PUT',
    path: '/v1/estimate/:id',
    record: 'estimate',
    writes: true,
    body: ({ client }) => estimateInput(client, { description: 'Changed' }),
  },
  {
    method: 'POST',
    path: '/v1/estimate/send',
    writes: true,
    body: ({ estimate }) => ({ id: estimate, email: 'billing@example.com' }),
  },
  {
    method: 'POST',
    path: '/v1/estimate/:id/convert',
    record: 'estimate',
    writes: true,
    body: () => ({ invoice_no: invoiceNumber('CONV') }),
  },
  { method: 'GET', path: '/v1/expense/all', writes: false },
  { method: 'GET', path: '/v1/expense/:id', record: 'expense', writes: false },
  { method: 'POST', path: '/v1/expense/add', writes: true, body: () => expenseInput() },
  { method: 'POST', path: '/v1/expense/import', writes: true, upload: importedInvoice },
  {
    method: 'GET',
    path: '/v1/expense/:id/source',
    record: 'importedExpense',
    writes: false,
    file: 'application/xml',
  },
  {
    method: 'PUT',
    path: '/v1/expense/:id',
    record: 'expense',
    writes: true,
    body: () => expenseInput({ description: 'Changed' }),
  },
  { method: 'GET', path: '/v1/event/all', writes: false },
  { method: 'GET', path: '/v1/event/:id', record: 'event', writes: false },
  { method: 'GET', path: '/v1/webhook/all', writes: false },
  { method: 'GET', path: '/v1/webhook/:id', record: 'webhook', writes: false },
  { method: 'GET', path: '/v1/webhook/:id/deliveries', record: 'webhook', writes: false },
  { method: 'POST', path: '/v1/webhook/add', writes: true, body: () => webhookInput() },
  {
    method: 'PUT',
    path: '/v1/webhook/:id',
    record: 'webhook',
    writes: true,
    body: () => ({ description: 'Changed', events: ['invoice.created', 'client.created'] }),
  },
  { method: 'POST', path: '/v1/webhook/:id/rotate-secret', record: 'webhook', writes: true },
  { method: 'POST', path: '/v1/webhook/delivery/:id/retry', record: 'delivery', writes: true },
  { method: 'GET', path: '/v1/number-series/all', writes: false },
  {
    method: 'POST',
    path: '/v1/invoice/:id/issue',
    record: 'draftInvoice',
    writes: true,
    body: () => ({}),
  },
  {
    method: 'POST',
    path: '/v1/estimate/:id/issue',
    record: 'draftEstimate',
    writes: true,
    body: () => ({}),
  },
  { method: 'GET', path: '/v1/recurring-invoice/all', writes: false },
  { method: 'GET', path: '/v1/recurring-invoice/:id', record: 'recurring', writes: false },
  {
    method: 'POST',
    path: '/v1/recurring-invoice/add',
    writes: true,
    body: ({ client }) => recurringInvoiceInput(client),
  },
  {
    method: 'PUT',
    path: '/v1/recurring-invoice/:id',
    record: 'recurring',
    writes: true,
    body: () => ({ note: 'Changed' }),
  },
  { method: 'POST', path: '/v1/recurring-invoice/:id/pause', record: 'recurring', writes: true },
  { method: 'POST', path: '/v1/recurring-invoice/:id/resume', record: 'recurring', writes: true },
  {
    method: 'PUT',
    path: '/v1/number-series/:kind',
    writes: true,
    body: () => ({ format: 'INV-{YYYY}-{SEQ:4}' }),
  },
  { method: 'DELETE', path: '/v1/invoice/:id', record: 'invoice', writes: true },
  { method: 'DELETE', path: '/v1/estimate/:id', record: 'estimate', writes: true },
  { method: 'DELETE', path: '/v1/expense/:id', record: 'expense', writes: true },
  { method: 'DELETE', path: '/v1/client/:id', record: 'client', writes: true },
  { method: 'DELETE', path: '/v1/webhook/:id', record: 'webhook', writes: true },
  { method: 'DELETE', path: '/v1/recurring-invoice/:id', record: 'recurring', writes: true },
];

const nameOf = (route: Route) => `${route.method} ${route.path}`;

/** Headers that must not let anyone in, whatever the route. */
const BAD_CREDENTIALS: Array<[string, Record<string, string>]> = [
  ['no key', {}],
  ['a wrong key as Bearer', { Authorization: `Bearer ${WRONG_KEY}` }],
  ['a wrong key as X-API-Key', { 'X-API-Key': WRONG_KEY }],
  ['an empty Bearer', { Authorization: 'Bearer ' }],
  ['an empty X-API-Key', { 'X-API-Key': '' }],
  ['a key without the Bearer scheme', { Authorization: FULL_KEY }],
  [
    'Basic credentials holding the key',
    { Authorization: `Basic ${Buffer.from(`user:${FULL_KEY}`).toString('base64')}` },
  ],
  ['Bearer run into the key', { Authorization: `Bearer${FULL_KEY}` }],
  ['a key with text after it', { Authorization: `Bearer ${FULL_KEY} extra` }],
  [
    'two headers naming different keys',
    { Authorization: `Bearer ${FULL_KEY}`, 'X-API-Key': WRONG_KEY },
  ],
];

/** An agent sending these headers on every request. */
function agentWith(test: TestApp, headers: Record<string, string>): TestAgent {
  return test.agent(headers);
}

function send(
  agent: TestAgent,
  route: Route,
  fixtures: Fixtures,
  method: Route['method'] | 'HEAD' = route.method,
) {
  const path = (route.record ? route.path.replace(':id', fixtures[route.record]) : route.path)
    .replace(':kind', 'invoice')
    .concat(route.query ? `?${route.query}` : '');
  const call =
    method === 'HEAD'
      ? agent.head(path)
      : agent[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path);
  if (route.upload) {
    return call.set('Content-Type', 'application/xml').send(Buffer.from(route.upload()));
  }
  return route.body ? call.send(route.body(fixtures)) : call;
}

async function createFixtures(agent: TestAgent): Promise<Fixtures> {
  // First, so that every change below makes it a delivery.
  const added = await agent.post('/v1/webhook/add').send(webhookInput()).expect(200);
  const webhook = (added.body as { webhook: Array<{ id: string }> }).webhook[0].id;
  const client = await createClient(agent, { country: 'DE' });
  const invoice = (await createInvoice(agent, { client })).id;
  const paidInvoice = (await createInvoice(agent, { client })).id;
  await agent.get(`/v1/invoice/paid/${paidInvoice}`).expect(200);
  const cashInvoice = (await createInvoice(agent, { client })).id;
  await payInvoice(agent, cashInvoice, '10.00');
  const voidableInvoice = (await createInvoice(agent, { client })).id;
  const creditNote = (await addCreditNote(agent, cashInvoice)).credit_note[0].id;
  const estimate = (await createEstimate(agent, { client, estimate_no: estimateNumber() })).id;
  const draftOf = async (kind: 'invoice' | 'estimate'): Promise<string> => {
    const items = [{ description: 'Draft', quantity: 1, rate: '1.00' }];
    const body =
      kind === 'invoice' ? { client, payment_status: 'Not Paid', items } : { client, items };
    const added = await agent
      .post(`/v1/${kind}/add`)
      .send({ ...body, draft: true })
      .expect(200);
    return (added.body as Record<string, Array<{ id: string }>>)[kind][0].id;
  };
  const draftInvoice = await draftOf('invoice');
  const draftEstimate = await draftOf('estimate');
  const expense = await createExpense(agent);
  const importedExpense = (
    (
      await agent
        .post('/v1/expense/import')
        .set('Content-Type', 'application/xml')
        .send(Buffer.from(importedInvoice()))
        .expect(200)
    ).body as { expense: Array<{ id: string }> }
  ).expense[0].id;
  const recurring = (
    (await agent.post('/v1/recurring-invoice/add').send(recurringInvoiceInput(client)).expect(200))
      .body as { recurring_invoice: Array<{ id: string }> }
  ).recurring_invoice[0].id;
  const firstOf = async (path: string): Promise<string> =>
    ((await agent.get(path).expect(200)).body as { data: Array<{ id: string }> }).data[0].id;
  const delivery = await firstOf(`/v1/webhook/${webhook}/deliveries`);
  const event = await firstOf('/v1/event/all');
  return {
    client,
    invoice,
    paidInvoice,
    cashInvoice,
    voidableInvoice,
    creditNote,
    draftInvoice,
    draftEstimate,
    estimate,
    expense,
    importedExpense,
    recurring,
    webhook,
    delivery,
    event,
  };
}

/** `200 success`, or the type of a file answered (`200 application/pdf`). */
const outcome = (response: request.Response) =>
  response.type === 'application/json'
    ? `${response.status} ${(response.body as { status?: string }).status}`
    : `${response.status} ${response.type}`;
const succeeded = (route: Route) => `${nameOf(route)} 200 ${route.file ?? 'success'}`;

/** Everything a route could change, read with a full key. */
async function snapshot(agent: TestAgent, fixtures: Fixtures): Promise<unknown[]> {
  const paths = [
    '/v1/client/all',
    '/v1/invoice/all',
    '/v1/estimate/all',
    '/v1/expense/all',
    '/v1/credit-note/all',
    `/v1/client/${fixtures.client}`,
    `/v1/invoice/${fixtures.invoice}`,
    `/v1/invoice/${fixtures.paidInvoice}`,
    `/v1/invoice/${fixtures.cashInvoice}`,
    `/v1/invoice/${fixtures.voidableInvoice}`,
    `/v1/credit-note/${fixtures.creditNote}`,
    `/v1/estimate/${fixtures.estimate}`,
    `/v1/expense/${fixtures.expense}`,
    `/v1/expense/${fixtures.importedExpense}`,
    '/v1/webhook/all',
    `/v1/webhook/${fixtures.webhook}`,
    `/v1/webhook/${fixtures.webhook}/deliveries`,
    // Every change writes an event: a refused request writes none.
    '/v1/event/all',
  ];
  const responses = await Promise.all(paths.map((path) => agent.get(path)));
  return responses.map((response, index) => [
    paths[index],
    response.status,
    response.body as unknown,
  ]);
}

/** `METHOD path` of every route Express knows under /v1. */
function registeredRoutes(test: TestApp): string[] {
  const express = test.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  return express.router.stack.flatMap(({ route }) =>
    route && route.path.startsWith('/v1/')
      ? Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${route.path}`)
      : [],
  );
}

describe('API keys', () => {
  let warn: jest.SpyInstance<void, [message: unknown, ...rest: unknown[]]>;
  const openWarnings = () =>
    warn.mock.calls.filter(([message]) => typeof message === 'string' && /OPEN/.test(message));
  let test: TestApp;
  let full: TestAgent;
  let readOnly: TestAgent;
  let fixtures: Fixtures;

  beforeAll(async () => {
    // Spied on from here, so what it sees is this app's warnings, not an earlier file's.
    warn = jest.spyOn(Logger.prototype, 'warn');
    test = await createTestApp({
      env: {
        API_KEYS: `${FULL_KEY}, ${SECOND_FULL_KEY}`,
        API_KEYS_READONLY: READ_ONLY_KEY,
        ...EINVOICE_ISSUER_ENV,
        ...WEBHOOK_ENV,
      },
    });
    full = agentWith(test, { Authorization: `Bearer ${FULL_KEY}` });
    readOnly = agentWith(test, { 'X-API-Key': READ_ONLY_KEY });
    fixtures = await createFixtures(full);
  });

  afterAll(async () => {
    warn.mockRestore();
    await test.close();
  });

  it('covers every route under /v1 in this file', () => {
    expect(registeredRoutes(test).sort()).toEqual(ROUTES.map(nameOf).sort());
  });

  it('does not warn of an open API when keys are set', () => {
    expect(openWarnings()).toEqual([]);
  });

  // The key is checked before any handler runs, so no database can change these answers; the
  // MariaDB run still sees 401s (below) and every route called with a full and a read-only key.
  describeWithoutDatabase('refused on every route', () => {
    describe.each(BAD_CREDENTIALS)('%s', (_, headers) => {
      it('answers 401 with WWW-Authenticate on every route and changes nothing', async () => {
        const before = await snapshot(full, fixtures);
        const agent = agentWith(test, headers);
        const answered: string[] = [];
        for (const route of ROUTES) {
          const response = await send(agent, route, fixtures);
          answered.push(`${nameOf(route)} ${response.status}`);
          if (response.status === 401) {
            expectError(response, 401);
            expect(response.headers['www-authenticate']).toBe('Bearer');
          }
        }
        expect(answered).toEqual(ROUTES.map((route) => `${nameOf(route)} 401`));
        expect(await snapshot(full, fixtures)).toEqual(before);
      });
    });
  });

  it('says whether the key was missing or wrong', async () => {
    const missing = await test.http.get('/v1/client/all');
    expect(missing.body).toEqual({ status: 'error', message: 'An API key is required' });
    const wrong = await agentWith(test, { 'X-API-Key': WRONG_KEY }).get('/v1/client/all');
    expect(wrong.body).toEqual({ status: 'error', message: 'Invalid API key' });
  });

  it.each<[string, Record<string, string>]>([
    ['Authorization: Bearer', { Authorization: `Bearer ${FULL_KEY}` }],
    ['Authorization with the scheme in lower case', { Authorization: `bearer ${FULL_KEY}` }],
    ['X-API-Key', { 'X-API-Key': FULL_KEY }],
    [
      'both headers with the same key',
      { Authorization: `Bearer ${FULL_KEY}`, 'X-API-Key': FULL_KEY },
    ],
    ['the second key of API_KEYS', { 'X-API-Key': SECOND_FULL_KEY }],
  ])('accepts a full key given as %s, for reads and writes', async (_, headers) => {
    const agent = agentWith(test, headers);
    await agent.get('/v1/client/all').expect(200);
    const added = await agent.post('/v1/client/add').send(clientInput()).expect(200);
    expect(added.body).toMatchObject({ status: 'success' });
  });

  describe('routes that need no key', () => {
    it('lets the probes through with no key or a wrong one', async () => {
      for (const path of ['/health', '/health/ready']) {
        await test.http.get(path).expect(200);
        await agentWith(test, { Authorization: `Bearer ${WRONG_KEY}` })
          .get(path)
          .expect(200);
      }
    });

    it('asks a key for /metrics unless METRICS_PUBLIC=true', async () => {
      expectError(await test.http.get('/metrics'), 401);
      await readOnly.get('/metrics').expect(200);
      const metricsPublic = await createTestApp({
        env: { API_KEYS: FULL_KEY, METRICS_PUBLIC: 'true' },
        sharedDatabase: true,
      });
      try {
        await metricsPublic.http.get('/metrics').expect(200);
        expectError(await metricsPublic.http.get('/v1/client/all'), 401);
      } finally {
        await metricsPublic.close();
      }
    });
  });

  describe('a read-only key', () => {
    const reads = ROUTES.filter((route) => !route.writes);
    const writes = ROUTES.filter((route) => route.writes);

    it.each(reads.map((route) => [nameOf(route), route] as const))(
      'may call %s, with the answer a full key gets',
      async (_, route) => {
        // A file's bytes are compared (superagent leaves a PDF body empty unless told).
        const read = (agent: TestAgent) => {
          const call = send(agent, route, fixtures);
          return route.file ? call.responseType('blob') : call;
        };
        const asReader = await read(readOnly);
        const asOwner = await read(full);
        expect(asReader.status).toBe(200);
        expect(asReader.type).toBe(route.file ?? 'application/json');
        expect(asReader.body).toEqual(asOwner.body);
        // No read shows a webhook's signing secret, an event's copy of an endpoint included.
        expect(JSON.stringify(asReader.body)).not.toContain('whsec_');
      },
    );

    it('is refused (403) on every write, the state-changing GETs included, and changes nothing', async () => {
      const before = await snapshot(full, fixtures);
      const answered: string[] = [];
      for (const route of writes) {
        const response = await send(readOnly, route, fixtures);
        answered.push(`${nameOf(route)} ${response.status}`);
        if (response.status === 403) {
          expectError(response, 403);
          expect(response.body).toEqual({ status: 'error', message: 'This API key may only read' });
        }
      }
      expect(answered).toEqual(writes.map((route) => `${nameOf(route)} 403`));
      expect(await snapshot(full, fixtures)).toEqual(before);
    });

    it('may HEAD a read, but not a state-changing GET', async () => {
      const paid = ROUTES.find((route) => route.path === '/v1/invoice/paid/:id')!;
      const before = await snapshot(full, fixtures);
      await readOnly.head('/v1/client/all').expect(200);
      await send(readOnly, paid, fixtures, 'HEAD').expect(403);
      expect(await snapshot(full, fixtures)).toEqual(before);
    });
  });

  it('lets a full key call every route', async () => {
    const answered: string[] = [];
    for (const route of ROUTES) {
      answered.push(`${nameOf(route)} ${outcome(await send(full, route, fixtures))}`);
    }
    expect(answered).toEqual(ROUTES.map(succeeded));
  });

  describe('with no key configured', () => {
    let open: TestApp;
    let openFixtures: Fixtures;

    beforeAll(async () => {
      warn.mockClear();
      // A second instance on the same database, started without keys.
      open = await createTestApp({
        env: { ...EINVOICE_ISSUER_ENV, ...WEBHOOK_ENV },
        sharedDatabase: true,
      });
      openFixtures = await createFixtures(open.http);
    });

    afterAll(async () => {
      await open.close();
    });

    it('warns at start-up that the API is open', () => {
      expect(openWarnings()).toHaveLength(1);
    });

    it('lets every request through without a key', async () => {
      const answered: string[] = [];
      for (const route of ROUTES) {
        answered.push(`${nameOf(route)} ${outcome(await send(open.http, route, openFixtures))}`);
      }
      expect(answered).toEqual(ROUTES.map(succeeded));
    });

    it('ignores a key that is given', async () => {
      const agent = agentWith(open, { Authorization: 'Bearer nonsense' });
      await agent.get('/v1/client/all').expect(200);
      await agent.post('/v1/client/add').send(clientInput()).expect(200);
    });
  });
});
