import { EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainErrorCode, DomainException } from '../common/domain.exception';
import { parseId } from '../common/input-rules';
import { Page } from '../common/list-query.dto';
import { LIVE } from '../database/columns';
import { Database, isUniqueViolation } from '../database/database';
import { findList } from '../database/find-list';
import { DocumentDelivery } from '../delivery/document-delivery';
import { PricedLine } from './domain/document-totals';
import { SendDocumentDto } from './dto/send-document.dto';
import {
  DocumentLineItemRecord,
  DocumentRecord,
  DocumentSendLogRecord,
} from './entities/document-columns';

type Constructor<T> = new () => T;

/** What tells an invoice from an estimate as far as storage goes. */
export interface DocumentKind<
  D extends DocumentRecord,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
> {
  /** 'invoice' or 'estimate': messages, delivery. */
  name: 'invoice' | 'estimate';
  document: Constructor<D>;
  lineItem: Constructor<L>;
  sendLogEntry: Constructor<S>;
  /** Property of lines and send-log entries that holds the document id. */
  parentKey: keyof L & keyof S & string;
  /** Property holding the caller's document number, and its input parameter name. */
  numberKey: keyof D & string;
  numberParam: string;
  /** How the database names a clash on the live-number unique index (MySQL, SQLite). */
  numberIndex: string[];
  duplicateNumberCode: Extract<DomainErrorCode, `DUPLICATE_${string}`>;
}

/**
 * Storage that invoices and estimates share: live lookups, lines in input order, the send
 * log, archive, and the live-number uniqueness guard. One instance per kind of document.
 */
export class DocumentStore<
  D extends DocumentRecord,
  L extends DocumentLineItemRecord,
  S extends DocumentSendLogRecord,
> {
  constructor(
    private readonly kind: DocumentKind<D, L, S>,
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly delivery: DocumentDelivery,
  ) {}

  /** A live document, or 404; `forUpdate` takes its row lock for the rest of the transaction. */
  async findLive(manager: EntityManager, id: number, forUpdate = false): Promise<D> {
    const document = await manager.findOne(this.kind.document, {
      where: { id, ...LIVE } as FindOptionsWhere<D>,
      lock: forUpdate ? this.database.lockForUpdate : undefined,
    });
    if (!document) throw DomainException.notFound(capitalised(this.kind.name), String(id));
    return document;
  }

  /** The live document an `id` parameter names (digits, any length), or 404. */
  findLiveByParameter(manager: EntityManager, idText: string, forUpdate = false): Promise<D> {
    const id = parseId(idText);
    if (id === null) throw DomainException.notFound(capitalised(this.kind.name), idText);
    return this.findLive(manager, id, forUpdate);
  }

  /** Live documents in id order, filtered, all or one page (see findList). */
  listLive(manager: EntityManager, filter: FindOptionsWhere<D> = {}, page: Page | null = null) {
    return findList(manager, this.kind.document, { ...filter, ...LIVE }, page);
  }

  lines(manager: EntityManager, documentId: number): Promise<L[]> {
    return manager.find(this.kind.lineItem, {
      where: this.childrenOf(documentId) as FindOptionsWhere<L>,
      order: { position: 'ASC' } as never,
    });
  }

  sendLog(manager: EntityManager, documentId: number): Promise<S[]> {
    return manager.find(this.kind.sendLogEntry, {
      where: this.childrenOf(documentId) as FindOptionsWhere<S>,
      order: { id: 'ASC' } as never,
    });
  }

  /** Writes the lines of a draft in input order (one multi-row insert). */
  async insertLines(manager: EntityManager, documentId: number, lines: PricedLine[]): Promise<L[]> {
    const records = lines.map((line, position) =>
      manager.create(this.kind.lineItem, {
        ...this.childrenOf(documentId),
        position,
        description: line.description,
        quantity: line.quantity,
        rate: line.rate,
        amount: line.amount,
      } as never),
    );
    await manager.insert(this.kind.lineItem, records as never);
    return records;
  }

  /** Lines are rewritten even when `items` was left out: a new currency re-rounds them. */
  async replaceLines(
    manager: EntityManager,
    documentId: number,
    lines: PricedLine[],
  ): Promise<L[]> {
    await manager.delete(this.kind.lineItem, this.childrenOf(documentId));
    return this.insertLines(manager, documentId, lines);
  }

  /** Inserts a new document row (its id is set on it) under the live-number guard. */
  insert(manager: EntityManager, document: D): Promise<void> {
    return this.guardNumber(manager, document, () =>
      manager.insert(this.kind.document, document as never),
    );
  }

  /** Writes every column of a loaded document but its id and creation time. */
  update(manager: EntityManager, document: D): Promise<void> {
    const { id, createdAt: _createdAt, ...columns } = document;
    return this.guardNumber(manager, document, () =>
      manager.update(this.kind.document, id, columns as never),
    );
  }

  /**
   * A clash on the live-number unique index (a concurrent request took the number) answers
   * 409; a friendly check first answers the common case without a failed write.
   */
  private async guardNumber(
    manager: EntityManager,
    document: D,
    write: () => Promise<unknown>,
  ): Promise<void> {
    const number = document[this.kind.numberKey] as string;
    const clash = await manager.findOne(this.kind.document, {
      select: { id: true } as never,
      where: { [this.kind.numberKey]: number, ...LIVE } as FindOptionsWhere<D>,
    });
    if (clash && clash.id !== document.id) throw this.duplicateNumber(number);
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error, ...this.kind.numberIndex)) throw this.duplicateNumber(number);
      throw error;
    }
  }

  /** Appends to the send log and hands the send to delivery; the document is unchanged. */
  async send(input: SendDocumentDto): Promise<{ document: D; entry: S }> {
    const sent = await this.database.transaction(async (manager) => {
      const document = await this.findLiveByParameter(manager, input.id);
      const entry = manager.create(this.kind.sendLogEntry, {
        ...this.childrenOf(document.id),
        email: input.email,
        phone: input.phone ?? '',
        sentAt: this.clock.now(),
      } as never);
      await manager.insert(this.kind.sendLogEntry, entry as never);
      return { document, entry };
    });
    this.delivery.queue({
      kind: this.kind.name,
      documentId: sent.document.id,
      sendLogEntryId: sent.entry.id,
      email: sent.entry.email,
    });
    return sent;
  }

  /** DELETE: the row stays, marked archived; its lines, payments and sends stay too. */
  archive(id: number): Promise<D> {
    return this.database.transaction(async (manager) => {
      const document = await this.findLive(manager, id, true);
      await manager.update(this.kind.document, id, { deletedAt: this.clock.now() } as never);
      return document;
    });
  }

  private childrenOf(documentId: number): Record<string, number> {
    return { [this.kind.parentKey]: documentId };
  }

  private duplicateNumber(number: string): DomainException {
    const label = capitalised(this.kind.name);
    return new DomainException(
      this.kind.duplicateNumberCode,
      `${label} number ${number} is already in use`,
      {
        [this.kind.numberParam]: [
          `${this.kind.numberParam} is already used by another ${this.kind.name}`,
        ],
      },
    );
  }
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
