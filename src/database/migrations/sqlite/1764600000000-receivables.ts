import { MigrationInterface, QueryRunner } from 'typeorm';

/** See the MySQL migration. */
export class Receivables1764600000000 implements MigrationInterface {
  name = 'Receivables1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of SEND_LOGS) {
      await runner.query(`ALTER TABLE ${table} ADD COLUMN kind TEXT NOT NULL DEFAULT 'document'`);
    }
    await runner.query(`
      CREATE TABLE invoice_reminders (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        invoice_id INTEGER NOT NULL REFERENCES invoices (id),
        step INTEGER NOT NULL,
        send_log_id INTEGER NOT NULL,
        created_at TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX uq_invoice_reminders_step ON invoice_reminders (invoice_id, step)',
    );
    await runner.query(
      'CREATE INDEX idx_invoices_issued ON invoices (deleted_at, issue_date, currency, voided_at, tax_rate, sub_total, tax_amount)',
    );
    await runner.query(
      'CREATE INDEX idx_invoices_aging ON invoices (client_id, currency, deleted_at, open_until, issue_date, due_date, total, amount_paid)',
    );
    await runner.query(
      'CREATE INDEX idx_invoice_payments_date ON invoice_payments (payment_date, invoice_id, status, amount)',
    );
    await runner.query(
      'CREATE INDEX idx_expenses_issued ON expenses (deleted_at, issued_date, currency, category, amount)',
    );
    await runner.query('CREATE INDEX idx_credit_notes_issued ON credit_notes (issue_date)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX idx_credit_notes_issued');
    await runner.query('DROP INDEX idx_expenses_issued');
    await runner.query('DROP INDEX idx_invoice_payments_date');
    await runner.query('DROP INDEX idx_invoices_aging');
    await runner.query('DROP INDEX idx_invoices_issued');
    await runner.query('DROP TABLE invoice_reminders');
    for (const table of SEND_LOGS) await runner.query(`ALTER TABLE ${table} DROP COLUMN kind`);
  }
}

const SEND_LOGS = ['invoice_send_log', 'estimate_send_log', 'credit_note_send_log'];
