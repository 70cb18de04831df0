import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentTaxGroupRecord } from '../../documents/entities/document-columns';

@Entity('invoice_tax_breakdown')
export class InvoiceTaxGroup extends DocumentTaxGroupRecord {
  @ReferenceColumn('invoice_id')
  invoiceId: number;
}
