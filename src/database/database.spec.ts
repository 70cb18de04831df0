import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { AppConfig } from '../config/app-config';
import {
  boundMysqlPool,
  CONNECTION_WAIT_TIMEOUT,
  MysqlConnection,
  MysqlPool,
  QUERY_TIMEOUT,
} from './mysql-pool-bounds';
import {
  Database,
  isRetryable,
  lockWaitSeconds,
  retryDelayMs,
  TRANSACTION_ATTEMPTS,
} from './database';

function driverFailure(code: string): QueryFailedError {
  return new QueryFailedError('UPDATE …', [], Object.assign(new Error(code), { code }));
}

/** A pool that hands out nothing until told, as mysql2's does with every connection busy. */
type Waiter = Parameters<MysqlPool['getConnection']>[0];

function stuckPool(): MysqlPool & { waiting: Waiter[] } {
  const waiting: Waiter[] = [];
  return {
    waiting,
    config: { connectionConfig: {} },
    getConnection(callback) {
      waiting.push(callback);
    },
  };
}

/** A Database on MySQL whose transactions run `work` straight away, on a pool that never answers. */
function mysqlDatabase(): Database {
  const dataSource = { options: { type: 'mariadb' }, driver: { pool: stuckPool() } };
  const host = {
    isTransactionActive: () => false,
    withTransaction: (work: () => unknown) => work(),
  };
  const config = { databaseConnectTimeoutMs: 1000, databaseQueryTimeoutMs: 10_000 };
  return new Database(
    dataSource as unknown as DataSource,
    host as unknown as TransactionHost<TransactionalAdapterTypeOrm>,
    config as AppConfig,
  );
}

describe('Database.transaction on MySQL', () => {
  it.each(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT'])(
    'runs the work again after %s, and answers its result',
    async (code) => {
      const work = jest
        .fn<Promise<string>, []>()
        .mockRejectedValueOnce(driverFailure(code))
        .mockRejectedValueOnce(driverFailure(code))
        .mockResolvedValueOnce('done');

      await expect(mysqlDatabase().transaction(work)).resolves.toBe('done');
      expect(work).toHaveBeenCalledTimes(3);
    },
  );

  it('gives up after TRANSACTION_ATTEMPTS with the last failure', async () => {
    const failure = driverFailure('ER_LOCK_DEADLOCK');
    const work = jest.fn<Promise<string>, []>().mockRejectedValue(failure);

    await expect(mysqlDatabase().transaction(work)).rejects.toBe(failure);
    expect(work).toHaveBeenCalledTimes(TRANSACTION_ATTEMPTS);
  });

  it.each(['ER_DUP_ENTRY', 'DATABASE_QUERY_TIMEOUT', 'ECONNREFUSED'])(
    'does not run the work again after %s',
    async (code) => {
      const work = jest.fn<Promise<string>, []>().mockRejectedValue(driverFailure(code));

      await expect(mysqlDatabase().transaction(work)).rejects.toThrow(code);
      expect(work).toHaveBeenCalledTimes(1);
    },
  );
});

describe('isRetryable', () => {
  it('takes deadlocks and lock wait timeouts only, from the driver', () => {
    expect(isRetryable(driverFailure('ER_LOCK_DEADLOCK'))).toBe(true);
    expect(isRetryable(driverFailure('ER_LOCK_WAIT_TIMEOUT'))).toBe(true);
    expect(isRetryable(driverFailure('SQLITE_BUSY'))).toBe(false);
    expect(isRetryable(Object.assign(new Error('x'), { code: 'ER_LOCK_DEADLOCK' }))).toBe(false);
  });
});

describe('lockWaitSeconds', () => {
  it('shares the statement bound among the attempts, in whole seconds, at least one', () => {
    expect(lockWaitSeconds(10_000)).toBe(3);
    expect(lockWaitSeconds(3_000)).toBe(1);
    expect(lockWaitSeconds(1_000)).toBe(1);
    expect(lockWaitSeconds(60_000)).toBe(20);
  });
});

describe('retryDelayMs', () => {
  it('is small, jittered and grows with the attempt', () => {
    expect([retryDelayMs(1, () => 0), retryDelayMs(1, () => 1)]).toEqual([10, 50]);
    expect([retryDelayMs(2, () => 0), retryDelayMs(2, () => 1)]).toEqual([20, 100]);
  });
});

describe('boundMysqlPool', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const bounds = { connectTimeoutMs: 1000, queryTimeoutMs: 3000, lockWaitSeconds: 1 };

  it('sets the handshake bound on new connections', () => {
    const pool = stuckPool();
    boundMysqlPool(pool, bounds);
    expect(pool.config.connectionConfig.connectTimeout).toBe(1000);
  });

  it('answers a request for a connection with an error once the bound runs out', () => {
    const pool = stuckPool();
    boundMysqlPool(pool, bounds);
    const callback = jest.fn();

    pool.getConnection(callback);
    jest.advanceTimersByTime(999);
    expect(callback).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);

    expect(callback).toHaveBeenCalledWith(
      expect.objectContaining({ code: CONNECTION_WAIT_TIMEOUT }),
      undefined,
    );
  });

  it('hands a connection that comes too late back to the pool', () => {
    const pool = stuckPool();
    boundMysqlPool(pool, bounds);
    const callback = jest.fn();
    pool.getConnection(callback);
    jest.advanceTimersByTime(1000);
    const connection = {
      query: jest.fn((_sql: unknown, _values: unknown, done: (error: null) => void) => done(null)),
      release: jest.fn(),
      destroy: jest.fn(),
    };

    pool.waiting[0](null, connection as unknown as MysqlConnection);

    expect(callback).toHaveBeenCalledTimes(1);
    expect(connection.release).toHaveBeenCalledTimes(1);
  });

  it('sets the lock wait once per connection, and bounds and drops a statement that does not answer', () => {
    const pool = stuckPool();
    boundMysqlPool(pool, bounds);
    const reset = jest.fn();
    const sent: unknown[] = [];
    let pending: ((error: Error | null) => void) | null = null;
    const connection = {
      query: (sql: unknown, _values: unknown, done: (error: Error | null) => void) => {
        sent.push(sql);
        if (sent.length === 1) done(null);
        else pending = done;
      },
      release: jest.fn(),
      destroy: jest.fn(),
      stream: { resetAndDestroy: reset, destroy: jest.fn() },
    };
    const callback = jest.fn();
    pool.getConnection(callback);
    pool.waiting[0](null, connection);
    const [, handed] = callback.mock.calls[0] as [null, typeof connection];
    const answered = jest.fn();

    handed.query('COMMIT', undefined, answered);
    jest.advanceTimersByTime(2999);
    expect(answered).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);

    expect(sent).toEqual(['SET SESSION innodb_lock_wait_timeout = 1', 'COMMIT']);
    expect(answered).toHaveBeenCalledTimes(1);
    expect(answered).toHaveBeenCalledWith(expect.objectContaining({ code: QUERY_TIMEOUT }));
    expect(connection.destroy).toHaveBeenCalled();
    expect(reset).toHaveBeenCalled();
    // The lost answer, should it come after all, reaches nobody.
    (pending as unknown as (error: Error | null) => void)(null);
    expect(answered).toHaveBeenCalledTimes(1);
  });
});
