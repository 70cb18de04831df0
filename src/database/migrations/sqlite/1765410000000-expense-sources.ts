import { MigrationInterface, QueryRunner } from 'typeorm';

/** See the MySQL migration. */
export class ExpenseSources1765410000000 implements MigrationInterface {
  name = 'ExpenseSources1765410000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE expense_sources (
        expense_id INTEGER NOT NULL PRIMARY KEY REFERENCES expenses (id),
        format TEXT NOT NULL CHECK (format IN ('ubl', 'cii', 'facturx')),
        seller_key TEXT NOT NULL,
        seller_vat_id TEXT NOT NULL,
        invoice_number TEXT NOT NULL,
        type_code TEXT NOT NULL,
        details TEXT NOT NULL,
        media_type TEXT NOT NULL,
        content BLOB NOT NULL
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX uq_expense_sources_invoice ON expense_sources (seller_key, invoice_number)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE expense_sources');
  }
}
