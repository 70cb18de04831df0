import { EntityTarget, In } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Database } from '../database/database';

/** The columns every outbox table has: what makes it a queue. */
export interface QueueRow {
  id: number;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  claimedAt: Date | null;
  lastError: string;
}

/** A row this runner has claimed; `claimedAt` tells this claim from any later one. */
export type Claimed<T extends QueueRow> = T & { claimedAt: Date };

/**
 * An outbox table as a queue: claims in a short transaction, then one small write per
 * outcome. A row is due when `next_attempt_at` has passed: a queued row's backoff, or a
 * sending row's lease (its instance crashed). Finished rows have none, so the claim's index
 * holds only live work.
 */
export class ClaimQueue<T extends QueueRow> {
  constructor(
    private readonly database: Database,
    private readonly entity: EntityTarget<T>,
  ) {}

  /**
   * Claims up to `limit` due rows: marks them `sending` under a lease of `leaseMs` and counts
   * the attempt. Only a crashed instance lets a lease run out: a live runner ends every attempt
   * well within it (timeouts and a deadline per job), and returns its claims when it stops.
   * On MySQL/MariaDB `FOR UPDATE SKIP LOCKED` lets instances claim side by side, each passing
   * over the rows another is claiming; on SQLite the write queue runs one claim at a time.
   * Rows whose lease ran out after their last attempt are failed instead (`exhausted`).
   */
  claim(
    limit: number,
    { maxAttempts, leaseMs }: { maxAttempts: number; leaseMs: number },
  ): Promise<{ claimed: Claimed<T>[]; exhausted: T[] }> {
    return this.database.transaction(async () => {
      const manager = this.database.manager;
      const now = new Date();
      const query = manager
        .createQueryBuilder(this.entity, 'job')
        .where('job.nextAttemptAt <= :now', { now })
        .andWhere('job.status IN (:...due)', { due: ['queued', 'sending'] })
        .orderBy('job.nextAttemptAt', 'ASC')
        .addOrderBy('job.id', 'ASC')
        .limit(limit);
      if (this.database.dialect === 'mysql') {
        query.setLock('pessimistic_write').setOnLocked('skip_locked');
      }
      const due = await query.getMany();
      const exhausted = due.filter(
        (job) => job.status === 'sending' && job.attempts >= maxAttempts,
      );
      const claimed = due.filter((job) => !exhausted.includes(job));
      if (exhausted.length > 0) {
        await manager.update(this.entity, { id: In(exhausted.map((job) => job.id)) }, {
          status: 'failed',
          nextAttemptAt: null,
          lastError: 'lease expired',
        } as unknown as QueryDeepPartialEntity<T>);
      }
      if (claimed.length > 0) {
        const lease = { claimedAt: now, nextAttemptAt: new Date(now.getTime() + leaseMs) };
        await manager.update(this.entity, { id: In(claimed.map((job) => job.id)) }, {
          status: 'sending',
          attempts: () => 'attempts + 1',
          ...lease,
        } as unknown as QueryDeepPartialEntity<T>);
        for (const job of claimed) {
          Object.assign(job, { status: 'sending', attempts: job.attempts + 1, ...lease });
        }
      }
      return { claimed: claimed as Claimed<T>[], exhausted };
    });
  }

  /**
   * Whoever claimed it, the job was done: a late success after this claim was returned to the
   * queue still records it, so it is not done a second time. `alongside` runs in the same
   * transaction (the event that says so).
   */
  finish(
    job: Claimed<T>,
    changes: QueryDeepPartialEntity<T>,
    alongside?: () => Promise<unknown>,
  ): Promise<void> {
    return this.database.transaction(async () => {
      await this.database.manager.update(this.entity, job.id, {
        nextAttemptAt: null,
        lastError: '',
        ...changes,
      });
      await alongside?.();
    });
  }

  /** Back to the queue until `at`; only while this claim is still the row's. */
  retryLater(
    job: Claimed<T>,
    reason: string,
    at: Date,
    alongside?: () => Promise<unknown>,
  ): Promise<boolean> {
    const changes = { status: 'queued', nextAttemptAt: at, lastError: reason };
    return this.updateClaim(job, changes as unknown as QueryDeepPartialEntity<T>, alongside);
  }

  /** Given up: the row is kept, with the reason, and never claimed again. */
  fail(job: Claimed<T>, reason: string, alongside?: () => Promise<unknown>): Promise<boolean> {
    const changes = { status: 'failed', nextAttemptAt: null, lastError: reason };
    return this.updateClaim(job, changes as unknown as QueryDeepPartialEntity<T>, alongside);
  }

  /** A claim given back unfinished (the runner is stopping): due now, its attempt not counted. */
  release(job: Claimed<T>): Promise<boolean> {
    const changes = {
      status: 'queued',
      attempts: () => 'attempts - 1',
      claimedAt: null,
      nextAttemptAt: new Date(),
    };
    return this.updateClaim(job, changes as unknown as QueryDeepPartialEntity<T>);
  }

  /** Writes `changes` while this claim is still the row's; `alongside` only if it was. */
  updateClaim(
    job: Claimed<T>,
    changes: QueryDeepPartialEntity<T>,
    alongside?: () => Promise<unknown>,
  ): Promise<boolean> {
    return this.database.transaction(async () => {
      const result = await this.database.manager.update(
        this.entity,
        { id: job.id, status: 'sending', claimedAt: job.claimedAt },
        changes,
      );
      if (result.affected !== 1) return false;
      await alongside?.();
      return true;
    });
  }
}
