import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ListQueryDto } from '../common/list-query.dto';
import { Database } from '../database/database';
import { findList, ListResult } from '../database/find-list';
import { EventRecord } from '../events/entities/event.entity';
import { WebhookDeliveryAttempt } from './entities/webhook-delivery-attempt.entity';
import { WebhookDelivery, WebhookDeliveryStatus } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';

const FAN_OUT = `INSERT INTO webhook_deliveries
    (event_id, endpoint_id, status, attempts, next_attempt_at, claimed_at, delivered_at,
     last_error, last_status_code, created_at)
  SELECT ?, id, 'queued', 0, ?, NULL, NULL, '', NULL, ?
  FROM webhook_endpoints
  WHERE enabled = 1 AND deleted_at IS NULL
    AND (events LIKE '%"*"%' OR events LIKE ? ESCAPE '!')`;

/** The webhook tables: endpoints, their deliveries, and each delivery's attempts. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly database: Database) {}

  async insertEndpoint(endpoint: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint> {
    const row = this.database.manager.create(WebhookEndpoint, endpoint);
    await this.database.manager.insert(WebhookEndpoint, row);
    return row;
  }

  listEndpoints(query: ListQueryDto): Promise<ListResult<WebhookEndpoint>> {
    return findList(this.database, WebhookEndpoint, { deletedAt: IsNull() }, query);
  }

  /** A live endpoint; `forUpdate` holds its row until the transaction ends. */
  findLiveEndpoint(id: number, options: { forUpdate?: boolean } = {}) {
    return this.database.manager.findOne(WebhookEndpoint, {
      where: { id, deletedAt: IsNull() },
      lock: options.forUpdate ? this.database.lockForUpdate : undefined,
    });
  }

  findEndpoint(id: number): Promise<WebhookEndpoint | null> {
    return this.database.manager.findOneBy(WebhookEndpoint, { id });
  }

  updateEndpoint(id: number, changes: QueryDeepPartialEntity<WebhookEndpoint>) {
    return this.database.manager.update(WebhookEndpoint, id, changes);
  }

  /** Marks the endpoint failing from `at`, unless it already is. */
  markFailing(id: number, at: Date) {
    return this.database.manager.update(
      WebhookEndpoint,
      { id, failingSince: IsNull() },
      { failingSince: at },
    );
  }

  /** Switches a live, enabled endpoint off; false when it already was. */
  async switchOff(id: number, reason: string, at: Date): Promise<boolean> {
    const result = await this.database.manager.update(
      WebhookEndpoint,
      { id, enabled: true, deletedAt: IsNull() },
      { enabled: false, disabledReason: reason, updatedAt: at },
    );
    return result.affected === 1;
  }

  /**
   * One delivery per subscribed, enabled endpoint for a new event, in the event's
   * transaction: one statement, whatever the number of endpoints. `events` holds the JSON
   * array of types, so a type is matched with its quotes, `_` and `%` taken literally.
   */
  async fanOut(event: EventRecord): Promise<void> {
    const quoted = `%"${event.type.replace(/[!%_]/g, '!$&')}"%`;
    const at = this.database.instant(event.createdAt);
    await this.database.write(FAN_OUT, [event.id, at, at, quoted]);
  }

  /** Deliveries of an endpoint in one state moved to another (switched off, on, deleted). */
  moveDeliveries(
    endpointId: number,
    from: WebhookDeliveryStatus,
    changes: QueryDeepPartialEntity<WebhookDelivery>,
  ) {
    return this.database.manager.update(WebhookDelivery, { endpointId, status: from }, changes);
  }

  listDeliveries(endpointId: number, query: ListQueryDto): Promise<ListResult<WebhookDelivery>> {
    return findList(this.database, WebhookDelivery, { endpointId }, query, {
      byPrimaryKey: false,
    });
  }

  findDelivery(id: number, options: { forUpdate?: boolean } = {}) {
    return this.database.manager.findOne(WebhookDelivery, {
      where: { id },
      lock: options.forUpdate ? this.database.lockForUpdate : undefined,
    });
  }

  updateDelivery(id: number, changes: QueryDeepPartialEntity<WebhookDelivery>) {
    return this.database.manager.update(WebhookDelivery, id, changes);
  }

  insertAttempt(attempt: Omit<WebhookDeliveryAttempt, 'id'>) {
    return this.database.manager.insert(WebhookDeliveryAttempt, attempt);
  }

  /** The attempts of these deliveries, oldest first: one statement. */
  attemptsOf(deliveryIds: number[]): Promise<WebhookDeliveryAttempt[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.database.manager.find(WebhookDeliveryAttempt, {
      where: { deliveryId: In(deliveryIds) },
      order: { id: 'ASC' },
    });
  }
}
