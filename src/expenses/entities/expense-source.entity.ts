import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TextColumn } from '../../database/columns';

/** A tax group of an imported e-invoice, as the expense's `source` answers it. */
export interface SourceTaxGroup {
  category: string;
  rate: string;
  taxable_amount: string;
  tax_amount: string;
}

/** A line of an imported e-invoice, as the expense's `source` answers it. */
export interface SourceLine {
  id: string;
  name: string;
  quantity: string;
  unit: string;
  net_price: string;
  net_amount: string;
  vat_category: string;
  vat_rate: string;
}

export interface SourceDetails {
  tax_breakdown: SourceTaxGroup[];
  lines: SourceLine[];
}

/**
 * The received e-invoice an expense was imported from (docs/einvoices.md, Import): what the
 * expense answers as `source`, and the file as it arrived. One seller's invoice number is
 * recorded once: the unique index on (seller_key, invoice_number) decides, in the insert.
 */
@Entity('expense_sources')
export class ExpenseSource {
  @PrimaryColumn({ name: 'expense_id', type: 'int', unsigned: true })
  expenseId: number;

  @TextColumn({ length: 16 })
  format: string;

  /** BT-31 when the invoice has one, else BT-27: whose numbers `invoice_number` is one of. */
  @TextColumn({ name: 'seller_key', length: 260 })
  sellerKey: string;

  @TextColumn({ name: 'seller_vat_id', length: 255 })
  sellerVatId: string;

  @TextColumn({ name: 'invoice_number', length: 255 })
  invoiceNumber: string;

  @TextColumn({ name: 'type_code', length: 8 })
  typeCode: string;

  @Column({
    type: 'text',
    transformer: {
      to: (value: SourceDetails | undefined) =>
        value === undefined ? value : JSON.stringify(value),
      from: (value: string) => JSON.parse(value) as SourceDetails,
    },
  })
  details: SourceDetails;

  @TextColumn({ name: 'media_type', length: 32 })
  mediaType: string;

  /** The file; read only by GET /expense/{id}/source. */
  @Column({ type: 'blob', select: false })
  content: Buffer;
}
