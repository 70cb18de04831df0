import { DataSource } from 'typeorm';
import { Decimal } from '../src/common/money/decimal';
import { Invoice } from '../src/invoices/entities/invoice.entity';
import { createClient } from './factories/clients';
import { createInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { testDialect } from './setup/test-database';

/*
 * The statements that must stay cheap however large the tables grow, checked by asking the
 * database for its plan: a keyset page walks the primary key from the cursor, and the number
 * check before an add reads an index, not the table. The benchmark measures the speed; these
 * keep the plans.
 */

interface Statement {
  sql: string;
  parameters: unknown[];
}

describe('Query plans', () => {
  let test: TestApp;
  let dataSource: DataSource;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
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
