import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A line's taxes (JSON) as VARCHAR instead of TEXT, on MySQL/MariaDB only (SQLite has one text
 * type). A document's detail read folds its lines into JSON with JSON_ARRAYAGG, and MariaDB
 * keeps an aggregate over a TEXT column in an on-disk temporary table: that column alone was a
 * third of the database's work per read of a 20-line invoice (0.65 → 0.47 ms of CPU, measured).
 * 10,500 characters hold the longest text the service writes: three taxes, each a 64-character
 * name and a 500-character exemption reason of characters JSON escapes in six (10,462; proved
 * by the unit spec of LineTaxesColumn).
 */
export class LineTaxesVarchar1765200000000 implements MigrationInterface {
  name = 'LineTaxesVarchar1765200000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const lines of LINE_TABLES) {
      await runner.query(`ALTER TABLE ${lines} MODIFY taxes VARCHAR(10500) NULL`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const lines of LINE_TABLES) {
      await runner.query(`ALTER TABLE ${lines} MODIFY taxes TEXT NULL`);
    }
  }
}

const LINE_TABLES = ['invoice_line_items', 'estimate_line_items', 'credit_note_line_items'];
