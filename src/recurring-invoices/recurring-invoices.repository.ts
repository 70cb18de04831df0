import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ListQueryDto } from '../common/list-query.dto';
import { Database } from '../database/database';
import { findList, ListResult } from '../database/find-list';
import { RecurringInvoice } from './entities/recurring-invoice.entity';

/**
 * The schedules that are due: their next period's date has come, and they are active, or were
 * paused after that date. `idx_recurring_invoices_due` (next_date, status) keeps the scan to
 * the due rows. The rule is `isDue` (domain/schedule-state.ts); this is its copy in SQL.
 */
const DUE = `SELECT id FROM recurring_invoices
  WHERE next_date <= ? AND deleted_at IS NULL
    AND (status = 'active' OR (status = 'paused' AND next_date < paused_on))
  ORDER BY next_date, id
  LIMIT ?`;

/** The recurring_invoices table. Every method runs in the caller's transaction when there is one. */
@Injectable()
export class RecurringInvoicesRepository {
  constructor(private readonly database: Database) {}

  async insert(schedule: Omit<RecurringInvoice, 'id'>): Promise<RecurringInvoice> {
    const row = this.database.manager.create(RecurringInvoice, schedule);
    await this.database.manager.insert(RecurringInvoice, row);
    return row;
  }

  list(query: ListQueryDto): Promise<ListResult<RecurringInvoice>> {
    return findList(this.database, RecurringInvoice, { deletedAt: IsNull() }, query);
  }

  /** A live schedule; `forUpdate` holds its row until the transaction ends. */
  findLive(id: number, options: { forUpdate?: boolean } = {}): Promise<RecurringInvoice | null> {
    const query = this.database.manager
      .createQueryBuilder(RecurringInvoice, 'schedule')
      .where({ id, deletedAt: IsNull() });
    if (options.forUpdate && this.database.lockForUpdate) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /**
   * A live schedule, row-locked for making its next invoice; null when another instance holds
   * it (MySQL/MariaDB `SKIP LOCKED`: that one is making it, this one passes on). On SQLite the
   * write queue runs one transaction at a time.
   */
  claim(id: number): Promise<RecurringInvoice | null> {
    const query = this.database.manager
      .createQueryBuilder(RecurringInvoice, 'schedule')
      .where({ id, deletedAt: IsNull() });
    if (this.database.dialect === 'mysql') {
      query.setLock('pessimistic_write').setOnLocked('skip_locked');
    }
    return query.getOne();
  }

  /** Ids of due schedules (DUE), the earliest period first, up to `limit`. */
  async due(today: string, limit: number): Promise<number[]> {
    const rows = await this.database.manager.query<Array<{ id: number | string }>>(DUE, [
      today,
      limit,
    ]);
    return rows.map((row) => Number(row.id));
  }

  /** Writes every column of the schedule as it is now. */
  async save(schedule: RecurringInvoice): Promise<void> {
    const { id, ...columns } = schedule;
    await this.database.manager.update(RecurringInvoice, id, columns);
  }

  update(id: number, changes: QueryDeepPartialEntity<RecurringInvoice>) {
    return this.database.manager.update(RecurringInvoice, id, changes);
  }
}
