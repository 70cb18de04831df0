import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { InvoiceRemindersService } from './invoice-reminders.service';
import { JobRunner, PeriodicJob } from '../jobs/job-runner';

/** Invoices looked at per query; the scan goes on until none is left. */
const BATCH = 100;

/**
 * Every REMINDER_SCAN_MS, on every instance with reminders on: finds the invoices at a step
 * not yet sent and sends each (InvoiceRemindersService, one transaction per invoice). Two
 * instances may find the same invoice; the second finds its step sent and sends nothing.
 */
@Injectable()
export class ReminderJob implements PeriodicJob, OnModuleInit {
  readonly name = 'reminders';
  private readonly logger = new Logger('Reminders');

  constructor(
    private readonly runner: JobRunner,
    private readonly reminders: InvoiceRemindersService,
    private readonly config: AppConfig,
  ) {}

  get everyMs(): number {
    return this.config.reminderScanMs;
  }

  onModuleInit(): void {
    if (this.config.reminderDays.length === 0) return;
    this.logger.log(`Reminders at ${this.config.reminderDays.join(', ')} day(s) from the due date`);
    this.runner.registerPeriodic(this);
  }

  async run(stop: AbortSignal): Promise<void> {
    let sent = 0;
    for (;;) {
      const due = await this.reminders.due(BATCH);
      let sentNow = 0;
      for (const { id } of due) {
        if (stop.aborted) return;
        if (await this.reminders.remind(id)) sentNow += 1;
      }
      sent += sentNow;
      // A full batch where nothing could be sent would be found again: stop until next time.
      if (due.length < BATCH || sentNow === 0) break;
    }
    if (sent > 0) this.logger.log({ reminders: sent }, `Queued ${sent} reminder(s)`);
  }
}
