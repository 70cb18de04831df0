import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { ListQueryDto } from '../common/list-query.dto';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { ListAnswer, listResponse, StreamedList } from '../database/find-list';
import { EventLog } from '../events/event-log';
import { EventType } from '../events/event-types';
import { hostOf, isPublicAddress, urlProblem } from './domain/destination';
import { generateSecret } from './domain/signature';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook-input.dto';
import {
  WebhookDeliveryDto,
  WebhookDeliveryListResponseDto,
  WebhookDeliveryResponseDto,
  WebhookListResponseDto,
  WebhookResponseDto,
  WebhookSecretResponseDto,
} from './dto/webhook-response.dto';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { toDeliveryOutput, toOutput, toOutputWithSecret } from './webhooks.mapper';
import { WebhooksRepository } from './webhooks.repository';

/** How long the host lookup of a new URL may take. */
const LOOKUP_TIMEOUT_MS = 5_000;

@Injectable()
export class WebhooksService {
  constructor(
    private readonly database: Database,
    private readonly webhooks: WebhooksRepository,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    events.registerReader('webhook_endpoint', (id) => this.get(id));
    // Every event, in its transaction, becomes one delivery per endpoint subscribed to it.
    events.listen((event) => this.webhooks.fanOut(event));
  }

  async list(query: ListQueryDto): Promise<ListAnswer<WebhookListResponseDto>> {
    return listResponse(await this.webhooks.listEndpoints(query), toOutput);
  }

  get(id: number): Promise<WebhookResponseDto> {
    return this.database.read(async () => ({ webhook: [toOutput(await this.liveEndpoint(id))] }));
  }

