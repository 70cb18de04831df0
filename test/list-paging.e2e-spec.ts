import { DataSource } from 'typeorm';
import { Decimal } from '../src/common/money/decimal';
import { LIST_BATCH_SIZE } from '../src/database/find-list';
import { DEFAULT_EXPENSE_CATEGORY } from '../src/expenses/domain/expense-category';
import { Expense } from '../src/expenses/entities/expense.entity';
import { createClient } from './factories/clients';
import { addExpense, ExpenseOutput } from './factories/expenses';
import { createInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectSuccess, expectValidationError } from './setup/expectations';
import { QueryCounter } from './setup/query-counter';

/*
 * Keyset paging (`after`, an extension) and whole lists streamed in batches. Each block knows
 * every live row of the table it reads.
 */

interface CursorMeta {
  per_page: number;
  next_after: string | null;
}

interface Listed {
  id: string;
}

describe('Lists: keyset paging and streamed whole lists', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  async function getList(path: string) {
    const body = expectSuccess(await test.http.get(path));
    return body as unknown as { data: Listed[]; meta?: CursorMeta };
  }

  /** Every page from `after=0`, following next_after to the end. */
  async function walk(base: string, perPage: number) {
    const pages: Array<{ ids: string[]; meta: CursorMeta }> = [];
    let after: string | null = '0';
    const joiner = base.includes('?') ? '&' : '?';
    while (after !== null) {
      const page = await getList(`${base}${joiner}after=${after}&per_page=${perPage}`);
      pages.push({ ids: page.data.map((row) => row.id), meta: page.meta! });
      after = page.meta!.next_after;
    }
    return pages;
  }

  describe('after', () => {
    let invoices: string[];
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http);
      const other = await createClient(test.http);
      invoices = [];
      for (let index = 0; index < 7; index++) {
        invoices.push((await createInvoice(test.http, { client: index < 5 ? client : other })).id);
      }
      // An archived invoice is in no page.
      await test.http.delete(`/v1/invoice/${invoices[3]}`).expect(200);
      invoices.splice(3, 1);
    });

    it('walks the whole list a page at a time, next_after naming the last id of each page', async () => {
      const pages = await walk('/v1/invoice/all', 2);
      expect(pages).toEqual([
        { ids: invoices.slice(0, 2), meta: { per_page: 2, next_after: invoices[1] } },
        { ids: invoices.slice(2, 4), meta: { per_page: 2, next_after: invoices[3] } },
        { ids: invoices.slice(4, 6), meta: { per_page: 2, next_after: null } },
      ]);
      const whole = await getList('/v1/invoice/all');
      expect(whole.data.map((row) => row.id)).toEqual(invoices);
      expect(whole.meta).toBeUndefined();
    });

    it('answers a short last page, and an empty one after the last id', async () => {
      const last = await getList(`/v1/invoice/all?after=${invoices[4]}&per_page=5`);
      expect(last.data.map((row) => row.id)).toEqual([invoices[5]]);
      expect(last.meta).toEqual({ per_page: 5, next_after: null });
      const past = await getList(`/v1/invoice/all?after=${invoices[5]}`);
      expect(past).toMatchObject({ data: [], meta: { per_page: 50, next_after: null } });
      const beyond = await getList('/v1/invoice/all?after=99999999999999999999');
      expect(beyond).toMatchObject({ data: [], meta: { per_page: 50, next_after: null } });
    });

    it('keeps the filters', async () => {
      const pages = await walk(`/v1/invoice/all?client=${client}`, 3);
      expect(pages.flatMap((page) => page.ids)).toEqual(invoices.slice(0, 4));
      expect(pages.map((page) => page.meta.next_after)).toEqual([invoices[2], null]);
    });

    it('counts from any id, archived or never used, and ignores leading zeros', async () => {
      const page = await getList(`/v1/invoice/all?after=000${invoices[1]}&per_page=2`);
      expect(page.data.map((row) => row.id)).toEqual(invoices.slice(2, 4));
    });

    it.each(['clients', 'expenses', 'estimates'])('works on the %s list too', async (name) => {
      const base = {
        clients: '/v1/client/all',
        expenses: '/v1/expense/all',
        estimates: '/v1/estimate/all',
      }[name]!;
      const whole = (await getList(base)).data.map((row) => row.id);
      const pages = await walk(base, 1);
      expect(pages.flatMap((page) => page.ids)).toEqual(whole);
      expect(pages).toHaveLength(Math.max(whole.length, 1));
    });

    it('costs one statement, however deep the page', async () => {
      const queries = new QueryCounter(test.app);
      try {
        const first = await queries.measure(() => getList('/v1/invoice/all?after=0&per_page=2'));
        const deep = await queries.measure(() =>
          getList(`/v1/invoice/all?after=${invoices[4]}&per_page=2`),
        );
        expect([first, deep]).toEqual([1, 1]);
      } finally {
        queries.restore();
      }
    });

    it.each<[string, string, string[]]>([
      ['after with page', 'after=1&page=1', ['after']],
      ['after=abc', 'after=abc', ['after']],
      ['after=-1', 'after=-1', ['after']],
      ['after=1.5', 'after=1.5', ['after']],
      ['after empty', 'after=', ['after']],
      ['after with per_page=0', 'after=1&per_page=0', ['per_page']],
    ])('answers 422 for %s', async (_case, query, fields) => {
      expectValidationError(await test.http.get(`/v1/invoice/all?${query}`), fields);
    });
  });

  /*
   * A whole list is read LIST_BATCH_SIZE rows at a time and written out as it is read. The
   * rows are inserted straight into the table: thousands through HTTP would take too long.
   */
  describe('whole lists, streamed', () => {
    let expenses: DataSource;
    let first: ExpenseOutput;

    beforeAll(async () => {
      expenses = test.app.get(DataSource);
      first = await addExpense(test.http, {
        description: 'Taxi "home" \\ ünïcödé',
        amount: '7.05',
      });
    });

    let inserted = 0;

    async function insertExpenses(count: number) {
      const now = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
      const rows = Array.from({ length: count }, (_, offset) => inserted + offset).map((index) => ({
        shortCode: `B${String(index).padStart(7, '0')}`,
        category: DEFAULT_EXPENSE_CATEGORY,
        description: `Bulk ${index}`,
        amount: new Decimal(`${index}.25`),
        currency: 'EUR',
        vendor: '',
        issuedDate: '2026-01-02',
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      }));
      for (let start = 0; start < rows.length; start += 200) {
        await expenses.manager.insert(Expense, rows.slice(start, start + 200));
      }
      inserted += count;
    }

    it('answers every row, in id order, across batches, in the usual envelope', async () => {
      await insertExpenses(LIST_BATCH_SIZE * 2 + 37 - 1);
      const response = await test.http.get('/v1/expense/all');
      const body = expectSuccess(response) as { data: ExpenseOutput[]; meta?: unknown };
      expect(Object.keys(body)).toEqual(['status', 'data']);
      expect(body.data).toHaveLength(LIST_BATCH_SIZE * 2 + 37);
      expect(body.data[0]).toEqual(first);
      const ids = body.data.map((row) => Number(row.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
      expect(body.data[LIST_BATCH_SIZE]).toMatchObject({
        description: `Bulk ${LIST_BATCH_SIZE - 1}`,
        amount: `${LIST_BATCH_SIZE - 1}.25`,
        issued_date: '2026-01-02',
        created_at: '2026-01-02 03:04:05',
      });
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('reads one batch per statement, whatever the list holds', async () => {
      const queries = new QueryCounter(test.app);
      // Each batch of expenses is read with its expenses' sources (docs/einvoices.md, Import):
      // one statement more per batch that has rows, by primary key.
      try {
        // 2,037 rows: two full batches and a short one.
        expect(await queries.measure(() => test.http.get('/v1/expense/all').expect(200))).toBe(
          3 * 2,
        );
        // Exactly three full batches: the fourth read finds nothing and ends the list.
        await insertExpenses(LIST_BATCH_SIZE - 37);
        expect(await queries.measure(() => test.http.get('/v1/expense/all').expect(200))).toBe(
          4 + 3,
        );
      } finally {
        queries.restore();
      }
    });

    it('cuts the answer off when a later batch fails, so it cannot pass for a whole list', async () => {
      // The second batch's statement fails as a lost connection would.
      const logger = expenses.logger;
      const logQuery = logger.logQuery;
      let batches = 0;
      logger.logQuery = (query, ...rest) => {
        if (/FROM\W+expenses\W/.test(query) && ++batches === 2) throw new Error('connection lost');
        logQuery.call(logger, query, ...rest);
      };
      try {
        const cut = await test.http.get('/v1/expense/all').then(
          () => null,
          (error: Error & { code?: string }) => error,
        );
        // The connection is reset, not closed cleanly: no client can take the part for a whole.
        expect(cut).toMatchObject({ code: 'ECONNRESET' });
      } finally {
        logger.logQuery = logQuery;
      }
      expect(batches).toBe(2);
      const failure = test.logs
        .entries()
        .find((entry) => entry.msg === 'A streamed list failed part way');
      expect(failure).toMatchObject({ level: 'error', error: { type: 'Error' } });
      // Logged without its message: a driver's message may quote customer data.
      expect(JSON.stringify(failure)).not.toContain('connection lost');
      // The next list is whole again.
      const body = await getList('/v1/expense/all');
      expect(body.data.length).toBe(LIST_BATCH_SIZE * 3);
    });

    it('keeps the filters', async () => {
      const body = await getList('/v1/expense/all?currency=USD');
      expect(body.data.map((row) => row.id)).toEqual([first.id]);
    });
  });
});
