import { EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainErrorCode, DomainException } from '../common/domain.exception';
import { parseId } from '../common/input-rules';
import { ListQueryDto } from '../common/list-query.dto';
import { Decimal } from '../common/money/decimal';
import { LIVE } from '../database/columns';
import { Database, isUniqueViolation } from '../database/database';
import { findList } from '../database/find-list';
import { DocumentDelivery, joinDeliveryState } from '../delivery/document-delivery';
import { PricedLine } from './domain/document-totals';
import { SendDocumentDto } from './dto/send-document.dto';
import {
  DocumentLineItemRecord,
  DocumentRecord,
  DocumentSendLogRecord,
} from './entities/document-columns';
import { toDocumentView } from './pdf/document-view';

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
  /** Invoices: what the document printed for a send shows as paid. */
  amountPaid?: (document: D) => Decimal;
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
  listLive(manager: EntityManager, filter: FindOptionsWhere<D> = {}, query: ListQueryDto = {}) {
    return findList(manager, this.kind.document, { ...filter, ...LIVE }, query);
  }

  lines(manager: EntityManager, documentId: number): Promise<L[]> {
    return manager.find(this.kind.lineItem, {
      where: this.childrenOf(documentId) as FindOptionsWhere<L>,
      order: { position: 'ASC' } as never,
    });
  }

  /** Oldest first, each with its delivery state: one query, however many entries. */
  sendLog(manager: EntityManager, documentId: number): Promise<S[]> {
    const query = manager.createQueryBuilder(this.kind.sendLogEntry, 'entry');
    return joinDeliveryState(query, 'entry', this.kind.name)
      .where(`entry.${this.kind.parentKey} = :documentId`, { documentId })
      .orderBy('entry.id', 'ASC')
      .getMany();
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

  /**
   * Appends to the send log and queues the e-mail in the same transaction: the outbox row holds
   * the document as it is now, and the worker delivers it after the answer. A refused send
   * (unknown or archived id) writes neither.
   */
  send(input: SendDocumentDto): Promise<{ document: D; entry: S }> {
    return this.database.transaction(async (manager) => {
      const document = await this.findLiveByParameter(manager, input.id);
      const lines = await this.lines(manager, document.id);
      const entry = manager.create(this.kind.sendLogEntry, {
        ...this.childrenOf(document.id),
        email: input.email,
        phone: input.phone ?? '',
        sentAt: this.clock.now(),
      } as never);
      await manager.insert(this.kind.sendLogEntry, entry as never);
      const number = document[this.kind.numberKey] as string;
      await this.delivery.enqueue(manager, {
        kind: this.kind.name,
        documentId: document.id,
        sendLogEntryId: entry.id,
        recipient: entry.email,
        view: toDocumentView(
          this.kind.name,
          number,
          document,
          lines,
          this.kind.amountPaid?.(document),
        ),
      });
      return { document, entry };
    });
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
