import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { bindWholeNumbers } from './sqlite-integer-parameters';
import { Mutex } from 'async-mutex';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { AppConfig } from '../config/app-config';
import { Dialect, dialectOf } from './data-source-options';
import { boundMysqlPool } from './mysql-pool-bounds';
import { executePreparedWrite } from './prepared-statement';

/**
 * InnoDB's answers that say "this transaction lost a race, try it again": it was picked as a
 * deadlock victim, or it waited for a row lock longer than innodb_lock_wait_timeout.
 */
const RETRYABLE_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
/** A write transaction runs at most this often; the last failure answers 503. */
export const TRANSACTION_ATTEMPTS = 3;

/**
 * The session's lock wait: the statement bound shared among the attempts, in whole seconds
 * (InnoDB's unit), so a request blocked by a lock answers within about one statement bound.
 */
export function lockWaitSeconds(queryTimeoutMs: number): number {
  return Math.max(1, Math.floor(queryTimeoutMs / 1000 / TRANSACTION_ATTEMPTS));
}

/** Before attempt `attempt` + 1: 10–50 ms, doubling, jittered so that the losers spread out. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.round((10 + 40 * random()) * 2 ** (attempt - 1));
}

/**
 * The one way services reach the database, and the only place a transaction begins.
 *
 * Services open units of work (`transaction`, `read`); repositories take `manager`, which is
 * the open transaction's when there is one (carried by nestjs-cls, so nobody hands an
 * EntityManager around) and the plain connection pool otherwise. A unit of work begun inside
 * another joins it.
 *
 * On MySQL/MariaDB concurrency is left to InnoDB (row locks, unique indexes), with a few
 * retries when InnoDB picks a transaction as a deadlock victim or a lock wait times out; every
 * wait on the server is bounded (boundMysqlPool). SQLite has one connection, which cannot hold
 * two transactions and would show one request another's uncommitted writes, so there every
 * unit of work, reads included, waits its turn in one queue.
 */
