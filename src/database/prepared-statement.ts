import {
  EntityManager,
  QueryFailedError,
  QueryRunner,
  QueryRunnerAlreadyReleasedError,
} from 'typeorm';
import { BroadcasterResult } from 'typeorm/subscriber/BroadcasterResult';

/** What this uses of the mysql2 connection a TypeORM MySQL query runner holds. */
interface PreparingConnection {
  execute(
    options: { sql: string; dateStrings: string[] },
    values: unknown[],
    callback: (error: Error | null, rows?: unknown) => void,
  ): unknown;
}

/**
 * Runs `sql` on MySQL/MariaDB as a prepared statement: mysql2's `execute` prepares it once per
 * connection (kept by its text, so `sql` must be a constant, never built per call) and then
 * sends only the statement id and the values, answered in the binary protocol. The statement
 * goes where `manager.query` would send it: on the transaction's connection inside one, else on
 * a connection taken from the pool for it; and around it is what TypeORM's
 * MysqlQueryRunner.query does (logQuery once, subscribers, the slow-query log, failures as
 * QueryFailedError with the driver's error, which isRetryable and the error filter read).
 *
 * DATE and DATETIME columns come back as their text (DATE as the data source reads it too):
 * for a datetime MariaDB stores with a zero month or day, the text protocol gives an invalid
 * Date and the binary one rolls it into another day, so the caller turns the text into what
 * the text protocol gives (record-rows.ts does).
 */
export function executePrepared<T>(
  manager: EntityManager,
  sql: string,
  parameters: unknown[],
): Promise<T[]> {
  return onConnection<T[]>(manager, sql, parameters);
}

/** What mysql2 answers for a prepared INSERT, UPDATE or DELETE. */
export interface PreparedWriteResult {
  /** The AUTO_INCREMENT id an INSERT gave its (first) row; 0 when none. */
  insertId: number;
  affectedRows: number;
}

/** `executePrepared` for a statement that writes: it answers mysql2's result header. */
export function executePreparedWrite(
  manager: EntityManager,
  sql: string,
  parameters: unknown[],
): Promise<PreparedWriteResult> {
  return onConnection<PreparedWriteResult>(manager, sql, parameters);
}

async function onConnection<R>(
  manager: EntityManager,
  sql: string,
  parameters: unknown[],
): Promise<R> {
  const queryRunner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    return await execute<R>(queryRunner, sql, parameters);
  } finally {
    if (!manager.queryRunner) await queryRunner.release();
  }
}

/** As MysqlQueryRunner.query, with `execute` for `query` (its enableQueryTimeout unused here). */
async function execute<R>(
  queryRunner: QueryRunner,
  sql: string,
  parameters: unknown[],
): Promise<R> {
  if (queryRunner.isReleased) throw new QueryRunnerAlreadyReleasedError();
  const connection = (await queryRunner.connect()) as PreparingConnection;
  const dataSource = queryRunner.connection;
  dataSource.logger.logQuery(sql, parameters, queryRunner);
  await queryRunner.broadcaster.broadcast('BeforeQuery', sql, parameters);
  const broadcasterResult = new BroadcasterResult();
  const startedAt = Date.now();
  try {
    return await new Promise<R>((resolve, reject) => {
      connection.execute({ sql, dateStrings: ['DATE', 'DATETIME'] }, parameters, (error, rows) => {
        const executionTime = Date.now() - startedAt;
        const { maxQueryExecutionTime } = dataSource.options;
        if (maxQueryExecutionTime && executionTime > maxQueryExecutionTime) {
          dataSource.logger.logQuerySlow(executionTime, sql, parameters, queryRunner);
        }
        if (error) {
          dataSource.logger.logQueryError(error, sql, parameters, queryRunner);
          queryRunner.broadcaster.broadcastAfterQueryEvent(
            broadcasterResult,
            sql,
            parameters,
            false,
            undefined,
            undefined,
            error,
          );
          reject(new QueryFailedError(sql, parameters, error));
          return;
        }
        queryRunner.broadcaster.broadcastAfterQueryEvent(
          broadcasterResult,
          sql,
          parameters,
          true,
          executionTime,
          rows,
          undefined,
        );
        resolve(rows as R);
      });
    });
  } finally {
    await broadcasterResult.wait();
  }
}
