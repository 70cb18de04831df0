import { Injectable } from '@nestjs/common';
import { Database, isUniqueViolation } from '../database/database';
import { InvoiceReminder } from './entities/invoice-reminder.entity';

/** The reminders sent (`invoice_reminders`), and the scan for invoices that are due one. */
@Injectable()
export class RemindersRepository {
  constructor(private readonly database: Database) {}

  /**
   * Up to `limit` invoices at a reminder step that has not been sent: a balance outstanding
   * and not paid or void (`open_until` is then the due date), a live client with an e-mail, and
   * no reminder yet for the latest step whose day has come. `steps` ascending; the step is
   * worked out in SQL from the day each one starts on (today − step), latest first. One range
   * of idx_invoices_open_until, in its order: a scan that finds little to send reads only the
   * invoices overdue enough, never the whole table.
   */
  async due(
    steps: Array<{ step: number; since: string }>,
    limit: number,
  ): Promise<Array<{ id: number; step: number }>> {
    const latestFirst = [...steps].reverse();
    const stepOf = `CASE ${latestFirst.map(() => 'WHEN i.due_date <= ? THEN ?').join(' ')} END`;
    const stepParameters = latestFirst.flatMap(({ step, since }) => [since, step]);
    const rows: Array<{ id: number | string; step: number | string }> =
      await this.database.manager.query(
        `SELECT i.id, ${stepOf} AS step
         FROM invoices i JOIN clients c ON c.id = i.client_id
         WHERE i.deleted_at IS NULL AND i.open_until <= ?
           AND c.deleted_at IS NULL AND c.email <> ''
           AND NOT EXISTS (
             SELECT 1 FROM invoice_reminders r WHERE r.invoice_id = i.id AND r.step = ${stepOf})
         ORDER BY i.open_until, i.id
         LIMIT ${Math.floor(limit)}`,
        [...stepParameters, steps[0].since, ...stepParameters],
      );
    return rows.map((row) => ({ id: Number(row.id), step: Number(row.step) }));
  }

  /** Whether this step of the invoice's reminders has been sent. */
  async sent(invoiceId: number, step: number): Promise<boolean> {
    return (await this.database.manager.countBy(InvoiceReminder, { invoiceId, step })) > 0;
  }

  async insert(reminder: Omit<InvoiceReminder, 'id'>): Promise<void> {
    await this.database.manager.insert(InvoiceReminder, reminder);
  }

  /** True when a reminder insert failed because another instance sent that step. */
  taken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_invoice_reminders_step', 'invoice_reminders.invoice_id');
  }
}
