import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Number series (docs/numbering.md): one format per kind of document, and a counter per kind
 * and period holding the last sequence number taken. A number is taken by locking its counter
 * row for the transaction that writes the document, so numbers are unique and gapless. An
 * invoice remembers whether its number came from the series: such an invoice is voided, never
 * deleted. Existing documents keep the numbers their callers gave them.
 */
export class NumberSeries1764900000000 implements MigrationInterface {
  name = 'NumberSeries1764900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE number_series (
        kind VARCHAR(16) NOT NULL,
        format VARCHAR(64) NOT NULL,
        updated_at DATETIME NOT NULL,
        PRIMARY KEY (kind),
        CONSTRAINT chk_number_series_kind CHECK (kind IN ('invoice', 'estimate', 'credit_note'))
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
    await runner.query(`
      INSERT INTO number_series (kind, format, updated_at) VALUES
        ('invoice', 'INV-{YYYY}-{SEQ:4}', UTC_TIMESTAMP()),
        ('estimate', 'EST-{YYYY}-{SEQ:4}', UTC_TIMESTAMP()),
        ('credit_note', 'CN-{YYYY}-{SEQ:4}', UTC_TIMESTAMP())`);
    await runner.query(`
      CREATE TABLE number_counters (
        kind VARCHAR(16) NOT NULL,
        period VARCHAR(16) NOT NULL,
        last_value INT UNSIGNED NOT NULL,
        PRIMARY KEY (kind, period),
        CONSTRAINT fk_number_counters_kind FOREIGN KEY (kind) REFERENCES number_series (kind)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
    await runner.query(
      `ALTER TABLE invoices ADD COLUMN number_from_series BOOLEAN NOT NULL DEFAULT FALSE`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE invoices DROP COLUMN number_from_series`);
    await runner.query(`DROP TABLE number_counters`);
    await runner.query(`DROP TABLE number_series`);
  }
}
