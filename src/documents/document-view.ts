import { formatMoney, formatRate } from '../common/money/money';
import { Decimal } from '../common/money/decimal';
import { outstandingBalance } from './domain/document-totals';
import {
  DocumentLineItemRecord,
  DocumentRecord,
  PricedDocumentRecord,
} from './entities/document-columns';
import type { DocumentKind } from '../document-vocabulary/document-kind';
import type { DocumentLocale } from '../document-vocabulary/document-locale';

/** One entry of an invoice's ledger as printed: what it was, when, and how much. */
export interface DocumentViewLedgerEntry {
  /** A payment received, money returned, or a credit note's credit. */
  kind: 'payment' | 'refund' | 'credit';
  date: string;
  /** Plain decimal text in the currency's minor digits, positive (`20.00`). */
  amount: string;
  /** The payment's reference, or the credit note's number for a credit. */
  reference: string;
}

/** One line as printed: every number already in its printed form. */
export interface DocumentViewLine {
  description: string;
  /** Plain decimal text, as the API outputs it (`2`, `1.5`). */
  quantity: string;
  /** At least the currency's minor digits, at most 4 (`10.50`, `0.125`). */
  rate: string;
  /** The currency's minor digits (`21.00`). */
  amount: string;
}

/**
 * A document as the PDF and the e-mail show it: plain data, every amount already formatted
 * with the currency's minor digits, so rendering does no arithmetic and needs no database.
 * It is JSON-serialisable: the outbox keeps it as the document was when it was sent.
 */
export interface DocumentView {
  kind: DocumentKind;
  number: string;
  description: string;
  issueDate: string;
  /** Invoices and estimates. */
  dueDate?: string;
  /** Credit notes: the number of the invoice it corrects, that invoice's issue date, and why. */
  corrects?: string;
  correctsDate?: string;
  reason?: string;
  /** Credit notes: the part of its total paid back to the customer (on its issue date), if any. */
  refunded?: string;
  currency: string;
  /**
   * The locale the document prints in: the client's `language` when it has a message file,
   * else DOCUMENT_LOCALE. Absent on views queued before it existed: `en`.
   */
  locale?: DocumentLocale;
  /** `taxId` and `country` (ISO 3166-1 alpha-2) are '' when not given, absent on older views. */
  customer: { name: string; phone: string; address: string; taxId?: string; country?: string };
  lines: DocumentViewLine[];
  subTotal: string;
  /** Percent, plain decimal text (`8.25`). */
  taxRate: string;
  taxAmount: string;
  total: string;
  /** Invoices only. */
  amountPaid?: string;
  /** Invoices only: total − amount paid. */
  balanceDue?: string;
  /** Invoices: `paid` (status Paid), `void` (voided); absent otherwise. */
  mark?: 'paid' | 'void';
  /** Void invoices: why, as given when it was voided ('' when none was). */
  voidReason?: string;
  /** Invoices: the ledger's payments, refunds and credits, oldest first (void ones left out). */
  ledger?: DocumentViewLedgerEntry[];
  note: string;
  /** A reminder (REMINDER_DAYS): the days past the due date on the day it was sent (< 0: before it). */
  reminder?: { daysOverdue: number };
}

/** A ledger entry as the invoice's view is made from it: its amount still a Decimal. */
export interface DocumentLedgerEntry extends Omit<DocumentViewLedgerEntry, 'amount'> {
  amount: Decimal;
}

/** What a document prints beyond its row and lines: its locale, and the parts of its kind. */
export interface DocumentViewParts {
  locale: DocumentLocale;
  /** Invoices. */
  amountPaid?: Decimal;
  mark?: DocumentView['mark'];
  ledger?: DocumentLedgerEntry[];
  voidReason?: string;
  /** Credit notes. */
  corrects?: string;
  correctsDate?: string;
  reason?: string;
  refunded?: Decimal;
}

/**
 * A document row and its lines as printed, with its locale and the parts of its kind; a
 * description and a due date where the kind has them (invoices, estimates).
 */
export function toDocumentView(
  kind: DocumentKind,
  number: string,
  record: PricedDocumentRecord & Partial<Pick<DocumentRecord, 'description' | 'dueDate'>>,
  lines: DocumentLineItemRecord[],
  parts: DocumentViewParts,
): DocumentView {
  const money = (value: Decimal) => formatMoney(value, record.currency);
  const { amountPaid, mark, ledger, refunded, ...printed } = parts;
  const view: DocumentView = {
    kind,
    number,
    description: record.description ?? '',
    issueDate: record.issueDate,
    ...(record.dueDate === undefined ? {} : { dueDate: record.dueDate }),
    ...printed,
    currency: record.currency,
    customer: {
      name: record.customerName,
      phone: record.customerPhone,
      address: record.customerAddress,
      taxId: record.customerTaxId,
      country: record.customerCountry,
    },
    lines: lines.map((line) => ({
      description: line.description,
      quantity: line.quantity.toFixed(),
      rate: formatRate(line.rate, record.currency),
      amount: money(line.amount),
    })),
    subTotal: money(record.subTotal),
    taxRate: record.taxRate.toFixed(),
    taxAmount: money(record.taxAmount),
    total: money(record.total),
    note: record.note,
  };
  if (amountPaid !== undefined) {
    view.amountPaid = money(amountPaid);
    view.balanceDue = money(outstandingBalance(record.total, amountPaid));
  }
  if (mark !== undefined) view.mark = mark;
  if (refunded !== undefined) view.refunded = money(refunded);
  if (ledger !== undefined) {
    view.ledger = ledger.map((entry) => ({ ...entry, amount: money(entry.amount) }));
  }
  return view;
}
