import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Corrections (docs/corrections.md): an invoice's payments become its ledger (Completed,
 * Refunded and Credited entries), credit notes are a third kind of document, and an invoice can
 * be void.
 *
 * Existing rows stay true without a rewrite: every existing entry is Completed, so
 * `amount_paid` (Σ Completed + Σ Credited − Σ Refunded) is already their sum, and nothing has
 * been credited yet (`amount_credited` 0). The database holds the bounds of the ledger as it
 * holds `0 ≤ amount_paid ≤ total`: the credited part never exceeds the amount paid, so the
 * cash held (amount_paid − amount_credited) is never below 0.
 *
 * The status filter reads two generated columns, each computed by the database from the row:
 * `settlement`, what the status is made of apart from today's date (void, paid, unpaid: a
 * balance outstanding, settled: Not Paid with nothing outstanding), for `void` and `paid`; and
 * `open_until`, the last day the invoice is open (its due date while a balance is
 * outstanding, 9999-12-31 when settled, NULL when paid or void), so that `overdue` is the one
 * range `open_until < today` and `open` the one range `open_until >= today`. They hold
 * settlementOf and openUntilOf of src/invoices/domain/invoice-status.ts, written out here as a
 * migration must not change once it has run; test/rule-copies.e2e-spec.ts proves them equal.
 */
export class Corrections1764400000000 implements MigrationInterface {
  name = 'Corrections1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE invoices
        ADD COLUMN amount_credited DECIMAL(17,4) NOT NULL DEFAULT 0 AFTER amount_paid,
        ADD COLUMN voided_at DATETIME NULL AFTER note,
        ADD COLUMN void_reason VARCHAR(1000) NOT NULL DEFAULT '' AFTER voided_at,
        ADD COLUMN settlement VARCHAR(8)
          AS (CASE
            WHEN voided_at IS NOT NULL THEN 'void'
            WHEN payment_status = 'Paid' THEN 'paid'
            WHEN amount_paid < total THEN 'unpaid'
            ELSE 'settled' END) STORED,
        ADD COLUMN open_until DATE
          AS (CASE
            WHEN voided_at IS NOT NULL OR payment_status = 'Paid' THEN NULL
            WHEN amount_paid < total THEN due_date
            ELSE DATE '9999-12-31' END) STORED,
        ADD KEY idx_invoices_settlement (settlement, deleted_at),
        ADD KEY idx_invoices_open_until (deleted_at, open_until),
        ADD CONSTRAINT chk_invoices_amount_credited
          CHECK (amount_credited >= 0 AND amount_credited <= amount_paid)`);
    await runner.query(`
      CREATE TABLE credit_notes (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        short_code CHAR(8) NOT NULL,
        credit_note_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
        invoice_id INT UNSIGNED NOT NULL,
        invoice_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
        client_id INT UNSIGNED NOT NULL,
        customer_name VARCHAR(255) NOT NULL,
        customer_phone VARCHAR(32) NOT NULL DEFAULT '',
        customer_address VARCHAR(1000) NOT NULL DEFAULT '',
        currency CHAR(3) NOT NULL,
        tax_rate DECIMAL(7,4) NOT NULL,
        sub_total DECIMAL(17,4) NOT NULL,
        tax_amount DECIMAL(17,4) NOT NULL,
        total DECIMAL(17,4) NOT NULL,
        refunded DECIMAL(17,4) NOT NULL,
        issue_date DATE NOT NULL,
        reason VARCHAR(1000) NOT NULL DEFAULT '',
        note TEXT NOT NULL,
        created_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_credit_notes_short_code (short_code),
        UNIQUE KEY uq_credit_notes_credit_note_no (credit_note_no),
        KEY idx_credit_notes_invoice (invoice_id, id),
        KEY idx_credit_notes_client (client_id, id),
        CONSTRAINT fk_credit_notes_invoice FOREIGN KEY (invoice_id) REFERENCES invoices (id),
        CONSTRAINT fk_credit_notes_client FOREIGN KEY (client_id) REFERENCES clients (id),
        CONSTRAINT chk_credit_notes_total CHECK (total > 0),
        CONSTRAINT chk_credit_notes_refunded CHECK (refunded >= 0 AND refunded <= total)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE credit_note_line_items (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        credit_note_id INT UNSIGNED NOT NULL,
        position INT NOT NULL,
        description VARCHAR(1000) NOT NULL,
        quantity DECIMAL(17,4) NOT NULL,
        rate DECIMAL(17,4) NOT NULL,
        amount DECIMAL(17,4) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_credit_note_line_items_credit_note (credit_note_id, position),
        CONSTRAINT fk_credit_note_line_items_credit_note FOREIGN KEY (credit_note_id) REFERENCES credit_notes (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE credit_note_send_log (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        credit_note_id INT UNSIGNED NOT NULL,
        email VARCHAR(254) NOT NULL,
        phone VARCHAR(32) NOT NULL DEFAULT '',
        sent_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        KEY idx_credit_note_send_log_credit_note (credit_note_id, id),
        CONSTRAINT fk_credit_note_send_log_credit_note FOREIGN KEY (credit_note_id) REFERENCES credit_notes (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    // A Credited entry, and the refund a credit note makes, name their credit note.
    await runner.query(`
      ALTER TABLE invoice_payments
        ADD COLUMN reason VARCHAR(1000) NOT NULL DEFAULT '' AFTER payment_date,
        ADD COLUMN credit_note_id INT UNSIGNED NULL AFTER reason,
        ADD CONSTRAINT fk_invoice_payments_credit_note
          FOREIGN KEY (credit_note_id) REFERENCES credit_notes (id),
        ADD CONSTRAINT chk_invoice_payments_status
          CHECK (status IN ('Completed', 'Refunded', 'Credited'))`);
    await runner.query(`
      ALTER TABLE document_outbox
        MODIFY kind VARCHAR(16) NOT NULL,
        DROP CONSTRAINT chk_document_outbox_kind,
        ADD CONSTRAINT chk_document_outbox_kind
          CHECK (kind IN ('invoice', 'estimate', 'credit_note'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE document_outbox
        DROP CONSTRAINT chk_document_outbox_kind,
        MODIFY kind VARCHAR(8) NOT NULL,
        ADD CONSTRAINT chk_document_outbox_kind CHECK (kind IN ('invoice', 'estimate'))`);
    await runner.query(`
      ALTER TABLE invoice_payments
        DROP CONSTRAINT chk_invoice_payments_status,
        DROP FOREIGN KEY fk_invoice_payments_credit_note,
        DROP COLUMN credit_note_id,
        DROP COLUMN reason`);
    await runner.query('DROP TABLE credit_note_send_log');
    await runner.query('DROP TABLE credit_note_line_items');
    await runner.query('DROP TABLE credit_notes');
    await runner.query(`
      ALTER TABLE invoices
        DROP CONSTRAINT chk_invoices_amount_credited,
        DROP KEY idx_invoices_open_until,
        DROP KEY idx_invoices_settlement,
        DROP COLUMN open_until,
        DROP COLUMN settlement,
        DROP COLUMN void_reason,
        DROP COLUMN voided_at,
        DROP COLUMN amount_credited`);
  }
}
