import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The exact value × 10^4 of a non-negative decimal SQLite keeps as text ('12', '0.5',
 * '1000.0000'): an integer (below 10^17, well inside 64 bits), so comparisons are exact where a
 * REAL would round. Written out here, not imported: a migration must not change later.
 */
function scaled(column: string): string {
  const dot = `instr(${column} || '.', '.')`;
  return `(CAST(substr(${column}, 1, ${dot} - 1) AS INTEGER) * 10000 + CAST(substr(substr(${column}, ${dot} + 1) || '0000', 1, 4) AS INTEGER))`;
}

/** True when the text decimal is not negative. */
function notNegative(column: string): string {
  return `${column} NOT LIKE '-%'`;
}

/** See the MySQL migration. SQLite cannot add a CHECK to a table: its bounds are triggers. */
export class Corrections1764400000000 implements MigrationInterface {
  name = 'Corrections1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      "ALTER TABLE invoices ADD COLUMN amount_credited TEXT NOT NULL DEFAULT '0.0000'",
    );
    await runner.query('ALTER TABLE invoices ADD COLUMN voided_at TEXT NULL');
    await runner.query("ALTER TABLE invoices ADD COLUMN void_reason TEXT NOT NULL DEFAULT ''");
    await runner.query(`
      ALTER TABLE invoices ADD COLUMN settlement TEXT GENERATED ALWAYS AS (CASE
        WHEN voided_at IS NOT NULL THEN 'void'
        WHEN payment_status = 'Paid' THEN 'paid'
        WHEN ${scaled('amount_paid')} < ${scaled('total')} THEN 'unpaid'
        ELSE 'settled' END) VIRTUAL`);
    await runner.query(`
      ALTER TABLE invoices ADD COLUMN open_until TEXT GENERATED ALWAYS AS (CASE
        WHEN voided_at IS NOT NULL OR payment_status = 'Paid' THEN NULL
        WHEN ${scaled('amount_paid')} < ${scaled('total')} THEN due_date
        ELSE '9999-12-31' END) VIRTUAL`);
    await runner.query('CREATE INDEX idx_invoices_settlement ON invoices (settlement, deleted_at)');
    // deleted_at first: with (open_until, deleted_at) SQLite counts through the live-rows index.
    await runner.query('CREATE INDEX idx_invoices_open_until ON invoices (deleted_at, open_until)');
    // 0 ≤ amount_credited ≤ amount_paid ≤ total, as MySQL's CHECK constraints hold it.
    const ledgerBroken = `NOT (${notNegative('NEW.amount_paid')} AND ${notNegative('NEW.amount_credited')}
        AND ${scaled('NEW.amount_paid')} <= ${scaled('NEW.total')}
        AND ${scaled('NEW.amount_credited')} <= ${scaled('NEW.amount_paid')})`;
    for (const event of ['INSERT', 'UPDATE']) {
      await runner.query(`
        CREATE TRIGGER chk_invoices_ledger_${event.toLowerCase()} BEFORE ${event} ON invoices
        WHEN ${ledgerBroken}
        BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: chk_invoices_ledger'); END`);
    }

    await runner.query(`
      CREATE TABLE credit_notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        short_code TEXT NOT NULL,
        credit_note_no TEXT NOT NULL,
        invoice_id INTEGER NOT NULL REFERENCES invoices (id),
        invoice_no TEXT NOT NULL,
        client_id INTEGER NOT NULL REFERENCES clients (id),
        customer_name TEXT NOT NULL,
        customer_phone TEXT NOT NULL DEFAULT '',
        customer_address TEXT NOT NULL DEFAULT '',
        currency TEXT NOT NULL,
        tax_rate TEXT NOT NULL,
        sub_total TEXT NOT NULL,
        tax_amount TEXT NOT NULL,
        total TEXT NOT NULL,
        refunded TEXT NOT NULL,
        issue_date TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        note TEXT NOT NULL,
        created_at TEXT NOT NULL,
        CHECK (${notNegative('total')} AND ${scaled('total')} > 0),
        CHECK (${notNegative('refunded')} AND ${scaled('refunded')} <= ${scaled('total')})
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX uq_credit_notes_short_code ON credit_notes (short_code)',
    );
    await runner.query(
      'CREATE UNIQUE INDEX uq_credit_notes_credit_note_no ON credit_notes (credit_note_no)',
    );
    await runner.query('CREATE INDEX idx_credit_notes_invoice ON credit_notes (invoice_id, id)');
    await runner.query('CREATE INDEX idx_credit_notes_client ON credit_notes (client_id, id)');
    await runner.query(`
      CREATE TABLE credit_note_line_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        credit_note_id INTEGER NOT NULL REFERENCES credit_notes (id),
        position INTEGER NOT NULL,
        description TEXT NOT NULL,
        quantity TEXT NOT NULL,
        rate TEXT NOT NULL,
        amount TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX idx_credit_note_line_items_credit_note ON credit_note_line_items (credit_note_id, position)',
    );
    await runner.query(`
      CREATE TABLE credit_note_send_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        credit_note_id INTEGER NOT NULL REFERENCES credit_notes (id),
        email TEXT NOT NULL,
        phone TEXT NOT NULL DEFAULT '',
        sent_at TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX idx_credit_note_send_log_credit_note ON credit_note_send_log (credit_note_id, id)',
    );

    await runner.query("ALTER TABLE invoice_payments ADD COLUMN reason TEXT NOT NULL DEFAULT ''");
    await runner.query(
      'ALTER TABLE invoice_payments ADD COLUMN credit_note_id INTEGER NULL REFERENCES credit_notes (id)',
    );
    await runner.query(`
      CREATE TRIGGER chk_invoice_payments_entry BEFORE INSERT ON invoice_payments
      WHEN NEW.status NOT IN ('Completed', 'Refunded', 'Credited')
        OR NOT (${notNegative('NEW.amount')} AND ${scaled('NEW.amount')} > 0)
      BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: chk_invoice_payments_entry'); END`);

    // The outbox's kind is checked in its CREATE TABLE: a new kind means a new table.
    await runner.query(`
      CREATE TABLE document_outbox_next (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('invoice', 'estimate', 'credit_note')),
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
    await runner.query('INSERT INTO document_outbox_next SELECT * FROM document_outbox');
    await runner.query('DROP TABLE document_outbox');
    await runner.query('ALTER TABLE document_outbox_next RENAME TO document_outbox');
    await runner.query(
      'CREATE UNIQUE INDEX uq_document_outbox_send_log ON document_outbox (kind, send_log_id)',
    );
    await runner.query(
      'CREATE INDEX idx_document_outbox_due ON document_outbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TRIGGER chk_invoice_payments_entry');
    await runner.query('ALTER TABLE invoice_payments DROP COLUMN credit_note_id');
    await runner.query('ALTER TABLE invoice_payments DROP COLUMN reason');
    await runner.query('DROP TABLE credit_note_send_log');
    await runner.query('DROP TABLE credit_note_line_items');
    await runner.query('DROP TABLE credit_notes');
    await runner.query('DROP TRIGGER chk_invoices_ledger_update');
    await runner.query('DROP TRIGGER chk_invoices_ledger_insert');
    await runner.query('DROP INDEX idx_invoices_open_until');
    await runner.query('DROP INDEX idx_invoices_settlement');
    await runner.query('ALTER TABLE invoices DROP COLUMN open_until');
    await runner.query('ALTER TABLE invoices DROP COLUMN settlement');
    await runner.query('ALTER TABLE invoices DROP COLUMN void_reason');
    await runner.query('ALTER TABLE invoices DROP COLUMN voided_at');
    await runner.query('ALTER TABLE invoices DROP COLUMN amount_credited');
  }
}
