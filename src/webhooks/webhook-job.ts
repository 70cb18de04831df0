import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { EventRecord } from '../events/entities/event.entity';
import { EventLog } from '../events/event-log';
import { toEventOutput } from '../events/events.mapper';
import { jsonText } from '../common/json-text';
import { Claimed, ClaimQueue } from '../jobs/claim-queue';
import { JobKind, JobRunner } from '../jobs/job-runner';
import { signedHeaders } from './domain/signature';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookAttempt, WebhookSender } from './webhook-sender';
import { WebhooksRepository } from './webhooks.repository';

/** Webhook POSTs made at once by one instance. */
const WEBHOOK_CONCURRENCY = 8;

/**
 * The webhook kind of outbox work: POSTs a claimed delivery's event to its endpoint, signed,
 * and records the attempt. A 2xx is delivered; anything else waits for the next step of
 * WEBHOOK_RETRY_DELAYS_MS, and is failed when they are spent. An endpoint with no success for
 * WEBHOOK_DISABLE_AFTER_MS is switched off, with a `webhook_endpoint.disabled` event.
 *
 * At least once: the mark follows the receiver's answer, but an instance that dies between the
 * two leaves a claim taken again when its lease ends, and the same event goes again with the
 * same `webhook-id`.
 */
@Injectable()
export class WebhookJob implements JobKind<WebhookDelivery>, OnModuleInit {
  readonly name = 'webhook';
  readonly concurrency = WEBHOOK_CONCURRENCY;
  readonly queue: ClaimQueue<WebhookDelivery>;
  private readonly logger = new Logger('Webhooks');
  private attemptsFailing = false;

  constructor(
    private readonly database: Database,
    private readonly runner: JobRunner,
    private readonly webhooks: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.queue = new ClaimQueue(database, WebhookDelivery);
  }

  /** The first attempt and one per wait of the schedule. */
  get maxAttempts(): number {
    return this.config.webhookRetryDelaysMs.length + 1;
  }

  onModuleInit(): void {
    this.runner.register(this);
  }

  async run(delivery: Claimed<WebhookDelivery>, cutOff: AbortSignal): Promise<void> {
    const [endpoint, [event]] = await this.database.read(
      async () =>
        [
          await this.webhooks.findEndpoint(delivery.endpointId),
          await this.events.find([delivery.eventId]),
        ] as const,
    );
    if (!endpoint || endpoint.deletedAt !== null || !event) {
      await this.queue.fail(delivery, 'endpoint deleted');
      return;
    }
    if (!endpoint.enabled) {
      await this.queue.updateClaim(delivery, { status: 'paused', nextAttemptAt: null });
      return;
    }
    const attemptedAt = new Date();
    const attempt = await this.post(endpoint, event, cutOff);
    // Cut off by a stop: the runner gives the claim back, the attempt not counted.
    if (cutOff.aborted && attempt.statusCode === null) return;
    const recordAttempt = () =>
      this.webhooks.insertAttempt({ deliveryId: delivery.id, attemptedAt, ...attempt });
    const succeeded =
      attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
    if (succeeded) {
      if (this.attemptsFailing) this.logger.log('Webhook deliveries succeed again');
      this.attemptsFailing = false;
      await this.queue.finish(
        delivery,
        { status: 'delivered', deliveredAt: this.clock.now(), lastStatusCode: attempt.statusCode },
        async () => {
          await recordAttempt();
          if (endpoint.failingSince !== null) {
            await this.webhooks.updateEndpoint(endpoint.id, { failingSince: null });
          }
        },
      );
      return;
    }
    await this.recordFailure(delivery, endpoint, attempt, recordAttempt);
  }

  /** Never the URL, the secret or the body: the log names the rows and the reason. */
  gaveUp(delivery: WebhookDelivery, reason: string): void {
    this.logger.warn(
      { delivery: delivery.id, endpoint: delivery.endpointId, event: delivery.eventId, reason },
      `Webhook delivery ${delivery.id} failed for good after ${delivery.attempts} attempt(s): ${reason}`,
    );
  }

  private post(
    endpoint: WebhookEndpoint,
    event: EventRecord,
    cutOff: AbortSignal,
  ): Promise<WebhookAttempt> {
    // The Standard Webhooks payload: the event as GET /event/{id} answers it.
    const body = `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(
      event.createdAt.toISOString(),
    )},"data":${jsonText(toEventOutput(event)) ?? '{}'}}`;
    const headers = signedHeaders(endpoint.secret, {
      id: String(event.id),
      timestamp: Math.floor(Date.now() / 1000),
      body,
    });
    return this.sender.post(endpoint.url, body, headers, cutOff);
  }

  private async recordFailure(
    delivery: Claimed<WebhookDelivery>,
    endpoint: WebhookEndpoint,
    attempt: WebhookAttempt,
    recordAttempt: () => Promise<unknown>,
  ): Promise<void> {
    const reason = attempt.error || `HTTP ${attempt.statusCode}`;
    if (!this.attemptsFailing) {
      this.logger.warn(
        { delivery: delivery.id, endpoint: endpoint.id, reason },
        'A webhook delivery failed; failed deliveries are retried with growing waits',
      );
    }
    this.attemptsFailing = true;
    const now = new Date();
    const failingSince = endpoint.failingSince ?? now;
    const disableAfter = this.config.webhookDisableAfterMs;
    const switchOff = disableAfter > 0 && now.getTime() - failingSince.getTime() >= disableAfter;
    const delays = this.config.webhookRetryDelaysMs;
    const spent = delivery.attempts > delays.length;
    const alongside = async () => {
      await recordAttempt();
      if (endpoint.failingSince === null) await this.webhooks.markFailing(endpoint.id, now);
      if (switchOff) await this.switchOff(endpoint);
    };
    const lastStatusCode = attempt.statusCode;
    let recorded: boolean;
    if (spent) {
      recorded = await this.queue.updateClaim(
        delivery,
        { status: 'failed', nextAttemptAt: null, lastError: reason, lastStatusCode },
        alongside,
      );
      if (recorded) this.gaveUp(delivery, reason);
    } else if (switchOff) {
      recorded = await this.queue.updateClaim(
        delivery,
        { status: 'paused', nextAttemptAt: null, lastError: reason, lastStatusCode },
        alongside,
      );
    } else {
      const at = new Date(now.getTime() + delays[delivery.attempts - 1]);
      recorded = await this.queue.updateClaim(
        delivery,
        { status: 'queued', nextAttemptAt: at, lastError: reason, lastStatusCode },
        alongside,
      );
    }
    if (!recorded) {
      this.logger.warn(
        { delivery: delivery.id },
        'A webhook attempt ended after its claim was taken over; its outcome was not recorded',
      );
    }
  }

  /** Off, its waiting deliveries paused, and an event saying so; once, however many fail. */
  private async switchOff(endpoint: WebhookEndpoint): Promise<void> {
    const before = await this.events.snapshot('webhook_endpoint', endpoint.id);
    const reason = `No delivery succeeded for ${Math.round(this.config.webhookDisableAfterMs / 1000)} s`;
    if (!(await this.webhooks.switchOff(endpoint.id, reason, this.clock.now()))) return;
    await this.webhooks.moveDeliveries(endpoint.id, 'queued', {
      status: 'paused',
      nextAttemptAt: null,
    });
    this.logger.warn({ endpoint: endpoint.id }, `Webhook endpoint ${endpoint.id} switched off`);
    await this.events.record({
      type: 'webhook_endpoint.disabled',
      object: 'webhook_endpoint',
      id: endpoint.id,
      before,
    });
  }
}
