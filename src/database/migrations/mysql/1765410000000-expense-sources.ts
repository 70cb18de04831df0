import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The e-invoices expenses are imported from (docs/einvoices.md, Import): one row per imported
 * expense with what its `source` answers and the file itself (LONGBLOB: the upload limit is
 * above MEDIUMBLOB's 16 MB only in principle, and a BLOB's 64 KB is too little). The unique
 * index is what refuses a seller's invoice number a second time; its columns compare exactly
 * (utf8mb4_bin), as SQLite's do, so `inv-1` and `INV-1` are two invoices in both.
 */
export class ExpenseSources1765410000000 implements MigrationInterface {
  name = 'ExpenseSources1765410000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE expense_sources (
        expense_id INT UNSIGNED NOT NULL,
        format VARCHAR(16) NOT NULL,
        seller_key VARCHAR(260) COLLATE utf8mb4_bin NOT NULL,
        seller_vat_id VARCHAR(255) NOT NULL,
        invoice_number VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
        type_code VARCHAR(8) NOT NULL,
        details MEDIUMTEXT NOT NULL,
        media_type VARCHAR(32) NOT NULL,
        content LONGBLOB NOT NULL,
        PRIMARY KEY (expense_id),
        UNIQUE KEY uq_expense_sources_invoice (seller_key, invoice_number),
        CONSTRAINT fk_expense_sources_expense FOREIGN KEY (expense_id) REFERENCES expenses (id),
        CONSTRAINT chk_expense_sources_format CHECK (format IN ('ubl', 'cii', 'facturx'))
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE expense_sources');
  }
}
