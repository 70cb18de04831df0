import { MigrationInterface, QueryRunner } from 'typeorm';

/** See the MySQL migration. */
export class OutboxEinvoice1765500000000 implements MigrationInterface {
  name = 'OutboxEinvoice1765500000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const column of ['einvoice_format', 'einvoice_address']) {
      await runner.query(
        `ALTER TABLE document_outbox ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`,
      );
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const column of ['einvoice_address', 'einvoice_format']) {
      await runner.query(`ALTER TABLE document_outbox DROP COLUMN ${column}`);
    }
  }
}
