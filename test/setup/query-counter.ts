import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Counts the SQL statements the app sends, BEGIN and COMMIT included: every TypeORM query
 * runner reports each statement to the data source's logger before running it, whatever the
 * logging setting, so wrapping `logQuery` sees them all.
 */
export class QueryCounter {
  private count = 0;
  private readonly logger: DataSource['logger'];
  private readonly original: DataSource['logger']['logQuery'];

  constructor(app: INestApplication) {
    this.logger = app.get(DataSource).logger;
    this.original = this.logger.logQuery;
    this.logger.logQuery = (...args) => {
      this.count += 1;
      this.original.apply(this.logger, args);
    };
  }

  /** The number of statements `work` sent; nothing else may run meanwhile. */
  async measure(work: () => Promise<unknown>): Promise<number> {
    const before = this.count;
    await work();
    return this.count - before;
  }

  restore(): void {
    this.logger.logQuery = this.original;
  }
}
