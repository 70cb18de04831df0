import { formatMoney, formatRate } from '../common/money/money';
import { Decimal } from '../common/money/decimal';
import { outstandingBalance } from './domain/document-totals';
import { lineTaxesOf } from './documents.mapper';
import {
  DocumentLineItemRecord,
  DocumentRecord,
  DocumentTaxGroupRecord,
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
  /** The currency's minor digits (`21.00`), net of the line's discount. */
  amount: string;
  /** UN/ECE Recommendation 20 code; absent on views queued before units existed (C62). */
  unit?: string;
  /** The line's discount in money ('0.00' without one), and its percent when given as one. */
  discount?: string;
  discountPercent?: string;
  /** The taxes the line carries (its own or the document's default); rates as plain text. */
  taxes?: DocumentViewTax[];
}

/** A tax as printed: its group is (name, category, rate). */
export interface DocumentViewTax {
  name: string;
  /** UNCL 5305 VAT category (S, Z, E, AE, K, G, O, L, M). */
  category: string;
  /** Percent, plain decimal text (`19`, `8.25`). */
  rate: string;
}

/** One entry of the VAT breakdown as printed. */
export interface DocumentViewTaxGroup extends DocumentViewTax {
  taxableAmount: string;
  taxAmount: string;
  /** Why no tax is charged (reverse charge, exemption), '' when none. */
  exemptionReason: string;
  exemptionCode: string;
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
  /** The document discount in money ('0.00' without one), and its percent when given as one. */
  discount?: string;
  discountPercent?: string;
  /** Rates and amounts include tax (gross prices). */
  pricesIncludeTax?: boolean;
  /** The date of supply, or the service period; absent when not given. */
  supplyDate?: string;
  periodStart?: string;
  periodEnd?: string;
  /** Percent, plain decimal text (`8.25`): the default rate. */
  taxRate: string;
  /**
   * The VAT breakdown, one entry per tax group; absent on views queued before it existed
   * (one group at `taxRate` then).
   */
  taxBreakdown?: DocumentViewTaxGroup[];
  taxAmount: string;
  total: string;
  /** Invoices only. */
  amountPaid?: string;
  /** Invoices only: total − amount paid. */
  balanceDue?: string;
  /** Invoices: `paid` (status Paid), `void` (voided); absent otherwise. */
  mark?: 'paid' | 'void' | 'draft';
  /** Void invoices: why, as given when it was voided ('' when none was). */
  voidReason?: string;
  /** Invoices: the buyer's reference (BT-10) and purchase order (BT-13); absent when none. */
  buyerReference?: string;
  orderReference?: string;
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
  /** The document's VAT breakdown, in order. */
  breakdown: DocumentTaxGroupRecord[];
  /** Invoices. */
  amountPaid?: Decimal;
  mark?: DocumentView['mark'];
  ledger?: DocumentLedgerEntry[];
  voidReason?: string;
  buyerReference?: string;
  orderReference?: string;
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
  const { amountPaid, mark, ledger, refunded, breakdown, ...printed } = parts;
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
      unit: line.unit,
      discount: money(line.discountAmount),
      ...(line.discountPercent === null ? {} : { discountPercent: line.discountPercent.toFixed() }),
      taxes: lineTaxesOf(line, record).map((tax) => ({
        name: tax.name,
        category: tax.category,
        rate: tax.rate.toFixed(),
      })),
    })),
    subTotal: money(record.subTotal),
    discount: money(record.discountAmount),
    ...(record.discountPercent === null
      ? {}
      : { discountPercent: record.discountPercent.toFixed() }),
    pricesIncludeTax: record.pricesIncludeTax,
    ...(record.supplyDate === null ? {} : { supplyDate: record.supplyDate }),
    ...(record.periodStart === null || record.periodEnd === null
      ? {}
      : { periodStart: record.periodStart, periodEnd: record.periodEnd }),
    taxRate: record.taxRate.toFixed(),
    taxBreakdown: breakdown.map((group) => ({
      name: group.name,
      category: group.category,
      rate: group.rate.toFixed(),
      taxableAmount: money(group.taxableAmount),
      taxAmount: money(group.taxAmount),
      exemptionReason: group.exemptionReason,
      exemptionCode: group.exemptionCode,
    })),
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
