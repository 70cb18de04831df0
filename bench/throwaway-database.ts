import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

/** A database made for one in-process bench run, and dropped after it. */
export interface ThrowawayDatabase {
  /** The service's DATABASE_URL. */
  url: string;
  /** The mysql2 URL of the database on MariaDB (for direct seeding); undefined on SQLite. */
  mysqlUrl: string | undefined;
  drop(): Promise<void>;
}

/**
 * On the MariaDB server at `mariadbServer` (BENCH_MARIADB_URL) when given, else a SQLite file
 * in the temporary folder; a random name either way, so runs never meet.
 */
export async function createThrowawayDatabase(
  mariadbServer: string | undefined,
): Promise<ThrowawayDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (!mariadbServer) {
    const file = join(tmpdir(), `invoicing-bench-${suffix}.sqlite`);
    return {
      url: `sqlite:${file}`,
      mysqlUrl: undefined,
      drop: async () => {
        await Promise.all(['', '-wal', '-shm'].map((end) => rm(`${file}${end}`, { force: true })));
      },
    };
  }
  const name = `invoicing_bench_${suffix}`;
  const server = mariadbServer.replace(/^mariadb:/, 'mysql:');
  const run = async (sql: string) => {
    const connection = await createConnection(server);
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  };
  await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return {
    url: `${mariadbServer}/${name}`,
    mysqlUrl: `${server}/${name}`,
    drop: () => run(`DROP DATABASE IF EXISTS ${name}`),
  };
}
