import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { Client } from '../clients/entities/client.entity';
import { JsonRows, jsonRows } from '../database/json-rows';
import {
  DocumentLineItemRecord,
  DocumentSendLogRecord,
  DocumentTaxGroupRecord,
} from './entities/document-columns';

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
  /** Its VAT breakdown, one row per tax group. */
  breakdown: EntityTarget<DocumentTaxGroupRecord>;
  sends: EntityTarget<S>;
  /** Column of each child table that names its document (`invoice_id`). */
  parentColumn: string;
  /** Further child tables, by the key the detail answers them under (an invoice's `payments`). */
  children: { [K in keyof C]: EntityTarget<C[K]> };
  /** Archived documents read as absent (invoices, estimates; credit notes are never archived). */
  liveOnly: boolean;
}

/**
 * A document with its lines (input order), its VAT breakdown (in order), its send log and
 * further children (id order).
 */
export type DocumentDetail<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow>,
> = { document: D; lines: L[]; breakdown: DocumentTaxGroupRecord[]; sends: S[] } & {
  [K in keyof C]: C[K][];
};

/** A detail as printing reads it: also its client's `language` as it is now ('' for none). */
export type PrintDetail<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow>,
> = DocumentDetail<D, L, S, C> & { clientLanguage: string };

type DetailQuery<T> = (manager: EntityManager, id: number) => Promise<T | null>;

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
>(tables: DocumentDetailTables<D, L, S, C>): DetailQuery<DocumentDetail<D, L, S, C>> {
  return detailQuery(tables, { withClientLanguage: false, forUpdate: false });
}

/**
 * The same read, holding the document's row lock until the transaction ends (MySQL/MariaDB): a
 * change that answers or records the whole document (a payment and its event) locks and reads
 * it in one statement. Only inside a transaction.
 */
export function documentLockedDetailQuery<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow> = Record<never, IdRow>,
>(tables: DocumentDetailTables<D, L, S, C>): DetailQuery<DocumentDetail<D, L, S, C>> {
  return detailQuery(tables, { withClientLanguage: false, forUpdate: true });
}

/**
 * The same read for printing: the statement also reads the language of the document's client
 * (archived or not) by its primary key, so a PDF or an e-mail costs no read more than a detail.
 */
export function documentPrintQuery<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow> = Record<never, IdRow>,
>(tables: DocumentDetailTables<D, L, S, C>): DetailQuery<PrintDetail<D, L, S, C>> {
  return detailQuery(tables, { withClientLanguage: true, forUpdate: false }) as DetailQuery<
    PrintDetail<D, L, S, C>
  >;
}

function detailQuery<
  D extends ObjectLiteral,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
  C extends Record<string, IdRow>,
>(
  tables: DocumentDetailTables<D, L, S, C>,
  { withClientLanguage, forUpdate }: { withClientLanguage: boolean; forUpdate: boolean },
): DetailQuery<DocumentDetail<D, L, S, C>> {
  const children = Object.entries(tables.children) as Array<
    [keyof C & string, EntityTarget<IdRow>]
  >;
  const ofDocument = (alias: string) => `${alias}.${tables.parentColumn} = document.id`;
  const clientLanguage = (rows: JsonRows) =>
    withClientLanguage
      ? `,\n      (SELECT client.language FROM ${rows.table(Client)} client WHERE client.id = document.client_id) AS client_language`
      : '';
  // Built once per query (JsonRows keeps the statement by this function): one constant text,
  // which MySQL/MariaDB prepare once per connection.
  const statement = (rows: JsonRows) => `SELECT ${rows.columns(tables.document, 'document')},
      ${rows.children(tables.lines, 'line', ofDocument('line'))} AS line_items,
      ${rows.children(tables.breakdown, 'tax_group', ofDocument('tax_group'))} AS tax_breakdown,
      ${rows.children(tables.sends, 'entry', ofDocument('entry'))} AS send_log${children
        .map(
          ([key, target]) =>
            `,\n      ${rows.children(target, `child_${key}`, ofDocument(`child_${key}`))} AS child_${key}`,
        )
        .join('')}${clientLanguage(rows)}
    FROM ${rows.table(tables.document)} document
    WHERE document.id = ?${tables.liveOnly ? ' AND document.deleted_at IS NULL' : ''}${
      forUpdate ? rows.forUpdate() : ''
    }`;

  return async (manager, id) => {
    const rows = jsonRows(manager);
    const [row] = await rows.read(manager, statement, [id]);
    if (!row) return null;
    // JSON aggregates keep no order on MySQL 8: sort here.
    const byId = (a: IdRow, b: IdRow) => a.id - b.id;
    const detail = {
      document: rows.entity(tables.document, row),
      lines: rows
        .childEntities(tables.lines, row.line_items)
        .sort((a, b) => a.position - b.position),
      breakdown: rows
        .childEntities(tables.breakdown, row.tax_breakdown)
        .sort((a, b) => a.position - b.position),
      sends: rows.childEntities(tables.sends, row.send_log).sort(byId),
    } as DocumentDetail<D, L, S, C>;
    for (const [key, target] of children) {
      (detail as Record<string, unknown>)[key] = rows
        .childEntities(target, row[`child_${key}`])
        .sort(byId);
    }
    if (withClientLanguage) {
      // Every document has a client; a missing row (never) reads as no language.
      const language = row.client_language;
      (detail as Record<string, unknown>).clientLanguage =
        typeof language === 'string' ? language : '';
    }
    return detail;
  };
}
