import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { DocumentLinesRepository } from '../documents/document-lines.repository';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoiceTaxGroup } from './entities/invoice-tax-group.entity';

@Injectable()
export class InvoiceLinesRepository extends DocumentLinesRepository<InvoiceLineItem> {
  constructor(database: Database) {
    super(database, InvoiceLineItem, InvoiceTaxGroup, 'invoiceId');
  }
}
