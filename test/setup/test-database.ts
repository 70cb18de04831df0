import { rm } from 'node:fs/promises';
import { createConnection } from 'mysql2/promise';

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
  const connection = await createConnection(database.server);
  await connection.query(
    `CREATE DATABASE \`${database.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  await connection.end();
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
