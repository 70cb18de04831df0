import { createClient } from './factories/clients';
import {
  createEstimate,
  estimateInput,
  estimateLines,
  EstimateLineInput,
  EstimateWriteResult,
  listEstimates,
  plainReadLine,
  readEstimate,
} from './factories/estimates';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';

/*
 * The rules estimates share with invoices (docs/rules.md: money, items, client, uniqueness):
 * exact totals in each currency's minor units, defaults, validation, and live-number
 * uniqueness, concurrent adds included.
 */

/** Today's date in UTC, as the service's default issue_date. */
const todayUtc = (): string => new Date().toISOString().slice(0, 10);

describe('Estimates: shared document rules', () => {
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
  });

  afterAll(async () => {
    await test.close();
  });

  const add = (input: object) =>
    test.http.post('/v1/estimate/add').send({ ...estimateInput(client), ...input });

  describe('totals', () => {
    it('rounds each line half away from zero to cents, taxes the sub-total, adds them (USD)', async () => {
      const response = await add({
        tax_rate: '8.25',
        items: [
          { description: 'a', quantity: 3, rate: '10.125' }, // 30.375 → 30.38
          { description: 'b', quantity: '0.5', rate: '0.01' }, // 0.005 → 0.01 (half-even would give 0.00)
          { description: 'c', quantity: 2, rate: '19.99' }, // 39.98
          { description: 'd', quantity: '0.3333', rate: '0.15' }, // 0.049995 → 0.05
        ],
      });
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      // 70.42 × 8.25% = 5.80965 → 5.81.
      expect(body.estimate[0]).toMatchObject({
        currency: 'USD',
        tax_rate: 8.25,
        sub_total: 70.42,
        tax_amount: 5.81,
        total: 76.23,
      });
      const read = await readEstimate(test.http, body.estimate[0].id);
      expect(read.items.map((item) => item.amount)).toEqual(['30.38', '0.01', '39.98', '0.05']);
      expect(read.items.map((item) => item.quantity)).toEqual([3, 0.5, 2, 0.3333]);
    });

    it('rounds tax half away from zero on the sub-total, not per line', async () => {
      // Two lines of 0.10 at 25%: per line 0.025 → 0.03 each (0.06); on the sub-total 0.05.
      const response = await add({
        tax_rate: 25,
        items: [
          { description: 'a', quantity: 1, rate: '0.10' },
          { description: 'b', quantity: 1, rate: '0.10' },
        ],
      });
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toMatchObject({ sub_total: 0.2, tax_amount: 0.05, total: 0.25 });
      expect(response.text).toMatch(/"sub_total":0\.20[,}]/);
    });

    it('keeps no binary floating point anywhere: 3 × 0.1 is 0.30 and large sums stay exact', async () => {
      const response = await add({
        tax_rate: '0.0001',
        items: [
          { description: 'tenths', quantity: 3, rate: '0.1' },
          { description: 'big', quantity: 999, rate: '9999999999.99' }, // 9989999999990.01
        ],
      });
      expectSuccess(response);
      // 9989999999990.31 × 0.0001% = 9989999.99999031 → 9990000.00.
      expect(response.text).toMatch(/"sub_total":9989999999990\.31[,}]/);
      expect(response.text).toMatch(/"tax_amount":9990000\.00[,}]/);
      expect(response.text).toMatch(/"total":9990009989990\.31[,}]/);
      const id = (response.body as EstimateWriteResult).estimate[0].id;
      const read = await test.http.get(`/v1/estimate/${id}`).expect(200);
      expect(read.text).toContain('"amount":"0.30"');
      expect(read.text).toContain('"amount":"9989999999990.01"');
      expect(read.text).toMatch(/"total":9990009989990\.31[,}]/);
    });

    it('prices JPY in whole yen', async () => {
      const response = await add({
        currency: 'jpy',
        tax_rate: 10,
        items: [
          { description: 'half', quantity: 5, rate: '0.5' }, // 2.5 → 3 (half-even would give 2)
          { description: 'flat', quantity: 1, rate: 1500 },
        ],
      });
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      // 1503 × 10% = 150.3 → 150.
      expect(body.estimate[0]).toMatchObject({
        currency: 'JPY',
        sub_total: 1503,
        tax_amount: 150,
        total: 1653,
      });
      expect(response.text).toMatch(/"total":1653[,}]/);
      expect(body.items.map((item) => item.rate)).toEqual(['0.5', '1500']);
      const read = await readEstimate(test.http, body.estimate[0].id);
      expect(read.items.map((item) => [item.rate, item.amount])).toEqual([
        ['0.5', '3'],
        ['1500', '1500'],
      ]);
    });

    it('prices KWD in three decimals', async () => {
      const response = await add({
        currency: 'KWD',
        tax_rate: '5',
        items: [
          { description: 'a', quantity: 3, rate: '1.2345' }, // 3.7035 → 3.704
          { description: 'b', quantity: '0.25', rate: '0.002' }, // 0.0005 → 0.001
          { description: 'c', quantity: 1, rate: 2 },
        ],
      });
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      // 5.705 × 5% = 0.28525 → 0.285.
      expect(body.estimate[0]).toMatchObject({
        currency: 'KWD',
        sub_total: 5.705,
        tax_amount: 0.285,
        total: 5.99,
      });
      expect(response.text).toMatch(/"total":5\.990[,}]/);
      const read = await readEstimate(test.http, body.estimate[0].id);
      expect(read.items.map((item) => [item.rate, item.amount])).toEqual([
        ['1.2345', '3.704'],
        ['0.002', '0.001'],
        ['2.000', '2.000'],
      ]);
    });

    it('accepts tax_rate 100 and a zero rate line', async () => {
      const body = expectSuccess(
        await add({
          tax_rate: 100,
          items: [
            { description: 'free', quantity: 1, rate: 0 },
            { description: 'paid', quantity: 1, rate: '12.34' },
          ],
        }),
      ) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toMatchObject({
        tax_rate: 100,
        sub_total: 12.34,
        tax_amount: 12.34,
        total: 24.68,
      });
    });

    it('answers 422 when a money value would reach 10^13', async () => {
      const response = await add({
        items: [{ description: 'huge', quantity: 1000, rate: '10000000000' }],
      });
      expectValidationError(response, ['items.0.amount', 'total']);
    });
  });

  describe('defaults', () => {
    it('defaults currency to USD, tax_rate to 0, dates to today, texts to "" and accepted to False', async () => {
      const before = todayUtc();
      const response = await test.http.post('/v1/estimate/add').send({
        client,
        estimate_no: 'EST-DEFAULTS',
        items: [{ description: 'x', quantity: 2, rate: '3.5' }],
      });
      const after = todayUtc();
      const body = expectSuccess(response) as unknown as EstimateWriteResult;
      const [estimate] = body.estimate;
      expect(estimate).toMatchObject({
        currency: 'USD',
        tax_rate: 0,
        tax_amount: 0,
        sub_total: 7,
        total: 7,
        description: '',
        note: '',
        accepted: 'False',
      });
      expect(response.text).toMatch(/"tax_rate":0[,}]/);
      expect(response.text).toMatch(/"tax_amount":0\.00[,}]/);
      expect(response.text).toMatch(/"total":7\.00[,}]/);
      expect([before, after]).toContain(estimate.issue_date);
      expect(estimate.due_date).toBe(estimate.issue_date);
    });

    it('defaults due_date to the given issue_date', async () => {
      const body = expectSuccess(
        await add({ issue_date: '2026-07-04' }),
      ) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toMatchObject({ issue_date: '2026-07-04', due_date: '2026-07-04' });
    });

    it('accepts a due date equal to the issue date', async () => {
      const body = expectSuccess(
        await add({ issue_date: '2026-01-31', due_date: '2026-01-31' }),
      ) as unknown as EstimateWriteResult;
      expect(body.estimate[0]).toMatchObject({ issue_date: '2026-01-31', due_date: '2026-01-31' });
    });
  });

  describe('validation', () => {
    it('answers 422 naming due_date when it is before issue_date', async () => {
      expectValidationError(await add({ issue_date: '2026-03-10', due_date: '2026-03-09' }), [
        'due_date',
      ]);
    });

    it('answers 422 when a given due_date is before the default issue date (today)', async () => {
      expectValidationError(await add({ due_date: '2000-01-01' }), ['due_date']);
    });

    it.each([['2026-02-30'], ['2026-13-01'], ['26-01-01'], ['2026/01/01'], ['']])(
      'answers 422 for issue_date %p',
      async (date) => {
        expectValidationError(await add({ issue_date: date }), ['issue_date']);
      },
    );

    it.each([['ABC'], ['US'], ['usdollar'], [''], [840]])(
      'answers 422 for currency %p',
      async (currency) => {
        expectValidationError(await add({ currency }), ['currency']);
      },
    );

    it.each([['-1'], ['100.0001'], ['8.12345'], ['1e1'], ['abc'], ['']])(
      'answers 422 for tax_rate %p',
      async (rate) => {
        expectValidationError(await add({ tax_rate: rate }), ['tax_rate']);
      },
    );

    it('answers 422 for a missing, empty, non-array or over-long items', async () => {
      const { items: _items, ...withoutItems } = estimateInput(client);
      expectValidationError(await test.http.post('/v1/estimate/add').send(withoutItems), ['items']);
      expectValidationError(await add({ items: [] }), ['items']);
      expectValidationError(await add({ items: 'Consulting' }), ['items']);
      expectValidationError(await add({ items: estimateLines(501) }), ['items']);
    });

    it('accepts 500 items and keeps their order', async () => {
      const items = estimateLines(500).map((item, index) => ({ ...item, rate: `${index + 1}.00` }));
      const body = expectSuccess(await add({ items })) as unknown as EstimateWriteResult;
      // 1 + 2 + … + 500 = 125250.
      expect(body.estimate[0]).toMatchObject({ sub_total: 125250, total: 125250 });
      const read = await readEstimate(test.http, body.estimate[0].id);
      expect(read.items).toHaveLength(500);
      expect(read.items.map((item) => item.description)).toEqual(
        items.map((item) => item.description),
      );
      expect(read.items[499]).toEqual(
        plainReadLine({ description: 'Line 500', quantity: 1, rate: '500.00', amount: '500.00' }),
      );
    });

    it.each<[string, EstimateLineInput, string]>([
      ['rate', { rate: 'abc' }, 'items.0.rate'],
      ['rate', { rate: '-0.01' }, 'items.0.rate'],
      ['rate', { rate: '1.23456' }, 'items.0.rate'],
      ['rate', { rate: '1e2' }, 'items.0.rate'],
      ['rate', { rate: '' }, 'items.0.rate'],
      ['quantity', { quantity: 0 }, 'items.0.quantity'],
      ['quantity', { quantity: '-1' }, 'items.0.quantity'],
      ['quantity', { quantity: '1.00001' }, 'items.0.quantity'],
      ['description', { description: '' }, 'items.0.description'],
      ['description', { description: '   ' }, 'items.0.description'],
    ])('keys a bad line %s %p as %s', async (_field, item, key) => {
      const response = await add({
        items: [{ description: 'ok', quantity: 1, rate: '1.00', ...item }],
      });
      expectValidationError(response, [key]);
    });

    it('keys errors in several lines by their index', async () => {
      const response = await add({
        items: [
          { description: 'fine', quantity: 1, rate: '1.00' },
          { description: 'bad rate', quantity: 1, rate: 'x' },
          { quantity: 0, rate: '1.00' },
        ],
      });
      expectValidationError(response, ['items.1.rate', 'items.2.description', 'items.2.quantity']);
    });

    it('keys nested errors the same way on update', async () => {
      const estimate = await createEstimate(test.http, { client });
      const response = await test.http.put(`/v1/estimate/${estimate.id}`).send({
        client,
        estimate_no: estimate.estimate_no,
        items: [
          { description: 'a', quantity: 1, rate: '1' },
          { description: 'b', quantity: 1 },
        ],
      });
      expectValidationError(response, ['items.1.rate']);
    });

    it('answers 422 naming client for an unknown, archived or malformed client', async () => {
      const archived = await createClient(test.http);
      await test.http.delete(`/v1/client/${archived}`).expect(200);
      for (const given of ['999999', archived, 'abc', '']) {
        const response = await test.http.post('/v1/estimate/add').send(estimateInput(given));
        expectValidationError(response, ['client']);
      }
    });

    it('accepts the client id as a JSON number', async () => {
      const body = expectSuccess(
        await test.http
          .post('/v1/estimate/add')
          .send({ ...estimateInput(client), client: Number(client) }),
      ) as unknown as EstimateWriteResult;
      expect(body.estimate[0].customer_id).toBe(client);
    });

    it('creates nothing when it refuses', async () => {
      const before = await listEstimates(test.http);
      await add({
        estimate_no: 'EST-REFUSED',
        issue_date: '2026-03-10',
        due_date: '2026-03-01',
      }).expect(422);
      await add({ estimate_no: 'EST-REFUSED', client: '999999' }).expect(422);
      expect(await listEstimates(test.http)).toEqual(before);
      // The refused number was never taken.
      expectSuccess(await add({ estimate_no: 'EST-REFUSED' }));
    });
  });

  describe('estimate_no uniqueness among live estimates', () => {
    it('answers 409 on add for a number a live estimate has, trimmed or not', async () => {
      await createEstimate(test.http, { client, estimate_no: 'EST-DUP-1' });
      for (const number of ['EST-DUP-1', '  EST-DUP-1 ']) {
        const response = await add({ estimate_no: number });
        expectError(response, 409);
      }
      expect(
        (await listEstimates(test.http)).filter((item) => item.reference_no === 'EST-DUP-1'),
      ).toHaveLength(1);
    });

    it('answers 409 on update to another live estimate number; keeping its own number is fine', async () => {
      const first = await createEstimate(test.http, { client, estimate_no: 'EST-UNIQ-A' });
      const second = await createEstimate(test.http, {
        client,
        estimate_no: 'EST-UNIQ-B',
        note: 'second',
      });

      const clash = await test.http
        .put(`/v1/estimate/${second.id}`)
        .send({ client, estimate_no: 'EST-UNIQ-A', note: 'changed' });
      expectError(clash, 409);
      expect((await readEstimate(test.http, second.id)).estimate[0]).toMatchObject({
        reference_no: 'EST-UNIQ-B',
        note: 'second',
      });

      const same = await test.http
        .put(`/v1/estimate/${first.id}`)
        .send({ client, estimate_no: 'EST-UNIQ-A' });
      expect(expectSuccess(same).estimate).toEqual([
        expect.objectContaining({ estimate_no: 'EST-UNIQ-A' }),
      ]);
    });

    it('lets an archived estimate number be reused, on add and on update', async () => {
      const archived = await createEstimate(test.http, { client, estimate_no: 'EST-REUSE-1' });
      await test.http.delete(`/v1/estimate/${archived.id}`).expect(200);
      const reused = await createEstimate(test.http, { client, estimate_no: 'EST-REUSE-1' });
      expect(reused.id).not.toBe(archived.id);

      const other = await createEstimate(test.http, { client, estimate_no: 'EST-REUSE-2' });
      await test.http.delete(`/v1/estimate/${reused.id}`).expect(200);
      const renamed = await test.http
        .put(`/v1/estimate/${other.id}`)
        .send({ client, estimate_no: 'EST-REUSE-1' });
      expect(expectSuccess(renamed).estimate).toEqual([
        expect.objectContaining({ estimate_no: 'EST-REUSE-1' }),
      ]);

      const live = (await listEstimates(test.http)).filter(
        (item) => item.reference_no === 'EST-REUSE-1',
      );
      expect(live.map((item) => item.id)).toEqual([other.id]);
    });

    it('does not clash with an invoice of the same number', async () => {
      await test.http
        .post('/v1/invoice/add')
        .send({
          client,
          invoice_no: 'SHARED-NO-1',
          payment_status: 'Not Paid',
          items: [{ description: 'x', quantity: 1, rate: '1.00' }],
        })
        .expect(200);
      expectSuccess(await add({ estimate_no: 'SHARED-NO-1' }));
    });

    it('lets exactly one of several parallel adds with one number succeed; the rest answer 409', async () => {
      const clients = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createClient(test.http)));
      const responses = await Promise.all(
        clients.map((owner, index) =>
          test.http.post('/v1/estimate/add').send({
            ...estimateInput(owner),
            estimate_no: 'EST-RACE-1',
            items: [{ description: `racer ${index}`, quantity: 1, rate: '1.00' }],
          }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      for (const response of responses.filter((candidate) => candidate.status === 409))
        expectError(response, 409);

      const winner = responses.find((response) => response.status === 200)!
        .body as EstimateWriteResult;
      const live = (await listEstimates(test.http)).filter(
        (item) => item.reference_no === 'EST-RACE-1',
      );
      expect(live.map((item) => item.id)).toEqual([winner.estimate[0].id]);
      const read = await readEstimate(test.http, winner.estimate[0].id);
      expect(read.items).toEqual([plainReadLine({ ...winner.items[0], amount: '1.00' })]);
    });

    it('lets exactly one of several parallel updates to one number succeed', async () => {
      const estimates = await Promise.all(
        [1, 2, 3, 4].map(() => createEstimate(test.http, { client })),
      );
      const responses = await Promise.all(
        estimates.map((estimate) =>
          test.http.put(`/v1/estimate/${estimate.id}`).send({ client, estimate_no: 'EST-RACE-2' }),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409]);
      const live = (await listEstimates(test.http)).filter(
        (item) => item.reference_no === 'EST-RACE-2',
      );
      expect(live).toHaveLength(1);
    });
  });
});
