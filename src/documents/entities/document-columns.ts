import { Column } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import {
  DateOnlyColumn,
  DecimalColumn,
  IdColumn,
  ReferenceColumn,
  TextColumn,
  TimestampColumn,
} from '../../database/columns';
import { ArchivableRecord } from '../../database/archivable-record';

/*
 * Columns that invoices and estimates share, and those of their line items and send-log
 * entries. Each concrete entity names its own table; the shape is written once here.
 */

export abstract class DocumentRecord extends ArchivableRecord {
  @TextColumn({ name: 'short_code', length: 8 })
  shortCode: string;

  @TextColumn({ length: 1000 })
  description: string;

  @ReferenceColumn('client_id')
  clientId: number;

  @TextColumn({ name: 'customer_name', length: 255 })
  customerName: string;

  @TextColumn({ name: 'customer_phone', length: 32 })
  customerPhone: string;

  @TextColumn({ name: 'customer_address', length: 1000 })
  customerAddress: string;

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

  @DateOnlyColumn('due_date')
  dueDate: string;

  @Column({ type: 'text' })
  note: string;
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
}
