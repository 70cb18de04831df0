import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The exact value × 10^4 of a non-negative decimal SQLite keeps as text. Written out here, not
 * imported: a migration must not change later.
 */
function scaled(column: string): string {
  const dot = `instr(${column} || '.', '.')`;
  return `(CAST(substr(${column}, 1, ${dot} - 1) AS INTEGER) * 10000 + CAST(substr(substr(${column}, ${dot} + 1) || '0000', 1, 4) AS INTEGER))`;
}

/**
 * See the MySQL migration. SQLite cannot change a generated column: `settlement` and
 * `open_until` (virtual) are dropped with their indexes and added again.
 */
export class Drafts1765000000000 implements MigrationInterface {
  name = 'Drafts1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE invoices ADD COLUMN draft BOOLEAN NOT NULL DEFAULT 0');
    await this.generatedColumns(runner, true);
    await runner.query('DROP INDEX uq_invoices_live_invoice_no');
    await runner.query(
      'CREATE UNIQUE INDEX uq_invoices_live_invoice_no ON invoices (invoice_no) WHERE deleted_at IS NULL AND draft = 0',
    );
    await runner.query('DROP INDEX idx_invoices_issued');
    await runner.query(
      'CREATE INDEX idx_invoices_issued ON invoices (deleted_at, draft, issue_date, currency, voided_at, total, tax_amount)',
    );
    await runner.query('ALTER TABLE estimates ADD COLUMN draft BOOLEAN NOT NULL DEFAULT 0');
    await runner.query('DROP INDEX uq_estimates_live_estimate_no');
    await runner.query(
      'CREATE UNIQUE INDEX uq_estimates_live_estimate_no ON estimates (estimate_no) WHERE deleted_at IS NULL AND draft = 0',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX uq_estimates_live_estimate_no');
    await runner.query(
      'CREATE UNIQUE INDEX uq_estimates_live_estimate_no ON estimates (estimate_no) WHERE deleted_at IS NULL',
    );
    await runner.query('ALTER TABLE estimates DROP COLUMN draft');
    await runner.query('DROP INDEX idx_invoices_issued');
    await runner.query(
      'CREATE INDEX idx_invoices_issued ON invoices (deleted_at, issue_date, currency, voided_at, total, tax_amount)',
    );
    await runner.query('DROP INDEX uq_invoices_live_invoice_no');
    await runner.query(
      'CREATE UNIQUE INDEX uq_invoices_live_invoice_no ON invoices (invoice_no) WHERE deleted_at IS NULL',
    );
    await this.generatedColumns(runner, false);
    await runner.query('ALTER TABLE invoices DROP COLUMN draft');
  }

  /** `settlement` and `open_until` and their indexes again, knowing drafts or not. */
  private async generatedColumns(runner: QueryRunner, drafts: boolean): Promise<void> {
    for (const index of [
      'idx_invoices_aging',
      'idx_invoices_open_until',
      'idx_invoices_settlement',
    ]) {
      await runner.query(`DROP INDEX ${index}`);
    }
    await runner.query('ALTER TABLE invoices DROP COLUMN open_until');
    await runner.query('ALTER TABLE invoices DROP COLUMN settlement');
    await runner.query(`
      ALTER TABLE invoices ADD COLUMN settlement TEXT GENERATED ALWAYS AS (CASE
        ${drafts ? "WHEN draft THEN 'draft'" : ''}
        WHEN voided_at IS NOT NULL THEN 'void'
        WHEN payment_status = 'Paid' THEN 'paid'
        WHEN ${scaled('amount_paid')} < ${scaled('total')} THEN 'unpaid'
        ELSE 'settled' END) VIRTUAL`);
    await runner.query(`
      ALTER TABLE invoices ADD COLUMN open_until TEXT GENERATED ALWAYS AS (CASE
        WHEN ${drafts ? 'draft OR ' : ''}voided_at IS NOT NULL OR payment_status = 'Paid' THEN NULL
        WHEN ${scaled('amount_paid')} < ${scaled('total')} THEN due_date
        ELSE '9999-12-31' END) VIRTUAL`);
    await runner.query('CREATE INDEX idx_invoices_settlement ON invoices (settlement, deleted_at)');
    await runner.query('CREATE INDEX idx_invoices_open_until ON invoices (deleted_at, open_until)');
    await runner.query(
      'CREATE INDEX idx_invoices_aging ON invoices (client_id, currency, deleted_at, open_until, issue_date, due_date, total, amount_paid)',
    );
  }
}
