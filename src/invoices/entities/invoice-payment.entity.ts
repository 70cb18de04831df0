import { Entity } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import {
  DateOnlyColumn,
  DecimalColumn,
  IdColumn,
  ReferenceColumn,
  TextColumn,
  TimestampColumn,
} from '../../database/columns';
import { PaymentMethod } from '../domain/payment-status';

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
  status: string;

  @DecimalColumn()
  amount: Decimal;

  @TextColumn({ length: 16 })
  method: PaymentMethod;

  @DateOnlyColumn('payment_date')
  paymentDate: string;

  @TimestampColumn('created_at')
  createdAt: Date;
}
