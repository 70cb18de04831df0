import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Mutex } from 'async-mutex';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { Dialect, dialectOf } from './data-source-options';

const MYSQL_DEADLOCK = 'ER_LOCK_DEADLOCK';
const MAX_DEADLOCK_RETRIES = 3;

/**
 * The one way the services reach the database. On MySQL/MariaDB every unit of work is a
 * transaction and concurrency is left to InnoDB (row locks, unique indexes), with a retry when
 * InnoDB picks the unit as a deadlock victim. SQLite has a single connection that cannot hold
 * two transactions, so there every unit of work waits its turn in one queue.
 */
@Injectable()
export class Database {
  readonly dialect: Dialect;
  private readonly queue: Mutex | null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource.options);
    this.queue = this.dialect === 'sqlite' ? new Mutex() : null;
  }

  /** Reads that must agree with each other (a record and its children) see one snapshot. */
  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  /** Writes that must agree happen together or not at all. */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.queue) {
      return this.queue.runExclusive(() => this.dataSource.transaction(work));
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(work);
      } catch (error) {
        if (attempt >= MAX_DEADLOCK_RETRIES || !isDeadlock(error)) throw error;
      }
    }
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

function isDeadlock(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string } | undefined)?.code === MYSQL_DEADLOCK
  );
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
  const unique = code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  return unique && markers.some((marker) => message.includes(marker));
}
