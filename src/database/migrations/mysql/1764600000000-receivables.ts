import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receivables (docs/receivables.md): reminders and reports.
 *
 * Every send-log entry says what sent it (`kind`: `document` by the API, `reminder` by the
 * service); the entries there are were all sent by the API. A reminder is one row per invoice
 * and step, unique, written in the transaction that writes its send-log entry and e-mail: the
 * index is what keeps two instances from sending one step twice.
 *
 * The reports read ranges of indexes that hold every column they sum (covering indexes), so a
 * year of a million invoices is read from the index alone: invoices by issue date (profit and
 * loss, tax summary), invoices by client and currency (aging: read whole in its order and
 * grouped as it streams, with no temporary table however many clients; client first, so that
 * no statement of live rows by date prefers it), the ledger and expenses by date, credit notes
 * by issue date. The cash basis looks up the invoice of each ledger entry of the period: through
 * idx_invoices_cash, which holds what it needs in a fraction of the rows' pages, a lookup that
 * stays in memory where the table does not (MySQL only: SQLite reads the rows it steps
 * through anyway).
 */
export class Receivables1764600000000 implements MigrationInterface {
  name = 'Receivables1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of SEND_LOGS) {
      await runner.query(
        `ALTER TABLE ${table} ADD COLUMN kind VARCHAR(16) NOT NULL DEFAULT 'document'`,
      );
    }
    await runner.query(`
      CREATE TABLE invoice_reminders (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        invoice_id INT UNSIGNED NOT NULL,
        step INT NOT NULL,
        send_log_id INT UNSIGNED NOT NULL,
        created_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_invoice_reminders_step (invoice_id, step),
        CONSTRAINT fk_invoice_reminders_invoice FOREIGN KEY (invoice_id) REFERENCES invoices (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      ALTER TABLE invoices
        ADD KEY idx_invoices_issued (deleted_at, issue_date, currency, voided_at, tax_rate, sub_total, tax_amount),
        ADD KEY idx_invoices_aging (client_id, currency, deleted_at, open_until, issue_date, due_date, total, amount_paid),
        ADD KEY idx_invoices_cash (id, deleted_at, voided_at, currency, sub_total, total)`);
    await runner.query(
      'ALTER TABLE invoice_payments ADD KEY idx_invoice_payments_date (payment_date, invoice_id, status, amount)',
    );
    await runner.query(
      'ALTER TABLE expenses ADD KEY idx_expenses_issued (deleted_at, issued_date, currency, category, amount)',
    );
    await runner.query('ALTER TABLE credit_notes ADD KEY idx_credit_notes_issued (issue_date)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE credit_notes DROP KEY idx_credit_notes_issued');
    await runner.query('ALTER TABLE expenses DROP KEY idx_expenses_issued');
    await runner.query('ALTER TABLE invoice_payments DROP KEY idx_invoice_payments_date');
    await runner.query(
      'ALTER TABLE invoices DROP KEY idx_invoices_cash, DROP KEY idx_invoices_aging, DROP KEY idx_invoices_issued',
    );
    await runner.query('DROP TABLE invoice_reminders');
    for (const table of SEND_LOGS) await runner.query(`ALTER TABLE ${table} DROP COLUMN kind`);
  }
}

const SEND_LOGS = ['invoice_send_log', 'estimate_send_log', 'credit_note_send_log'];
