import { Entity } from 'typeorm';
import { Decimal } from '../../common/money/decimal';
import { DecimalColumn, ReferenceColumn, TextColumn } from '../../database/columns';
import { PricedDocumentRecord } from '../../documents/entities/document-columns';

/**
 * A credit note: priced like an invoice, at its invoice's currency and tax rate, issued once
 * and never changed or deleted.
 */
@Entity('credit_notes')
export class CreditNote extends PricedDocumentRecord {
  /** Unique among all credit notes, for good. */
  @TextColumn({ name: 'credit_note_no', length: 64 })
  creditNoteNo: string;

  @ReferenceColumn('invoice_id')
  invoiceId: number;

  /** The invoice's number when the credit note was issued: what it prints as corrected. */
  @TextColumn({ name: 'invoice_no', length: 64 })
  invoiceNo: string;

  /** The part of the total refunded first (`refund: true` on a paid invoice), else 0. */
  @DecimalColumn()
  refunded: Decimal;

  @TextColumn({ length: 1000 })
  reason: string;
}
