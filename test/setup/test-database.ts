import { readFile, rm } from 'node:fs/promises';
import { createConnection } from 'mysql2/promise';
import { SCHEMA_SCRIPT_ENV } from './mariadb-schema';

/** The throwaway database named by DATABASE_URL (see test-environment.ts). */
function describeDatabase():
  { kind: 'sqlite'; file: string } | { kind: 'mysql'; server: string; name: string } {
  const url = process.env.DATABASE_URL ?? '';
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', file: url.slice('sqlite:'.length) };
  const slash = url.lastIndexOf('/');
  const server = url.slice(0, slash).replace(/^mariadb:/, 'mysql:');
  const name = url.slice(slash + 1);
  if (!/^invoicing_test_[0-9a-f]+$/.test(name))
    throw new Error(`Refusing to touch database ${name}`);
  return { kind: 'mysql', server, name };
}

export async function createTestDatabase(): Promise<void> {
  const database = describeDatabase();
  if (database.kind === 'sqlite') return; // created on first connection
  const script = process.env[SCHEMA_SCRIPT_ENV];
  const connection = await createConnection({ uri: database.server, multipleStatements: true });
  try {
    await connection.query(
      `CREATE DATABASE \`${database.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    // Migrated once per run (mariadb-schema.ts): the tables, triggers and rows they made.
    if (script) {
      const statements = JSON.parse(await readFile(script, 'utf8')) as string[];
      await connection.query(
        [
          `USE \`${database.name}\``,
          'SET FOREIGN_KEY_CHECKS = 0',
          ...statements,
          'SET FOREIGN_KEY_CHECKS = 1',
        ].join(';\n'),
      );
    }
  } finally {
    await connection.end();
  }
}

export async function dropTestDatabase(): Promise<void> {
  const database = describeDatabase();
  if (database.kind === 'sqlite') {
    await Promise.all(
      ['', '-wal', '-shm'].map((end) => rm(`${database.file}${end}`, { force: true })),
    );
    return;
  }
  const connection = await createConnection(database.server);
  await connection.query(`DROP DATABASE IF EXISTS \`${database.name}\``);
  await connection.end();
}

export function testDialect(): 'sqlite' | 'mysql' {
  return describeDatabase().kind;
}

type TestDeclaration = (name: string, body: jest.ProvidesCallback, timeout?: number) => void;
const notDeclared: TestDeclaration = () => undefined;

/**
 * `it` and `describe` for tests whose outcome no database can change: a type check of generated
 * code, the checkers a file relies on, a limiter that counts outside the database, the drawing
 * of a text both runs prove the database gives back, a key refused before any handler runs, the
 * address rule swept over every form of an address. Jest runs every e2e file once per
 * database, and these would prove the same thing twice, so they are declared in the SQLite run
 * only (in the MariaDB run they do not exist: nothing is skipped).
 */
export const itWithoutDatabase: TestDeclaration = (name, body, timeout) =>
  (testDialect() === 'sqlite' ? it : notDeclared)(name, body, timeout);

export const describeWithoutDatabase = (name: string, body: () => void): void => {
  if (testDialect() === 'sqlite') describe(name, body);
};
