import { Injectable } from '@nestjs/common';
import { ClientsService } from '../clients/clients.service';
import { Clock, daysBetween, shiftDate } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { DocumentDelivery } from '../delivery/document-delivery';
import { documentLocale } from '../documents/i18n/document-messages';
import { EventLog } from '../events/event-log';
import { toInvoiceView, toRecordPart } from '../invoices/invoices.mapper';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { currentStep } from './domain/reminder-steps';
import { RemindersRepository } from './reminders.repository';

/**
 * Reminders of unpaid invoices (REMINDER_DAYS, docs/receivables.md). Each step of an
 * invoice is sent in one transaction: the invoice row locked and checked again, the reminder
 * record (unique per invoice and step), a send-log entry of kind `reminder`, the e-mail in the
 * outbox and the `invoice.reminder_sent` event. Another instance sending the same step waits
 * for the lock and then finds the record; the unique index is the last word.
 */
@Injectable()
export class InvoiceRemindersService {
  constructor(
    private readonly database: Database,
    private readonly invoices: InvoicesRepository,
    private readonly reminders: RemindersRepository,
    private readonly clients: ClientsService,
    private readonly delivery: DocumentDelivery,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Invoices whose current step has not been sent, up to `limit`, oldest first. */
  due(limit: number): Promise<Array<{ id: number; step: number }>> {
    const today = this.clock.today();
    const steps = this.config.reminderDays.map((step) => ({
      step,
      since: shiftDate(today, -step),
    }));
    return this.database.read(() => this.reminders.due(steps, limit));
  }

  /**
   * Sends the invoice's current step unless it was sent, or the invoice no longer owes (paid,
   * void, archived, settled) or has no live client with an e-mail. True when it sent it.
   */
  async remind(id: number): Promise<boolean> {
    try {
      return await this.database.transaction(() => this.sendCurrentStep(id));
    } catch (error) {
      if (this.reminders.taken(error)) return false;
      throw error;
    }
  }

  private async sendCurrentStep(id: number): Promise<boolean> {
    const invoice = await this.invoices.findLive(id, { forUpdate: true });
    const today = this.clock.today();
    if (
      !invoice ||
      invoice.draft ||
      invoice.voidedAt !== null ||
      invoice.paymentStatus === 'Paid' ||
      !invoice.amountPaid.lessThan(invoice.total)
    ) {
      return false;
    }
    const step = currentStep(this.config.reminderDays, invoice.dueDate, today);
    if (step === null || (await this.reminders.sent(id, step))) return false;
    const client = await this.clients.holdForDocument(invoice.clientId, { allowArchived: false });
    if (!client || client.email === '') return false;
    const before = toRecordPart(invoice, today);
    const now = this.clock.now();
    const entry = await this.invoices.insertSendLogEntry(
      id,
      { email: client.email, phone: client.phone, sentAt: now },
      'reminder',
    );
    await this.reminders.insert({
      invoiceId: id,
      step,
      sendLogId: entry.id,
      createdAt: now,
    });
    const print = await this.invoices.findLivePrint(id);
    if (!print) throw new Error(`Invoice ${id} is locked but not readable`);
    const locale = documentLocale(print.clientLanguage, this.config.documentLocale);
    await this.delivery.enqueue({
      kind: 'invoice',
      documentId: id,
      sendLogEntryId: entry.id,
      recipient: client.email,
      view: {
        ...toInvoiceView(invoice, print, locale, today),
        reminder: { daysOverdue: daysBetween(invoice.dueDate, today) },
      },
      // The e-invoice went with the invoice: a receiver's system would book a second one twice.
      einvoice: null,
    });
    await this.events.record({ type: 'invoice.reminder_sent', object: 'invoice', id, before });
    return true;
  }
}
