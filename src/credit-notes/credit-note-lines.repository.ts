import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { DocumentLinesRepository } from '../documents/document-lines.repository';
import { CreditNoteLineItem } from './entities/credit-note-line-item.entity';
import { CreditNoteTaxGroup } from './entities/credit-note-tax-group.entity';

@Injectable()
export class CreditNoteLinesRepository extends DocumentLinesRepository<CreditNoteLineItem> {
  constructor(database: Database) {
    super(database, CreditNoteLineItem, CreditNoteTaxGroup, 'creditNoteId');
  }
}
