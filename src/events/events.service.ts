import { Injectable } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { idFilter, listRequest } from '../common/list-query.dto';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { ListAnswer, listResponse } from '../database/find-list';
import { EventListResponseDto, EventReadResponseDto } from './dto/event-response.dto';
import { ListEventsDto } from './dto/list-events.dto';
import { EventRecord } from './entities/event.entity';
import { toEventOutput } from './events.mapper';
import { EventsRepository } from './events.repository';
import { dayRange } from './domain/day-range';

@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * The history of a record, or the feed. Keyset pages (`after`, what a poller uses) stop
   * before any event whose transaction may still be running on MySQL, so a poller that goes
   * on from the last id it saw never passes over an event committed late.
   */
  async list(query: ListEventsDto): Promise<ListAnswer<EventListResponseDto>> {
    const where: FindOptionsWhere<EventRecord> = {
      type: query.type,
      object: query.object,
      objectId: idFilter(query.object_id),
      createdAt: dayRange(query.from, query.to),
    };
    const upTo =
      this.database.dialect === 'mysql' && listRequest(query).kind === 'after'
        ? await this.events.horizon(this.settledBefore())
        : undefined;
    return listResponse(await this.events.list(where, query, { upTo }), toEventOutput);
  }

  async get(id: number): Promise<EventReadResponseDto> {
    const event = await this.events.findById(id);
    if (!event) throw DomainException.notFound('Event', String(id));
    return { data: [toEventOutput(event)] };
  }

  /**
   * Events written before this are final: a transaction writes its events last, so from
   * its event to its commit are the few statements after it, each bounded by the query timeout.
   */
  private settledBefore(): Date {
    return new Date(this.clock.now().getTime() - 2 * this.config.databaseQueryTimeoutMs);
  }
}
