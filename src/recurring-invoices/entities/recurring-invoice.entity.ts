import { Column, Entity } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import { ArchivableRecord } from '../../database/archivable-record';
import {
  DateOnlyColumn,
  DecimalColumn,
  OptionalDateColumn,
  ReferenceColumn,
  TextColumn,
} from '../../database/columns';
import type { Interval } from '../domain/schedule';
import type { ScheduleStatus } from '../domain/schedule-state';

/**
 * A schedule of recurring invoices (docs/recurring.md): what each invoice holds, as drafted
 * and checked when the schedule was written, and where the schedule stands.
 */
@Entity('recurring_invoices')
export class RecurringInvoice extends ArchivableRecord {
  @ReferenceColumn('client_id')
  clientId: number;

  @TextColumn({ length: 1000 })
  description: string;

  @TextColumn({ length: 3 })
  currency: string;

  @DecimalColumn({ name: 'tax_rate', precision: 7 })
  taxRate: Decimal;

  /** The default tax's name: TAX_NAME when the schedule was added, copied to each invoice. */
  @TextColumn({ name: 'tax_name', length: 64 })
  taxName: string;

  @DecimalColumn({ name: 'discount_percent', precision: 7, nullable: true })
  discountPercent: Decimal | null;

  /** BT-107: the document discount in money, 0 without one (given, or of the percent). */
  @DecimalColumn({ name: 'discount_amount' })
  discountAmount: Decimal;

  @Column({ name: 'prices_include_tax', type: 'boolean' })
  pricesIncludeTax: boolean;

  @Column({ type: 'text' })
  note: string;

  /** The lines as drafted, JSON (schedule-lines.ts): each invoice copies them. */
  @Column({ type: 'text' })
  items: string;

  /** What each invoice comes to, priced when the schedule was written. */
  @DecimalColumn({ name: 'sub_total' })
  subTotal: Decimal;

  @DecimalColumn({ name: 'tax_amount' })
  taxAmount: Decimal;

  @DecimalColumn()
  total: Decimal;

  @TextColumn({ name: 'interval_unit', length: 5 })
  interval: Interval;

  @Column({ name: 'interval_count', type: 'int' })
  intervalCount: number;

  @DateOnlyColumn('start_date')
  startDate: string;

  @OptionalDateColumn('end_date')
  endDate: string | null;

  /** How many invoices it makes in all (null: no limit). */
  @Column({ name: 'invoice_count', type: 'int', nullable: true })
  count: number | null;

  @Column({ name: 'due_days', type: 'int' })
  dueDays: number;

  @Column({ name: 'auto_send', type: 'boolean' })
  autoSend: boolean;

  /** Where auto-sent invoices go; '' for the client's e-mail at the time. */
  @TextColumn({ length: 254 })
  email: string;

  /** Its invoices are made as drafts, to be reviewed and issued. */
  @Column({ type: 'boolean' })
  draft: boolean;

  @TextColumn({ length: 8 })
  status: ScheduleStatus;

  /** The period the next invoice is for: its index from the start date, and its date. */
  @Column({ name: 'next_index', type: 'int' })
  nextIndex: number;

  /** Null once no period is left (ended). */
  @OptionalDateColumn('next_date')
  nextDate: string | null;

  /** The day it was paused (null unless paused). */
  @OptionalDateColumn('paused_on')
  pausedOn: string | null;

  /** Periods dated from `skipFrom` until before `skipUntil` fell while it was paused. */
  @OptionalDateColumn('skip_from')
  skipFrom: string | null;

  @OptionalDateColumn('skip_until')
  skipUntil: string | null;

  @Column({ name: 'invoices_made', type: 'int' })
  invoicesMade: number;

  /** The date of the last period it made an invoice for. */
  @OptionalDateColumn('last_period')
  lastPeriod: string | null;
}
