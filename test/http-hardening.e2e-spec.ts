import type { Server } from 'node:http';
import net from 'node:net';
import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { createEstimate, estimateInput, estimateLines, readEstimate } from './factories/estimates';
import {
  createInvoice,
  invoiceInput,
  lineItems,
  payInvoice,
  readInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';

/*
 * What the HTTP layer does beyond the routes: one id rule in the path and in the body, the
 * error envelope for what Node refuses before Express sees a request, security headers,
 * timeouts and size limits, and `errors` on every 422.
 */

const TWELVE_NINES = '999999999999';
const THIRTY_NINES = '9'.repeat(30);

/** What came back on a raw socket: the status line, headers, body, and whether it closed. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  closed: boolean;
}

/**
 * Writes `request` to the port as it is and collects everything written back until the server
 * closes the connection, or `deadlineMs` passes (then `closed` is false).
 */
function exchange(port: number, request: string, deadlineMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(deadline);
      socket.destroy();
      resolve(parseRawAnswer(Buffer.concat(chunks).toString('utf8'), closed));
    };
    const deadline = setTimeout(finish, deadlineMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close while the client is still writing: a reset, not a failure here.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
  });
}

function parseRawAnswer(text: string, closed: boolean): RawAnswer {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body: unknown = rest.join('\r\n\r\n');
  try {
    body = JSON.parse(body as string);
  } catch {
    // Left as text: the assertion on it fails with the text in view.
  }
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
    headers,
    body,
    closed,
  };
}

/** Node's refusal in the error envelope, with a body of the declared length, then a close. */
function expectRawError(answer: RawAnswer, status: number): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { status: 'error', message: expect.any(String) },
  });
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['connection']).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(
    Buffer.byteLength(JSON.stringify(answer.body)),
  );
  expect(answer.closed).toBe(true);
}

/** The loopback port a test app listens on (createTestApp listens before it answers). */
function portOf(server: Server): number {
  return (server.address() as net.AddressInfo).port;
}

