import { DataSource } from 'typeorm';
import { Decimal } from '../src/common/money/decimal';
import { Invoice } from '../src/invoices/entities/invoice.entity';
import { createClient } from './factories/clients';
import { createInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { TestClock } from './setup/test-clock';
import { testDialect } from './setup/test-database';

/*
 * The statements that must stay cheap however large the tables grow, checked by asking the
 * database for its plan: a keyset page walks the primary key from the cursor, the number
 * check before an add reads an index, not the table, and a list filtered by status counts
 * within the status index and reads its page from an index. The benchmark measures the speed
 * (bench/status-list-plans.ts the status statements alone); these keep the plans.
 */

interface Statement {
  sql: string;
  parameters: unknown[];
}

describe('Query plans', () => {
  let test: TestApp;
  let dataSource: DataSource;
  let client: string;
  // `overdue` and `open` depend on today: the test's.
  const clock = new TestClock();

  beforeAll(async () => {
    clock.setToday('2026-06-15');
    test = await createTestApp({ clock });
    dataSource = test.app.get(DataSource);
    client = await createClient(test.http);
    // Enough live rows that a plan scanning them up to the cursor would be the optimiser's
    // choice, as it was at 1,000,000 invoices.
    const template = await dataSource.manager.findOneByOrFail(Invoice, {
      id: Number((await createInvoice(test.http, { client })).id),
    });
    const { id: _id, ...columns } = template;
    for (let start = 0; start < 3000; start += 300) {
      const rows = Array.from({ length: 300 }, (_, index) => ({
        ...columns,
        shortCode: `Q${String(start + index).padStart(7, '0')}`,
        invoiceNo: `PLAN-${start + index}`,
        total: new Decimal('10'),
      }));
      await dataSource.manager.insert(Invoice, rows);
    }
  });

  afterAll(async () => {
    await test.close();
  });

  /** The statements `work` sends that match `pattern`. */
  async function statements(pattern: RegExp, work: () => Promise<unknown>): Promise<Statement[]> {
    const logger = dataSource.logger;
    const logQuery = logger.logQuery;
    const seen: Statement[] = [];
    logger.logQuery = (sql, parameters, ...rest) => {
      if (pattern.test(sql)) seen.push({ sql, parameters: parameters ?? [] });
      logQuery.call(logger, sql, parameters, ...rest);
    };
    try {
      await work();
    } finally {
      logger.logQuery = logQuery;
    }
    return seen;
  }

  /** How the database would run the statement on the invoices table, in its own words. */
  async function plan(statement: Statement): Promise<string> {
    if (testDialect() === 'sqlite') {
      const rows = await dataSource.query<Array<{ detail: string }>>(
        `EXPLAIN QUERY PLAN ${statement.sql}`,
        statement.parameters,
      );
      return rows.map((row) => row.detail).join('; ');
    }
    const rows = await dataSource.query<Array<{ table: string; type: string; key: string | null }>>(
      `EXPLAIN ${statement.sql}`,
      statement.parameters,
    );
    return rows.map((row) => `${row.table} ${row.type} ${row.key ?? 'no key'}`).join('; ');
  }

  it('a keyset page walks the primary key from the cursor', async () => {
    const [page] = await statements(/FROM\W+invoices\W/, () =>
      test.http.get('/v1/invoice/all?after=1500&per_page=50').expect(200),
    );
    const described = await plan(page);
    if (testDialect() === 'sqlite') {
      // SQLite bounds the live-rows index by the cursor too: (deleted_at=? AND id>?).
      expect(described).toMatch(
        /^SEARCH \S+ USING (INTEGER PRIMARY KEY \(rowid>\?\)|INDEX idx_invoices_deleted_at \(deleted_at=\? AND id>\?\))$/,
      );
    } else {
      expect(described).toBe('row range PRIMARY');
    }
  });

  it('a keyset page of one client reads that client’s index', async () => {
    const [page] = await statements(/FROM\W+invoices\W/, () =>
      test.http.get(`/v1/invoice/all?client=${client}&after=1500&per_page=50`).expect(200),
    );
    const described = await plan(page);
    if (testDialect() === 'sqlite') {
      expect(described).toMatch(/SEARCH \S+ USING INDEX idx_invoices_client/);
    } else {
      expect(described).toMatch(/^row (range|ref) idx_invoices_client$/);
    }
  });

  describe('a list filtered by status', () => {
    const statuses = ['overdue', 'open', 'paid', 'void'] as const;

    beforeAll(async () => {
      // Every status along the ids, as in the benchmark's seed: of every 100 invoices 1 void,
      // 20 paid, 2 settled (Not Paid, nothing outstanding: open), the rest partly paid and due
      // before or after today (2026-06-15): overdue or open.
      const template = await dataSource.manager.findOneByOrFail(Invoice, {
        id: Number((await createInvoice(test.http, { client })).id),
      });
      const { id: _id, ...columns } = template;
      const total = new Decimal('10');
      for (let start = 0; start < 3000; start += 300) {
        const rows = Array.from({ length: 300 }, (_, index) => {
          const n = start + index;
          const row = {
            ...columns,
            shortCode: `S${String(n).padStart(7, '0')}`,
            invoiceNo: `STATUS-${n}`,
            total,
            amountPaid: new Decimal('1'),
            dueDate: n % 4 === 0 ? '2026-07-01' : '2026-05-01',
          };
          const kind = n % 100;
          if (kind === 0) return { ...row, amountPaid: new Decimal('0'), voidedAt: new Date() };
          if (kind <= 20) return { ...row, paymentStatus: 'Paid' as const, amountPaid: total };
          if (kind <= 22) return { ...row, amountPaid: total };
          return row;
        });
        await dataSource.manager.insert(Invoice, rows);
      }
    });

    /** The rows statement and the count of a numbered page of the status. */
    async function pageStatements(status: string): Promise<{ rows: Statement; count: Statement }> {
      // per_page below every status's rows, so that the page is counted.
      const seen = await statements(/FROM\W+invoices\W/, () =>
        test.http.get(`/v1/invoice/all?status=${status}&page=1&per_page=10`).expect(200),
      );
      const count = seen.filter((statement) => /COUNT\(/.test(statement.sql));
      const rows = seen.filter((statement) => !/COUNT\(/.test(statement.sql));
      expect([rows.length, count.length]).toEqual([1, 1]);
      return { rows: rows[0], count: count[0] };
    }

    it.each(statuses)('%s: the count is one range of one index', async (status) => {
      const { count } = await pageStatements(status);
      const described = await plan(count);
      const byDate = status === 'overdue' || status === 'open';
      if (testDialect() === 'sqlite') {
        expect(described).toMatch(
          byDate
            ? /^SEARCH \S+ USING (COVERING )?INDEX idx_invoices_open_until \(deleted_at=\? AND open_until[<>]\?\)$/
            : /^SEARCH \S+ USING (COVERING )?INDEX idx_invoices_settlement \(settlement=\? AND deleted_at=\?\)$/,
        );
      } else {
        expect(described).toMatch(
          byDate
            ? /^\S+ range idx_invoices_open_until$/
            : /^\S+ (range|ref) idx_invoices_settlement$/,
        );
      }
    });

    it.each(statuses)(
      '%s: the page’s rows come from an index, not a scan of the table',
      async (status) => {
        const { rows } = await pageStatements(status);
        const described = await plan(rows);
        if (testDialect() === 'sqlite') {
          expect(described).toMatch(
            /^SEARCH \S+ USING (COVERING )?INDEX idx_invoices_(settlement|deleted_at|open_until) /,
          );
        } else {
          expect(described).toMatch(
            /^\S+ ((index|range) PRIMARY|(range|ref) idx_invoices_(settlement|deleted_at|open_until))$/,
          );
        }
      },
    );

    it.each(statuses)('%s: a keyset page reads from the cursor in id order', async (status) => {
      const [page] = await statements(/FROM\W+invoices\W/, () =>
        test.http.get(`/v1/invoice/all?status=${status}&after=1500&per_page=50`).expect(200),
      );
      const described = await plan(page);
      if (testDialect() === 'sqlite') {
        // Void and paid walk their own group of the status index from the cursor, in id order;
        // overdue and open walk the live rows from the cursor.
        expect(described).toMatch(
          status === 'paid' || status === 'void'
            ? /^SEARCH \S+ USING INDEX idx_invoices_settlement \(settlement=\? AND deleted_at=\? AND rowid>\?\)$/
            : /^SEARCH \S+ USING INDEX idx_invoices_deleted_at \(deleted_at=\? AND id>\?\)$/,
        );
      } else {
        expect(described).toBe('row range PRIMARY');
      }
    });
  });

  it('the number check before an add reads an index, not the table', async () => {
    const checks = await statements(/invoice_no\W+= \?/, () =>
      createInvoice(test.http, { client, invoice_no: 'PLAN-NEW' }),
    );
    expect(checks).toHaveLength(1);
    const described = await plan(checks[0]);
    if (testDialect() === 'sqlite') {
      expect(described).toMatch(/SEARCH \S+ USING INDEX uq_invoices_live_invoice_no/);
    } else {
      expect(described).toMatch(/^document ref idx_invoices_invoice_no$/);
    }
  });
});
