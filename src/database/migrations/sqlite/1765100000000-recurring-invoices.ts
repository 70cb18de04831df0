import { MigrationInterface, QueryRunner } from 'typeorm';

/** See the MySQL migration. */
export class RecurringInvoices1765100000000 implements MigrationInterface {
  name = 'RecurringInvoices1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE recurring_invoices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        client_id INTEGER NOT NULL REFERENCES clients (id),
        description TEXT NOT NULL,
        currency TEXT NOT NULL,
        tax_rate TEXT NOT NULL,
        tax_name TEXT NOT NULL,
        discount_percent TEXT NULL,
        discount_amount TEXT NOT NULL,
        prices_include_tax INTEGER NOT NULL,
        note TEXT NOT NULL,
        items TEXT NOT NULL,
        sub_total TEXT NOT NULL,
        tax_amount TEXT NOT NULL,
        total TEXT NOT NULL,
        interval_unit TEXT NOT NULL CHECK (interval_unit IN ('day', 'week', 'month', 'year')),
        interval_count INTEGER NOT NULL CHECK (interval_count BETWEEN 1 AND 366),
        start_date TEXT NOT NULL,
        end_date TEXT NULL,
        invoice_count INTEGER NULL,
        due_days INTEGER NOT NULL,
        auto_send INTEGER NOT NULL,
        email TEXT NOT NULL,
        draft INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'ended')),
        next_index INTEGER NOT NULL,
        next_date TEXT NULL,
        paused_on TEXT NULL,
        skip_from TEXT NULL,
        skip_until TEXT NULL,
        invoices_made INTEGER NOT NULL,
        last_period TEXT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT NULL,
        CHECK (end_date IS NULL OR invoice_count IS NULL)
      )`);
    await runner.query(
      'CREATE INDEX idx_recurring_invoices_due ON recurring_invoices (next_date, status)',
    );
    await runner.query(
      'ALTER TABLE invoices ADD COLUMN recurring_invoice_id INTEGER NULL REFERENCES recurring_invoices (id)',
    );
    await runner.query('ALTER TABLE invoices ADD COLUMN recurring_period TEXT NULL');
    await runner.query(
      'CREATE UNIQUE INDEX uq_invoices_recurring_period ON invoices (recurring_invoice_id, recurring_period)',
    );
    await runner.query(
      'CREATE INDEX idx_invoices_recurring ON invoices (recurring_invoice_id, deleted_at)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX idx_invoices_recurring');
    await runner.query('DROP INDEX uq_invoices_recurring_period');
    await runner.query('ALTER TABLE invoices DROP COLUMN recurring_period');
    await runner.query('ALTER TABLE invoices DROP COLUMN recurring_invoice_id');
    await runner.query('DROP TABLE recurring_invoices');
  }
}
