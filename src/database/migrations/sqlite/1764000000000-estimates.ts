import { MigrationInterface, QueryRunner } from 'typeorm';

export class Estimates1764000000000 implements MigrationInterface {
  name = 'Estimates1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE estimates (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        short_code TEXT NOT NULL,
        estimate_no TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        client_id INTEGER NOT NULL REFERENCES clients (id),
        customer_name TEXT NOT NULL,
        customer_phone TEXT NOT NULL DEFAULT '',
        customer_address TEXT NOT NULL DEFAULT '',
        currency TEXT NOT NULL,
        tax_rate TEXT NOT NULL,
        sub_total TEXT NOT NULL,
        tax_amount TEXT NOT NULL,
        total TEXT NOT NULL,
        accepted INTEGER NOT NULL DEFAULT 0,
        converted_invoice_id INTEGER NULL REFERENCES invoices (id),
        issue_date TEXT NOT NULL,
        due_date TEXT NOT NULL,
        note TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT NULL
      )`);
    await runner.query('CREATE UNIQUE INDEX uq_estimates_short_code ON estimates (short_code)');
    // Unique among live estimates only: an archived number can be reused.
    await runner.query(
      'CREATE UNIQUE INDEX uq_estimates_live_estimate_no ON estimates (estimate_no) WHERE deleted_at IS NULL',
    );
    await runner.query(
      'CREATE UNIQUE INDEX uq_estimates_converted_invoice ON estimates (converted_invoice_id)',
    );
    await runner.query('CREATE INDEX idx_estimates_client ON estimates (client_id, deleted_at)');
    await runner.query('CREATE INDEX idx_estimates_deleted_at ON estimates (deleted_at, id)');
    await runner.query(`
      CREATE TABLE estimate_line_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        estimate_id INTEGER NOT NULL REFERENCES estimates (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        description TEXT NOT NULL,
        quantity TEXT NOT NULL,
        rate TEXT NOT NULL,
        amount TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX idx_estimate_line_items_estimate ON estimate_line_items (estimate_id, position)',
    );
    await runner.query(`
      CREATE TABLE estimate_send_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        estimate_id INTEGER NOT NULL REFERENCES estimates (id),
        email TEXT NOT NULL,
        phone TEXT NOT NULL DEFAULT '',
        sent_at TEXT NOT NULL
      )`);
    await runner.query(
      'CREATE INDEX idx_estimate_send_log_estimate ON estimate_send_log (estimate_id, id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE estimate_send_log');
    await runner.query('DROP TABLE estimate_line_items');
    await runner.query('DROP TABLE estimates');
  }
}
