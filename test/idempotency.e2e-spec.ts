import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { createHash, randomBytes } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { IdempotencyJanitor } from '../src/idempotency/idempotency-janitor';
import { IdempotencyStore } from '../src/idempotency/idempotency-store';
import { IdempotencyInterceptor } from '../src/idempotency/idempotency.interceptor';
import { LedgerService } from '../src/ledger/ledger.service';
import { createClient } from './factories/clients';
import { createInvoice, invoiceInput, readInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectValidationError } from './setup/expectations';

/*
 * Idempotency-Key (docs/api.md): the first completed answer is kept 24 hours and
 * replayed for the same request; another request with the key, or one while the first runs,
 * answers 409; keys are scoped per API key; a failed request keeps nothing.
 */
const KEY_A = `idem-a-${randomBytes(16).toString('hex')}`;
const KEY_B = `idem-b-${randomBytes(16).toString('hex')}`;

/** As a DATETIME(3) column takes it, on either database. */
const instant = (date: Date): string => date.toISOString().replace('T', ' ').slice(0, 23);

const newKey = (): string => `key-${randomBytes(8).toString('hex')}`;

describe('Idempotency-Key', () => {
  let test: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    // Open (no API key): every key of this app is in the scope ''. 'scopes keys per API key'
    // starts a second instance with keys on the same database.
    test = await createTestApp();
    dataSource = test.app.get(DataSource);
  });

  afterAll(async () => {
    await test.close();
  });

  const newInvoice = async () => {
    const client = await createClient(test.http);
    return createInvoice(test.http, { client });
  };

  const pay = (id: string, key: string | null, amount = '10.00', agent: TestAgent = test.http) => {
    const request = agent
      .post('/v1/invoice/record-payment')
      .send({ id, amount_paid: amount, payment_date: '2026-03-10' });
    return key === null ? request : request.set('Idempotency-Key', key);
  };

  const paymentsOf = async (id: string) => (await readInvoice(test.http, id)).payments;

  const record = async (key: string) =>
    dataSource.query<Array<{ state: string; response_status: number }>>(
      'SELECT state, response_status FROM idempotency_keys WHERE key_digest = ?',
      [createHash('sha256').update(key).digest('hex')],
    );

  it('replays the first answer, status and body, with Idempotent-Replayed: true', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    const first = await pay(invoice.id, key);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    for (let retry = 0; retry < 3; retry++) {
      const again = await pay(invoice.id, key);
      expect(again.status).toBe(first.status);
      expect(again.text).toBe(first.text);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(again.headers['idempotent-replayed']).toBe('true');
    }
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
    expect(await record(key)).toEqual([{ state: 'completed', response_status: 200 }]);
  });

  it('replays an add and an update instead of running them again', async () => {
    const client = await createClient(test.http);
    const input = invoiceInput(client);
    const key = newKey();
    const added = await test.http
      .post('/v1/invoice/add')

      .set('Idempotency-Key', key)
      .send(input);
    expect(added.status).toBe(200);
    // Run again, the same number would answer 409.
    const retried = await test.http
      .post('/v1/invoice/add')

      .set('Idempotency-Key', key)
      .send(input);
    expect(retried.status).toBe(200);
    expect(retried.text).toBe(added.text);
    expect(retried.headers['idempotent-replayed']).toBe('true');

    const id = (added.body as { invoice: Array<{ id: string }> }).invoice[0].id;
    const update = { ...input, note: 'updated once' };
    const updateKey = newKey();
    const updated = await test.http
      .put(`/v1/invoice/${id}`)

      .set('Idempotency-Key', updateKey)
      .send(update);
    expect(updated.status).toBe(200);
    // A change in between: the replay is the first answer, not a new read.
    await test.http
      .put(`/v1/invoice/${id}`)

      .send({ ...update, note: 'changed since' })
      .expect(200);
    const replayed = await test.http
      .put(`/v1/invoice/${id}`)

      .set('Idempotency-Key', updateKey)
      .send(update);
    expect(replayed.text).toBe(updated.text);
    expect((await readInvoice(test.http, id)).invoice[0].note).toBe('changed since');
  });

  it('counts the same parameters in another key order, or as a form, as the same request', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    await test.http
      .post('/v1/invoice/record-payment')

      .set('Idempotency-Key', key)
      .send({ id: invoice.id, amount_paid: '5.00', payment_date: '2026-03-10' })
      .expect(200);
    const reordered = await test.http
      .post('/v1/invoice/record-payment')

      .set('Idempotency-Key', key)
      .send({ payment_date: '2026-03-10', amount_paid: '5.00', id: invoice.id });
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    const form = await test.http
      .post('/v1/invoice/record-payment')

      .set('Idempotency-Key', key)
      .type('form')
      .send(`id=${invoice.id}&amount_paid=5.00&payment_date=2026-03-10`);
    expect(form.headers['idempotent-replayed']).toBe('true');
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('answers 409 to a different request with a used key, and changes nothing', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    await pay(invoice.id, key, '10.00').expect(200);
    const before = await readInvoice(test.http, invoice.id);

    const other = await pay(invoice.id, key, '20.00');
    expectError(other, 409);
    expect(other.body).toEqual({
      status: 'error',
      message: 'This Idempotency-Key was used for a different request',
    });
    const elsewhere = await test.http
      .post('/v1/client/add')

      .set('Idempotency-Key', key)
      .send({ names: 'Other request' });
    expectError(elsewhere, 409);
    expect(await readInvoice(test.http, invoice.id)).toEqual(before);
  });

  it('keeps nothing for a refused request, so a corrected retry with the key goes through', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    expectValidationError(await pay(invoice.id, key, 'ten'), ['amount_paid']);
    // Overpayment: refused by the service, after validation.
    expectError(await pay(invoice.id, key, '1000.00'), 422);
    expectError(await pay('999999', key), 404);
    expect(await record(key)).toEqual([]);

    const corrected = await pay(invoice.id, key, '10.00');
    expect(corrected.status).toBe(200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const original = LedgerService.prototype.recordPayment;
    const spy = jest
      .spyOn(LedgerService.prototype, 'recordPayment')
      .mockImplementationOnce(async function (this: LedgerService, ...args) {
        entered();
        await gate;
        return original.apply(this, args);
      });
    try {
      const first = pay(invoice.id, key).then((response) => response);
      await inside;
      const during = await pay(invoice.id, key);
      expectError(during, 409);
      expect(during.body).toEqual({
        status: 'error',
        message: 'A request with this Idempotency-Key is still running; retry once it has answered',
      });
      release();
      const answered = await first;
      expect(answered.status).toBe(200);
      const after = await pay(invoice.id, key);
      expect(after.text).toBe(answered.text);
      expect(after.headers['idempotent-replayed']).toBe('true');
      expect(await paymentsOf(invoice.id)).toHaveLength(1);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('writes the record and keeps its answer in one transaction: neither survives without the other', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    const store = test.app.get(IdempotencyStore);
    const spy = jest.spyOn(store, 'complete').mockRejectedValueOnce(new Error('lost mid-commit'));
    try {
      const failed = await pay(invoice.id, key);
      expectError(failed, 500);
      expect(failed.body).toEqual({ status: 'error', message: 'Internal server error' });
    } finally {
      spy.mockRestore();
    }
    // The payment was written before the answer was kept, and rolled back with it.
    expect(await paymentsOf(invoice.id)).toHaveLength(0);
    expect(await record(key)).toEqual([]);
    await pay(invoice.id, key).expect(200);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('scopes keys per API key', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    const keyed = await createTestApp({
      env: { API_KEYS: `${KEY_A},${KEY_B}` },
      sharedDatabase: true,
    });
    try {
      const agent = (apiKey: string) => keyed.agent({ Authorization: `Bearer ${apiKey}` });
      const answers = [
        await pay(invoice.id, key, '10.00', agent(KEY_A)),
        await pay(invoice.id, key, '10.00', agent(KEY_B)),
        await pay(invoice.id, key),
        await pay(invoice.id, key, '10.00', agent(KEY_A)),
      ];
      expect(
        answers.map((answer) => [answer.status, answer.headers['idempotent-replayed']]),
      ).toEqual([
        [200, undefined],
        [200, undefined],
        [200, undefined],
        [200, 'true'],
      ]);
    } finally {
      await keyed.close();
    }
    expect(await paymentsOf(invoice.id)).toHaveLength(3);
  });

  it('takes over a claim whose instance died, once its lease has run out', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    const digest = createHash('sha256').update(key).digest('hex');
    const scope = '';
    const insert = (expires: Date) =>
      dataSource.query(
        `INSERT INTO idempotency_keys (scope, key_digest, fingerprint, state, taken_at, expires_at) VALUES (?, ?, ?, 'running', ?, ?)`,
        [scope, digest, 'f'.repeat(64), instant(new Date(Date.now() - 1000)), instant(expires)],
      );
    await insert(new Date(Date.now() + 60_000));
    expectError(await pay(invoice.id, key), 409);
    expect(await paymentsOf(invoice.id)).toHaveLength(0);

    await dataSource.query('DELETE FROM idempotency_keys WHERE key_digest = ?', [digest]);
    await insert(new Date(Date.now() - 1000));
    await pay(invoice.id, key).expect(200);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('forgets a key after 24 hours: the request runs again, and the hourly sweep removes it', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    const digest = createHash('sha256').update(key).digest('hex');
    const expiry = async () => {
      const rows = await dataSource.query<Array<{ expires_at: Date | string }>>(
        'SELECT expires_at FROM idempotency_keys WHERE key_digest = ?',
        [digest],
      );
      // MySQL hands a Date back, SQLite the UTC text it keeps.
      return rows.map(({ expires_at: at }) =>
        at instanceof Date ? at.getTime() : Date.parse(`${at.replace(' ', 'T')}Z`),
      );
    };
    const expire = () =>
      dataSource.query('UPDATE idempotency_keys SET expires_at = ? WHERE key_digest = ?', [
        instant(new Date(Date.now() - 1000)),
        digest,
      ]);
    await pay(invoice.id, key).expect(200);
    const [kept] = await expiry();
    expect(kept - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(kept - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    // Past its 24 hours, not yet swept: the key is free again.
    await expire();
    const again = await pay(invoice.id, key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await paymentsOf(invoice.id)).toHaveLength(2);

    const live = newKey();
    await pay(invoice.id, live).expect(200);
    await expire();
    await test.app.get(IdempotencyJanitor).sweep();
    expect(await expiry()).toEqual([]);
    expect(await record(live)).toEqual([{ state: 'completed', response_status: 200 }]);
  });

  it('refuses a key over 255 characters, or an empty one, with 422 naming the header', async () => {
    const invoice = await newInvoice();
    for (const key of ['k'.repeat(256), '']) {
      expectValidationError(await pay(invoice.id, key), ['Idempotency-Key']);
    }
    await pay(invoice.id, 'k'.repeat(255)).expect(200);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('leaves GET alone', async () => {
    const invoice = await newInvoice();
    const key = newKey();
    const read = await test.http
      .get(`/v1/invoice/${invoice.id}`)

      .set('Idempotency-Key', key);
    expect(read.status).toBe(200);
    expect(read.headers['idempotent-replayed']).toBeUndefined();
    expect(await record(key)).toEqual([]);
  });

  it('is on every POST and PUT route, and on no other', () => {
    const routes: string[] = [];
    for (const module of test.app.get(ModulesContainer).values()) {
      for (const controller of module.controllers.values()) {
        const prototype = (controller.metatype as { prototype: object }).prototype;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = (prototype as Record<string, unknown>)[name];
          const method = Reflect.getMetadata(METHOD_METADATA, handler as object) as
            RequestMethod | undefined;
          if (name === 'constructor' || method === undefined) continue;
          const keyed = [RequestMethod.POST, RequestMethod.PUT].includes(method);
          const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler as object) ??
            []) as unknown[];
          expect([
            `${controller.name}.${name}`,
            interceptors.includes(IdempotencyInterceptor),
          ]).toEqual([`${controller.name}.${name}`, keyed]);
          if (keyed) routes.push(name);
        }
      }
    }
    expect(routes.length).toBeGreaterThanOrEqual(20);
  });
});
