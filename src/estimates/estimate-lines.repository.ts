import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { DocumentLinesRepository } from '../documents/document-lines.repository';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateTaxGroup } from './entities/estimate-tax-group.entity';

@Injectable()
export class EstimateLinesRepository extends DocumentLinesRepository<EstimateLineItem> {
  constructor(database: Database) {
    super(database, EstimateLineItem, EstimateTaxGroup, 'estimateId');
  }
}
