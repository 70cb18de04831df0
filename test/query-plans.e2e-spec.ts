import { DataSource } from 'typeorm';
import { Decimal } from '../src/common/money/decimal';
import { AppConfig } from '../src/config/app-config';
import { CreditNote } from '../src/credit-notes/entities/credit-note.entity';
import { Expense } from '../src/expenses/entities/expense.entity';
import { InvoicePayment } from '../src/invoices/entities/invoice-payment.entity';
import { InvoiceReminder } from '../src/reminders/entities/invoice-reminder.entity';
import { Invoice } from '../src/invoices/entities/invoice.entity';
import { InvoiceRemindersService } from '../src/reminders/invoice-reminders.service';
import { RecurringInvoice } from '../src/recurring-invoices/entities/recurring-invoice.entity';
import { RecurringInvoicesService } from '../src/recurring-invoices/recurring-invoices.service';
import { createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import { createExpense } from './factories/expenses';
import { createInvoice, payInvoice } from './factories/invoices';
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
        subTotal: new Decimal('10'),
        taxAmount: new Decimal('0'),
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

  it('a page of one recurring schedule’s invoices reads that schedule’s index', async () => {
    const [page] = await statements(/FROM\W+invoices\W/, () =>
      test.http.get('/v1/invoice/all?recurring_invoice=7&after=0&per_page=50').expect(200),
    );
    const described = await plan(page);
    if (testDialect() === 'sqlite') {
      expect(described).toMatch(
        /SEARCH \S+ USING INDEX (idx_invoices_recurring|uq_invoices_recurring_period)/,
      );
    } else {
      expect(described).toMatch(
        /^row (range|ref) (idx_invoices_recurring|uq_invoices_recurring_period)$/,
      );
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
            subTotal: total,
            taxAmount: new Decimal('0'),
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

  describe('the reports and the reminder scan', () => {
    /*
     * Each statement of the reports reads the range of the index made for it (migration
     * 1764600000000): a quarter of two and a half years of invoices, credit notes, ledger
     * entries and expenses; the receivables; one client's invoices and entries. None reads every
     * row of a table, as the reminder scan, every REMINDER_SCAN_MS, reads only the open invoices
     * due by the first step's day.
     *
     * MariaDB is asked after ANALYZE TABLE: InnoDB recalculates its statistics in the background
     * once a tenth of a table has changed, so a plan asked right after the seed would be one for
     * the nearly empty tables before it. SQLite is asked without: the service never runs ANALYZE,
     * so its planner works without statistics, as it does in production.
     */
    const PERIOD = 'from=2025-04-01&to=2025-06-30';
    const REPORTED = /FROM\W+(invoices|credit_notes|expenses|invoice_payments)\W/;
    /** A step reading the index alone: MariaDB's Extra `Using index` (not `Using index condition`). */
    const MYSQL_COVERING = /\| (.*; )?Using index(;|$)/;
    // The client of the statement: a few invoices among thousands.
    let customer: string;

    /** `date` (YYYY-MM-DD) moved by `days`. */
    function addDays(date: string, days: number): string {
      return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000)
        .toISOString()
        .slice(0, 10);
    }

    beforeAll(async () => {
      const clients: number[] = [];
      for (let n = 0; n < 10; n += 1) clients.push(Number(await createClient(test.http)));
      customer = await createClient(test.http);
      // One of each through the API, the templates of the rows written directly.
      const first = await createInvoice(test.http, {
        client: customer,
        issue_date: '2025-05-02',
        due_date: '2025-06-01',
      });
      await payInvoice(test.http, first.id, '20.00', { payment_date: '2025-05-10' });
      const note = await addCreditNote(test.http, first.id);
      const expenseId = await createExpense(test.http, { issue_date: '2025-05-03' });
      const { id: _invoice, ...invoice } = await dataSource.manager.findOneByOrFail(Invoice, {
        id: Number(first.id),
      });
      const { id: _payment, ...payment } = await dataSource.manager.findOneByOrFail(
        InvoicePayment,
        { invoiceId: Number(first.id), status: 'Completed' },
      );
      const { id: _note, ...creditNote } = await dataSource.manager.findOneByOrFail(CreditNote, {
        id: Number(note.credit_note[0].id),
      });
      const { id: _expense, ...expense } = await dataSource.manager.findOneByOrFail(Expense, {
        id: Number(expenseId),
      });

      // 4,000 invoices issued from 2024-01-01 to 2026-06-08, due 30 days later, over ten
      // clients and the statement's (1 in 200); of every 20: 1 void, 6 paid, 1 settled,
      // 1 archived, 11 partly paid.
      const total = new Decimal('100');
      for (let start = 0; start < 4000; start += 200) {
        const rows = Array.from({ length: 200 }, (_, index) => {
          const n = start + index;
          const issueDate = addDays('2024-01-01', (n * 37) % 890);
          const row = {
            ...invoice,
            clientId: n % 200 === 0 ? Number(customer) : clients[n % clients.length],
            shortCode: `R${String(n).padStart(7, '0')}`,
            invoiceNo: `REPORT-${n}`,
            currency: n % 7 === 0 ? 'EUR' : 'USD',
            subTotal: new Decimal('80'),
            taxAmount: new Decimal('20'),
            total,
            amountPaid: new Decimal('10'),
            amountCredited: new Decimal('0'),
            issueDate,
            dueDate: addDays(issueDate, 30),
          };
          const kind = n % 20;
          if (kind === 0) return { ...row, voidedAt: new Date() };
          if (kind <= 6) return { ...row, paymentStatus: 'Paid' as const, amountPaid: total };
          if (kind === 7) return { ...row, amountPaid: total };
          if (kind === 8) return { ...row, deletedAt: new Date() };
          return row;
        });
        await dataSource.manager.insert(Invoice, rows);
      }
      const ids = (
        await dataSource.query<Array<{ id: number | string }>>(
          "SELECT id FROM invoices WHERE invoice_no LIKE 'REPORT-%' ORDER BY id",
        )
      ).map((row) => Number(row.id));
      // 4,000 ledger entries (1 in 10 a refund), 1,000 credit notes and 3,000 expenses (1 in 50
      // archived), each dated over the same two and a half years.
      for (let start = 0; start < 4000; start += 200) {
        const rows = Array.from({ length: 200 }, (_, index) => {
          const n = start + index;
          return {
            ...payment,
            invoiceId: ids[(n * 7) % ids.length],
            reference: `PLAN-P-${n}`,
            status: n % 10 === 0 ? ('Refunded' as const) : ('Completed' as const),
            amount: new Decimal('5'),
            paymentDate: addDays('2024-01-05', (n * 53) % 890),
          };
        });
        await dataSource.manager.insert(InvoicePayment, rows);
      }
      for (let start = 0; start < 1000; start += 200) {
        const rows = Array.from({ length: 200 }, (_, index) => {
          const n = start + index;
          return {
            ...creditNote,
            invoiceId: ids[(n * 11) % ids.length],
            shortCode: `N${String(n).padStart(7, '0')}`,
            creditNoteNo: `PLAN-CN-${n}`,
            issueDate: addDays('2024-01-10', (n * 29) % 880),
          };
        });
        await dataSource.manager.insert(CreditNote, rows);
      }
      const categories = ['Travel', 'Office', 'Software', 'Meals', 'Rent'];
      for (let start = 0; start < 3000; start += 300) {
        const rows = Array.from({ length: 300 }, (_, index) => {
          const n = start + index;
          return {
            ...expense,
            shortCode: `E${String(n).padStart(7, '0')}`,
            category: categories[n % categories.length],
            currency: n % 7 === 0 ? 'EUR' : 'USD',
            issuedDate: addDays('2024-01-01', (n * 41) % 890),
            deletedAt: n % 50 === 0 ? new Date() : null,
          };
        });
        await dataSource.manager.insert(Expense, rows);
      }
      // Each of those documents has its one VAT breakdown entry, as every document has.
      await dataSource.query(
        `INSERT INTO invoice_tax_breakdown
           (invoice_id, position, name, category, rate, taxable_amount, tax_amount)
         SELECT id, 0, 'Tax', 'S', 25, sub_total, tax_amount FROM invoices
          WHERE invoice_no LIKE 'REPORT-%'`,
      );
      await dataSource.query(
        `INSERT INTO credit_note_tax_breakdown
           (credit_note_id, position, name, category, rate, taxable_amount, tax_amount)
         SELECT id, 0, 'Tax', 'Z', 0, sub_total, tax_amount
           FROM credit_notes WHERE credit_note_no LIKE 'PLAN-CN-%'`,
      );
      // Every fifth of those invoices had its 7-day reminder.
      await dataSource.manager.insert(
        InvoiceReminder,
        ids
          .filter((_, index) => index % 5 === 0)
          .map((invoiceId) => ({ invoiceId, step: 7, sendLogId: 1, createdAt: new Date() })),
      );
      if (testDialect() === 'mysql') {
        await dataSource.query(
          'ANALYZE TABLE invoices, invoice_payments, credit_notes, expenses, clients, invoice_reminders, invoice_tax_breakdown, credit_note_tax_breakdown',
        );
      }
    });

    /**
     * The plan's steps in order: SQLite's details; MariaDB's `select_type table type key | Extra`,
     * e.g. `SIMPLE p range idx_invoice_payments_date | Using where; Using index`.
     */
    async function steps(statement: Statement): Promise<string[]> {
      if (testDialect() === 'sqlite') {
        const rows = await dataSource.query<Array<{ detail: string }>>(
          `EXPLAIN QUERY PLAN ${statement.sql}`,
          statement.parameters,
        );
        return rows.map((row) => row.detail);
      }
      const rows = await dataSource.query<
        Array<{
          select_type: string;
          table: string;
          type: string;
          key: string | null;
          Extra: string | null;
        }>
      >(`EXPLAIN ${statement.sql}`, statement.parameters);
      return rows.map(
        (row) =>
          `${row.select_type} ${row.table} ${row.type} ${row.key ?? 'no key'} | ${row.Extra ?? ''}`,
      );
    }

    /** The one statement of `seen` that matches `pattern`. */
    function one(seen: Statement[], pattern: RegExp): Statement {
      const matching = seen.filter((statement) => pattern.test(statement.sql));
      expect(matching).toHaveLength(1);
      return matching[0];
    }

    /** The plan of the one statement the request sends that matches `pattern`. */
    async function planOf(url: string, pattern: RegExp): Promise<string[]> {
      const seen = await statements(REPORTED, () => test.http.get(url).expect(200));
      return steps(one(seen, pattern));
    }

    /** That no step reads every row of one of the tables (by alias), by the table or an index. */
    function expectNoScan(plan: string[], aliases: string): void {
      const scan =
        testDialect() === 'sqlite'
          ? new RegExp(`^SCAN (${aliases})\\b`)
          : new RegExp(`^[A-Z ]+ (${aliases}) (ALL|index) `);
      expect(plan).not.toContainEqual(expect.stringMatching(scan));
    }

    /** Every pattern matches a step of the plan. */
    function expectSteps(plan: string[], ...patterns: RegExp[]): void {
      for (const pattern of patterns) expect(plan).toContainEqual(expect.stringMatching(pattern));
    }

    /** Invoices issued in the period (alias `i` or `d`): one range of idx_invoices_issued, alone. */
    function expectInvoicesIssued(plan: string[], alias: string): void {
      if (testDialect() === 'sqlite') {
        expect(plan).toEqual([
          `SEARCH ${alias} USING COVERING INDEX idx_invoices_issued (deleted_at=? AND draft=? AND issue_date>? AND issue_date<?)`,
        ]);
      } else {
        expect(plan).toHaveLength(1);
        expect(plan[0]).toMatch(new RegExp(`^SIMPLE ${alias} range idx_invoices_issued `));
        expect(plan[0]).toMatch(MYSQL_COVERING);
      }
    }

    /**
     * The tax summary's invoices: the same range of idx_invoices_issued, alone, then each one's
     * VAT breakdown by its key, not a scan of every breakdown.
     */
    function expectInvoiceGroupsIssued(plan: string[]): void {
      if (testDialect() === 'sqlite') {
        expect(plan).toEqual([
          'SEARCH d USING COVERING INDEX idx_invoices_issued (deleted_at=? AND draft=? AND issue_date>? AND issue_date<?)',
          'SEARCH g USING INDEX uq_invoice_tax_breakdown_position (invoice_id=?)',
        ]);
      } else {
        expect(plan).toHaveLength(2);
        expect(plan[0]).toMatch(/^SIMPLE d range idx_invoices_issued /);
        expect(plan[0]).toMatch(MYSQL_COVERING);
        expect(plan[1]).toMatch(/^SIMPLE g ref uq_invoice_tax_breakdown_position /);
      }
    }

    /**
     * Credit notes issued in the period (alias `n` or `d`): a range of idx_credit_notes_issued,
     * then each one's invoice by its primary key, not every live invoice and its credit notes.
     */
    function expectCreditNotesIssued(plan: string[], alias: string): void {
      if (testDialect() === 'sqlite') {
        expectSteps(
          plan,
          new RegExp(
            `^SEARCH ${alias} USING (COVERING )?INDEX idx_credit_notes_issued \\(issue_date>\\? AND issue_date<\\?\\)$`,
          ),
          /^SEARCH i USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
        );
      } else {
        expectSteps(
          plan,
          new RegExp(`^SIMPLE ${alias} range idx_credit_notes_issued `),
          /^SIMPLE i eq_ref PRIMARY /,
        );
      }
      expectNoScan(plan, `i|${alias}`);
    }

    it('profit and loss, accrual: the invoices are one range of idx_invoices_issued, alone', async () => {
      expectInvoicesIssued(
        await planOf(`/v1/report/profit-and-loss?${PERIOD}`, /FROM invoices i\s/),
        'i',
      );
    });

    it('profit and loss, accrual: the credit notes are a range of idx_credit_notes_issued', async () => {
      expectCreditNotesIssued(
        await planOf(`/v1/report/profit-and-loss?${PERIOD}`, /FROM credit_notes n CROSS JOIN/),
        'n',
      );
    });

    it('profit and loss: the expenses are one range of idx_expenses_issued, alone', async () => {
      for (const basis of ['accrual', 'cash']) {
        const plan = await planOf(
          `/v1/report/profit-and-loss?${PERIOD}&basis=${basis}`,
          /FROM expenses e\s/,
        );
        if (testDialect() === 'sqlite') {
          expect(plan).toEqual([
            'SEARCH e USING COVERING INDEX idx_expenses_issued (deleted_at=? AND issued_date>? AND issued_date<?)',
          ]);
        } else {
          expect(plan).toHaveLength(1);
          expect(plan[0]).toMatch(/^SIMPLE e range idx_expenses_issued /);
          expect(plan[0]).toMatch(MYSQL_COVERING);
        }
      }
    });

    it('profit and loss, cash: the ledger is a range of idx_invoice_payments_date, then each invoice by its key (MariaDB: from idx_invoices_cash alone)', async () => {
      const plan = await planOf(
        `/v1/report/profit-and-loss?${PERIOD}&basis=cash`,
        /FROM invoice_payments p CROSS JOIN/,
      );
      if (testDialect() === 'sqlite') {
        expectSteps(
          plan,
          /^SEARCH p USING COVERING INDEX idx_invoice_payments_date \(payment_date>\? AND payment_date<\?\)$/,
          /^SEARCH i USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
        );
      } else {
        expectSteps(
          plan,
          /^SIMPLE p range idx_invoice_payments_date /,
          /^SIMPLE i ref idx_invoices_cash .*Using index/,
        );
        expect(plan.find((step) => / p range /.test(step))).toMatch(MYSQL_COVERING);
      }
      expectNoScan(plan, 'i|p');
    });

    it('tax summary: the invoices are one range of idx_invoices_issued, alone, then each one’s breakdown by its key', async () => {
      expectInvoiceGroupsIssued(
        await planOf(`/v1/report/tax-summary?${PERIOD}`, /FROM invoices d CROSS JOIN/),
      );
    });

    it('tax summary: the credit notes are a range of idx_credit_notes_issued', async () => {
      expectCreditNotesIssued(
        await planOf(
          `/v1/report/tax-summary?${PERIOD}`,
          /FROM credit_notes d CROSS JOIN invoices i ON i\.id = d\.invoice_id\s+CROSS JOIN/,
        ),
        'd',
      );
    });

    it('tax summary: the documents are counted from the same ranges', async () => {
      expectInvoicesIssued(
        await planOf(`/v1/report/tax-summary?${PERIOD}`, /FROM invoices d\s+WHERE/),
        'd',
      );
      expectCreditNotesIssued(
        await planOf(
          `/v1/report/tax-summary?${PERIOD}`,
          /FROM credit_notes d CROSS JOIN invoices i ON i\.id = d\.invoice_id\s+WHERE/,
        ),
        'd',
      );
    });

    describe('aging', () => {
      // A date before the last ledger entries, so that some invoices settled now owed then.
      const AGING = '/v1/report/aging?as_of=2026-03-31';

      it('the invoices with a balance now: summed per client as idx_invoices_aging streams (MariaDB), one range (SQLite)', async () => {
        if (testDialect() === 'sqlite') {
          const plan = await planOf(AGING, /UNION ALL/);
          const union = plan.indexOf('UNION ALL');
          expect(union).toBeGreaterThan(0);
          // SQLite never counts a VIRTUAL generated column (open_until) as held by an index:
          // the range of idx_invoices_open_until, each row then read.
          expectSteps(
            plan.slice(0, union),
            /^SEARCH i USING INDEX idx_invoices_open_until \(deleted_at=\? AND open_until<\?\)$/,
          );
          expectNoScan(plan, 'i|p');
          return;
        }
        const plan = await planOf(AGING, /GROUP BY i\.client_id, i\.currency/);
        expect(plan).toHaveLength(1);
        expect(plan[0]).toMatch(/^SIMPLE i (index|ref|range) idx_invoices_aging /);
        expect(plan[0]).toMatch(MYSQL_COVERING);
        // Grouped in the index's order: no temporary table, however many clients.
        expect(plan[0]).not.toMatch(/Using temporary|Using filesort/);
      });

      it('the invoices with later ledger entries come from idx_invoice_payments_date, each then by its key', async () => {
        if (testDialect() === 'sqlite') {
          const plan = await planOf(AGING, /UNION ALL/);
          const rest = plan.slice(plan.indexOf('UNION ALL'));
          expectSteps(
            rest,
            /^SEARCH p USING COVERING INDEX idx_invoice_payments_date \(payment_date>\?\)$/,
            /^SEARCH i USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
          );
          expectNoScan(rest, 'i|p');
          return;
        }
        const plan = await planOf(AGING, /JOIN invoices i ON i\.id = l\.invoice_id/);
        expectSteps(
          plan,
          /^DERIVED p range idx_invoice_payments_date /,
          /^PRIMARY i eq_ref PRIMARY /,
        );
        expectNoScan(plan, 'i|p');
      });
    });

    it('a client statement reads the client’s invoices by idx_invoices_client', async () => {
      const plan = await planOf(`/v1/client/${customer}/statement`, /^\s*SELECT i\.id\b/);
      expectSteps(
        plan,
        testDialect() === 'sqlite'
          ? /^SEARCH i USING INDEX idx_invoices_(client \(client_id=\? AND deleted_at=\?\)|aging \(deleted_at=\? AND client_id=\?\))$/
          : /^SIMPLE i (ref|range) idx_invoices_(client|aging) /,
      );
      expectNoScan(plan, 'i');
    });

    it('a client statement reads the entries of those invoices by idx_invoice_payments_invoice', async () => {
      const plan = await planOf(`/v1/client/${customer}/statement`, /FROM invoice_payments p\s/);
      if (testDialect() === 'sqlite') {
        expectSteps(
          plan,
          /^SEARCH i USING INDEX idx_invoices_(client \(client_id=\? AND deleted_at=\?\)|aging \(deleted_at=\? AND client_id=\?\))$/,
          /^SEARCH p USING INDEX idx_invoice_payments_invoice \(invoice_id=\?\)$/,
          /^SEARCH n USING INTEGER PRIMARY KEY \(rowid=\?\)/,
        );
      } else {
        expectSteps(
          plan,
          /^SIMPLE i (ref|range) idx_invoices_(client|aging) /,
          /^SIMPLE p ref idx_invoice_payments_invoice /,
          /^SIMPLE n eq_ref PRIMARY /,
        );
      }
      expectNoScan(plan, 'i|p|n');
    });

    it('the reminder scan reads the open invoices due by the first step, and each step’s record by uq_invoice_reminders_step', async () => {
      // The steps of REMINDER_DAYS=-3,1,7 for this call only: an app started with them would
      // send the seeded invoices' reminders in the background.
      const days = jest
        .spyOn(test.app.get(AppConfig), 'reminderDays', 'get')
        .mockReturnValue([-3, 1, 7]);
      let seen: Statement[];
      try {
        seen = await statements(/invoice_reminders/, () =>
          test.app.get(InvoiceRemindersService).due(100),
        );
      } finally {
        days.mockRestore();
      }
      expect(seen).toHaveLength(1);
      const plan = await steps(seen[0]);
      if (testDialect() === 'sqlite') {
        expectSteps(
          plan,
          /^SEARCH i USING (COVERING )?INDEX idx_invoices_open_until \(deleted_at=\? AND open_until<\?\)$/,
          /^SEARCH r USING COVERING INDEX uq_invoice_reminders_step \(invoice_id=\? AND step=\?\)$/,
          /^SEARCH c USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
        );
      } else {
        // MariaDB may start from the clients (as it does at a million invoices and 50,000
        // clients: the live ones, then each one's invoices from an index read alone) or from
        // the open invoices' range; either way no invoice is read but through an index.
        expectSteps(
          plan,
          /^PRIMARY i (range|ref) idx_invoices_(open_until|aging|client) /,
          /^DEPENDENT SUBQUERY r (eq_ref|ref) uq_invoice_reminders_step /,
        );
        expectNoScan(plan, 'i|r');
        return;
      }
      expectNoScan(plan, 'i|r|c');
    });

    it('the recurring invoice scan reads the due schedules from idx_recurring_invoices_due', async () => {
      // 3,000 schedules whose next period is months or years away, and 300 ended (no next
      // period): none is due today, so the scans every RECURRING_SCAN_MS make nothing here.
      const added = await test.http
        .post('/v1/recurring-invoice/add')
        .send({
          client: customer,
          interval: 'month',
          start_date: '2026-07-01',
          items: [{ description: 'Plan', quantity: 1, rate: '1.00' }],
        })
        .expect(200);
      const id = Number(
        (added.body as { recurring_invoice: Array<{ id: string }> }).recurring_invoice[0].id,
      );
      const { id: _id, ...schedule } = await dataSource.manager.findOneByOrFail(RecurringInvoice, {
        id,
      });
      for (let start = 0; start < 3300; start += 300) {
        const rows = Array.from({ length: 300 }, (_, index) => {
          const n = start + index;
          return n < 3000
            ? { ...schedule, nextDate: addDays('2026-07-01', n % 1500) }
            : { ...schedule, status: 'ended' as const, nextDate: null };
        });
        await dataSource.manager.insert(RecurringInvoice, rows);
      }
      if (testDialect() === 'mysql') await dataSource.query('ANALYZE TABLE recurring_invoices');
      const seen = await statements(/FROM recurring_invoices/, () =>
        test.app.get(RecurringInvoicesService).due(500),
      );
      expect(seen).toHaveLength(1);
      const plan = await steps(seen[0]);
      if (testDialect() === 'sqlite') {
        expectSteps(
          plan,
          /^SEARCH recurring_invoices USING INDEX idx_recurring_invoices_due \(next_date<\?\)$/,
        );
      } else {
        expectSteps(plan, /^SIMPLE recurring_invoices range idx_recurring_invoices_due /);
      }
      expectNoScan(plan, 'recurring_invoices');
    });
  });
});
