import { MigrationInterface, QueryRunner } from 'typeorm';

/** See the MySQL migration. */
export class NumberSeries1764900000000 implements MigrationInterface {
  name = 'NumberSeries1764900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE number_series (
        kind TEXT NOT NULL PRIMARY KEY CHECK (kind IN ('invoice', 'estimate', 'credit_note')),
        format TEXT NOT NULL,
        updated_at DATETIME NOT NULL
      )`);
    await runner.query(`
      INSERT INTO number_series (kind, format, updated_at) VALUES
        ('invoice', 'INV-{YYYY}-{SEQ:4}', strftime('%Y-%m-%d %H:%M:%f', 'now')),
        ('estimate', 'EST-{YYYY}-{SEQ:4}', strftime('%Y-%m-%d %H:%M:%f', 'now')),
        ('credit_note', 'CN-{YYYY}-{SEQ:4}', strftime('%Y-%m-%d %H:%M:%f', 'now'))`);
    await runner.query(`
      CREATE TABLE number_counters (
        kind TEXT NOT NULL REFERENCES number_series (kind),
        period TEXT NOT NULL,
        last_value INTEGER NOT NULL CHECK (last_value BETWEEN 0 AND 4294967295),
        PRIMARY KEY (kind, period)
      )`);
    await runner.query(
      `ALTER TABLE invoices ADD COLUMN number_from_series BOOLEAN NOT NULL DEFAULT 0`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE invoices DROP COLUMN number_from_series`);
    await runner.query(`DROP TABLE number_counters`);
    await runner.query(`DROP TABLE number_series`);
  }
}
