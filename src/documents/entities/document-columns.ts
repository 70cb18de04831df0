import { Column } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import type { LineTax } from '../domain/document-totals';
import type { VatCategory } from '../domain/vat-categories';
import {
  ArchivedAtColumn,
  DateOnlyColumn,
  DecimalColumn,
  IdColumn,
  LineTaxesColumn,
  OptionalDateColumn,
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

  /** The name of the default tax (a line without taxes of its own): TAX_NAME when drafted. */
  @TextColumn({ name: 'tax_name', length: 64 })
  taxName: string;

  @DecimalColumn({ name: 'sub_total' })
  subTotal: Decimal;

  /** The document discount as a percent, when it was given as one. */
  @DecimalColumn({ name: 'discount_percent', precision: 7, nullable: true })
  discountPercent: Decimal | null;

  /** BT-107: the document discount in money, 0 without one. */
  @DecimalColumn({ name: 'discount_amount' })
  discountAmount: Decimal;

  @DecimalColumn({ name: 'tax_amount' })
  taxAmount: Decimal;

  @DecimalColumn()
  total: Decimal;

  /** Whether rates and amounts are gross (tax included). */
  @Column({ name: 'prices_include_tax', type: 'boolean' })
  pricesIncludeTax: boolean;

  /** BT-72, or BT-73 and BT-74: the date of supply or the service period (null: not given). */
  @OptionalDateColumn('supply_date')
  supplyDate: string | null;

  @OptionalDateColumn('period_start')
  periodStart: string | null;

  @OptionalDateColumn('period_end')
  periodEnd: string | null;

  @DateOnlyColumn('issue_date')
  issueDate: string;

  @Column({ type: 'text' })
  note: string;

  @TimestampColumn('created_at')
  createdAt: Date;
}

/** Invoices and estimates: also a description and a due date; they change and are archived. */
export abstract class DocumentRecord extends PricedDocumentRecord {
  /** A draft (docs/numbering.md): no number yet (''), outside every report, until issued. */
  @Column({ type: 'boolean' })
  draft: boolean;

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

  /** BT-131: round(quantity × rate) less the line's discount. */
  @DecimalColumn()
  amount: Decimal;

  /** UN/ECE Recommendation 20 code. */
  @TextColumn({ length: 3 })
  unit: string;

  /** The line discount as a percent, when it was given as one. */
  @DecimalColumn({ name: 'discount_percent', precision: 7, nullable: true })
  discountPercent: Decimal | null;

  /** BT-136: the line discount in money, 0 without one. */
  @DecimalColumn({ name: 'discount_amount' })
  discountAmount: Decimal;

  /** The line's own taxes, or null for its document's default tax. */
  @LineTaxesColumn()
  taxes: LineTax[] | null;
}

/** One entry of a document's VAT breakdown (BG-23), in order of first appearance. */
export abstract class DocumentTaxGroupRecord {
  @IdColumn()
  id: number;

  @Column({ type: 'int' })
  position: number;

  @TextColumn({ length: 64 })
  name: string;

  @TextColumn({ length: 2 })
  category: VatCategory;

  @DecimalColumn({ precision: 7 })
  rate: Decimal;

  @DecimalColumn({ name: 'taxable_amount' })
  taxableAmount: Decimal;

  @DecimalColumn({ name: 'tax_amount' })
  taxAmount: Decimal;

  @TextColumn({ name: 'exemption_reason', length: 500 })
  exemptionReason: string;

  @TextColumn({ name: 'exemption_code', length: 32 })
  exemptionCode: string;
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
