import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Taxes, discounts, units, dates of supply (docs/rules.md). Each document gains its default
 * tax's name, a document discount, whether its prices include tax and its date of supply or
 * period; each line a unit, a discount and its own taxes (JSON; NULL: the document's default
 * tax); each kind of document a VAT breakdown table. Existing documents stay as they were: every
 * line keeps its document's rate (taxes NULL), named `Tax` (TAX_NAME's default), and each
 * document gets the one breakdown entry its single rate made (taxable = sub-total). The checks
 * hold what must never be false: a line's discount within its amount, the document's sums.
 */
export class Taxes1764800000000 implements MigrationInterface {
  name = 'Taxes1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const { documents, lines, breakdown, parent } of KINDS) {
      await runner.query(`
        ALTER TABLE ${documents}
          ADD COLUMN tax_name VARCHAR(64) NOT NULL DEFAULT 'Tax' AFTER tax_rate,
          ADD COLUMN discount_percent DECIMAL(7,4) NULL AFTER sub_total,
          ADD COLUMN discount_amount DECIMAL(17,4) NOT NULL DEFAULT 0 AFTER discount_percent,
          ADD COLUMN prices_include_tax BOOLEAN NOT NULL DEFAULT FALSE AFTER total,
          ADD COLUMN supply_date DATE NULL AFTER prices_include_tax,
          ADD COLUMN period_start DATE NULL AFTER supply_date,
          ADD COLUMN period_end DATE NULL AFTER period_start,
          ADD CONSTRAINT chk_${documents}_discount CHECK (
            discount_amount >= 0 AND discount_amount <= sub_total
            AND (discount_percent IS NULL OR (discount_percent > 0 AND discount_percent <= 100))),
          ADD CONSTRAINT chk_${documents}_sums CHECK (
            tax_amount >= 0 AND total = sub_total - discount_amount
              + CASE WHEN prices_include_tax THEN 0 ELSE tax_amount END),
          ADD CONSTRAINT chk_${documents}_supply CHECK (
            (supply_date IS NULL OR period_start IS NULL)
            AND (period_start IS NULL) = (period_end IS NULL)
            AND (period_start IS NULL OR period_end >= period_start))`);
      await runner.query(`
        ALTER TABLE ${lines}
          ADD COLUMN unit VARCHAR(3) NOT NULL DEFAULT 'C62' AFTER amount,
          ADD COLUMN discount_percent DECIMAL(7,4) NULL AFTER unit,
          ADD COLUMN discount_amount DECIMAL(17,4) NOT NULL DEFAULT 0 AFTER discount_percent,
          ADD COLUMN taxes TEXT NULL AFTER discount_amount,
          ADD CONSTRAINT chk_${lines}_discount CHECK (
            discount_amount >= 0 AND amount >= 0
            AND ABS(amount + discount_amount - quantity * rate) <= 0.5
            AND (discount_percent IS NULL OR (discount_percent > 0 AND discount_percent <= 100))),
          ADD CONSTRAINT chk_${lines}_taxes CHECK (taxes IS NULL OR JSON_VALID(taxes))`);
      await runner.query(`
        CREATE TABLE ${breakdown} (
          id INT UNSIGNED NOT NULL AUTO_INCREMENT,
          ${parent} INT UNSIGNED NOT NULL,
          position INT NOT NULL,
          name VARCHAR(64) NOT NULL,
          category VARCHAR(2) NOT NULL,
          rate DECIMAL(7,4) NOT NULL,
          taxable_amount DECIMAL(17,4) NOT NULL,
          tax_amount DECIMAL(17,4) NOT NULL,
          exemption_reason VARCHAR(500) NOT NULL DEFAULT '',
          exemption_code VARCHAR(32) NOT NULL DEFAULT '',
          PRIMARY KEY (id),
          UNIQUE KEY uq_${breakdown}_position (${parent}, position),
          CONSTRAINT fk_${breakdown}_${parent} FOREIGN KEY (${parent}) REFERENCES ${documents} (id) ON DELETE CASCADE,
          CONSTRAINT chk_${breakdown}_category CHECK (
            category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M')
            AND (category IN ('S', 'L', 'M') OR rate = 0)
            AND (category <> 'S' OR rate > 0)),
          CONSTRAINT chk_${breakdown}_amounts CHECK (
            taxable_amount >= 0 AND tax_amount >= 0 AND rate >= 0 AND rate <= 100)
        ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
      await runner.query(`
        INSERT INTO ${breakdown}
          (${parent}, position, name, category, rate, taxable_amount, tax_amount)
        SELECT id, 0, 'Tax', CASE WHEN tax_rate > 0 THEN 'S' ELSE 'Z' END, tax_rate, sub_total,
          tax_amount
        FROM ${documents}`);
    }
    // Income is now total − tax_amount (net of the document discount and of tax, whichever way
    // prices are given), and the tax summary reads the breakdown: the covering indexes of the
    // reports hold those columns instead of sub_total and tax_rate.
    await runner.query(`
      ALTER TABLE invoices
        DROP KEY idx_invoices_issued,
        ADD KEY idx_invoices_issued (deleted_at, issue_date, currency, voided_at, total, tax_amount),
        DROP KEY idx_invoices_cash,
        ADD KEY idx_invoices_cash (id, deleted_at, voided_at, currency, total, tax_amount)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE invoices
        DROP KEY idx_invoices_issued,
        ADD KEY idx_invoices_issued (deleted_at, issue_date, currency, voided_at, tax_rate, sub_total, tax_amount),
        DROP KEY idx_invoices_cash,
        ADD KEY idx_invoices_cash (id, deleted_at, voided_at, currency, sub_total, total)`);
    for (const { documents, lines, breakdown } of [...KINDS].reverse()) {
      await runner.query(`DROP TABLE ${breakdown}`);
      await runner.query(`
        ALTER TABLE ${lines}
          DROP CONSTRAINT chk_${lines}_taxes, DROP CONSTRAINT chk_${lines}_discount,
          DROP COLUMN taxes, DROP COLUMN discount_amount, DROP COLUMN discount_percent,
          DROP COLUMN unit`);
      await runner.query(`
        ALTER TABLE ${documents}
          DROP CONSTRAINT chk_${documents}_supply, DROP CONSTRAINT chk_${documents}_sums,
          DROP CONSTRAINT chk_${documents}_discount,
          DROP COLUMN period_end, DROP COLUMN period_start, DROP COLUMN supply_date,
          DROP COLUMN prices_include_tax, DROP COLUMN discount_amount,
          DROP COLUMN discount_percent, DROP COLUMN tax_name`);
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
