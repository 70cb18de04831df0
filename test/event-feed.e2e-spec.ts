import { DataSource, QueryRunner } from 'typeorm';
import { createClient } from './factories/clients';
import { createTestApp, TestApp } from './setup/create-app';
import { testDialect } from './setup/test-database';
import { TestClock } from './setup/test-clock';

/*
 * The feed (GET /event/all?after=…) never passes over an event that commits late. MySQL hands
 * out an id when a transaction inserts, and transactions commit in any order: here a
 * transaction holds event N uncommitted while event N+1 commits. A poller that had read N+1
 * and gone on from it would never see N; the feed stops before N until it is committed, or,
 * rolled back, until the gap is older than any transaction may stay open.
 */

/** DATABASE_QUERY_TIMEOUT_MS's default: events written 20 s ago are final whatever their ids. */
const QUERY_TIMEOUT_MS = 10_000;

interface FeedPage {
  data: { id: string; type: string }[];
  meta: { per_page: number; next_after: string | null };
}

describe('the event feed', () => {
  let t: TestApp;
  const clock = new TestClock();

  beforeAll(async () => {
    t = await createTestApp({
      clock,
      env: { DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  const feed = async (after: string): Promise<FeedPage> => {
    const response = await t.http.get(`/v1/event/all?after=${after}&per_page=100`).expect(200);
    return response.body as FeedPage;
  };

  const ids = (page: FeedPage) => page.data.map((event) => Number(event.id));

  /** A transaction of its own that wrote an event and neither committed nor rolled back. */
  async function uncommittedEvent(): Promise<{ runner: QueryRunner; id: number }> {
    const runner = t.app.get(DataSource).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query(
      `INSERT INTO events (type, created_at, actor, object, object_id, data, changes)
       VALUES ('client.updated', ?, 'open', 'client', 1, '{}', '{}')`,
      [new Date()],
    );
    const [{ id }] = (await runner.query('SELECT LAST_INSERT_ID() AS id')) as { id: number }[];
    return { runner, id: Number(id) };
  }

  it('walks every committed event once, in id order, and says when it has caught up', async () => {
    for (let index = 0; index < 5; index++) await createClient(t.http);
    const first = await feed('0');
    expect(first.data.map((event) => event.type)).toEqual(Array(5).fill('client.created'));
    expect(ids(first)).toEqual([...ids(first)].sort((a, b) => a - b));
    expect(first.meta.next_after).toBeNull();
    const last = String(ids(first)[4]);
    expect((await feed(last)).data).toEqual([]);
    const two = await t.http.get(`/v1/event/all?after=0&per_page=2`).expect(200);
    expect((two.body as FeedPage).meta.next_after).toBe(String(ids(first)[1]));
  });

  if (testDialect() === 'mysql') {
    it('stops before an event still being committed, and goes on once it is', async () => {
      const before = ids(await feed('0'));
      const seen = before[before.length - 1];
      const pending = await uncommittedEvent();
      try {
        await createClient(t.http);
        // Committed after the pending one took its id: held back, not skipped.
        expect(ids(await feed(String(seen)))).toEqual([]);
        await pending.runner.commitTransaction();
        const page = ids(await feed(String(seen)));
        expect(page).toEqual([pending.id, pending.id + 1]);
      } finally {
        if (pending.runner.isTransactionActive) await pending.runner.rollbackTransaction();
        await pending.runner.release();
      }
    });

    it('goes past a rolled-back gap once it is older than any open transaction can be', async () => {
      const before = ids(await feed('0'));
      const seen = before[before.length - 1];
      const pending = await uncommittedEvent();
      await createClient(t.http);
      await pending.runner.rollbackTransaction();
      await pending.runner.release();
      expect(ids(await feed(String(seen)))).toEqual([]);
      // Twice the statement bound has passed: nothing can still commit into the gap.
      clock.advance(2 * QUERY_TIMEOUT_MS + 1_000);
      expect(ids(await feed(String(seen)))).toEqual([pending.id + 1]);
      // Page-numbered lists (history, not a feed) never wait.
      const all = await t.http.get('/v1/event/all?page=1&per_page=100').expect(200);
      expect((all.body as FeedPage).data.map((event) => Number(event.id))).toContain(
        pending.id + 1,
      );
    });
  }
});
