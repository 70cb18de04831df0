import { EntityTarget, FindOptionsWhere } from 'typeorm';
import { DomainErrorCode, DomainException } from '../common/domain.exception';
import { ListQueryDto } from '../common/list-query.dto';
import { LIVE } from '../database/columns';
import { Database, isUniqueViolation } from '../database/database';
import { findAll, findList, ListResult } from '../database/find-list';
import { insertRow } from '../database/row-insert';
import { DOCUMENT_NAMES, DocumentKind } from '../document-vocabulary/document-kind';
import {
  DocumentRecord,
  DocumentSendLogRecord,
  PricedDocumentRecord,
  SendKind,
} from './entities/document-columns';

/** What tells one kind of document's tables from another's. */
export interface DocumentTables<D extends PricedDocumentRecord, S extends DocumentSendLogRecord> {
  /** 'invoice', 'estimate', 'credit_note': messages. */
  kind: DocumentKind;
  document: new () => D;
  sendLogEntry: new () => S;
  /** Property of a send-log entry that holds its document's id. */
  sendLogParentKey: keyof S & string;
  /** Property holding the caller's document number, and its input parameter name. */
  numberKey: keyof D & string;
  numberParam: string;
  /** How the database names a clash on the live-number unique index (MySQL, SQLite). */
  numberIndex: string[];
  duplicateNumberCode: Extract<DomainErrorCode, `DUPLICATE_${string}`>;
  /** Archived documents count as absent, and their numbers as free (not credit notes). */
  archivable: boolean;
  /**
   * Filters with an index of their own that keeps a keyset walk short (a client's documents):
   * a list with one of them is not told to walk the primary key (see findList).
   */
  indexedFilters: Array<keyof D & string>;
}

/** The fields of a send-log entry besides its document. */
export type SendLogFields = Pick<DocumentSendLogRecord, 'email' | 'phone' | 'sentAt'>;

/**
 * What every kind of document stores alike: the document row, under the number guard, and its
 * send log. Every method runs in the caller's transaction when there is one; the service
 * decides transactions and locks.
 *
 * Writes go through the shared record types (`PricedDocumentRecord`, `DocumentSendLogRecord`), which
 * TypeORM can check generically; the kind's own columns are on the same row object and are
 * written with it, since TypeORM maps the row by the concrete entity.
 */
export abstract class DocumentRepository<
  D extends PricedDocumentRecord,
  S extends DocumentSendLogRecord,
