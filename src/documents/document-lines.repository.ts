import { EntityTarget } from 'typeorm';
import { Database } from '../database/database';
import { PricedLine } from './domain/document-totals';
import { DocumentLineItemRecord } from './entities/document-columns';

/**
 * The lines of an invoice or an estimate, in input order. Every method runs in the caller's
 * transaction when there is one. Writes go through the shared `DocumentLineItemRecord`, as in
 * DocumentRepository.
 */
export abstract class DocumentLinesRepository<L extends DocumentLineItemRecord> {
  private readonly records: EntityTarget<DocumentLineItemRecord>;

  /** `parentKey`: the property of a line that holds its document's id. */
  protected constructor(
    private readonly database: Database,
    private readonly lineItem: new () => L,
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

  /** Writes the lines of a draft in input order, in one multi-row insert. */
  async insert(documentId: number, lines: PricedLine[]): Promise<L[]> {
    const records = lines.map((line, position) =>
      Object.assign(new this.lineItem(), this.ofDocument(documentId), {
        position,
        description: line.description,
        quantity: line.quantity,
        rate: line.rate,
        amount: line.amount,
      }),
    );
    await this.database.manager.insert(this.records, records);
    return records;
  }

  /** Rewrites the document's lines: the old ones go, the draft's are inserted. */
  async replace(documentId: number, lines: PricedLine[]): Promise<L[]> {
    await this.database.manager.delete(this.records, this.ofDocument(documentId));
    return this.insert(documentId, lines);
  }

  private ofDocument(documentId: number): Record<string, number> {
    return { [this.parentKey]: documentId };
  }
}
