import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drafts (docs/numbering.md): an invoice or an estimate may be a draft, with no number yet
 * ('') and outside every report. A draft's '' is no number: the live-number unique index leaves
 * drafts out. An invoice's status is `draft` while it is one: the generated `settlement` says
 * so and `open_until` is NULL, so the status filter and the aging report (owing: open_until
 * before OPEN_FOREVER) leave drafts out as they are; the reports' covering index holds `draft`
 * for the income and tax summaries that filter on it. Existing documents are not drafts.
 */
export class Drafts1765000000000 implements MigrationInterface {
  name = 'Drafts1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE invoices ADD COLUMN draft BOOLEAN NOT NULL DEFAULT FALSE AFTER number_from_series',
    );
    await runner.query(`
      ALTER TABLE invoices
        MODIFY live_invoice_no VARCHAR(64) COLLATE utf8mb4_bin
          AS (CASE WHEN deleted_at IS NULL AND NOT draft THEN invoice_no END) STORED,
        MODIFY settlement VARCHAR(8)
          AS (CASE
            WHEN draft THEN 'draft'
            WHEN voided_at IS NOT NULL THEN 'void'
            WHEN payment_status = 'Paid' THEN 'paid'
            WHEN amount_paid < total THEN 'unpaid'
            ELSE 'settled' END) STORED,
        MODIFY open_until DATE
          AS (CASE
            WHEN draft OR voided_at IS NOT NULL OR payment_status = 'Paid' THEN NULL
            WHEN amount_paid < total THEN due_date
            ELSE DATE '9999-12-31' END) STORED,
        DROP KEY idx_invoices_issued,
        ADD KEY idx_invoices_issued (deleted_at, draft, issue_date, currency, voided_at, total, tax_amount)`);
    await runner.query('ALTER TABLE estimates ADD COLUMN draft BOOLEAN NOT NULL DEFAULT FALSE');
    await runner.query(`
      ALTER TABLE estimates
        MODIFY live_estimate_no VARCHAR(64) COLLATE utf8mb4_bin
          AS (CASE WHEN deleted_at IS NULL AND NOT draft THEN estimate_no END) STORED`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE estimates
        MODIFY live_estimate_no VARCHAR(64) COLLATE utf8mb4_bin
          AS (CASE WHEN deleted_at IS NULL THEN estimate_no END) STORED`);
    await runner.query('ALTER TABLE estimates DROP COLUMN draft');
    await runner.query(`
      ALTER TABLE invoices
        MODIFY live_invoice_no VARCHAR(64) COLLATE utf8mb4_bin
          AS (CASE WHEN deleted_at IS NULL THEN invoice_no END) STORED,
        MODIFY settlement VARCHAR(8)
          AS (CASE
            WHEN voided_at IS NOT NULL THEN 'void'
            WHEN payment_status = 'Paid' THEN 'paid'
            WHEN amount_paid < total THEN 'unpaid'
            ELSE 'settled' END) STORED,
        MODIFY open_until DATE
          AS (CASE
            WHEN voided_at IS NOT NULL OR payment_status = 'Paid' THEN NULL
            WHEN amount_paid < total THEN due_date
            ELSE DATE '9999-12-31' END) STORED,
        DROP KEY idx_invoices_issued,
        ADD KEY idx_invoices_issued (deleted_at, issue_date, currency, voided_at, total, tax_amount)`);
    await runner.query('ALTER TABLE invoices DROP COLUMN draft');
  }
}
