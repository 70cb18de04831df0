import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule } from '../clients/clients.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { InvoiceReminder } from './entities/invoice-reminder.entity';
import { InvoiceRemindersService } from './invoice-reminders.service';
import { ReminderJob } from './reminder-job';
import { RemindersRepository } from './reminders.repository';

/**
 * Payment reminders (REMINDER_DAYS): a periodic job on the job runner, and the sending of each
 * step in the invoice's send log. Asks clients for the address, invoices for the invoice.
 */
@Module({
  imports: [TypeOrmModule.forFeature([InvoiceReminder]), InvoicesModule, ClientsModule],
  providers: [ReminderJob, InvoiceRemindersService, RemindersRepository],
})
export class RemindersModule {}
