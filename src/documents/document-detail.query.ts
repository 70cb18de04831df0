import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { Client } from '../clients/entities/client.entity';
import { Family, RecordRows, recordRows } from '../database/record-rows';
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

type Order = (a: ObjectLiteral, b: ObjectLiteral) => number;
const byPosition: Order = (a, b) => a.position - b.position;
const byId: Order = (a, b) => a.id - b.id;

type DetailQuery<T> = (manager: EntityManager, id: number) => Promise<T | null>;

/**
 * The read of one kind of document by id: its row and the rows of each child table, in one
 * statement (record-rows.ts `readFamily`), so every part is read at the same moment without a
 * transaction. Null when there is no such (live) document.
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
  // Each child table: the key the detail answers it under, and its order.
  const childTables: Array<{ key: string; target: EntityTarget<ObjectLiteral>; order: Order }> = [
    { key: 'lines', target: tables.lines, order: byPosition },
    { key: 'breakdown', target: tables.breakdown, order: byPosition },
    { key: 'sends', target: tables.sends, order: byId },
    ...(Object.entries(tables.children) as Array<[string, EntityTarget<IdRow>]>).map(
      ([key, target]) => ({ key, target, order: byId }),
    ),
  ];
  // Built once per data source (RecordRows keeps it by this function): one constant text,
  // which MySQL/MariaDB prepare once per connection.
  const family = (rows: RecordRows): Family => ({
    record: {
      target: tables.document,
      alias: 'document',
      where: `document.id = ?${tables.liveOnly ? ' AND document.deleted_at IS NULL' : ''}`,
      extras: withClientLanguage
        ? [
            `(SELECT client.language FROM ${rows.table(Client)} client WHERE client.id = document.client_id)`,
          ]
        : [],
    },
    children: childTables.map(({ target }) => ({ target, parentColumn: tables.parentColumn })),
    forUpdate,
  });

  return async (manager, id) => {
    const read = await recordRows(manager).readFamily(manager, family, id);
    if (!read) return null;
    const detail: Record<string, unknown> = { document: read.record };
    childTables.forEach(({ key, order }, index) => {
      // A family's child rows come in no particular order.
      detail[key] = read.children[index].sort(order);
    });
    if (withClientLanguage) {
      // Every document has a client; a missing row (never) reads as no language.
      const language = read.extras[0];
      detail.clientLanguage = typeof language === 'string' ? language : '';
    }
    return detail as DocumentDetail<D, L, S, C>;
  };
}
