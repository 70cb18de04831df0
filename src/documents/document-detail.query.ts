import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { JsonRows, jsonRows } from '../database/json-rows';
import { DocumentLineItemRecord, DocumentSendLogRecord } from './entities/document-columns';

/** Child rows read in id order: send-log entries, an invoice's ledger. */
type IdRow = ObjectLiteral & { id: number };

/** The tables of one kind of document. */
export interface DocumentDetailTables<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow>,
> {
  document: EntityTarget<D>;
  lines: EntityTarget<L>;
  sends: EntityTarget<S>;
  /** Column of each child table that names its document (`invoice_id`). */
  parentColumn: string;
  /** Further child tables, by the key the detail answers them under (an invoice's `payments`). */
  children: { [K in keyof C]: EntityTarget<C[K]> };
  /** Archived documents read as absent (invoices, estimates; credit notes are never archived). */
  liveOnly: boolean;
}

/** A document with its lines (input order), its send log and further children (id order). */
export type DocumentDetail<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow>,
> = { document: D; lines: L[]; sends: S[] } & { [K in keyof C]: C[K][] };

/**
 * The read of one kind of document by id: its columns, and each child table as JSON, in one
 * statement, so every part is read at the same moment without a transaction. Null when there is
 * no such (live) document.
 */
export function documentDetailQuery<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow> = Record<never, IdRow>,
>(
  tables: DocumentDetailTables<D, L, S, C>,
): (manager: EntityManager, id: number) => Promise<DocumentDetail<D, L, S, C> | null> {
  const children = Object.entries(tables.children) as Array<
    [keyof C & string, EntityTarget<IdRow>]
  >;
  const ofDocument = (alias: string) => `${alias}.${tables.parentColumn} = document.id`;
  // Built once per kind (JsonRows keeps the statement by this function).
  const statement = (rows: JsonRows) => `SELECT ${rows.columns(tables.document, 'document')},
      ${rows.children(tables.lines, 'line', ofDocument('line'))} AS line_items,
      ${rows.children(tables.sends, 'entry', ofDocument('entry'))} AS send_log${children
        .map(
          ([key, target]) =>
            `,\n      ${rows.children(target, `child_${key}`, ofDocument(`child_${key}`))} AS child_${key}`,
        )
        .join('')}
    FROM ${rows.table(tables.document)} document
    WHERE document.id = ?${tables.liveOnly ? ' AND document.deleted_at IS NULL' : ''}`;

  return async (manager, id) => {
    const rows = jsonRows(manager);
    const [row] = await manager.query<Record<string, unknown>[]>(rows.statement(statement), [id]);
    if (!row) return null;
    // JSON aggregates keep no order on MySQL 8: sort here.
    const byId = (a: IdRow, b: IdRow) => a.id - b.id;
    const detail = {
      document: rows.entity(tables.document, row),
      lines: rows
        .childEntities(tables.lines, row.line_items)
        .sort((a, b) => a.position - b.position),
      sends: rows.childEntities(tables.sends, row.send_log).sort(byId),
    } as DocumentDetail<D, L, S, C>;
    for (const [key, target] of children) {
      (detail as Record<string, unknown>)[key] = rows
        .childEntities(target, row[`child_${key}`])
        .sort(byId);
    }
    return detail;
  };
}
