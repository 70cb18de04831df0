import { MigrationInterface, QueryRunner } from 'typeorm';

export class Invoices1763900000000 implements MigrationInterface {
  name = 'Invoices1763900000000';

  async up(runner: QueryRunner): Promise<void> {
    // live_invoice_no is NULL once archived, so the unique index holds among live invoices
    // only and an archived number can be reused. utf8mb4_bin: numbers compare exactly, as on SQLite.
    await runner.query(`
      CREATE TABLE invoices (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        short_code CHAR(8) NOT NULL,
        invoice_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
        live_invoice_no VARCHAR(64) COLLATE utf8mb4_bin
          AS (CASE WHEN deleted_at IS NULL THEN invoice_no END) STORED,
        description VARCHAR(1000) NOT NULL DEFAULT '',
        client_id INT UNSIGNED NOT NULL,
        customer_name VARCHAR(255) NOT NULL,
        customer_phone VARCHAR(32) NOT NULL DEFAULT '',
        customer_address VARCHAR(1000) NOT NULL DEFAULT '',
        payment_status VARCHAR(8) NOT NULL,
        currency CHAR(3) NOT NULL,
        tax_rate DECIMAL(7,4) NOT NULL,
        sub_total DECIMAL(17,4) NOT NULL,
        tax_amount DECIMAL(17,4) NOT NULL,
        total DECIMAL(17,4) NOT NULL,
        amount_paid DECIMAL(17,4) NOT NULL,
        issue_date DATE NOT NULL,
        due_date DATE NOT NULL,
        note TEXT NOT NULL,
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL,
        deleted_at DATETIME NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_invoices_short_code (short_code),
        UNIQUE KEY uq_invoices_live_invoice_no (live_invoice_no),
        KEY idx_invoices_client (client_id, deleted_at),
        KEY idx_invoices_deleted_at (deleted_at, id),
        CONSTRAINT fk_invoices_client FOREIGN KEY (client_id) REFERENCES clients (id),
        CONSTRAINT chk_invoices_amount_paid CHECK (amount_paid >= 0 AND amount_paid <= total)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE invoice_line_items (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        invoice_id INT UNSIGNED NOT NULL,
        position INT NOT NULL,
        description VARCHAR(1000) NOT NULL,
        quantity DECIMAL(17,4) NOT NULL,
        rate DECIMAL(17,4) NOT NULL,
        amount DECIMAL(17,4) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_invoice_line_items_invoice (invoice_id, position),
        CONSTRAINT fk_invoice_line_items_invoice FOREIGN KEY (invoice_id) REFERENCES invoices (id) ON DELETE CASCADE
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE invoice_payments (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        invoice_id INT UNSIGNED NOT NULL,
        reference VARCHAR(32) NOT NULL,
        status VARCHAR(16) NOT NULL,
        amount DECIMAL(17,4) NOT NULL,
        method VARCHAR(16) NOT NULL,
        payment_date DATE NOT NULL,
        created_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_invoice_payments_reference (reference),
        KEY idx_invoice_payments_invoice (invoice_id, id),
        CONSTRAINT fk_invoice_payments_invoice FOREIGN KEY (invoice_id) REFERENCES invoices (id),
        CONSTRAINT chk_invoice_payments_amount CHECK (amount > 0)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE invoice_send_log (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        invoice_id INT UNSIGNED NOT NULL,
        email VARCHAR(254) NOT NULL,
        phone VARCHAR(32) NOT NULL DEFAULT '',
        sent_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        KEY idx_invoice_send_log_invoice (invoice_id, id),
        CONSTRAINT fk_invoice_send_log_invoice FOREIGN KEY (invoice_id) REFERENCES invoices (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE invoice_send_log');
    await runner.query('DROP TABLE invoice_payments');
    await runner.query('DROP TABLE invoice_line_items');
    await runner.query('DROP TABLE invoices');
  }
}