@Injectable()
export class Database implements OnApplicationBootstrap {
  readonly dialect: Dialect;
  private readonly queue: Mutex | null;
  /** Set while a unit of work holds the SQLite queue, so work nested in it does not wait on itself. */
  private readonly holdingQueue = new AsyncLocalStorage<true>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly host: TransactionHost<TransactionalAdapterTypeOrm>,
    config: AppConfig,
  ) {
    this.dialect = dialectOf(dataSource.options);
    this.queue = this.dialect === 'sqlite' ? new Mutex() : null;
    if (this.dialect === 'sqlite') bindWholeNumbers(dataSource.driver);
    if (this.dialect === 'mysql') {
      boundMysqlPool(
        (dataSource.driver as MysqlDriver).pool as Parameters<typeof boundMysqlPool>[0],
        {
          connectTimeoutMs: config.databaseConnectTimeoutMs,
          queryTimeoutMs: config.databaseQueryTimeoutMs,
          lockWaitSeconds: lockWaitSeconds(config.databaseQueryTimeoutMs),
        },
      );
    }
  }

  /**
   * `mysql://` tells TypeORM the server is MySQL 8, and it then writes MySQL-only SQL
   * (`FOR SHARE`) that MariaDB refuses: every add would answer 500. A MariaDB server named so
   * stops the start-up instead, saying to use `mariadb://`.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.dataSource.options.type !== 'mysql') return;
    const [row] = await this.dataSource.query<Array<{ version: string }>>(
      'SELECT VERSION() AS version',
    );
    if (/mariadb/i.test(row?.version ?? '')) {
      throw new Error(
        `DATABASE_URL starts with mysql:// but the server is MariaDB (${row.version}): use mariadb://`,
      );
    }
  }

  /** The open transaction's manager, or the pool's outside one. For repositories. */
  get manager(): EntityManager {
    return this.host.tx;
  }

  get inTransaction(): boolean {
    return this.host.isTransactionActive();
  }

  /**
   * Reads without a transaction: each statement sees committed data, so a read whose parts
   * must agree (a document and its lines) is written as one statement. No BEGIN, no COMMIT.
   */
  read<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    return this.inQueue(work);
  }

  /**
   * Writes that must agree happen together or not at all. Inside a transaction, joins it.
   * `work` may run again from the start (MySQL: deadlock victim, lock wait timed out), so it
   * must not act outside the database.
   */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const run = () => this.host.withTransaction(work);
    if (this.queue) return this.inQueue(run);
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(error)) throw error;
      }
      await sleep(retryDelayMs(attempt));
    }
  }

  /**
   * Hands `onRow` each row of one statement, in order, without holding them all: on SQLite the
   * statement is stepped row by row (better-sqlite3's iterate, within the queue, so it sees one
   * state of the data); on MySQL/MariaDB the rows arrive as one answer, so use it there for
   * statements the database has already grouped. Call it within `read`.
   */
  async forEachRow<R>(sql: string, parameters: unknown[], onRow: (row: R) => void): Promise<void> {
    if (this.dialect === 'sqlite') {
      const connection = (this.dataSource.driver as unknown as { databaseConnection: SqliteHandle })
        .databaseConnection;
      // Logged as TypeORM logs the statements it runs itself (DATABASE_LOGGING, tests' plans).
      this.dataSource.logger.logQuery(sql, parameters);
      for (const row of connection.prepare(sql).iterate(...parameters)) onRow(row as R);
      return;
    }
    const rows: R[] = await this.manager.query(sql, parameters);
    for (const row of rows) onRow(row);
  }

  /**
   * Runs one write whose text is a constant written for both dialects (`?` placeholders; a
   * datetime as `instant` gives it): on MySQL/MariaDB as a prepared statement
   * (prepared-statement.ts), so neither TypeORM nor the server builds or parses its text per
   * call; on SQLite as TypeORM's query. One statement, logged once, in the open transaction if
   * there is one. Answers the id an INSERT gave its row.
   */
  async write(sql: string, parameters: unknown[]): Promise<{ insertId: number }> {
    if (this.dialect === 'sqlite') {
      // TypeORM answers a statement that returns no rows with better-sqlite3's lastInsertRowid.
      return { insertId: Number(await this.manager.query(sql, parameters)) };
    }
    return executePreparedWrite(this.manager, sql, parameters);
  }

  /** A datetime parameter of a raw statement, as TypeORM's driver would store it. */
  instant(at: Date): Date | string {
    return this.dialect === 'sqlite' ? at.toISOString().replace('T', ' ').slice(0, 23) : at;
  }

  /** SQLite: waits for the queue, unless this async context already holds it. */
  private inQueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.queue === null || this.holdingQueue.getStore()) return work();
    return this.queue.runExclusive(() => this.holdingQueue.run(true, work));
  }

  /** Lock mode for "read this row, then change it": a row lock where the database has them. */
  get lockForUpdate(): { mode: 'pessimistic_write' } | undefined {
    return this.dialect === 'mysql' ? { mode: 'pessimistic_write' } : undefined;
  }

  /**
   * Lock mode for "this row must stay as read until commit" (a client a new document is
   * written for): a shared row lock, so an archive of that row waits or wins outright.
   */
  get lockForShare(): { mode: 'pessimistic_read' } | undefined {
    return this.dialect === 'mysql' ? { mode: 'pessimistic_read' } : undefined;
  }
}

/** What forEachRow uses of a better-sqlite3 connection. */
interface SqliteHandle {
  prepare(sql: string): { iterate(...parameters: unknown[]): IterableIterator<unknown> };
}

/** A deadlock or a lock wait timeout: the transaction was rolled back and may run again. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const code = (error.driverError as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}

/**
 * True when the error is a unique-index violation naming one of the markers: MySQL names the
 * index (`uq_invoices_live_no`), SQLite names the columns (`invoices.invoice_no`).
 */
export function isUniqueViolation(error: unknown, ...markers: string[]): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; message?: string } | undefined;
  const code = driverError?.code ?? '';
  const message = driverError?.message ?? error.message;
  const unique =
    code === 'ER_DUP_ENTRY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  return unique && markers.some((marker) => message.includes(marker));
}
