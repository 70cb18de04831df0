import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentLineItemRecord } from '../../documents/entities/document-columns';

@Entity('credit_note_line_items')
export class CreditNoteLineItem extends DocumentLineItemRecord {
  @ReferenceColumn('credit_note_id')
  creditNoteId: number;
}
