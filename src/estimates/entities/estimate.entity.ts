import { Column, Entity } from 'typeorm';
import { TextColumn } from '../../database/columns';
import { DocumentRecord } from '../../documents/entities/document-columns';

@Entity('estimates')
export class Estimate extends DocumentRecord {
  /** Output as `estimate_no` by add and update, `reference_no` elsewhere. Unique among live estimates. */
  @TextColumn({ name: 'estimate_no', length: 64 })
  estimateNo: string;

  @Column({ type: 'boolean' })
  accepted: boolean;

  /** The invoice this estimate became, once converted. */
  @Column({ name: 'converted_invoice_id', type: 'int', unsigned: true, nullable: true })
  convertedInvoiceId: number | null;
}
