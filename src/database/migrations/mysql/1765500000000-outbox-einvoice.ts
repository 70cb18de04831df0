import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The e-invoice a send attaches (docs/einvoices.md): the format of the client's
 * `einvoice_format` and its `einvoice_address` when the document was sent. Queued and past
 * messages read '' (none), as they were sent without one; nothing is rewritten.
 */
export class OutboxEinvoice1765500000000 implements MigrationInterface {
  name = 'OutboxEinvoice1765500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE document_outbox
        ADD COLUMN einvoice_format VARCHAR(16) NOT NULL DEFAULT '' AFTER document_view,
        ADD COLUMN einvoice_address VARCHAR(259) NOT NULL DEFAULT '' AFTER einvoice_format`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE document_outbox DROP COLUMN einvoice_address, DROP COLUMN einvoice_format',
    );
  }
}
