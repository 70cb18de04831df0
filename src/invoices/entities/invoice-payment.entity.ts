import { Column, Entity } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import {
  DateOnlyColumn,
  DecimalColumn,
  IdColumn,
  ReferenceColumn,
  TextColumn,
  TimestampColumn,
} from '../../database/columns';
import { LedgerEntryStatus, PaymentMethod } from '../domain/payment-status';

/** One entry of an invoice's ledger: a payment received, a refund, or a credit note's credit. */
@Entity('invoice_payments')
export class InvoicePayment {
  @IdColumn()
  id: number;

  @ReferenceColumn('invoice_id')
  invoiceId: number;

  /** Generated, unique across all payments. */
  @TextColumn({ length: 32 })
  reference: string;

  @TextColumn({ length: 16 })
  status: LedgerEntryStatus;

  @DecimalColumn()
  amount: Decimal;

  @TextColumn({ length: 16 })
  method: PaymentMethod;

  /** The payment's, refund's or credit note's date. */
  @DateOnlyColumn('payment_date')
  paymentDate: string;

  /** Why money was returned or credited; '' for payments. */
  @TextColumn({ length: 1000 })
  reason: string;

  /** The credit note a Credited entry (and the refund it made) belongs to. */
  @Column({ name: 'credit_note_id', type: 'int', unsigned: true, nullable: true })
  creditNoteId: number | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}
