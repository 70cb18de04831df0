import { Entity } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import { DecimalColumn, TextColumn } from '../../database/columns';
import { DocumentRecord } from '../../documents/entities/document-columns';
import { PaymentStatus } from '../domain/payment-status';

@Entity('invoices')
export class Invoice extends DocumentRecord {
  /** Unique among live invoices: a unique index on a column that is NULL once archived. */
  @TextColumn({ name: 'invoice_no', length: 64 })
  invoiceNo: string;

  @TextColumn({ name: 'payment_status', length: 8 })
  paymentStatus: PaymentStatus;

  /** Sum of the recorded payments, kept with the invoice under its row lock. */
  @DecimalColumn({ name: 'amount_paid' })
  amountPaid: Decimal;
}
