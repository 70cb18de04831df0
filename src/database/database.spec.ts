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
      execute: jest.fn(),
      release: jest.fn(),
      destroy: jest.fn(),
    };

    pool.waiting[0](null, connection as unknown as MysqlConnection);

    expect(callback).toHaveBeenCalledTimes(1);
    expect(connection.release).toHaveBeenCalledTimes(1);
  });

  /**
   * A connection handed out through the bounded pool, whose `query` and `execute` answer the
   * first statement (the lock wait) and then hold each one's callback until told.
   */
  function handedConnection() {
    const pool = stuckPool();
    boundMysqlPool(pool, bounds);
    const sent: unknown[] = [];
    let pending: ((error: Error | null) => void) | null = null;
    const send = (sql: unknown, values: unknown, done: (error: Error | null) => void) => {
      // As mysql2's execute refuses values, before anything is sent.
      if (Array.isArray(values) && values.includes(undefined)) {
        throw new TypeError('Bind parameters must not contain undefined');
      }
      sent.push(sql);
      if (sent.length === 1) done(null);
      else pending = done;
    };
    const connection = {
      query: send,
      execute: send,
      release: jest.fn(),
      destroy: jest.fn(),
      stream: { resetAndDestroy: jest.fn(), destroy: jest.fn() },
    };
    const callback = jest.fn();
    pool.getConnection(callback);
    pool.waiting[0](null, connection);
    const [, handed] = callback.mock.calls[0] as [null, typeof connection];
    return { connection, handed, sent, answer: (error: Error | null) => pending?.(error) };
  }

  it.each(['query', 'execute'] as const)(
    'sets the lock wait once per connection, and bounds and drops a statement (%s) that does not answer',
    (method) => {
      const { connection, handed, sent, answer } = handedConnection();
      const answered = jest.fn();

      handed[method]('COMMIT', undefined, answered);
      jest.advanceTimersByTime(2999);
      expect(answered).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);

      expect(sent).toEqual(['SET SESSION innodb_lock_wait_timeout = 1', 'COMMIT']);
      expect(answered).toHaveBeenCalledTimes(1);
      expect(answered).toHaveBeenCalledWith(expect.objectContaining({ code: QUERY_TIMEOUT }));
      expect(connection.destroy).toHaveBeenCalled();
      expect(connection.stream.resetAndDestroy).toHaveBeenCalled();
      // The lost answer, should it come after all, reaches nobody.
      answer(null);
      expect(answered).toHaveBeenCalledTimes(1);
    },
  );

  it.each(['query', 'execute'] as const)(
    'hands on a statement (%s) answered within the bound, and keeps its connection',
    (method) => {
      const { connection, handed, answer } = handedConnection();
      const answered = jest.fn();

      handed[method]('SELECT 1', [], answered);
      jest.advanceTimersByTime(2999);
      answer(null);
      jest.advanceTimersByTime(10_000);

      expect(answered).toHaveBeenCalledTimes(1);
      expect(answered).toHaveBeenCalledWith(null);
      expect(connection.destroy).not.toHaveBeenCalled();
    },
  );

  it('leaves no bound behind a statement refused before it was sent', () => {
    const { connection, handed } = handedConnection();
    const answered = jest.fn();

    expect(() => handed.execute('SELECT ?', [undefined], answered)).toThrow(TypeError);
    jest.advanceTimersByTime(10_000);

    expect(answered).not.toHaveBeenCalled();
    expect(connection.destroy).not.toHaveBeenCalled();
  });
});
