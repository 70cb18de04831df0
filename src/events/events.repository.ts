import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, LessThan } from 'typeorm';
import { ListQueryDto } from '../common/list-query.dto';
import { Database } from '../database/database';
import { findList, KeysetOptions, ListResult } from '../database/find-list';
import { EventRecord } from './entities/event.entity';

/** Ids read past the settled ones when looking for the feed's horizon. */
const HORIZON_SCAN = 50_000;

@Injectable()
export class EventsRepository {
  constructor(private readonly database: Database) {}

  list(
    where: FindOptionsWhere<EventRecord>,
    query: ListQueryDto,
    options: KeysetOptions,
  ): Promise<ListResult<EventRecord>> {
    // With object or type, the walk along that index is the short one.
    const byPrimaryKey = where.object === undefined && where.type === undefined;
    return findList(this.database, EventRecord, where, query, { byPrimaryKey, ...options });
  }

  findById(id: number): Promise<EventRecord | null> {
    return this.database.read(() => this.database.manager.findOneBy(EventRecord, { id }));
  }

  /**
   * The highest id up to which every event is final: MySQL hands out ids as transactions
   * insert, but they commit in any order, so an id missing from the table may belong to a
   * transaction still running (or to one rolled back, which leaves a gap for good). Events
   * written before `settledBefore` are final whatever their ids; after the newest of them,
   * the ids run without a gap up to the horizon.
   */
  async horizon(settledBefore: Date): Promise<number> {
    return this.database.read(async () => {
      const manager = this.database.manager;
      const settled = await manager.findOne(EventRecord, {
        select: { id: true },
        where: { createdAt: LessThan(settledBefore) },
        order: { createdAt: 'DESC', id: 'DESC' },
      });
      let horizon = settled?.id ?? 0;
      const recent: { id: number }[] = await manager
        .createQueryBuilder(EventRecord, 'event')
        .select('event.id', 'id')
        .where('event.id > :horizon', { horizon })
        .orderBy('event.id', 'ASC')
        .limit(HORIZON_SCAN)
        .getRawMany();
      for (const { id } of recent) {
        if (Number(id) !== horizon + 1) break;
        horizon += 1;
      }
      return horizon;
    });
  }
}
