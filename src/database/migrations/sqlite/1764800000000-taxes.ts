import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The exact value × 10^4 of a non-negative decimal SQLite keeps as text ('12', '0.5',
 * '1000.0000'): an integer, so comparisons and sums are exact where a REAL would round. Written
 * out here, not imported: a migration must not change later.
 */
function scaled(column: string): string {
  const dot = `instr(${column} || '.', '.')`;
  return `(CAST(substr(${column}, 1, ${dot} - 1) AS INTEGER) * 10000 + CAST(substr(substr(${column}, ${dot} + 1) || '0000', 1, 4) AS INTEGER))`;
}

/** True when the text decimal is not negative. */
function notNegative(column: string): string {
  return `${column} NOT LIKE '-%'`;
}

/** A percent kept as text, when given: above 0 and at most 100. */
function percentInRange(column: string): string {
  return `(${column} IS NULL OR (${notNegative(column)} AND ${scaled(column)} > 0 AND ${scaled(column)} <= 1000000))`;
}

/**
 * See the MySQL migration. SQLite cannot add a CHECK to a table: the checks on existing tables
 * are triggers. Its line check leaves out what MySQL's compares with quantity × rate, a product
 * of two text decimals no 64-bit integer holds: the line's amount and discount are not negative.
 */
export class Taxes1764800000000 implements MigrationInterface {
  name = 'Taxes1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const { documents, lines, breakdown, parent } of KINDS) {
      await runner.query(
        `ALTER TABLE ${documents} ADD COLUMN tax_name TEXT NOT NULL DEFAULT 'Tax'`,
      );
      await runner.query(`ALTER TABLE ${documents} ADD COLUMN discount_percent TEXT NULL`);
      await runner.query(
        `ALTER TABLE ${documents} ADD COLUMN discount_amount TEXT NOT NULL DEFAULT '0.0000'`,
      );
      await runner.query(
        `ALTER TABLE ${documents} ADD COLUMN prices_include_tax INTEGER NOT NULL DEFAULT 0`,
      );
      for (const column of ['supply_date', 'period_start', 'period_end']) {
        await runner.query(`ALTER TABLE ${documents} ADD COLUMN ${column} TEXT NULL`);
      }
      const documentBroken = `NOT (
          ${notNegative('NEW.discount_amount')} AND ${notNegative('NEW.tax_amount')}
          AND ${scaled('NEW.discount_amount')} <= ${scaled('NEW.sub_total')}
          AND ${percentInRange('NEW.discount_percent')}
          AND ${scaled('NEW.total')} = ${scaled('NEW.sub_total')} - ${scaled('NEW.discount_amount')}
            + CASE WHEN NEW.prices_include_tax THEN 0 ELSE ${scaled('NEW.tax_amount')} END
          AND (NEW.supply_date IS NULL OR NEW.period_start IS NULL)
          AND (NEW.period_start IS NULL) = (NEW.period_end IS NULL)
          AND (NEW.period_start IS NULL OR NEW.period_end >= NEW.period_start))`;
      for (const event of ['INSERT', 'UPDATE']) {
        await runner.query(`
          CREATE TRIGGER chk_${documents}_sums_${event.toLowerCase()} BEFORE ${event} ON ${documents}
          WHEN ${documentBroken}
          BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: chk_${documents}_sums'); END`);
      }

      await runner.query(`ALTER TABLE ${lines} ADD COLUMN unit TEXT NOT NULL DEFAULT 'C62'`);
      await runner.query(`ALTER TABLE ${lines} ADD COLUMN discount_percent TEXT NULL`);
      await runner.query(
        `ALTER TABLE ${lines} ADD COLUMN discount_amount TEXT NOT NULL DEFAULT '0.0000'`,
      );
      await runner.query(`ALTER TABLE ${lines} ADD COLUMN taxes TEXT NULL`);
      const lineBroken = `NOT (
          ${notNegative('NEW.amount')} AND ${notNegative('NEW.discount_amount')}
          AND ${percentInRange('NEW.discount_percent')}
          AND (NEW.taxes IS NULL OR json_valid(NEW.taxes)))`;
      // Lines are only ever inserted (an update rewrites them).
      await runner.query(`
        CREATE TRIGGER chk_${lines}_discount BEFORE INSERT ON ${lines}
        WHEN ${lineBroken}
        BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: chk_${lines}_discount'); END`);

      await runner.query(`
        CREATE TABLE ${breakdown} (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          ${parent} INTEGER NOT NULL REFERENCES ${documents} (id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          name TEXT NOT NULL,
          category TEXT NOT NULL CHECK (
            category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M')
            AND (category IN ('S', 'L', 'M') OR ${scaled('rate')} = 0)
            AND (category <> 'S' OR ${scaled('rate')} > 0)),
          rate TEXT NOT NULL CHECK (${notNegative('rate')} AND ${scaled('rate')} <= 1000000),
          taxable_amount TEXT NOT NULL CHECK (${notNegative('taxable_amount')}),
          tax_amount TEXT NOT NULL CHECK (${notNegative('tax_amount')}),
          exemption_reason TEXT NOT NULL DEFAULT '',
          exemption_code TEXT NOT NULL DEFAULT ''
        )`);
      await runner.query(
        `CREATE UNIQUE INDEX uq_${breakdown}_position ON ${breakdown} (${parent}, position)`,
      );
      await runner.query(`
        INSERT INTO ${breakdown}
          (${parent}, position, name, category, rate, taxable_amount, tax_amount)
        SELECT id, 0, 'Tax', CASE WHEN ${scaled('tax_rate')} > 0 THEN 'S' ELSE 'Z' END,
          tax_rate, sub_total, tax_amount
        FROM ${documents}`);
    }
    // See the MySQL migration: the reports' covering index holds total and tax_amount.
    await runner.query('DROP INDEX idx_invoices_issued');
    await runner.query(
      'CREATE INDEX idx_invoices_issued ON invoices (deleted_at, issue_date, currency, voided_at, total, tax_amount)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX idx_invoices_issued');
    await runner.query(
      'CREATE INDEX idx_invoices_issued ON invoices (deleted_at, issue_date, currency, voided_at, tax_rate, sub_total, tax_amount)',
    );
    for (const { documents, lines, breakdown } of [...KINDS].reverse()) {
      await runner.query(`DROP TABLE ${breakdown}`);
      await runner.query(`DROP TRIGGER chk_${lines}_discount`);
      for (const column of ['taxes', 'discount_amount', 'discount_percent', 'unit']) {
        await runner.query(`ALTER TABLE ${lines} DROP COLUMN ${column}`);
      }
      for (const event of ['insert', 'update']) {
        await runner.query(`DROP TRIGGER chk_${documents}_sums_${event}`);
      }
      for (const column of [
        'period_end',
        'period_start',
        'supply_date',
        'prices_include_tax',
        'discount_amount',
        'discount_percent',
        'tax_name',
      ]) {
        await runner.query(`ALTER TABLE ${documents} DROP COLUMN ${column}`);
      }
    }
  }
}

const KINDS = [
  {
    documents: 'invoices',
    lines: 'invoice_line_items',
    breakdown: 'invoice_tax_breakdown',
    parent: 'invoice_id',
  },
  {
    documents: 'estimates',
    lines: 'estimate_line_items',
    breakdown: 'estimate_tax_breakdown',
    parent: 'estimate_id',
  },
  {
    documents: 'credit_notes',
    lines: 'credit_note_line_items',
    breakdown: 'credit_note_tax_breakdown',
    parent: 'credit_note_id',
  },
];
