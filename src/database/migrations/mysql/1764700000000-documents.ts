import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents (docs/documents.md): a client's tax id, country (ISO 3166-1 alpha-2) and language
 * (ISO 639-1), and the tax id and country every document copies from its client beside the
 * other customer fields. Existing rows read '' (not given), as an optional field left out does;
 * nothing is rewritten.
 */
export class Documents1764700000000 implements MigrationInterface {
  name = 'Documents1764700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE clients
        ADD COLUMN tax_id VARCHAR(32) NOT NULL DEFAULT '' AFTER address,
        ADD COLUMN country VARCHAR(2) NOT NULL DEFAULT '' AFTER tax_id,
        ADD COLUMN language VARCHAR(2) NOT NULL DEFAULT '' AFTER country`);
    for (const table of DOCUMENTS) {
      await runner.query(`
        ALTER TABLE ${table}
          ADD COLUMN customer_tax_id VARCHAR(32) NOT NULL DEFAULT '' AFTER customer_address,
          ADD COLUMN customer_country VARCHAR(2) NOT NULL DEFAULT '' AFTER customer_tax_id`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of DOCUMENTS) {
      await runner.query(
        `ALTER TABLE ${table} DROP COLUMN customer_country, DROP COLUMN customer_tax_id`,
      );
    }
    await runner.query(
      'ALTER TABLE clients DROP COLUMN language, DROP COLUMN country, DROP COLUMN tax_id',
    );
  }
}

const DOCUMENTS = ['invoices', 'estimates', 'credit_notes'];
