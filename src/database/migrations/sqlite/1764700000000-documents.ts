import { MigrationInterface, QueryRunner } from 'typeorm';

/** See the MySQL migration. */
export class Documents1764700000000 implements MigrationInterface {
  name = 'Documents1764700000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const column of ['tax_id', 'country', 'language']) {
      await runner.query(`ALTER TABLE clients ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
    }
    for (const table of DOCUMENTS) {
      for (const column of ['customer_tax_id', 'customer_country']) {
        await runner.query(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
      }
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of DOCUMENTS) {
      for (const column of ['customer_country', 'customer_tax_id']) {
        await runner.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
      }
    }
    for (const column of ['language', 'country', 'tax_id']) {
      await runner.query(`ALTER TABLE clients DROP COLUMN ${column}`);
    }
  }
}

const DOCUMENTS = ['invoices', 'estimates', 'credit_notes'];
