import { MigrationInterface, QueryRunner } from 'typeorm';

export class Invoices1763900000000 implements MigrationInterface {
  name = 'Invoices1763900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE invoices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        short_code TEXT NOT NULL,
        invoice_no TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        client_id INTEGER NOT NULL REFERENCES clients (id),
        customer_name TEXT NOT NULL,
        customer_phone TEXT NOT NULL DEFAULT '',
        customer_address TEXT NOT NULL DEFAULT '',
        payment_status TEXT NOT NULL,
        currency TEXT NOT NULL,
        tax_rate TEXT NOT NULL,
        sub_total TEXT NOT NULL,
        tax_amount TEXT NOT NULL,
        total TEXT NOT NULL,
        amount_paid TEXT NOT NULL,
        issue_date TEXT NOT NULL,
        due_date TEXT NOT NULL,
        note TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT NULL
      )`);
    await runner.query('CREATE UNIQUE INDEX uq_invoices_short_code ON invoices (short_code)');
    // Unique among live invoices only: an archived number can be reused.
    await runner.query(
      'CREATE UNIQUE INDEX uq_invoices_live_invoice_no ON invoices (invoice_no) WHERE deleted_at IS NULL',
    );
    await runner.query('CREATE INDEX idx_invoices_client ON invoices (client_id, deleted_at)');
    await runner.query('CREATE INDEX idx_invoices_deleted_at ON invoices (deleted_at, id)');
    await runner.query(`
      CREATE TABLE invoice_line_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        invoice_id INTEGER NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        description TEXT NOT NULL,
        quantity TEXT NOT NULL,
        rate TEXT NOT NULL,
        amount TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX idx_invoice_line_items_invoice ON invoice_line_items (invoice_id, position)',
    );
    await runner.query(`
      CREATE TABLE invoice_payments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        invoice_id INTEGER NOT NULL REFERENCES invoices (id),
        reference TEXT NOT NULL,
        status TEXT NOT NULL,
        amount TEXT NOT NULL,
        method TEXT NOT NULL,
        payment_date TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX uq_invoice_payments_reference ON invoice_payments (reference)',
    );
    await runner.query(
      'CREATE INDEX idx_invoice_payments_invoice ON invoice_payments (invoice_id, id)',
    );
    await runner.query(`
      CREATE TABLE invoice_send_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        invoice_id INTEGER NOT NULL REFERENCES invoices (id),
        email TEXT NOT NULL,
        phone TEXT NOT NULL DEFAULT '',
        sent_at TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX idx_invoice_send_log_invoice ON invoice_send_log (invoice_id, id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE invoice_send_log');
    await runner.query('DROP TABLE invoice_payments');
    await runner.query('DROP TABLE invoice_line_items');
    await runner.query('DROP TABLE invoices');
  }
}
