import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { setImmediate } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { JobRunner, PeriodicJob } from '../jobs/job-runner';
import { describeUnexpectedError } from '../logging/loggable-error';
import { RecurringInvoicesService } from './recurring-invoices.service';

/** Schedules looked at per query; the scan goes on until none is left. */
const BATCH = 500;

/**
 * At start-up and then every RECURRING_SCAN_MS, on every instance: finds the schedules with a
 * period due and makes each one's invoices, period by period, until it is up to date (missed
 * periods after downtime each get their own invoice with their own dates). Instances scan side
 * by side: each makes a period under the schedule's row lock, and passes over a schedule
 * another instance holds.
 */
@Injectable()
export class RecurringInvoiceJob implements PeriodicJob, OnModuleInit {
  readonly name = 'recurring invoices';
  readonly runsAtStart = true;
  private readonly logger = new Logger('RecurringInvoices');

  constructor(
    private readonly runner: JobRunner,
    private readonly schedules: RecurringInvoicesService,
    private readonly config: AppConfig,
  ) {}

  get everyMs(): number {
    return this.config.recurringScanMs;
  }

  onModuleInit(): void {
    this.runner.registerPeriodic(this);
  }

  async run(stop: AbortSignal): Promise<void> {
    let made = 0;
    for (;;) {
      const due = await this.schedules.due(BATCH);
      let madeNow = 0;
      for (const id of due) {
        if (stop.aborted) break;
        madeNow += await this.catchUp(id, stop);
      }
      made += madeNow;
      // A full batch where nothing could be made would be found again: stop until next time.
      if (stop.aborted || due.length < BATCH || madeNow === 0) break;
    }
    if (made > 0) this.logger.log({ invoices: made }, `Made ${made} recurring invoice(s)`);
  }

  /**
   * Makes the schedule's due periods one by one; a failing schedule does not hold up others.
   * Between two periods the event loop turns: on SQLite every statement runs synchronously, and
   * a scan of thousands would otherwise hold every request until it ends.
   */
  private async catchUp(id: number, stop: AbortSignal): Promise<number> {
    let made = 0;
    try {
      for (let more = true; more && !stop.aborted;) {
        const outcome = await this.schedules.makeNext(id);
        if (outcome.made) made += 1;
        more = outcome.moreDue;
        await setImmediate();
      }
    } catch (error) {
      this.logger.warn(
        { schedule: id, error: describeUnexpectedError(error) },
        'Could not make a recurring invoice; trying again at the next scan',
      );
    }
    return made;
  }
}
