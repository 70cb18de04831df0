import { MigrationInterface, QueryRunner } from 'typeorm';

export class Estimates1764000000000 implements MigrationInterface {
  name = 'Estimates1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    // Same live-number scheme as invoices: NULL once archived, so the number can be reused.
    await runner.query(`
      CREATE TABLE estimates (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        short_code CHAR(8) NOT NULL,
        estimate_no VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
        live_estimate_no VARCHAR(64) COLLATE utf8mb4_bin
          AS (CASE WHEN deleted_at IS NULL THEN estimate_no END) STORED,
        description VARCHAR(1000) NOT NULL DEFAULT '',
        client_id INT UNSIGNED NOT NULL,
        customer_name VARCHAR(255) NOT NULL,
        customer_phone VARCHAR(32) NOT NULL DEFAULT '',
        customer_address VARCHAR(1000) NOT NULL DEFAULT '',
        currency CHAR(3) NOT NULL,
        tax_rate DECIMAL(7,4) NOT NULL,
        sub_total DECIMAL(17,4) NOT NULL,
        tax_amount DECIMAL(17,4) NOT NULL,
        total DECIMAL(17,4) NOT NULL,
        accepted TINYINT(1) NOT NULL DEFAULT 0,
        converted_invoice_id INT UNSIGNED NULL,
        issue_date DATE NOT NULL,
        due_date DATE NOT NULL,
        note TEXT NOT NULL,
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL,
        deleted_at DATETIME NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_estimates_short_code (short_code),
        UNIQUE KEY uq_estimates_live_estimate_no (live_estimate_no),
        UNIQUE KEY uq_estimates_converted_invoice (converted_invoice_id),
        KEY idx_estimates_client (client_id, deleted_at),
        KEY idx_estimates_deleted_at (deleted_at, id),
        CONSTRAINT fk_estimates_client FOREIGN KEY (client_id) REFERENCES clients (id),
        CONSTRAINT fk_estimates_converted_invoice FOREIGN KEY (converted_invoice_id) REFERENCES invoices (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE estimate_line_items (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        estimate_id INT UNSIGNED NOT NULL,
        position INT NOT NULL,
        description VARCHAR(1000) NOT NULL,
        quantity DECIMAL(17,4) NOT NULL,
        rate DECIMAL(17,4) NOT NULL,
        amount DECIMAL(17,4) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_estimate_line_items_estimate (estimate_id, position),
        CONSTRAINT fk_estimate_line_items_estimate FOREIGN KEY (estimate_id) REFERENCES estimates (id) ON DELETE CASCADE
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE estimate_send_log (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        estimate_id INT UNSIGNED NOT NULL,
        email VARCHAR(254) NOT NULL,
        phone VARCHAR(32) NOT NULL DEFAULT '',
        sent_at DATETIME NOT NULL,
        PRIMARY KEY (id),
        KEY idx_estimate_send_log_estimate (estimate_id, id),
        CONSTRAINT fk_estimate_send_log_estimate FOREIGN KEY (estimate_id) REFERENCES estimates (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE estimate_send_log');
    await runner.query('DROP TABLE estimate_line_items');
    await runner.query('DROP TABLE estimates');
  }
}
