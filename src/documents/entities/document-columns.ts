import { Column } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import {
  ArchivedAtColumn,
  DateOnlyColumn,
  DecimalColumn,
  IdColumn,
  ReferenceColumn,
  TextColumn,
  TimestampColumn,
} from '../../database/columns';

/*
 * Columns that documents share (invoices, estimates, credit notes), and those of their line
 * items and send-log entries. Each concrete entity names its own table; the shape is written
 * once here.
 */

/** What every document holds: the client's details as copied, and the totals of its lines. */
export abstract class PricedDocumentRecord {
  @IdColumn()
  id: number;

  @TextColumn({ name: 'short_code', length: 8 })
  shortCode: string;

  @ReferenceColumn('client_id')
  clientId: number;

  @TextColumn({ name: 'customer_name', length: 255 })
  customerName: string;

  @TextColumn({ name: 'customer_phone', length: 32 })
  customerPhone: string;

  @TextColumn({ name: 'customer_address', length: 1000 })
  customerAddress: string;

  @TextColumn({ name: 'customer_tax_id', length: 32 })
  customerTaxId: string;

  /** ISO 3166-1 alpha-2; '' when the client had none. */
  @TextColumn({ name: 'customer_country', length: 2 })
  customerCountry: string;

  @TextColumn({ length: 3 })
  currency: string;

  @DecimalColumn({ name: 'tax_rate', precision: 7 })
  taxRate: Decimal;

  @DecimalColumn({ name: 'sub_total' })
  subTotal: Decimal;

  @DecimalColumn({ name: 'tax_amount' })
  taxAmount: Decimal;

  @DecimalColumn()
  total: Decimal;

  @DateOnlyColumn('issue_date')
  issueDate: string;

  @Column({ type: 'text' })
  note: string;

  @TimestampColumn('created_at')
  createdAt: Date;
}

/** Invoices and estimates: also a description and a due date; they change and are archived. */
export abstract class DocumentRecord extends PricedDocumentRecord {
  @TextColumn({ length: 1000 })
  description: string;

  @DateOnlyColumn('due_date')
  dueDate: string;

  @TimestampColumn('updated_at')
  updatedAt: Date;

  @ArchivedAtColumn()
  deletedAt: Date | null;
}

export abstract class DocumentLineItemRecord {
  @IdColumn()
  id: number;

  /** Input order, from 0. */
  @Column({ type: 'int' })
  position: number;

  @TextColumn({ length: 1000 })
  description: string;

  @DecimalColumn()
  quantity: Decimal;

  @DecimalColumn()
  rate: Decimal;

  @DecimalColumn()
  amount: Decimal;
}

export abstract class DocumentSendLogRecord {
  @IdColumn()
  id: number;

  @TextColumn({ length: 254 })
  email: string;

  @TextColumn({ length: 32 })
  phone: string;

  @TimestampColumn('sent_at')
  sentAt: Date;

  /** What sent it: the API (`document`) or the service's reminders (`reminder`). */
  @TextColumn({ length: 16 })
  kind: SendKind;
}

export const SEND_KINDS = ['document', 'reminder'] as const;
export type SendKind = (typeof SEND_KINDS)[number];
