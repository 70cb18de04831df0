import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentTaxGroupRecord } from '../../documents/entities/document-columns';

@Entity('estimate_tax_breakdown')
export class EstimateTaxGroup extends DocumentTaxGroupRecord {
  @ReferenceColumn('estimate_id')
  estimateId: number;
}
