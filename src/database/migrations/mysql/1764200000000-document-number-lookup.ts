import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The number check before an add or update (`invoice_no = ? AND deleted_at IS NULL`) had no
 * index to use on MySQL: the unique key is on the generated `live_*_no` column, so the check
 * scanned the whole table (17 ms at 100,000 invoices). SQLite's partial unique index already
 * serves it.
 */
export class DocumentNumberLookup1764200000000 implements MigrationInterface {
  name = 'DocumentNumberLookup1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE INDEX idx_invoices_invoice_no ON invoices (invoice_no)');
    await runner.query('CREATE INDEX idx_estimates_estimate_no ON estimates (estimate_no)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX idx_estimates_estimate_no ON estimates');
    await runner.query('DROP INDEX idx_invoices_invoice_no ON invoices');
  }
}
