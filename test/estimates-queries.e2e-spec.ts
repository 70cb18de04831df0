import { createClient } from './factories/clients';
import {
  clientEstimates,
  createEstimate,
  estimateLines,
  listEstimates,
  readEstimate,
  sendEstimate,
} from './factories/estimates';
import { createTestApp, TestApp } from './setup/create-app';
import { QueryCounter } from './setup/query-counter';

/*
 * A read costs a fixed number of statements, whatever the estimate holds and however long the
 * list is (STYLE.md 11): the count for a small case equals the count for a large one.
 */
describe('Estimates: queries per read', () => {
  let test: TestApp;
  let queries: QueryCounter;

  beforeAll(async () => {
    test = await createTestApp();
    queries = new QueryCounter(test.app);
  });

  afterAll(async () => {
    queries.restore();
    await test.close();
  });

  const get = (path: string) => () => test.http.get(path).expect(200);

  it('GET /estimate/{id} is one statement without sends, whatever its lines', async () => {
    const small = await createEstimate(test.http, { items: estimateLines(1) });
    const large = await createEstimate(test.http, { items: estimateLines(40, { rate: '2.50' }) });
    expect((await readEstimate(test.http, large.id)).items).toHaveLength(40);

    // The estimate, its lines and its sends in one statement: no transaction needed.
    expect(await queries.measure(get(`/v1/estimate/${small.id}`))).toBe(1);
    expect(await queries.measure(get(`/v1/estimate/${large.id}`))).toBe(1);
  });

  it('GET /estimate/{id} is two statements once sent (the delivery states), however many sends', async () => {
    const once = await createEstimate(test.http, { items: estimateLines(1) });
    await sendEstimate(test.http, once.id, 'first@example.com');
    const often = await createEstimate(test.http, { items: estimateLines(40, { rate: '2.50' }) });
    for (let send = 0; send < 5; send++)
      await sendEstimate(test.http, often.id, `to${send}@example.com`);
    const detail = await readEstimate(test.http, often.id);
    expect([detail.items.length, detail.send_log.length]).toEqual([40, 5]);

    expect(await queries.measure(get(`/v1/estimate/${once.id}`))).toBe(2);
    expect(await queries.measure(get(`/v1/estimate/${often.id}`))).toBe(2);
  });

  it('GET /estimate/all costs the same with 4 estimates as with 29', async () => {
    const list = await listEstimates(test.http);
    expect(list).toHaveLength(4);
    const fewCount = await queries.measure(get('/v1/estimate/all'));

    const clients = [await createClient(test.http), await createClient(test.http)];
    for (let index = 0; index < 25; index++) {
      const estimate = await createEstimate(test.http, {
        client: clients[index % 2],
        items: estimateLines(1 + (index % 4)),
      });
      if (index % 5 === 0) await sendEstimate(test.http, estimate.id, 'someone@example.com');
    }
    expect(await listEstimates(test.http)).toHaveLength(29);
    const manyCount = await queries.measure(get('/v1/estimate/all'));

    expect(manyCount).toBe(fewCount);
    expect(fewCount).toBe(1);
  });

  it('GET /client/{id} costs the same with 1 estimate as with 15, whatever their lines', async () => {
    const few = await createClient(test.http);
    await createEstimate(test.http, { client: few });
    const many = await createClient(test.http);
    for (let index = 0; index < 15; index++) {
      await createEstimate(test.http, { client: many, items: estimateLines(1 + (index % 6)) });
    }
    expect(await clientEstimates(test.http, few)).toHaveLength(1);
    expect(await clientEstimates(test.http, many)).toHaveLength(15);

    const fewCount = await queries.measure(get(`/v1/client/${few}`));
    const manyCount = await queries.measure(get(`/v1/client/${many}`));

    expect(manyCount).toBe(fewCount);
    // The client, its invoices, its estimates: one statement each, no transaction.
    expect(fewCount).toBe(3);
  });
});
