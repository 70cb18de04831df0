import { Module } from '@nestjs/common';
import { InvoicesModule } from '../invoices/invoices.module';
import { ReminderJob } from './reminder-job';

/** Payment reminders (REMINDER_DAYS): a periodic job on the job runner. */
@Module({
  imports: [InvoicesModule],
  providers: [ReminderJob],
})
export class RemindersModule {}
