import { Entity } from 'typeorm';
import { Column } from 'typeorm';
import { IdColumn, ReferenceColumn, TimestampColumn } from '../../database/columns';

/**
 * One reminder step sent for an invoice (REMINDER_DAYS). Unique per invoice and step: written
 * in the transaction that writes the reminder's send-log entry and e-mail, so a step is sent
 * once however many instances look.
 */
@Entity('invoice_reminders')
export class InvoiceReminder {
  @IdColumn()
  id: number;

  @ReferenceColumn('invoice_id')
  invoiceId: number;

  /** Days relative to the due date. */
  @Column({ type: 'int' })
  step: number;

  @ReferenceColumn('send_log_id')
  sendLogId: number;

  @TimestampColumn('created_at')
  createdAt: Date;
}
