import { DataSourceOptions } from 'typeorm';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';

export type Dialect = 'mysql' | 'sqlite';

/** The part of a better-sqlite3 connection that start-up configures. */
interface SqliteConnection {
  pragma(statement: string): unknown;
  function(
    name: string,
    options: { deterministic: boolean },
    body: (text: unknown) => unknown,
  ): unknown;
}

/** Entities are listed by each feature module (autoLoadEntities); the CLI passes them here. */
export function buildDataSourceOptions(
  databaseUrl: string,
  options: { logging?: boolean; entities?: DataSourceOptions['entities'] } = {},
): DataSourceOptions {
  const common = {
    entities: options.entities ?? [],
    synchronize: false,
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    // Off unless asked for: TypeORM's error log prints every failed query with its parameters
    // (customer data), and expected failures such as a duplicate number are not news.
    // Unexpected failures reach the error filter, which logs them.
    logging: options.logging ?? false,
  };
  const scheme = databaseUrl.slice(0, databaseUrl.indexOf(':'));
  if (scheme === 'sqlite') {
    return {
      ...common,
      type: 'better-sqlite3',
      database: databaseUrl.slice('sqlite:'.length),
      migrations: SQLITE_MIGRATIONS,
      // WAL lets readers proceed while the single writer commits; writes are queued in-app.
      enableWAL: true,
      prepareDatabase: (db: SqliteConnection) => {
        // Set here, before TypeORM's enableWAL, and explicitly: better-sqlite3 is built with
        // SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so WAL alone would run synchronous=NORMAL, which
        // survives a killed process but can lose the last answered commits on power loss.
        // FULL syncs the WAL at every commit: an answered write survives both.
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = FULL');
        db.pragma('busy_timeout = 5000');
        // SQLite's own lower() folds ASCII only; searches fold every script, as on MySQL.
        db.function('lower', { deterministic: true }, (text: unknown) =>
          typeof text === 'string' ? text.toLowerCase() : text,
        );
      },
    };
  }
  if (scheme === 'mysql' || scheme === 'mariadb') {
    return {
      ...common,
      // TypeORM's 'mysql' type writes generated-column DDL that MariaDB rejects.
      type: scheme,
      url: scheme === 'mariadb' ? `mysql${databaseUrl.slice('mariadb'.length)}` : databaseUrl,
      migrations: MYSQL_MIGRATIONS,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      // DATE columns stay 'YYYY-MM-DD' text: no time zone can shift a calendar date.
      dateStrings: ['DATE'],
      supportBigNumbers: true,
      bigNumberStrings: true,
      extra: { connectionLimit: 10 },
    };
  }
  throw new Error(`Unsupported DATABASE_URL scheme: ${scheme}`);
}

export function dialectOf(options: DataSourceOptions): Dialect {
  return options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
}
