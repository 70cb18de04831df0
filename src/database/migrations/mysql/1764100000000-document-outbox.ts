import { MigrationInterface, QueryRunner } from 'typeorm';

export class DocumentOutbox1764100000000 implements MigrationInterface {
  name = 'DocumentOutbox1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    // One row per send, written in the send's transaction; the delivery worker sends from it.
    // `next_attempt_at` is when the row is next due (the backoff while queued, the end of the
    // lease while sending) and NULL once sent or failed, so the claim scans only live rows.
    // The snapshot is MEDIUMTEXT: 500 lines of 1000 characters do not fit TEXT's 64 KiB.
    await runner.query(`
      CREATE TABLE document_outbox (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        kind VARCHAR(8) NOT NULL,
        document_id INT UNSIGNED NOT NULL,
        send_log_id INT UNSIGNED NOT NULL,
        recipient VARCHAR(254) NOT NULL,
        document_view MEDIUMTEXT NOT NULL,
        status VARCHAR(8) NOT NULL,
        attempts SMALLINT UNSIGNED NOT NULL DEFAULT 0,
        next_attempt_at DATETIME(3) NULL,
        claimed_at DATETIME(3) NULL,
        sent_at DATETIME NULL,
        last_error VARCHAR(255) NOT NULL DEFAULT '',
        created_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_document_outbox_send_log (kind, send_log_id),
        KEY idx_document_outbox_due (next_attempt_at),
        CONSTRAINT chk_document_outbox_kind CHECK (kind IN ('invoice', 'estimate')),
        CONSTRAINT chk_document_outbox_status CHECK (status IN ('queued', 'sending', 'sent', 'failed'))
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE document_outbox');
  }
}
