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
 * Work an instance does by itself every so often (looking for reminders to send). Each run is
 * awaited before the next wait begins; `run` stops early when `stop` aborts.
 */
export interface PeriodicJob {
  readonly name: string;
  readonly everyMs: number;
  /** Runs once at start-up too, before the first interval. */
  readonly runsAtStart?: boolean;
  run(stop: AbortSignal): Promise<void>;
}

/**
 * The one claim-and-retry runner of every outbox. Each kind has a loop of its own that keeps
 * up to `concurrency` jobs running, outside any transaction: it claims as many due rows as
 * there are free places, again as soon as half of them are free, and otherwise looks every
 * OUTBOX_POLL_MS; so a slow job (a receiver that answers at its timeout) holds one place, not
 * the others or another kind. At least once: an instance that dies between a job's effect and
 * its mark leaves a claim that is taken again when its lease ends.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly kinds: JobKind<QueueRow>[] = [];
  private readonly periodic: PeriodicJob[] = [];
  /** Aborted when a stop has waited long enough: the jobs still running are cut off. */
  private readonly cutOff = new AbortController();
  /** Aborted at stop: wakes the loops from their poll wait. */
  private readonly stop = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(private readonly config: AppConfig) {}

  /** Each kind registers once, at start-up. */
  register<T extends QueueRow>(kind: JobKind<T>): void {
    this.kinds.push(kind);
  }

  /** Each periodic job registers once, at start-up. */
  registerPeriodic(job: PeriodicJob): void {
    this.periodic.push(job);
  }

  onApplicationBootstrap(): void {
    if (this.config.outboxPollMs === 0) {
      this.logger.log(
        'OUTBOX_POLL_MS=0: this instance delivers nothing, reminds no one and makes no recurring invoices; another one must',
      );
      return;
    }
    this.loops = [
      ...this.kinds.map((kind) => this.loop(kind)),
      ...this.periodic.map((job) => this.every(job)),
    ];
  }

  /**
   * Stops claiming at once. Jobs running get a few seconds to finish; then they are cut off
   * and go back to the queue with the attempt not counted. Runs before the database closes.
   */
  async onModuleDestroy(): Promise<void> {
    this.stop.abort();
    const loops = Promise.all(this.loops);
    const waitMs = Math.min(STOP_WAIT_MS, this.config.shutdownTimeoutMs / 5);
    if (!(await settlesWithin(loops, waitMs))) {
      this.cutOff.abort();
      await settlesWithin(loops, waitMs);
    }
  }

  private async loop(kind: JobKind<QueueRow>): Promise<void> {
    const running = new Set<Promise<void>>();
    let claimsFailing = false;
    // The first look is one poll after start-up, as every later idle one.
    await this.pause(this.config.outboxPollMs);
    while (!this.stop.signal.aborted) {
      const free = kind.concurrency - running.size;
      let claimed: Claimed<QueueRow>[] = [];
      try {
        const batch = await kind.queue.claim(free, {
          maxAttempts: kind.maxAttempts,
          leaseMs: this.config.outboxLeaseMs,
        });
        for (const job of batch.exhausted) kind.gaveUp(job, 'lease expired');
        claimed = batch.claimed;
        if (claimsFailing) this.logger.log(`${kind.name}: the outbox can be read again`);
        claimsFailing = false;
      } catch (error) {
        if (!claimsFailing) {
          this.logger.warn(
            { kind: kind.name, error: describeUnexpectedError(error) },
            'Cannot claim jobs from the outbox; trying again at every poll',
          );
        }
        claimsFailing = true;
      }
      for (const job of claimed) {
        const work: Promise<void> = this.runOne(kind, job).finally(() => running.delete(work));
        running.add(work);
      }
      // Every place taken and more may be due: claim again once half of them are free.
      // Otherwise nothing more is due: look again after a poll, or when all are free.
      if (claimed.length === free && claimed.length > 0) {
        while (running.size > kind.concurrency / 2) await Promise.race(running);
      } else {
        await Promise.race([this.pause(this.config.outboxPollMs), ...running]);
        while (running.size >= kind.concurrency) await Promise.race(running);
      }
    }
    await Promise.all(running);
  }

  /**
   * Runs `job` one interval after start-up (at start-up when it `runsAtStart`) and then one
   * interval after each run ends.
   */
  private async every(job: PeriodicJob): Promise<void> {
    let failing = false;
    for (let first = true; ; first = false) {
      if (!(first && job.runsAtStart)) await this.pause(job.everyMs);
      if (this.stop.signal.aborted) return;
      try {
        await job.run(this.stop.signal);
        if (failing) this.logger.log(`${job.name}: runs again`);
        failing = false;
      } catch (error) {
        if (!failing) {
          this.logger.warn(
            { job: job.name, error: describeUnexpectedError(error) },
            'A periodic job failed; it runs again at its next interval',
          );
        }
        failing = true;
      }
    }
  }

  /** Waits `ms`, or less when the runner stops. Never keeps the process alive by itself. */
  private async pause(ms: number): Promise<void> {
    await delay(ms, undefined, { signal: this.stop.signal, ref: false }).catch(() => undefined);
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
