/** `code` of the error a request gets when no pool connection came within the connect bound. */
export const CONNECTION_WAIT_TIMEOUT = 'DATABASE_CONNECTION_WAIT_TIMEOUT';
/** `code` of the error a statement gets when it did not answer within the statement bound. */
export const QUERY_TIMEOUT = 'DATABASE_QUERY_TIMEOUT';

export interface MysqlBounds {
  /** Longest wait for a connection: a new one's handshake, or a free one from the pool. */
  connectTimeoutMs: number;
  /** Longest one statement may run before its connection is dropped. */
  queryTimeoutMs: number;
  /** The session's `innodb_lock_wait_timeout`, in whole seconds: below the statement bound. */
  lockWaitSeconds: number;
}

export type Callback = (error: (Error & { code?: string }) | null, ...results: unknown[]) => void;

/** A statement as mysql2 takes it: its text, or options that hold it (`{ sql, timeout }`). */
export type Statement = string | { sql: string };

/** The parts of a mysql2 pooled connection that the bounds use. */
export interface MysqlConnection {
  query(sql: Statement, values: unknown, callback?: Callback): unknown;
  /** A prepared statement: prepared on the connection, once per text, and run. */
  execute(sql: Statement, values: unknown, callback?: Callback): unknown;
  release(): void;
  destroy(): void;
  stream?: { resetAndDestroy?(): unknown; destroy(): unknown };
}

/** The parts of a mysql2 pool that the bounds wrap. */
export interface MysqlPool {
  getConnection(callback: (error: Error | null, connection?: MysqlConnection) => void): void;
  config: { connectionConfig: { connectTimeout?: number } };
}

const boundedPools = new WeakSet<object>();

/**
 * Puts a time bound on everything a request can wait for on MySQL/MariaDB, where mysql2 has
 * none of its own for a pool: a connection (opened, or freed by another request) within
 * `connectTimeoutMs`, and each statement within `queryTimeoutMs`.
 *
 * A statement past its bound, text or prepared, takes its connection with it. mysql2's own
 * per-query `timeout` does not: it answers the caller but keeps the connection waiting on the
 * lost answer, queues the ROLLBACK behind it (so it never runs), lets the connection go back to
 * the pool, and keeps its timer running after the connection is gone. Dropping the connection
 * with a TCP reset discards whatever was not yet sent (a COMMIT, say), and the server rolls back
 * a transaction whose connection is gone: a request that answered 503 for a timeout does not
 * commit later.
 *
 * Lock waits are left to InnoDB, with `innodb_lock_wait_timeout` set below the statement bound
 * on every connection, so a blocked statement fails on its own (ER_LOCK_WAIT_TIMEOUT), keeps
 * its connection, and can be retried.
 */
export function boundMysqlPool(pool: MysqlPool, bounds: MysqlBounds): void {
  if (boundedPools.has(pool)) return;
  boundedPools.add(pool);
  // Copied into each new connection's configuration by mysql2.
  pool.config.connectionConfig.connectTimeout = bounds.connectTimeoutMs;
  const prepared = new WeakSet<MysqlConnection>();
  const ours = new WeakSet<object>();
  const getConnection = pool.getConnection.bind(pool);

  pool.getConnection = (callback) => {
    // mysql2 passes a queued waiter back through getConnection when a connection is removed.
    if (ours.has(callback)) return getConnection(callback);
    let answered = false;
    const answer = (error: Error | null, connection?: MysqlConnection): boolean => {
      if (answered) return false;
      answered = true;
      clearTimeout(timer);
      callback(error, connection);
      return true;
    };
    const timer = setTimeout(() => {
      const error = new Error(
        `No database connection within ${bounds.connectTimeoutMs} ms`,
      ) as Error & { code: string };
      error.code = CONNECTION_WAIT_TIMEOUT;
      answer(error);
    }, bounds.connectTimeoutMs);
    const receive = (error: Error | null, connection?: MysqlConnection) => {
      if (error || !connection) {
        answer(error);
        return;
      }
      prepare(connection, (failure) => {
        if (failure) {
          abandon(connection);
          answer(failure);
        } else if (!answer(null, connection)) {
          // Came after the waiter gave up: back to the pool for the next one.
          connection.release();
        }
      });
    };
    ours.add(receive);
    getConnection(receive);
  };

  function prepare(connection: MysqlConnection, done: (error: Error | null) => void): void {
    if (prepared.has(connection)) {
      done(null);
      return;
    }
    boundQueries(connection);
    connection.query(
      `SET SESSION innodb_lock_wait_timeout = ${bounds.lockWaitSeconds}`,
      undefined,
      (error) => {
        if (!error) prepared.add(connection);
        done(error);
      },
    );
  }

  function boundQueries(connection: MysqlConnection): void {
    for (const method of ['query', 'execute'] as const) {
      const run = connection[method].bind(connection);
      const bounded: MysqlConnection[typeof method] = (sql, values, callback) => {
        if (typeof values === 'function') return bounded(sql, undefined, values as Callback);
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          abandon(connection);
          const error = new Error(
            `The database did not answer within ${bounds.queryTimeoutMs} ms`,
          ) as Error & { code: string };
          error.code = QUERY_TIMEOUT;
          callback?.(error);
        }, bounds.queryTimeoutMs);
        try {
          return run(sql, values, (error, ...results) => {
            clearTimeout(timer);
            if (!timedOut) callback?.(error, ...results);
          });
        } catch (error) {
          // Refused before it was sent (execute checks its values): nothing to wait for.
          clearTimeout(timer);
          throw error;
        }
      };
      connection[method] = bounded;
    }
  }
}

/** The socket reset, and out of the pool: commands still queued on it fail at once. */
function abandon(connection: MysqlConnection): void {
  // Reset first: mysql2's destroy() half-closes the socket, after which a reset is refused
  // and the socket is never released.
  if (connection.stream?.resetAndDestroy) connection.stream.resetAndDestroy();
  else connection.stream?.destroy();
  connection.destroy();
}
