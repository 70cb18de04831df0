import { PricedLine } from './domain/document-totals';
import { DocumentLineItemRecord } from './entities/document-columns';

/** Line records for a document, in input order; the caller sets the parent key. */
export function toLineRecords<T extends DocumentLineItemRecord>(create: () => T, lines: PricedLine[]): T[] {
  return lines.map((line, position) =>
    Object.assign(create(), {
      position,
      description: line.description,
      quantity: line.quantity,
      rate: line.rate,
      amount: line.amount,
    }),
  );
}