  async create(input: CreateWebhookDto): Promise<WebhookSecretResponseDto> {
    // Looked up before the transaction: DNS is slow, and no row is held meanwhile.
    await this.checkDestination(input.url);
    return this.database.transaction(async () => {
      const now = this.clock.now();
      const endpoint = await this.webhooks.insertEndpoint({
        url: input.url,
        events: JSON.stringify(subscription(input.events)),
        description: input.description ?? '',
        secret: generateSecret(),
        enabled: true,
        disabledReason: '',
        failingSince: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await this.record('webhook_endpoint.created', endpoint.id, null);
      return { webhook: [toOutputWithSecret(endpoint)] };
    });
  }

  /**
   * Switching off pauses the endpoint's waiting deliveries; switching on resumes them at once
   * and forgets how long it had been failing.
   */
  async update(id: number, input: UpdateWebhookDto): Promise<WebhookResponseDto> {
    if (input.url !== undefined) await this.checkDestination(input.url);
    return this.database.transaction(async () => {
      const endpoint = await this.liveEndpoint(id, true);
      const before = await this.events.snapshot('webhook_endpoint', id);
      const now = this.clock.now();
      const enabled = input.enabled === undefined ? endpoint.enabled : input.enabled === 'True';
      const changes: Partial<WebhookEndpoint> = {
        url: input.url ?? endpoint.url,
        events: input.events ? JSON.stringify(subscription(input.events)) : endpoint.events,
        description: input.description ?? endpoint.description,
        enabled,
        updatedAt: now,
      };
      if (enabled && !endpoint.enabled) {
        Object.assign(changes, { disabledReason: '', failingSince: null });
        await this.webhooks.moveDeliveries(id, 'paused', { status: 'queued', nextAttemptAt: now });
      } else if (!enabled && endpoint.enabled) {
        await this.webhooks.moveDeliveries(id, 'queued', { status: 'paused', nextAttemptAt: null });
      }
      await this.webhooks.updateEndpoint(id, changes);
      await this.record('webhook_endpoint.updated', id, before);
      return { webhook: [toOutput(Object.assign(endpoint, changes))] };
    });
  }

  /** DELETE archives it: its deliveries still to make are failed. */
  archive(id: number): Promise<{ id: string }> {
    return this.database.transaction(async () => {
      await this.liveEndpoint(id, true);
      const before = await this.events.snapshot('webhook_endpoint', id);
      const now = this.clock.now();
      const ended = {
        status: 'failed' as const,
        nextAttemptAt: null,
        lastError: 'endpoint deleted',
      };
      await this.webhooks.moveDeliveries(id, 'queued', ended);
      await this.webhooks.moveDeliveries(id, 'paused', ended);
      await this.webhooks.updateEndpoint(id, { deletedAt: now, updatedAt: now });
      await this.events.record({
        type: 'webhook_endpoint.deleted',
        object: 'webhook_endpoint',
        id,
        before,
        after: before,
      });
      return { id: String(id) };
    });
  }

  /** A new secret, at once: every delivery from now on is signed with it alone. */
  rotateSecret(id: number): Promise<WebhookSecretResponseDto> {
    return this.database.transaction(async () => {
      const endpoint = await this.liveEndpoint(id, true);
      const before = await this.events.snapshot('webhook_endpoint', id);
      const changes = { secret: generateSecret(), updatedAt: this.clock.now() };
      await this.webhooks.updateEndpoint(id, changes);
      await this.record('webhook_endpoint.secret_rotated', id, before);
      return { webhook: [toOutputWithSecret(Object.assign(endpoint, changes))] };
    });
  }

  async deliveries(
    id: number,
    query: ListQueryDto,
  ): Promise<ListAnswer<WebhookDeliveryListResponseDto>> {
    await this.database.read(() => this.liveEndpoint(id));
    const result = await this.webhooks.listDeliveries(id, query);
    if (result instanceof StreamedList) {
      // A whole list: each batch with its attempts and event types.
      const first = await this.withDetails(result.first);
      const rest = result.rest;
      return new StreamedList(
        first,
        rest === null
          ? null
          : async function* (this: WebhooksService) {
              for await (const batch of rest()) yield await this.withDetails(batch);
            }.bind(this),
      );
    }
    return { data: await this.withDetails(result.rows), meta: result.meta };
  }

  /**
   * Due again at once, whatever its state (a delivered event may be sent again); not while an
   * attempt is being made (409). Each attempt is counted: past the schedule, one failure more
   * fails it again.
   */
  retry(deliveryId: number): Promise<WebhookDeliveryResponseDto> {
    return this.database.transaction(async () => {
      const delivery = await this.webhooks.findDelivery(deliveryId, { forUpdate: true });
      const endpoint = delivery && (await this.webhooks.findLiveEndpoint(delivery.endpointId));
      if (!delivery || !endpoint) throw DomainException.notFound('Delivery', String(deliveryId));
      if (delivery.status === 'sending') {
        throw new DomainException(
          'DELIVERY_IN_PROGRESS',
          `Delivery ${deliveryId} is being attempted now; retry it once that attempt ends`,
        );
      }
      const changes = endpoint.enabled
        ? { status: 'queued' as const, nextAttemptAt: this.clock.now() }
        : { status: 'paused' as const, nextAttemptAt: null };
      await this.webhooks.updateDelivery(deliveryId, changes);
      const [output] = await this.withDetails([Object.assign(delivery, changes)]);
      return {
        message: endpoint.enabled
          ? `Delivery ${deliveryId} is due again`
          : `Delivery ${deliveryId} waits until endpoint ${endpoint.id} is switched on`,
        delivery: [output],
      };
    });
  }

  private async withDetails(deliveries: WebhookDelivery[]): Promise<WebhookDeliveryDto[]> {
    const ids = deliveries.map((delivery) => delivery.id);
    const [attempts, events] = await this.database.read(
      async () =>
        [
          await this.webhooks.attemptsOf(ids),
          await this.events.find([...new Set(deliveries.map((delivery) => delivery.eventId))]),
        ] as const,
    );
    const types = new Map(events.map((event) => [event.id, event.type]));
    return deliveries.map((delivery) =>
      toDeliveryOutput(
        delivery,
        types.get(delivery.eventId) ?? '',
        attempts.filter((attempt) => attempt.deliveryId === delivery.id),
      ),
    );
  }

  /**
   * 422 naming `url` unless it is an http(s) URL whose host resolves only to public addresses
   * (any address, with WEBHOOK_ALLOW_PRIVATE=true). Checked again at every delivery.
   */
  private async checkDestination(text: string): Promise<void> {
    const problem = urlProblem(text);
    if (problem) throw refused(problem);
    if (this.config.webhookAllowPrivate) return;
    const host = hostOf(new URL(text));
    let addresses: { address: string }[];
    try {
      addresses = await withTimeout(lookup(host, { all: true, verbatim: true }), LOOKUP_TIMEOUT_MS);
    } catch {
      throw refused('url names a host that does not resolve');
    }
    if (addresses.length === 0 || !addresses.every(({ address }) => isPublicAddress(address))) {
      throw refused(
        'url resolves to a loopback, private, link-local, multicast or otherwise non-public address',
      );
    }
  }

  private async record(type: EventType, id: number, before: object | null): Promise<void> {
    await this.events.record({ type, object: 'webhook_endpoint', id, before });
  }

  private async liveEndpoint(id: number, forUpdate = false): Promise<WebhookEndpoint> {
    const endpoint = await this.webhooks.findLiveEndpoint(id, { forUpdate });
    if (!endpoint) throw DomainException.notFound('Webhook', String(id));
    return endpoint;
  }
}

/** `["*"]` when it names every type; else the types, each once, in the order given. */
function subscription(events: string[]): string[] {
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

function refused(message: string): DomainException {
  return new DomainException('WEBHOOK_DESTINATION_REFUSED', message, { url: [message] });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
