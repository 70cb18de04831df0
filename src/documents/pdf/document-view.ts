import { formatMoney, formatRate } from '../../common/money/money';
import { Decimal } from '../../common/money/decimal';
import { outstandingBalance } from '../domain/document-totals';
import { DocumentLineItemRecord, DocumentRecord } from '../entities/document-columns';

export type DocumentKind = 'invoice' | 'estimate';

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
  dueDate: string;
  currency: string;
  customer: { name: string; phone: string; address: string };
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
  note: string;
}

/** The issuer block, from the COMPANY_* settings. */
export interface Issuer {
  name: string;
  address: string;
  email: string;
  taxId: string;
}

/** An invoice or estimate row and its lines as printed; `amountPaid` only for invoices. */
export function toDocumentView(
  kind: DocumentKind,
  number: string,
  record: DocumentRecord,
  lines: DocumentLineItemRecord[],
  amountPaid?: Decimal,
): DocumentView {
  const money = (value: Decimal) => formatMoney(value, record.currency);
  const view: DocumentView = {
    kind,
    number,
    description: record.description,
    issueDate: record.issueDate,
    dueDate: record.dueDate,
    currency: record.currency,
    customer: {
      name: record.customerName,
      phone: record.customerPhone,
      address: record.customerAddress,
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
  return view;
}
