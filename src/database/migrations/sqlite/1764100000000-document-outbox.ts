import { MigrationInterface, QueryRunner } from 'typeorm';

export class DocumentOutbox1764100000000 implements MigrationInterface {
  name = 'DocumentOutbox1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    // See the MySQL migration: `next_attempt_at` is NULL once a row is sent or failed.
    await runner.query(`
      CREATE TABLE document_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('invoice', 'estimate')),
        document_id INTEGER NOT NULL,
        send_log_id INTEGER NOT NULL,
        recipient TEXT NOT NULL,
        document_view TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NULL,
        claimed_at TEXT NULL,
        sent_at TEXT NULL,
        last_error TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX uq_document_outbox_send_log ON document_outbox (kind, send_log_id)',
    );
    // Only rows still to deliver: sent and failed ones never weigh on the claim.
    await runner.query(
      'CREATE INDEX idx_document_outbox_due ON document_outbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE document_outbox');
  }
}
