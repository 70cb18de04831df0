import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentTaxGroupRecord } from '../../documents/entities/document-columns';

@Entity('credit_note_tax_breakdown')
export class CreditNoteTaxGroup extends DocumentTaxGroupRecord {
  @ReferenceColumn('credit_note_id')
  creditNoteId: number;
}