> {
  private readonly documents: EntityTarget<PricedDocumentRecord>;
  private readonly sendLogEntries: EntityTarget<DocumentSendLogRecord>;
  /** The condition of a document that counts: not archived, where documents can be. */
  private readonly live: FindOptionsWhere<D>;

  protected constructor(
    protected readonly database: Database,
    private readonly tables: DocumentTables<D, S>,
  ) {
    this.documents = tables.document;
    this.sendLogEntries = tables.sendLogEntry;
    this.live = (tables.archivable ? LIVE : {}) as FindOptionsWhere<D>;
  }

  /** A live document, or null; `forUpdate` holds its row until the transaction ends. */
  findLive(id: number, options: { forUpdate?: boolean } = {}): Promise<D | null> {
    const query = this.database.manager
      .createQueryBuilder(this.tables.document, 'document')
      .where({ id, ...this.live });
    const lock = options.forUpdate ? this.database.lockForUpdate : undefined;
    if (lock) query.setLock(lock.mode);
    return query.getOne();
  }

  /** Live documents matching the filter, in id order, as the list query asks. */
  list(filter: FindOptionsWhere<D>, query: ListQueryDto): Promise<ListResult<D>> {
    const byPrimaryKey = this.tables.indexedFilters.every((key) => filter[key] === undefined);
    return findList(this.database, this.tables.document, { ...filter, ...this.live }, query, {
      byPrimaryKey,
    });
  }

  /** Every live document matching the filter, in id order, in one statement. */
  listAll(filter: FindOptionsWhere<D>): Promise<D[]> {
    return findAll(this.database, this.tables.document, { ...filter, ...this.live });
  }

  create(fields: Omit<D, 'id'>): D {
    return Object.assign(new this.tables.document(), fields);
  }

  /** Inserts a new document row (its id is set on it) under the live-number guard. */
  insert(document: D): Promise<void> {
    return this.guardNumber(document, () =>
      insertRow(this.database.manager, this.documents, document),
    );
  }

  /** Appends to the document's send log; the entry's id is set on it. */
  async insertSendLogEntry(
    documentId: number,
    fields: SendLogFields,
    kind: SendKind = 'document',
  ): Promise<S> {
    const entry = Object.assign(
      new this.tables.sendLogEntry(),
      fields,
      { kind },
      {
        [this.tables.sendLogParentKey]: documentId,
      },
    );
    await this.database.manager.insert(this.sendLogEntries, entry);
    return entry;
  }

  /** Whether a document of the kind that counts carries `number` (numberTaken's question). */
  async numberInUse(number: string): Promise<boolean> {
    return (await this.numberHolder(number)) !== null;
  }

  /**
   * The id of the document of the kind that counts which carries `number`, or null: one plain
   * statement (TypeORM's query builder took longer to write it than the database to answer).
   */
  private async numberHolder(number: string): Promise<number | null> {
    this.numberHolderSql ??= this.numberHolderStatement();
    const rows: Array<{ id: number | string }> = await this.database.manager.query(
      this.numberHolderSql,
      [number],
    );
    return rows.length === 0 ? null : Number(rows[0].id);
  }

  /** numberHolderStatement(), written on first use (the dialect's quoting). */
  private numberHolderSql: string | undefined;

  /**
   * The documents whose number counts, as the live-number unique index has them: live, and not a
   * draft (a draft's '' is no number); every credit note. SQL from the entity's metadata.
   */
  private numberHolderStatement(): string {
    const metadata = this.database.manager.connection.getMetadata(this.tables.document);
    const driver = this.database.manager.connection.driver;
    const column = (property: string) => {
      const found = metadata.findColumnWithPropertyName(property);
      if (!found) throw new Error(`${metadata.tableName} has no column for ${property}`);
      return `document.${driver.escape(found.databaseName)}`;
    };
    const conditions = [`${column(this.tables.numberKey)} = ?`];
    if (this.tables.archivable) {
      conditions.push(`${column('deletedAt')} IS NULL`, `${column('draft')} = 0`);
    }
    return `SELECT ${column('id')} AS id FROM ${driver.escape(metadata.tableName)} document WHERE ${conditions.join(' AND ')} LIMIT 1`;
  }

  /**
   * The numbering rule (numberTaken, domain/document-number.ts), held twice for speed and
   * safety: a clash on the live-number unique index (a concurrent request took the number)
   * answers 409; a friendly check first answers the common case without a failed write.
   */
  protected async guardNumber(document: D, write: () => Promise<unknown>): Promise<void> {
    const number = String(document[this.tables.numberKey]);
    // A draft's '' is no number (docs/numbering.md): the unique index leaves drafts out too.
    if (number === '') {
      await write();
      return;
    }
    const holder = await this.numberHolder(number);
    if (holder !== null && holder !== document.id) throw this.duplicateNumber(number);
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error, ...this.tables.numberIndex)) throw this.duplicateNumber(number);
      throw error;
    }
  }

  private duplicateNumber(number: string): DomainException {
    const { kind, numberParam } = this.tables;
    const name = DOCUMENT_NAMES[kind];
    const label = name.charAt(0).toUpperCase() + name.slice(1);
    return new DomainException(
      this.tables.duplicateNumberCode,
      `${label} number ${number} is already in use`,
      { [numberParam]: [`${numberParam} is already used by another ${name}`] },
    );
  }
}

/**
 * Invoices and estimates: documents that change (every column rewritten) and are archived.
 */
export abstract class ArchivableDocumentRepository<
  D extends DocumentRecord,
  S extends DocumentSendLogRecord,
> extends DocumentRepository<D, S> {
  private readonly records: EntityTarget<DocumentRecord>;

  protected constructor(database: Database, tables: Omit<DocumentTables<D, S>, 'archivable'>) {
    super(database, { ...tables, archivable: true });
    this.records = tables.document;
  }

  /** Writes every column of a loaded document but its id and creation time. */
  update(document: D): Promise<void> {
    const { id, createdAt: _createdAt, ...columns } = document;
    return this.guardNumber(document, () =>
      this.database.manager.update(this.records, id, columns),
    );
  }

  /** DELETE: the row stays, marked archived; its lines, payments and sends stay too. */
  async archive(id: number, at: Date): Promise<void> {
    await this.database.manager.update(this.records, id, { deletedAt: at });
  }
}
