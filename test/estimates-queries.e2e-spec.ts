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

  it('GET /estimate/{id} costs the same for 1 line and no sends as for 40 lines and 5 sends', async () => {
    const small = await createEstimate(test.http, { items: estimateLines(1) });
    const large = await createEstimate(test.http, { items: estimateLines(40, { rate: '2.50' }) });
    for (let send = 0; send < 5; send++)
      await sendEstimate(test.http, large.id, `to${send}@example.com`);
    const detail = await readEstimate(test.http, large.id);
    expect([detail.items.length, detail.send_log.length]).toEqual([40, 5]);

    const smallCount = await queries.measure(get(`/v1/estimate/${small.id}`));
    const largeCount = await queries.measure(get(`/v1/estimate/${large.id}`));

    expect(largeCount).toBe(smallCount);
    // The estimate, its lines, its sends, in one transaction at the most.
    expect(smallCount).toBeGreaterThanOrEqual(3);
    expect(smallCount).toBeLessThanOrEqual(5);
  });

  it('GET /estimate/all costs the same with 2 estimates as with 27', async () => {
    const list = await listEstimates(test.http);
    expect(list).toHaveLength(2);
    const fewCount = await queries.measure(get('/v1/estimate/all'));

    const clients = [await createClient(test.http), await createClient(test.http)];
    for (let index = 0; index < 25; index++) {
      const estimate = await createEstimate(test.http, {
        client: clients[index % 2],
        items: estimateLines(1 + (index % 4)),
      });
      if (index % 5 === 0) await sendEstimate(test.http, estimate.id, 'someone@example.com');
    }
    expect(await listEstimates(test.http)).toHaveLength(27);
    const manyCount = await queries.measure(get('/v1/estimate/all'));

    expect(manyCount).toBe(fewCount);
    expect(fewCount).toBeLessThanOrEqual(3);
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
    // The client, its invoices, its estimates, in one transaction at the most.
    expect(fewCount).toBeLessThanOrEqual(5);
  });
});
