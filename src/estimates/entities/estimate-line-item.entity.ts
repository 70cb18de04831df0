import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentLineItemRecord } from '../../documents/entities/document-columns';

@Entity('estimate_line_items')
export class EstimateLineItem extends DocumentLineItemRecord {
  @ReferenceColumn('estimate_id')
  estimateId: number;
}
