import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, createConnection, format, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';

/*
 * The MariaDB project's global setup: the migrations run once per `jest` run, on a scratch
 * database, and what they built (every table as SHOW CREATE TABLE gives it, every trigger, and
 * the rows they wrote, such as the migrations table's) becomes one script. Each e2e file then
 * creates its throwaway database from that script (test-database.ts) instead of migrating
 * afresh: about 1 s (the CREATE TABLEs) instead of 2.5–3 s a database. The service still runs
 * its migrations when it starts, and finds them all done, as on a deployed database. SQLite
 * migrates a file in a few milliseconds and needs none of this. The global teardown below
 * removes the script once the run ends.
 */

export const SCHEMA_SCRIPT_ENV = 'TEST_MARIADB_SCHEMA_SCRIPT';

export default async function buildSchemaScript(): Promise<void> {
  const server = process.env.TEST_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306';
  const name = `invoicing_test_${randomBytes(6).toString('hex')}`;
  const connection = await createConnection({
    uri: server.replace(/^mariadb:/, 'mysql:'),
    // Rows are copied as text, exactly as stored.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  try {
    await connection.query(
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    try {
      const migrated = new DataSource(buildDataSourceOptions(`${server}/${name}`));
      await migrated.initialize(); // runs every migration (migrationsRun)
      await migrated.destroy();
      const file = join(tmpdir(), `invoicing-test-schema-${name}.sql.json`);
      writeFileSync(file, JSON.stringify(await schemaOf(connection, name)));
      process.env[SCHEMA_SCRIPT_ENV] = file;
    } finally {
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    }
  } finally {
    await connection.end();
  }
}

/** The MariaDB project's global teardown: the script of this run is removed. */
export async function removeSchemaScript(): Promise<void> {
  const file = process.env[SCHEMA_SCRIPT_ENV];
  if (file) await rm(file, { force: true });
}

/** The statements that build `database` again, in a database of any name (USE'd first). */
async function schemaOf(connection: Connection, database: string): Promise<string[]> {
  const statements: string[] = [];
  const [tables] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS name FROM information_schema.TABLES
     WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`,
    [database],
  );
  for (const { name } of tables as { name: string }[]) {
    const [[created]] = await connection.query<RowDataPacket[]>(
      `SHOW CREATE TABLE \`${database}\`.\`${name}\``,
    );
    statements.push(String(created['Create Table']));
    statements.push(...(await rowsOf(connection, database, name)));
  }
  const [triggers] = await connection.query<RowDataPacket[]>(
    'SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?',
    [database],
  );
  for (const { name } of triggers as { name: string }[]) {
    const [[created]] = await connection.query<RowDataPacket[]>(
      `SHOW CREATE TRIGGER \`${database}\`.\`${name}\``,
    );
    statements.push(String(created['SQL Original Statement']));
  }
  return statements;
}

/** INSERTs of the rows a migration wrote into `table` (its stored columns only). */
async function rowsOf(connection: Connection, database: string, table: string): Promise<string[]> {
  const [columns] = await connection.query<RowDataPacket[]>(
    `SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS
     WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND EXTRA NOT LIKE '%GENERATED%'
     ORDER BY ORDINAL_POSITION`,
    [database, table],
  );
  const names = (columns as { name: string }[]).map(({ name }) => `\`${name}\``).join(', ');
  const [rows] = await connection.query<RowDataPacket[]>({
    sql: `SELECT ${names} FROM \`${database}\`.\`${table}\``,
    rowsAsArray: true,
  });
  return (rows as unknown as unknown[][]).map((row) =>
    format(`INSERT INTO \`${table}\` (${names}) VALUES (?)`, [row as (string | null)[]]),
  );
}
