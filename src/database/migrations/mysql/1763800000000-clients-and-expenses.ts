import { MigrationInterface, QueryRunner } from 'typeorm';

export class ClientsAndExpenses1763800000000 implements MigrationInterface {
  name = 'ClientsAndExpenses1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE clients (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        names VARCHAR(255) NOT NULL,
        email VARCHAR(254) NOT NULL DEFAULT '',
        phone VARCHAR(32) NOT NULL DEFAULT '',
        address VARCHAR(1000) NOT NULL DEFAULT '',
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL,
        deleted_at DATETIME NULL,
        PRIMARY KEY (id),
        KEY idx_clients_deleted_at (deleted_at, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await runner.query(`
      CREATE TABLE expenses (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        short_code CHAR(8) NOT NULL,
        category VARCHAR(32) NOT NULL,
        description VARCHAR(1000) NOT NULL,
        amount DECIMAL(17,4) NOT NULL,
        currency CHAR(3) NOT NULL,
        vendor VARCHAR(255) NOT NULL DEFAULT '',
        issued_date DATE NOT NULL,
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL,
        deleted_at DATETIME NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_expenses_short_code (short_code),
        KEY idx_expenses_deleted_at (deleted_at, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE expenses');
    await runner.query('DROP TABLE clients');
  }
}
