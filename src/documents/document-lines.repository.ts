import { EntityTarget } from 'typeorm';
import { Database } from '../database/database';
import { insertRows } from '../database/row-insert';
import { DocumentTotals } from './domain/document-totals';
import { DocumentLineItemRecord, DocumentTaxGroupRecord } from './entities/document-columns';

/** What a document's lines and its VAT breakdown are written as. */
export interface WrittenLines<L extends DocumentLineItemRecord> {
  lines: L[];
  breakdown: DocumentTaxGroupRecord[];
}

/**
 * The lines of a document in input order, and its VAT breakdown: what its totals are made of,
 * written together. Every method runs in the caller's transaction when there is one. Writes go
 * through the shared record types, as in DocumentRepository.
 */
export abstract class DocumentLinesRepository<L extends DocumentLineItemRecord> {
  private readonly records: EntityTarget<DocumentLineItemRecord>;

  /** `parentKey`: the property of a line (and of a breakdown entry) that holds its document's id. */
  protected constructor(
    private readonly database: Database,
    private readonly lineItem: new () => L,
    private readonly taxGroup: new () => DocumentTaxGroupRecord,
    private readonly parentKey: keyof L & string,
  ) {
    this.records = lineItem;
  }

  /** The document's lines in position (input) order. */
  read(documentId: number): Promise<L[]> {
    return this.database.manager
      .createQueryBuilder(this.lineItem, 'line')
      .where(this.ofDocument(documentId))
      .orderBy('line.position', 'ASC')
      .getMany();
  }

  /**
   * Writes the lines of a draft in input order and its breakdown, a multi-row insert each
   * (database/row-insert.ts: their ids are not read back).
   */
  async insert(documentId: number, totals: DocumentTotals): Promise<WrittenLines<L>> {
    const lines = totals.lines.map((line, position) =>
      Object.assign(new this.lineItem(), this.ofDocument(documentId), {
        position,
        description: line.description,
        quantity: line.quantity,
        rate: line.rate,
        amount: line.amount,
        unit: line.unit,
        discountPercent: line.discountPercent,
        discountAmount: line.discount,
        taxes: line.taxes,
      }),
    );
    const breakdown = totals.breakdown.map((group, position) =>
      Object.assign(new this.taxGroup(), this.ofDocument(documentId), { position, ...group }),
    );
    await insertRows(this.database.manager, this.records, lines);
    await insertRows(this.database.manager, this.taxGroup, breakdown);
    return { lines, breakdown };
  }

  /** Rewrites the document's lines and breakdown: the old ones go, the draft's are inserted. */
  async replace(documentId: number, totals: DocumentTotals): Promise<WrittenLines<L>> {
    await this.database.manager.delete(this.records, this.ofDocument(documentId));
    await this.database.manager.delete(this.taxGroup, this.ofDocument(documentId));
    return this.insert(documentId, totals);
  }

  private ofDocument(documentId: number): Record<string, number> {
    return { [this.parentKey]: documentId };
  }
}
