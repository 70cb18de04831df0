import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { createInvoice, readInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError } from './setup/expectations';

/*
 * A path the API has, asked with a method none of its routes takes, answers 405 with Allow
 * (src/http/method-not-allowed.middleware.ts; docs/decisions.md, "Wrong method"). Path ids are
 * digits, so a route name where an id would be (`/invoice/add`) is that route's path, not an id.
 */

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';

function expectMethodNotAllowed(response: Response, allow: string): void {
  expect({ status: response.status, allow: response.headers.allow }).toEqual({
    status: 405,
    allow,
  });
  expect(response.headers['x-request-id']).toEqual(expect.any(String));
  if (response.request.method !== 'HEAD') {
    expectError(response, 405);
    expect((response.body as { message: string }).message).toContain(allow);
  }
}

describe('a known path with a method it does not take', () => {
  let test: TestApp;
  let invoice: string;

  beforeAll(async () => {
    test = await createTestApp();
    const client = await createClient(test.http);
    invoice = (await createInvoice(test.http, { client })).id;
  });

  afterAll(async () => {
    await test.close();
  });

  const send = (method: Method, path: string) => test.http[method](path);

  it.each<[Method, string, string]>([
    ['get', '/v1/invoice/add', 'POST'],
    ['get', '/v1/invoice/send', 'POST'],
    ['head', '/v1/invoice/record-payment', 'POST'],
    ['delete', '/v1/invoice/all', 'GET, HEAD'],
    ['put', '/v1/client/all', 'GET, HEAD'],
    ['post', '/v1/client/all', 'GET, HEAD'],
    ['options', '/v1/invoice/all', 'GET, HEAD'],
    ['patch', '/v1/client/1', 'GET, HEAD, PUT, DELETE'],
    ['post', '/v1/expense/1', 'GET, HEAD, PUT, DELETE'],
    ['get', '/v1/invoice/1/void', 'POST'],
    ['delete', '/V1/Invoice/All/', 'GET, HEAD'],
    ['post', '/health', 'GET, HEAD'],
  ])('answers %s %s 405 with Allow: %s', async (method, path, allow) => {
    expectMethodNotAllowed(await send(method, path), allow);
  });

  it('refuses a write with the wrong method without doing anything', async () => {
    const before = await readInvoice(test.http, invoice);
    expectMethodNotAllowed(
      await test.http.post(`/v1/invoice/${invoice}`).send({ invoice_no: 'CHANGED' }),
      'GET, HEAD, PUT, DELETE',
    );
    expectMethodNotAllowed(await test.http.delete('/v1/invoice/all'), 'GET, HEAD');
    expect(await readInvoice(test.http, invoice)).toEqual(before);
    const list = await test.http.get('/v1/invoice/all').expect(200);
    expect((list.body as { data: Array<{ id: string }> }).data.map((row) => row.id)).toEqual([
      invoice,
    ]);
  });

  it.each<[Method, string]>([
    ['get', '/v1/invoice/abc'],
    ['get', '/v1/invoice/paid'],
    ['post', '/v1/invoice/abc/void'],
    ['delete', '/v1/invoice/%61ll'],
    ['get', '/v1/invoice/999999'],
    ['get', '/v1/nothing-here'],
    ['patch', '/v1/nothing-here/1'],
  ])(
    'still answers %s %s 404: no path of the API, or an id that is not one',
    async (method, path) => {
      const response = await send(method, path);
      expectError(response, 404);
      expect(response.headers.allow).toBeUndefined();
    },
  );

  it('answers 405 before asking for an API key', async () => {
    const keyed = await createTestApp({
      env: { API_KEYS: 'method-check-key-0123456789' },
      sharedDatabase: true,
    });
    try {
      expectMethodNotAllowed(await keyed.http.delete('/v1/invoice/all'), 'GET, HEAD');
      expect((await keyed.http.get('/v1/invoice/all')).status).toBe(401);
    } finally {
      await keyed.close();
    }
  });
});
