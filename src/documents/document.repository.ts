import { EntityTarget, FindOptionsWhere } from 'typeorm';
import { DomainErrorCode, DomainException } from '../common/domain.exception';
import { ListQueryDto } from '../common/list-query.dto';
import { LIVE } from '../database/columns';
import { Database, isUniqueViolation } from '../database/database';
import { findAll, findList, ListResult } from '../database/find-list';
import { DocumentKind } from './pdf/document-view';
import { DocumentRecord, DocumentSendLogRecord } from './entities/document-columns';

/** What tells an invoice's tables from an estimate's. */
export interface DocumentTables<D extends DocumentRecord, S extends DocumentSendLogRecord> {
  /** 'invoice' or 'estimate': messages. */
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
}

/** The fields of a send-log entry besides its document. */
export type SendLogFields = Pick<DocumentSendLogRecord, 'email' | 'phone' | 'sentAt'>;

/**
 * What invoices and estimates store alike: the document row, under the live-number guard, and
 * its send log. Every method runs in the caller's transaction when there is one; the service
 * decides transactions and locks.
 *
 * Writes go through the shared record types (`DocumentRecord`, `DocumentSendLogRecord`), which
 * TypeORM can check generically; the kind's own columns are on the same row object and are
 * written with it, since TypeORM maps the row by the concrete entity.
 */
export abstract class DocumentRepository<
  D extends DocumentRecord,
  S extends DocumentSendLogRecord,
> {
  private readonly documents: EntityTarget<DocumentRecord>;
  private readonly sendLogEntries: EntityTarget<DocumentSendLogRecord>;

  protected constructor(
    protected readonly database: Database,
    private readonly tables: DocumentTables<D, S>,
  ) {
    this.documents = tables.document;
    this.sendLogEntries = tables.sendLogEntry;
  }

  /** A live document, or null; `forUpdate` holds its row until the transaction ends. */
  findLive(id: number, options: { forUpdate?: boolean } = {}): Promise<D | null> {
    const query = this.database.manager
      .createQueryBuilder(this.tables.document, 'document')
      .where({ id, ...LIVE });
    const lock = options.forUpdate ? this.database.lockForUpdate : undefined;
    if (lock) query.setLock(lock.mode);
    return query.getOne();
  }

  /** Live documents matching the filter, in id order, as the list query asks. */
  list(filter: FindOptionsWhere<D>, query: ListQueryDto): Promise<ListResult<D>> {
    // A client's documents have an index of their own, (client_id, deleted_at): walk that.
    const byPrimaryKey = filter.clientId === undefined;
    return findList(this.database, this.tables.document, { ...filter, ...LIVE }, query, {
      byPrimaryKey,
    });
  }

  /** Every live document matching the filter, in id order, in one statement. */
  listAll(filter: FindOptionsWhere<D>): Promise<D[]> {
    return findAll(this.database, this.tables.document, { ...filter, ...LIVE });
  }

  create(fields: Omit<D, 'id'>): D {
    return Object.assign(new this.tables.document(), fields);
  }

  /** Inserts a new document row (its id is set on it) under the live-number guard. */
  insert(document: D): Promise<void> {
    return this.guardNumber(document, () => this.database.manager.insert(this.documents, document));
  }

  /** Writes every column of a loaded document but its id and creation time. */
  update(document: D): Promise<void> {
    const { id, createdAt: _createdAt, ...columns } = document;
    return this.guardNumber(document, () =>
      this.database.manager.update(this.documents, id, columns),
    );
  }

  /** DELETE: the row stays, marked archived; its lines, payments and sends stay too. */
  async archive(id: number, at: Date): Promise<void> {
    await this.database.manager.update(this.documents, id, { deletedAt: at });
  }

  /** Appends to the document's send log; the entry's id is set on it. */
  async insertSendLogEntry(documentId: number, fields: SendLogFields): Promise<S> {
    const entry = Object.assign(new this.tables.sendLogEntry(), fields, {
      [this.tables.sendLogParentKey]: documentId,
    });
    await this.database.manager.insert(this.sendLogEntries, entry);
    return entry;
  }

  /**
   * A clash on the live-number unique index (a concurrent request took the number) answers
   * 409; a friendly check first answers the common case without a failed write.
   */
  private async guardNumber(document: D, write: () => Promise<unknown>): Promise<void> {
    const number = String(document[this.tables.numberKey]);
    const clash = await this.database.manager
      .createQueryBuilder(this.tables.document, 'document')
      .select('document.id')
      .where({ [this.tables.numberKey]: number, ...LIVE })
      .getOne();
    if (clash && clash.id !== document.id) throw this.duplicateNumber(number);
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error, ...this.tables.numberIndex)) throw this.duplicateNumber(number);
      throw error;
    }
  }

  private duplicateNumber(number: string): DomainException {
    const { kind, numberParam } = this.tables;
    const label = kind.charAt(0).toUpperCase() + kind.slice(1);
    return new DomainException(
      this.tables.duplicateNumberCode,
      `${label} number ${number} is already in use`,
      { [numberParam]: [`${numberParam} is already used by another ${kind}`] },
    );
  }
}
