import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The parties of an e-invoice (docs/einvoices.md): where a client receives e-invoices
 * (`scheme:identifier`, EAS), the format it wants them in and the buyer reference (BT-10) its
 * invoices carry; an invoice's buyer reference and purchase order reference (BT-13). Existing
 * rows read '' (not given), as an optional field left out does; nothing is rewritten. The
 * formats are written out here, not imported: a migration must not change later.
 */
export class EinvoiceParties1765300000000 implements MigrationInterface {
  name = 'EinvoiceParties1765300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE clients
        ADD COLUMN einvoice_address VARCHAR(259) NOT NULL DEFAULT '' AFTER language,
        ADD COLUMN einvoice_format VARCHAR(16) NOT NULL DEFAULT '' AFTER einvoice_address,
        ADD COLUMN buyer_reference VARCHAR(255) NOT NULL DEFAULT '' AFTER einvoice_format,
        ADD CONSTRAINT chk_clients_einvoice_format CHECK (einvoice_format IN
          ('', 'ubl', 'cii', 'peppol', 'xrechnung-ubl', 'xrechnung-cii', 'facturx'))`);
    await runner.query(`
      ALTER TABLE invoices
        ADD COLUMN buyer_reference VARCHAR(255) NOT NULL DEFAULT '' AFTER void_reason,
        ADD COLUMN order_reference VARCHAR(255) NOT NULL DEFAULT '' AFTER buyer_reference`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE invoices DROP COLUMN order_reference, DROP COLUMN buyer_reference',
    );
    await runner.query(`
      ALTER TABLE clients
        DROP CONSTRAINT chk_clients_einvoice_format,
        DROP COLUMN buyer_reference,
        DROP COLUMN einvoice_format,
        DROP COLUMN einvoice_address`);
  }
}
