import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1764300000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    // See the MySQL migration.
    await runner.query(`
      CREATE TABLE idempotency_keys (
        scope TEXT NOT NULL,
        key_digest TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'completed')),
        response_status INTEGER NULL,
        response_body TEXT NULL,
        taken_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (scope, key_digest)
      )`);
    await runner.query(
      'CREATE INDEX idx_idempotency_keys_expires ON idempotency_keys (expires_at)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE idempotency_keys');
  }
}
