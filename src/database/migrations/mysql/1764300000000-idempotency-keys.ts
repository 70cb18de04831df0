import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1764300000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    // One row per Idempotency-Key of an API key; digests only, compared byte for byte.
    // MEDIUMTEXT: an invoice of 500 long lines answers more than TEXT's 64 KiB.
    await runner.query(`
      CREATE TABLE idempotency_keys (
        scope VARCHAR(12) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        key_digest CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        fingerprint CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        state VARCHAR(9) NOT NULL,
        response_status SMALLINT UNSIGNED NULL,
        response_body MEDIUMTEXT NULL,
        taken_at DATETIME(3) NOT NULL,
        expires_at DATETIME(3) NOT NULL,
        PRIMARY KEY (scope, key_digest),
        KEY idx_idempotency_keys_expires (expires_at),
        CONSTRAINT chk_idempotency_keys_state CHECK (state IN ('running', 'completed'))
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE idempotency_keys');
  }
}
