import type { Decimal } from '../../common/money/decimal';
import type { DocumentLedgerEntry, DocumentView } from '../../documents/document-view';
import { invoiceStatus, StatusFacts } from './invoice-status';
import type { LedgerEntryStatus } from './payment-status';

/*
 * docs/documents.md: a paid invoice says so; a void one is marked void; payments, refunds
 * and credits are listed with their dates.
 */

/** What printing needs of a ledger entry (an InvoicePayment). */
export interface PrintableLedgerEntry {
  id: number;
  status: LedgerEntryStatus;
  amount: Decimal;
  paymentDate: string;
  reference: string;
  creditNoteId: number | null;
}

const PRINTED_KINDS: Record<LedgerEntryStatus, DocumentLedgerEntry['kind']> = {
  Completed: 'payment',
  Refunded: 'refund',
  Credited: 'credit',
};

/** `draft`, `void` or `paid` when its status is one of them, else none: as `status` says. */
export function invoiceMark(invoice: StatusFacts, today: string): DocumentView['mark'] {
  const status = invoiceStatus(invoice, today);
  return status === 'draft' || status === 'void' || status === 'paid' ? status : undefined;
}

/**
 * The ledger as the invoice lists it: oldest first by date, entries of one date in the order
 * they were recorded. A credit is named by its credit note's number where one is given, else
 * by its reference. Entries are never voided (a void invoice keeps the ledger it had), so each
 * is listed; one of a status this code does not know would be left out.
 */
export function printedLedger(
  entries: readonly PrintableLedgerEntry[],
  creditNoteNumbers: ReadonlyMap<number, string>,
): DocumentLedgerEntry[] {
  return entries
    .filter((entry) => Object.hasOwn(PRINTED_KINDS, entry.status))
    .sort((a, b) =>
      a.paymentDate === b.paymentDate ? a.id - b.id : a.paymentDate < b.paymentDate ? -1 : 1,
    )
    .map((entry) => {
      const kind = PRINTED_KINDS[entry.status];
      const creditNote =
        kind === 'credit' && entry.creditNoteId !== null
          ? creditNoteNumbers.get(entry.creditNoteId)
          : undefined;
      return {
        kind,
        date: entry.paymentDate,
        amount: entry.amount,
        reference: creditNote ?? entry.reference,
      };
    });
}
