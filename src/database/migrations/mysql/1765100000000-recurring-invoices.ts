import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurring invoices (docs/recurring.md): a schedule holds what each invoice takes (the lines
 * as JSON, drafted and checked when written) and where it stands (`next_index`, `next_date`,
 * the pause and the periods it skips). Each invoice it makes carries the schedule and the date
 * of the period it bills; the unique key on the two is what makes a period billed once however
 * many instances run and whatever crashes. `idx_recurring_invoices_due` serves the scan;
 * `idx_invoices_recurring` a schedule's invoices listed in id order (as idx_invoices_client).
 */
export class RecurringInvoices1765100000000 implements MigrationInterface {
  name = 'RecurringInvoices1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE recurring_invoices (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        client_id INT UNSIGNED NOT NULL,
        description VARCHAR(1000) NOT NULL,
        currency CHAR(3) NOT NULL,
        tax_rate DECIMAL(7,4) NOT NULL,
        tax_name VARCHAR(64) NOT NULL,
        discount_percent DECIMAL(7,4) NULL,
        discount_amount DECIMAL(17,4) NOT NULL,
        prices_include_tax BOOLEAN NOT NULL,
        note TEXT NOT NULL,
        items MEDIUMTEXT NOT NULL,
        sub_total DECIMAL(17,4) NOT NULL,
        tax_amount DECIMAL(17,4) NOT NULL,
        total DECIMAL(17,4) NOT NULL,
        interval_unit VARCHAR(5) NOT NULL,
        interval_count SMALLINT UNSIGNED NOT NULL,
        start_date DATE NOT NULL,
        end_date DATE NULL,
        invoice_count INT UNSIGNED NULL,
        due_days SMALLINT UNSIGNED NOT NULL,
        auto_send BOOLEAN NOT NULL,
        email VARCHAR(254) NOT NULL,
        draft BOOLEAN NOT NULL,
        status VARCHAR(8) NOT NULL,
        next_index INT UNSIGNED NOT NULL,
        next_date DATE NULL,
        paused_on DATE NULL,
        skip_from DATE NULL,
        skip_until DATE NULL,
        invoices_made INT UNSIGNED NOT NULL,
        last_period DATE NULL,
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL,
        deleted_at DATETIME NULL,
        PRIMARY KEY (id),
        KEY idx_recurring_invoices_due (next_date, status),
        CONSTRAINT fk_recurring_invoices_client FOREIGN KEY (client_id) REFERENCES clients (id),
        CONSTRAINT chk_recurring_invoices_interval
          CHECK (interval_unit IN ('day', 'week', 'month', 'year') AND interval_count BETWEEN 1 AND 366),
        CONSTRAINT chk_recurring_invoices_status CHECK (status IN ('active', 'paused', 'ended')),
        CONSTRAINT chk_recurring_invoices_end CHECK (end_date IS NULL OR invoice_count IS NULL)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      ALTER TABLE invoices
        ADD COLUMN recurring_invoice_id INT UNSIGNED NULL,
        ADD COLUMN recurring_period DATE NULL,
        ADD UNIQUE KEY uq_invoices_recurring_period (recurring_invoice_id, recurring_period),
        ADD KEY idx_invoices_recurring (recurring_invoice_id, deleted_at),
        ADD CONSTRAINT fk_invoices_recurring_invoice
          FOREIGN KEY (recurring_invoice_id) REFERENCES recurring_invoices (id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE invoices
        DROP FOREIGN KEY fk_invoices_recurring_invoice,
        DROP KEY idx_invoices_recurring,
        DROP KEY uq_invoices_recurring_period,
        DROP COLUMN recurring_period,
        DROP COLUMN recurring_invoice_id`);
    await runner.query('DROP TABLE recurring_invoices');
  }
}
