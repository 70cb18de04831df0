import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../common/clock';
import { Database } from '../database/database';
import { OutboxMessage } from './entities/outbox-message.entity';

/**
 * How long a claim holds a message. Only a crashed instance lets one run out: a live worker
 * ends every attempt well within it (SMTP timeouts and a deadline per message), and returns its
 * claims to the queue when it stops.
 */
export const LEASE_MS = 5 * 60 * 1000;

/** A message this worker has claimed; `claimedAt` tells this claim from any later one. */
export type ClaimedMessage = OutboxMessage & { claimedAt: Date };

/**
 * The outbox as a queue: claims in a short transaction, then one small write per outcome.
 * A row is due when `next_attempt_at` has passed: a queued row's backoff, or a sending row's
 * lease (its instance crashed). Sent and failed rows have none.
 */
@Injectable()
export class OutboxQueue {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims up to `limit` due rows: marks them `sending` under a lease and counts the attempt.
   * On MySQL/MariaDB `FOR UPDATE SKIP LOCKED` lets instances claim side by side, each passing
   * over the rows another is claiming; on SQLite the write queue runs one claim at a time.
   * Rows whose lease ran out after their last attempt are failed instead (`exhausted`).
   */
  claim(
    limit: number,
    maxAttempts: number,
  ): Promise<{ claimed: ClaimedMessage[]; exhausted: OutboxMessage[] }> {
    return this.database.transaction(async () => {
      const manager = this.database.manager;
      const now = new Date();
      const query = manager
        .createQueryBuilder(OutboxMessage, 'message')
        .where('message.nextAttemptAt <= :now', { now })
        .andWhere('message.status IN (:...due)', { due: ['queued', 'sending'] })
        .orderBy('message.nextAttemptAt', 'ASC')
        .addOrderBy('message.id', 'ASC')
        .limit(limit);
      if (this.database.dialect === 'mysql') {
        query.setLock('pessimistic_write').setOnLocked('skip_locked');
      }
      const due = await query.getMany();
      const exhausted = due.filter(
        (message) => message.status === 'sending' && message.attempts >= maxAttempts,
      );
      const claimed = due.filter((message) => !exhausted.includes(message));
      if (exhausted.length > 0) {
        await manager.update(
          OutboxMessage,
          { id: In(exhausted.map((message) => message.id)) },
          { status: 'failed', nextAttemptAt: null, lastError: 'lease expired' },
        );
      }
      if (claimed.length > 0) {
        const lease = { claimedAt: now, nextAttemptAt: new Date(now.getTime() + LEASE_MS) };
        await manager.update(
          OutboxMessage,
          { id: In(claimed.map((message) => message.id)) },
          { status: 'sending', attempts: () => 'attempts + 1', ...lease },
        );
        for (const message of claimed) {
          Object.assign(message, { status: 'sending', attempts: message.attempts + 1, ...lease });
        }
      }
      return { claimed: claimed as ClaimedMessage[], exhausted };
    });
  }

  /**
   * Whoever claimed it, the message went out: a late success after this claim was returned to
   * the queue still records it, so it is not sent a second time.
   */
  markSent(message: ClaimedMessage): Promise<void> {
    return this.database.transaction(async () => {
      await this.database.manager.update(OutboxMessage, message.id, {
        status: 'sent',
        sentAt: this.clock.now(),
        nextAttemptAt: null,
        lastError: '',
      });
    });
  }

  /** Back to the queue until `at`; only while this claim is still the row's. */
  retryLater(message: ClaimedMessage, reason: string, at: Date): Promise<boolean> {
    return this.updateClaim(message, { status: 'queued', nextAttemptAt: at, lastError: reason });
  }

  /** Given up: the row is kept, with the reason, and never claimed again. */
  fail(message: ClaimedMessage, reason: string): Promise<boolean> {
    return this.updateClaim(message, { status: 'failed', nextAttemptAt: null, lastError: reason });
  }

  /** A claim given back unfinished (the worker is stopping): due now, its attempt not counted. */
  release(message: ClaimedMessage): Promise<boolean> {
    return this.updateClaim(message, {
      status: 'queued',
      attempts: () => 'attempts - 1',
      claimedAt: null,
      nextAttemptAt: new Date(),
    });
  }

  private updateClaim(
    message: ClaimedMessage,
    changes: QueryDeepPartialEntity<OutboxMessage>,
  ): Promise<boolean> {
    return this.database.transaction(async () => {
      const result = await this.database.manager.update(
        OutboxMessage,
        { id: message.id, status: 'sending', claimedAt: message.claimedAt },
        changes,
      );
      return result.affected === 1;
    });
  }
}
