import type { DocumentClient } from '../../clients/clients.service';
import { DomainException } from '../../common/domain.exception';
import { Decimal, ZERO } from '../../common/money/decimal';
import type { DocumentInputDto } from '../dto/document-input.dto';
import type { DocumentRecord } from '../entities/document-columns';
import { DocumentTotals, LineInput, moneyOverLimit, priceDocument } from './document-totals';

/** Everything an add or update of an invoice or estimate writes, worked out and checked. */
export interface DocumentDraft extends DocumentTotals {
  clientId: number;
  customerName: string;
  customerPhone: string;
  customerAddress: string;
  customerTaxId: string;
  customerCountry: string;
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
}

/** What an update starts from: the stored document and its lines. */
export interface ExistingDocument {
  record: DocumentRecord;
  lines: LineInput[];
}

/**
 * Applies the shared rules (docs/rules.md): the client must exist (`client`, null when the input
 * names none that may be used: 422), customer fields are copied from it, omitted optional
 * fields keep their stored value (or take their default), due date not before issue date,
 * totals priced exactly and below 10^13.
 */
export function draftDocument(
  input: DocumentFields,
  existing: ExistingDocument | null,
  client: DocumentClient | null,
  defaults: DraftDefaults,
): DocumentDraft {
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
  const totals = pricedWithinLimit(lines, taxRate, currency);
  return {
    ...totals,
    clientId: client.id,
    customerName: client.names,
    customerPhone: client.phone,
    customerAddress: client.address,
    customerTaxId: client.taxId,
    customerCountry: client.country,
    description: input.description ?? stored?.description ?? '',
    currency,
    taxRate,
    issueDate,
    dueDate,
    note: input.note ?? stored?.note ?? '',
  };
}

/** The lines priced exactly (docs/rules.md), every money value below 10^13 (422 otherwise). */
export function pricedWithinLimit(
  lines: LineInput[],
  taxRate: Decimal,
  currency: string,
): DocumentTotals {
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
  return totals;
}

/** The columns of a document row that a draft decides. */
export type DraftColumns = Pick<
  DocumentRecord,
  | 'clientId'
  | 'customerName'
  | 'customerPhone'
  | 'customerAddress'
  | 'customerTaxId'
  | 'customerCountry'
  | 'description'
  | 'currency'
  | 'taxRate'
  | 'subTotal'
  | 'taxAmount'
  | 'total'
  | 'issueDate'
  | 'dueDate'
  | 'note'
>;

export function draftColumns(draft: DocumentDraft): DraftColumns {
  return {
    clientId: draft.clientId,
    customerName: draft.customerName,
    customerPhone: draft.customerPhone,
    customerAddress: draft.customerAddress,
    customerTaxId: draft.customerTaxId,
    customerCountry: draft.customerCountry,
    description: draft.description,
    currency: draft.currency,
    taxRate: draft.taxRate,
    subTotal: draft.subTotal,
    taxAmount: draft.taxAmount,
    total: draft.total,
    issueDate: draft.issueDate,
    dueDate: draft.dueDate,
    note: draft.note,
  };
}
