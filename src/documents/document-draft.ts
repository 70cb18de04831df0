import { EntityManager } from 'typeorm';
import { Client } from '../clients/entities/client.entity';
import { DomainException } from '../common/domain.exception';
import { parseId } from '../common/input-rules';
import { LIVE } from '../database/columns';
import { Decimal, ZERO } from '../common/money/decimal';
import { DocumentTotals, LineInput, moneyOverLimit, priceDocument } from './domain/document-totals';
import { DocumentInputDto } from './dto/document-input.dto';
import { DocumentRecord } from './entities/document-columns';

/** Everything an add or update of an invoice or estimate writes, worked out and checked. */
export interface DocumentDraft extends DocumentTotals {
  clientId: number;
  customerName: string;
  customerPhone: string;
  customerAddress: string;
  description: string;
  currency: string;
  taxRate: Decimal;
  issueDate: string;
  dueDate: string;
  note: string;
}

/** The shared parameters; `items` may be absent on update, which keeps the stored lines. */
export type DocumentFields = Omit<DocumentInputDto, 'items'> & { items?: LineInput[] };

export interface DraftDefaults {
  currency: string;
  today: string;
  /** Held on the client row until commit, so it cannot be archived under a new document. */
  clientLock?: { mode: 'pessimistic_read' };
}

/** What an update starts from: the stored document and its lines. */
export interface ExistingDocument {
  record: DocumentRecord;
  lines: LineInput[];
}

/**
 * Applies CONTRACT.md's shared rules: the client must be live (422; an update may keep an
 * archived one), customer fields are
 * copied from it, omitted optional fields keep their stored value (or take their default),
 * due date not before issue date, totals priced exactly and below 10^13.
 */
export async function draftDocument(
  manager: EntityManager,
  input: DocumentFields,
  existing: ExistingDocument | null,
  defaults: DraftDefaults,
): Promise<DocumentDraft> {
  // A document may stay with its client after the client is archived; moving a document to
  // a client, or creating one, needs a live client.
  const clientId = parseId(input.client);
  const keepsItsClient = existing?.record.clientId === clientId;
  const client =
    clientId === null
      ? null
      : await manager.findOne(Client, {
          where: keepsItsClient ? { id: clientId } : { id: clientId, ...LIVE },
          lock: defaults.clientLock,
        });
  if (!client) {
    throw new DomainException('UNKNOWN_CLIENT', `Client ${input.client} does not exist`, {
      client: [`client ${input.client} does not exist or is archived`],
    });
  }
  const stored = existing?.record;
  const issueDate = input.issue_date ?? stored?.issueDate ?? defaults.today;
  const dueDate =
    input.due_date ?? (input.issue_date === undefined ? stored?.dueDate : undefined) ?? issueDate;
  if (dueDate < issueDate) {
    throw DomainException.invalidField('due_date', 'due_date must not be before issue_date');
  }
  const currency = input.currency ?? stored?.currency ?? defaults.currency;
  const taxRate = input.tax_rate ?? stored?.taxRate ?? ZERO;
  const lines: LineInput[] = input.items ?? existing?.lines ?? [];
  const totals = priceDocument(lines, taxRate, currency);
  const overLimit = moneyOverLimit(totals);
  if (overLimit.length > 0) {
    throw new DomainException(
      'VALIDATION_FAILED',
      'The given data was invalid',
      Object.fromEntries(
        overLimit.map((field) => [field, [`${field} must be below 10000000000000`]]),
      ),
    );
  }
  return {
    ...totals,
    clientId: client.id,
    customerName: client.names,
    customerPhone: client.phone,
    customerAddress: client.address,
    description: input.description ?? stored?.description ?? '',
    currency,
    taxRate,
    issueDate,
    dueDate,
    note: input.note ?? stored?.note ?? '',
  };
}

/** Copies a draft's document-level fields onto the entity. */
export function applyDraft(record: DocumentRecord, draft: DocumentDraft): void {
  record.clientId = draft.clientId;
  record.customerName = draft.customerName;
  record.customerPhone = draft.customerPhone;
  record.customerAddress = draft.customerAddress;
  record.description = draft.description;
  record.currency = draft.currency;
  record.taxRate = draft.taxRate;
  record.subTotal = draft.subTotal;
  record.taxAmount = draft.taxAmount;
  record.total = draft.total;
  record.issueDate = draft.issueDate;
  record.dueDate = draft.dueDate;
  record.note = draft.note;
}
