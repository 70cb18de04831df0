import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { describeUnexpectedError } from '../logging/loggable-error';
import { Claimed, ClaimQueue, QueueRow } from './claim-queue';

/** On stop, how long jobs already running may take to finish. */
const STOP_WAIT_MS = 3_000;

/**
 * One kind of outbox work (an e-mail, a webhook): its queue, and what it does with a claimed
 * row. `run` does the job and records its outcome (done, retry later, failed); it is handed a
 * signal that aborts when the runner stops and cannot wait longer.
 */
export interface JobKind<T extends QueueRow> {
  readonly name: string;
  readonly queue: ClaimQueue<T>;
  /** Jobs of this kind run at once. */
  readonly concurrency: number;
  /** A row whose lease ran out after this many attempts is failed, not claimed again. */
  readonly maxAttempts: number;
  run(job: Claimed<T>, cutOff: AbortSignal): Promise<void>;
  /** Told of rows failed because their lease ran out after the last attempt. */
  gaveUp(job: T, reason: string): void;
}

/**
 * The one claim-and-retry runner of every outbox: every OUTBOX_POLL_MS (at once again after
 * finding work) it claims the due rows of each kind and runs them, a few at a time, outside
 * any transaction. At least once: an instance that dies between a job's effect and its mark
 * leaves a claim that is taken again when its lease ends.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly kinds: JobKind<QueueRow>[] = [];
  /** Aborted when a stop has waited long enough: the jobs still running are cut off. */
  private readonly cutOff = new AbortController();
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private cycle: Promise<void> | undefined;
  /** Kinds whose last claim failed: warn once per outage. */
  private readonly claimsFailing = new Set<string>();

  constructor(private readonly config: AppConfig) {}

  /** Each kind registers once, at start-up. */
  register<T extends QueueRow>(kind: JobKind<T>): void {
    this.kinds.push(kind);
  }

  onApplicationBootstrap(): void {
    if (this.config.outboxPollMs === 0) {
      this.logger.log('OUTBOX_POLL_MS=0: this instance delivers nothing; another one must');
      return;
    }
    this.schedule(this.config.outboxPollMs);
  }

  /**
   * Stops claiming at once. Jobs running get a few seconds to finish; then they are cut off
   * and go back to the queue with the attempt not counted, as do claimed jobs not yet begun.
   * Runs before the database closes.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const cycle = this.cycle;
    const waitMs = Math.min(STOP_WAIT_MS, this.config.shutdownTimeoutMs / 5);
    if (cycle && !(await settlesWithin(cycle, waitMs))) {
      this.cutOff.abort();
      await settlesWithin(cycle, waitMs);
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.cycle = this.runCycle();
    }, delayMs);
    // The poll alone never keeps the process alive.
    this.timer.unref();
  }

  private async runCycle(): Promise<void> {
    const found = await Promise.all(this.kinds.map((kind) => this.runDue(kind)));
    this.cycle = undefined;
    this.schedule(found.some((count) => count > 0) ? 0 : this.config.outboxPollMs);
  }

  /** One claim of a kind, run with bounded concurrency; answers how many rows it took. */
  private async runDue(kind: JobKind<QueueRow>): Promise<number> {
    let batch: Awaited<ReturnType<ClaimQueue<QueueRow>['claim']>>;
    try {
      batch = await kind.queue.claim(kind.concurrency * 4, kind.maxAttempts);
      if (this.claimsFailing.delete(kind.name))
        this.logger.log(`${kind.name}: the outbox can be read again`);
    } catch (error) {
      if (!this.claimsFailing.has(kind.name)) {
        this.logger.warn(
          { kind: kind.name, error: describeUnexpectedError(error) },
          'Cannot claim jobs from the outbox; trying again at every poll',
        );
      }
      this.claimsFailing.add(kind.name);
      return 0;
    }
    const { claimed, exhausted } = batch;
    for (const job of exhausted) kind.gaveUp(job, 'lease expired');
    const waiting = [...claimed];
    const next = () => (this.stopping ? undefined : waiting.shift());
    const lane = async () => {
      for (let job = next(); job; job = next()) await this.runOne(kind, job);
    };
    await Promise.all(Array.from({ length: kind.concurrency }, lane));
    // Claimed but not begun before a stop: back to the queue, for another instance or a restart.
    for (const job of waiting) await this.releaseQuietly(kind, job);
    return claimed.length + exhausted.length;
  }

  private async runOne(kind: JobKind<QueueRow>, job: Claimed<QueueRow>): Promise<void> {
    try {
      await kind.run(job, this.cutOff.signal);
    } catch (error) {
      // A kind records its own outcomes; this is a write that failed: the lease brings it back.
      this.logger.error(
        { kind: kind.name, job: job.id, error: describeUnexpectedError(error) },
        'Could not record a job outcome; the job runs again when its lease ends',
      );
      return;
    }
    if (this.cutOff.signal.aborted) await this.releaseQuietly(kind, job);
  }

  private async releaseQuietly(kind: JobKind<QueueRow>, job: Claimed<QueueRow>): Promise<void> {
    try {
      await kind.queue.release(job);
    } catch (error) {
      this.logger.error(
        { kind: kind.name, job: job.id, error: describeUnexpectedError(error) },
        'Could not return a claimed job to the queue; it runs again when its lease ends',
      );
    }
  }
}

/** Whether `work` settles within `ms`; it is not cancelled either way. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = new AbortController();
  const settled = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    delay(ms, false, { signal: timeout.signal }).catch(() => false),
  ]);
  timeout.abort();
  return settled;
}