describe('HTTP hardening', () => {
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
  });

  afterAll(async () => {
    await test.close();
  });

  describe('ids', () => {
    let invoice: string;
    let estimate: string;

    beforeAll(async () => {
      invoice = (await createInvoice(test.http, { client })).id;
      estimate = (await createEstimate(test.http, { client })).id;
    });

    const send = (kind: 'invoice' | 'estimate', id: unknown) =>
      test.http.post(`/v1/${kind}/send`).send({ id, email: 'ids@example.com' });
    const pay = (id: unknown) =>
      test.http
        .post('/v1/invoice/record-payment')
        .send({ id, amount_paid: '1.00', payment_date: '2026-03-10' });

    it.each([TWELVE_NINES, THIRTY_NINES])('answers 404 for the path id %s', async (id) => {
      for (const path of [
        `/v1/invoice/${id}`,
        `/v1/estimate/${id}`,
        `/v1/client/${id}`,
        `/v1/expense/${id}`,
        `/v1/invoice/paid/${id}`,
      ]) {
        expectError(await test.http.get(path), 404);
      }
    });

    it.each([TWELVE_NINES, THIRTY_NINES])(
      'answers 404 for the body id %s, as text and as a JSON number',
      async (id) => {
        const asNumber = (path: string, extra: string) =>
          test.http
            .post(path)
            .set('Content-Type', 'application/json')
            .send(`{"id": ${id}, ${extra}}`);
        const answers = [
          await send('invoice', id),
          await send('estimate', id),
          await pay(id),
          await asNumber('/v1/invoice/send', '"email": "ids@example.com"'),
          await asNumber('/v1/estimate/send', '"email": "ids@example.com"'),
          await asNumber(
            '/v1/invoice/record-payment',
            '"amount_paid": 1, "payment_date": "2026-03-10"',
          ),
        ];
        for (const answer of answers) expectError(answer, 404);
      },
    );

    /** The id with three leading zeros, and zero-padded to 20 and to 64 digits. */
    const padded = (id: string) => [`000${id}`, id.padStart(20, '0'), id.padStart(64, '0')];

    it('reads one record whatever the leading zeros, in the path', async () => {
      for (const [resource, id] of [
        ['invoice', invoice],
        ['estimate', estimate],
        ['client', client],
      ]) {
        const plain = expectSuccess(await test.http.get(`/v1/${resource}/${id}`));
        for (const zeroPadded of padded(id)) {
          expect(expectSuccess(await test.http.get(`/v1/${resource}/${zeroPadded}`))).toEqual(
            plain,
          );
        }
      }
    });

    it('reads one record whatever the leading zeros, in the body', async () => {
      for (const id of padded(invoice)) {
        expectSuccess(await send('invoice', id));
        expectSuccess(await pay(id));
      }
      for (const id of padded(estimate)) expectSuccess(await send('estimate', id));
      const detail = await readInvoice(test.http, invoice);
      expect(detail.send_log).toHaveLength(3);
      expect(detail.payments).toHaveLength(3);
      expect((await readEstimate(test.http, estimate)).send_log).toHaveLength(3);
    });

    it('takes a zero-padded client id as that client', async () => {
      const padded = client.padStart(20, '0');
      const added = expectSuccess(
        await test.http.post('/v1/invoice/add').send(invoiceInput(padded)),
      ) as { invoice: Array<{ customer_id: string }> };
      expect(added.invoice[0].customer_id).toBe(client);
      const listed = expectSuccess(await test.http.get(`/v1/invoice/all?client=${padded}`));
      const plain = expectSuccess(await test.http.get(`/v1/invoice/all?client=${client}`));
      expect(listed.data).toEqual(plain.data);
      expect(expectSuccess(await test.http.get(`/v1/estimate/all?client=${THIRTY_NINES}`))).toEqual(
        { status: 'success', data: [] },
      );
    });

    it('answers 422 naming client for a client id that names no client, whatever its length', async () => {
      for (const unknown of [TWELVE_NINES, THIRTY_NINES, '0']) {
        expectValidationError(await test.http.post('/v1/invoice/add').send(invoiceInput(unknown)), [
          'client',
        ]);
      }
    });

    it.each(['abc', '%ZZ', '%', '%E2%82', '1%2F2'])(
      'answers 404 for the path id %j',
      async (id) => {
        const answers = [
          await test.http.get(`/v1/invoice/${id}`),
          await test.http.put(`/v1/invoice/${id}`).send({ invoice_no: 'X' }),
          await test.http.delete(`/v1/estimate/${id}`),
          await test.http.get(`/v1/invoice/not-paid/${id}`),
          await test.http.post(`/v1/estimate/${id}/convert`).send({ invoice_no: 'X' }),
        ];
        for (const answer of answers) expectError(answer, 404);
      },
    );

    it('answers 404 for an unknown route with broken percent-encoding', async () => {
      expectError(await test.http.get('/v1/nothing/%ZZ'), 404);
      expectError(await test.http.get('/%ZZ'), 404);
    });

    it.each(['abc', '1.5', '-1', ' 1', '', '1e3', '0x1'])(
      'answers 422 naming id for the malformed body id %j',
      async (id) => {
        expectValidationError(await send('invoice', id), ['id']);
        expectValidationError(await send('estimate', id), ['id']);
        expectValidationError(await pay(id), ['id']);
      },
    );
  });

  describe('what Node refuses before Express, in the error envelope', () => {
    let port: number;

    beforeAll(() => {
      port = portOf(test.app.getHttpServer() as Server);
    });

    it('answers 431 for a URL over the header limit', async () => {
      const answer = await exchange(
        port,
        `GET /v1/client/${'1'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expectRawError(answer, 431);
    });

    it('answers 431 for headers over the limit', async () => {
      const answer = await exchange(
        port,
        `GET /v1/client/all HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expectRawError(answer, 431);
    });

    it.each([
      ['a malformed request line', 'GARBAGE\r\n\r\n'],
      ['an unknown HTTP version', 'GET /v1/client/all HTTP/9.9\r\nHost: x\r\n\r\n'],
      ['a space inside the target', 'GET /v1/client all HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['a control character in the target', 'GET /v1/\u0001 HTTP/1.1\r\nHost: x\r\n\r\n'],
      [
        'a header without a colon',
        'GET /v1/client/all HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n',
      ],
      [
        'a bad Content-Length',
        'POST /v1/client/add HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      ],
    ])('answers 400 for %s', async (_, request) => {
      expectRawError(await exchange(port, request), 400);
    });

    it('answers 400 for HTTP/1.1 without Host and 417 for an Expect it cannot meet', async () => {
      const withoutHost = await exchange(
        port,
        'GET /v1/client/all HTTP/1.1\r\nConnection: close\r\n\r\n',
      );
      const expectation = await exchange(
        port,
        'GET /v1/client/all HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n',
      );
      expectRawError(withoutHost, 400);
      expectRawError(expectation, 417);
      // These reach the app, so they carry its headers too.
      expect(expectation.headers['x-content-type-options']).toBe('nosniff');
    });

    it('answers a well-formed request on the same port as usual', async () => {
      const answer = await exchange(
        port,
        'GET /v1/client/all HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'success' });
    });
  });

  describe('timeouts', () => {
    let slow: TestApp;
    let server: Server;
    let port: number;

    beforeAll(async () => {
      slow = await createTestApp({
        env: { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000' },
        sharedDatabase: true,
      });
      server = slow.app.getHttpServer() as Server;
      port = portOf(server);
    });

    afterAll(async () => {
      await slow.close();
    });

    it('takes its timeouts from the configuration and keeps idle connections 65 s', () => {
      expect({
        requestTimeout: server.requestTimeout,
        headersTimeout: server.headersTimeout,
        keepAliveTimeout: server.keepAliveTimeout,
      }).toEqual({ requestTimeout: 1000, headersTimeout: 1000, keepAliveTimeout: 65_000 });
    });

    it('answers 408 in the envelope when the headers or the body do not arrive in time', async () => {
      const [headers, body] = await Promise.all([
        exchange(port, 'GET /v1/client/all HTTP/1.1\r\nHost: x\r\n'),
        exchange(
          port,
          'POST /v1/client/add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            'Content-Length: 100\r\n\r\n{"names": ',
        ),
      ]);
      expectRawError(headers, 408);
      expectRawError(body, 408);
    });
  });

  describe('headers', () => {
    it('answers without X-Powered-By and with helmet’s headers, failures included', async () => {
      const answers: Response[] = [
        await test.http.get('/v1/client/all'),
        await test.http.get('/v1/nothing-here'),
        await test.http.post('/v1/client/add').send({}),
        await test.http.get('/v1/invoice/%ZZ'),
      ];
      for (const answer of answers) {
        expect(answer.headers['x-powered-by']).toBeUndefined();
        expect(answer.headers).toMatchObject({
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'SAMEORIGIN',
          'strict-transport-security': expect.stringContaining('max-age='),
          'content-security-policy': expect.stringContaining("default-src 'self'"),
        });
        // Plain HTTP: nothing tells the browser to fetch the /docs assets over https.
        expect(answer.headers['content-security-policy']).not.toContain(
          'upgrade-insecure-requests',
        );
      }
    });

    it('lets the /docs page load under its Content-Security-Policy', async () => {
      const page = await test.http.get('/docs');
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
      // script-src 'self' refuses inline scripts: every script of the page is a file…
      const scripts = [...page.text.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attributes of scripts) expect(attributes).toMatch(/src="/);
      // …served from this origin, as are its styles and icons.
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
      for (const asset of assets) {
        const path = asset.replace(/^\./, '');
        expect(path).toMatch(/^\/(?!\/)/);
        expect({ asset, status: (await test.http.get(path)).status }).toEqual({
          asset,
          status: 200,
        });
      }
    });
  });

  describe('size limits', () => {
    it('answers 413 for a JSON body over the limit', async () => {
      const response = await test.http
        .post('/v1/client/add')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ names: 'x'.repeat(1_100_000) }));
      expectError(response, 413);
    });

    it('answers 413 for a URL-encoded body over the limit', async () => {
      const response = await test.http
        .post('/v1/client/add')
        .type('form')
        .send(`names=${'x'.repeat(1_100_000)}`);
      expectError(response, 413);
    });

    it('answers 413 for a multipart body over the limit, though each field is small', async () => {
      const form = test.http.post('/v1/client/add').field('names', 'Many Fields');
      for (let index = 0; index < 40; index += 1) form.field(`note${index}`, 'x'.repeat(50_000));
      expectError(await form, 413);
      const clients = expectSuccess(await test.http.get('/v1/client/all'));
      expect(JSON.stringify(clients)).not.toContain('Many Fields');
    });

    it('answers 413 for a chunked multipart body over the limit', async () => {
      const boundary = 'chunked-boundary';
      const part = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const chunks = [part('names', 'Chunked Many')];
      for (let index = 0; index < 40; index += 1)
        chunks.push(part(`n${index}`, 'y'.repeat(50_000)));
      chunks.push(`--${boundary}--\r\n`);
      const body = chunks.map((chunk) => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
      const answer = await exchange(
        portOf(test.app.getHttpServer() as Server),
        'POST /v1/client/add HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n' +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
          `Transfer-Encoding: chunked\r\n\r\n${body}0\r\n\r\n`,
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ status: 'error', message: expect.any(String) });
      const clients = expectSuccess(await test.http.get('/v1/client/all'));
      expect(JSON.stringify(clients)).not.toContain('Chunked Many');
    });

    it('takes 500 line items and refuses 501 with 422 naming items, on add and update', async () => {
      const invoice = await createInvoice(test.http, { client, items: lineItems(500) });
      const estimate = await createEstimate(test.http, { client, items: estimateLines(500) });
      expect((await readInvoice(test.http, invoice.id)).items).toHaveLength(500);
      expect((await readEstimate(test.http, estimate.id)).items).toHaveLength(500);

      const refused = [
        await test.http
          .post('/v1/invoice/add')
          .send(invoiceInput(client, { items: lineItems(501) })),
        await test.http
          .put(`/v1/invoice/${invoice.id}`)
          .send(invoiceInput(client, { items: lineItems(501) })),
        await test.http
          .post('/v1/estimate/add')
          .send(estimateInput(client, { items: estimateLines(501) })),
        await test.http
          .put(`/v1/estimate/${estimate.id}`)
          .send(estimateInput(client, { items: estimateLines(501) })),
      ];
      for (const answer of refused) expectValidationError(answer, ['items']);

      const updatedInvoice = await test.http
        .put(`/v1/invoice/${invoice.id}`)
        .send(invoiceInput(client, { items: lineItems(500, { rate: '2.00' }) }));
      const updatedEstimate = await test.http
        .put(`/v1/estimate/${estimate.id}`)
        .send(estimateInput(client, { items: estimateLines(500, { rate: '2.00' }) }));
      expect(expectSuccess(updatedInvoice)).toMatchObject({ invoice: [{ total: 1000 }] });
      expect(expectSuccess(updatedEstimate)).toMatchObject({ estimate: [{ total: 1000 }] });
    });
  });

  describe('every 422 names its field', () => {
    const update = (id: string, input: object) =>
      test.http.put(`/v1/invoice/${id}`).send(invoiceInput(client, input));

    it('names items, or tax_rate, when an update brings the total below the amount paid', async () => {
      const invoice = await createInvoice(test.http, {
        client,
        tax_rate: 10,
        items: [{ description: 'Work', quantity: 1, rate: '100' }],
      });
      await payInvoice(test.http, invoice.id, '105.00');

      expectValidationError(
        await update(invoice.id, {
          tax_rate: 10,
          items: [{ description: 'Work', quantity: 1, rate: '50' }],
        }),
        ['items', 'tax_rate'],
      );
      const { items: _kept, ...withoutItems } = invoiceInput(client, { tax_rate: 0 });
      expectValidationError(await test.http.put(`/v1/invoice/${invoice.id}`).send(withoutItems), [
        'tax_rate',
      ]);
      expect((await readInvoice(test.http, invoice.id)).invoice[0]).toMatchObject({
        total: 110,
        amount_paid: '105.00',
      });
    });

    it('names amount_paid for an overpayment and for too many decimals', async () => {
      const invoice = await createInvoice(test.http, { client });
      expectValidationError(
        await test.http
          .post('/v1/invoice/record-payment')
          .send({ id: invoice.id, amount_paid: '100.01', payment_date: '2026-03-10' }),
        ['amount_paid'],
      );
      expectValidationError(
        await test.http
          .post('/v1/invoice/record-payment')
          .send({ id: invoice.id, amount_paid: '1.001', payment_date: '2026-03-10' }),
        ['amount_paid'],
      );
    });

    it('names currency when it would change after a payment', async () => {
      const invoice = await createInvoice(test.http, { client });
      await payInvoice(test.http, invoice.id, '1.00');
      expectValidationError(await update(invoice.id, { currency: 'EUR' }), ['currency']);
    });

    it('names client for an unknown or archived client, on add, update and conversion', async () => {
      const archived = await createClient(test.http);
      const estimate = await createEstimate(test.http, { client: archived });
      const invoice = await createInvoice(test.http, { client });
      await test.http.delete(`/v1/client/${archived}`).expect(200);

      expectValidationError(await test.http.post('/v1/invoice/add').send(invoiceInput(archived)), [
        'client',
      ]);
      expectValidationError(
        await test.http.post('/v1/estimate/add').send(estimateInput(archived)),
        ['client'],
      );
      expectValidationError(await update(invoice.id, { client: archived }), ['client']);
      expectValidationError(
        await test.http.post(`/v1/estimate/${estimate.id}/convert`).send({ invoice_no: 'CONV-1' }),
        ['client'],
      );
    });

    it('names due_date when it is before issue_date', async () => {
      expectValidationError(
        await test.http
          .post('/v1/invoice/add')
          .send(invoiceInput(client, { issue_date: '2026-03-10', due_date: '2026-03-09' })),
        ['due_date'],
      );
    });
  });
});
