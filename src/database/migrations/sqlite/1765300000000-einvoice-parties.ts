import { MigrationInterface, QueryRunner } from 'typeorm';

/** See the MySQL migration. */
export class EinvoiceParties1765300000000 implements MigrationInterface {
  name = 'EinvoiceParties1765300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE clients ADD COLUMN einvoice_address TEXT NOT NULL DEFAULT ''`);
    await runner.query(`
      ALTER TABLE clients ADD COLUMN einvoice_format TEXT NOT NULL DEFAULT '' CHECK (einvoice_format
        IN ('', 'ubl', 'cii', 'peppol', 'xrechnung-ubl', 'xrechnung-cii', 'facturx'))`);
    await runner.query(`ALTER TABLE clients ADD COLUMN buyer_reference TEXT NOT NULL DEFAULT ''`);
    for (const column of ['buyer_reference', 'order_reference']) {
      await runner.query(`ALTER TABLE invoices ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const column of ['order_reference', 'buyer_reference']) {
      await runner.query(`ALTER TABLE invoices DROP COLUMN ${column}`);
    }
    for (const column of ['buyer_reference', 'einvoice_format', 'einvoice_address']) {
      await runner.query(`ALTER TABLE clients DROP COLUMN ${column}`);
    }
  }
}
