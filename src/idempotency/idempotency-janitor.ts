import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { describeUnexpectedError } from '../logging/loggable-error';
import { IdempotencyStore } from './idempotency-store';

/** Expired records are ignored when met; this only gives their space back, once an hour. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

@Injectable()
export class IdempotencyJanitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly store: IdempotencyStore) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async sweep(): Promise<void> {
    try {
      const removed = await this.store.deleteExpired();
      if (removed > 0) this.logger.log({ removed }, 'Expired idempotency keys removed');
    } catch (error) {
      // The next sweep tries again; a database outage is reported by readiness, not here.
      this.logger.warn({ error: describeUnexpectedError(error) }, 'Idempotency sweep failed');
    }
  }
}
