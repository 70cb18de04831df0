import { Injectable } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { ListQueryDto } from '../common/list-query.dto';
import { LIVE } from '../database/columns';
import { Database, isUniqueViolation } from '../database/database';
import { findList, ListResult } from '../database/find-list';
import { Expense } from './entities/expense.entity';

/** The expenses table. Every method runs in the caller's transaction when there is one. */
@Injectable()
export class ExpensesRepository {
  constructor(private readonly database: Database) {}

  /** A live expense, or null; `forUpdate` holds its row until the transaction ends. */
  findLive(id: number, options: { forUpdate?: boolean } = {}): Promise<Expense | null> {
    return this.database.manager.findOne(Expense, {
      where: { id, ...LIVE },
      lock: options.forUpdate ? this.database.lockForUpdate : undefined,
    });
  }

  /** Live expenses matching the filter, all or a page. */
  list(filter: FindOptionsWhere<Expense>, query: ListQueryDto): Promise<ListResult<Expense>> {
    return findList(this.database, Expense, { ...filter, ...LIVE }, query);
  }

  create(fields: Omit<Expense, 'id'>): Expense {
    return this.database.manager.create(Expense, fields);
  }

  /** Inserts the row; its id is set on it. */
  async insert(expense: Expense): Promise<void> {
    await this.database.manager.insert(Expense, expense);
  }

  /** True when an insert failed because its short code is another expense's. */
  shortCodeTaken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_expenses_short_code', 'expenses.short_code');
  }

  async update(id: number, changes: Partial<Omit<Expense, 'id'>>): Promise<void> {
    await this.database.manager.update(Expense, id, changes);
  }
}
