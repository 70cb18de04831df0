import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { Database } from '../database/database';
import { jsonText } from '../common/json-text';
import { changesBetween } from './domain/changes';
import { EventRecord } from './entities/event.entity';
import { currentActor } from './event-actor';
import type { EventObject, EventType } from './event-types';

/** The event's row, as a constant statement (Database.write: prepared on MySQL/MariaDB). */
const INSERT_EVENT =
  'INSERT INTO events (type, created_at, actor, object, object_id, data, changes) VALUES (?, ?, ?, ?, ?, ?, ?)';

/** The record as its read operation answers it (without `status`). */
export type RecordReader = (id: number) => Promise<object>;

/** Told of each event in its transaction (webhook deliveries are made so). */
export type EventListener = (event: EventRecord) => Promise<void>;

/** A change to record: what happened to which record, and the record before it when it existed. */
export interface RecordedChange {
  type: EventType;
  object: EventObject;
  id: number;
  /** The snapshot taken before the change; null when the change made the record. */
  before: object | null;
  /** The record after the change; by default read again (a deleted record: its `before`). */
  after?: object;
}

/**
 * The one writer of events. Each service calls it in its unit of work, after the change, so
 * the event commits or rolls back with it: an event exists exactly for what committed. The
 * record's `data` comes from the reader its feature registered, so an event carries what the
 * read operation would answer, and `changes` compares that with the snapshot taken before.
 */
@Injectable()
export class EventLog {
  private readonly readers = new Map<EventObject, RecordReader>();
  private readonly listeners: EventListener[] = [];

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  /** Each feature tells how its records read; called once, at start-up. */
  registerReader(object: EventObject, reader: RecordReader): void {
    this.readers.set(object, reader);
  }

  /** Webhooks listen here; called once, at start-up. */
  listen(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /** The record as its read answers now, inside the change's transaction: its `before`. */
  snapshot(object: EventObject, id: number): Promise<object> {
    return this.readerOf(object)(id);
  }

  /** Writes the change's event in the open transaction; outside one it refuses. */
  async record(change: RecordedChange): Promise<EventRecord> {
    if (!this.database.inTransaction) {
      throw new Error(`Event ${change.type} recorded outside a transaction`);
    }
    const after = change.after ?? (await this.readIfLive(change.object, change.id));
    const changes =
      change.before === null || after === null ? {} : changesBetween(change.before, after);
    const event = Object.assign(new EventRecord(), {
      type: change.type,
      createdAt: this.clock.now(),
      actor: currentActor(),
      object: change.object,
      objectId: change.id,
      data: jsonText(after) ?? '{}',
      changes: jsonText(changes) ?? '{}',
    });
    const { insertId } = await this.database.write(INSERT_EVENT, [
      event.type,
      this.database.instant(event.createdAt),
      event.actor,
      event.object,
      event.objectId,
      event.data,
      event.changes,
    ]);
    event.id = insertId;
    for (const listener of this.listeners) await listener(event);
    return event;
  }

  /** Events by id, as stored: what webhook deliveries send. */
  find(ids: number[]): Promise<EventRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.read(() => this.database.manager.findBy(EventRecord, { id: In(ids) }));
  }

  /** A delivery may end after its document was deleted: its `data` is then null. */
  private async readIfLive(object: EventObject, id: number): Promise<object | null> {
    try {
      return await this.snapshot(object, id);
    } catch (error) {
      if (error instanceof DomainException && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  private readerOf(object: EventObject): RecordReader {
    const reader = this.readers.get(object);
    if (!reader) throw new Error(`No reader is registered for ${object} events`);
    return reader;
  }
}
