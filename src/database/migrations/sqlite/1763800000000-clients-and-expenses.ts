import { MigrationInterface, QueryRunner } from 'typeorm';

/** Decimals are TEXT: SQLite's NUMERIC affinity would store them as binary floats. */
export class ClientsAndExpenses1763800000000 implements MigrationInterface {
  name = 'ClientsAndExpenses1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE clients (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        names TEXT NOT NULL,
        email TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        address TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT NULL
      )`);
    await runner.query('CREATE INDEX idx_clients_deleted_at ON clients (deleted_at, id)');
    await runner.query(`
      CREATE TABLE expenses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        short_code TEXT NOT NULL,
        category TEXT NOT NULL,
        description TEXT NOT NULL,
        amount TEXT NOT NULL,
        currency TEXT NOT NULL,
        vendor TEXT NOT NULL DEFAULT '',
        issued_date TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT NULL
      )`);
    await runner.query('CREATE UNIQUE INDEX uq_expenses_short_code ON expenses (short_code)');
    await runner.query('CREATE INDEX idx_expenses_deleted_at ON expenses (deleted_at, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE expenses');
    await runner.query('DROP TABLE clients');
  }
}
