import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentLineItemRecord } from '../../documents/entities/document-columns';

@Entity('invoice_line_items')
export class InvoiceLineItem extends DocumentLineItemRecord {
  @ReferenceColumn('invoice_id')
  invoiceId: number;
}
