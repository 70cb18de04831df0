import { formatTimestamp } from '../common/clock';
import { LosslessNumber } from 'lossless-json';
import { minorUnits } from '../common/money/currency';
import { Decimal } from '../common/money/decimal';
import { formatMoney, jsonMoney, jsonNumber } from '../common/money/money';
import { decimalUnits, unitsFixed, unitsPlain } from '../database/decimal-text';
import { outstandingBalance } from '../documents/domain/document-totals';
import { DeliveryRecord } from '../documents/domain/delivery-state';
import {
  customerFields,
  dateFields,
  pricingFields,
  taxTermsFields,
  timestampFields,
  toTaxBreakdown,
  toDetailParts,
  toLineItemWrite,
} from '../documents/documents.mapper';
import { DocumentLocale } from '../document-vocabulary/document-locale';
import { DocumentView, toDocumentView } from '../documents/document-view';
import { WrittenLines } from '../documents/document-lines.repository';
import { DocumentTaxGroupRecord } from '../documents/entities/document-columns';
import { invoiceStatus, statusOf } from './domain/invoice-status';
import { invoiceMark, printedLedger } from './domain/printed-invoice';
import {
  InvoiceDto,
  InvoiceReadResponseDto,
  InvoiceWithTimestampsDto,
  InvoiceWriteResponseDto,
  PaymentEntryDto,
} from './dto/invoice-response.dto';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceListRow, InvoicePrint } from './invoices.repository';

/*
 * Every invoice output carries its status, which depends on today's date (UTC): the service
 * passes its clock's today to each function.
 */

/** The invoice fields every output carries, in the specification's order. */
function invoiceFields(invoice: Invoice, today: string): InvoiceDto {
  return {
    id: String(invoice.id),
    short_code: invoice.shortCode,
    invoice_no: invoice.invoiceNo,
    description: invoice.description,
    ...customerFields(invoice),
    payment_status: invoice.paymentStatus,
    status: invoiceStatus(invoice, today),
    void_reason: invoice.voidReason,
    recurring_invoice_id: idOrEmpty(invoice.recurringInvoiceId),
    buyer_reference: invoice.buyerReference,
    order_reference: invoice.orderReference,
    ...pricingFields(invoice),
    amount_paid: formatMoney(invoice.amountPaid, invoice.currency),
    outstanding_balance: formatMoney(
      outstandingBalance(invoice.total, invoice.amountPaid),
      invoice.currency,
    ),
    ...dateFields(invoice),
    ...taxTermsFields(invoice),
  };
}

/** Lists, the client read, add and update: with timestamps. */
export function toListItem(invoice: Invoice, today: string): InvoiceWithTimestampsDto {
  return { ...invoiceFields(invoice, today), ...timestampFields(invoice) };
}

/**
 * A list row as `toListItem` answers the invoice, written from the row's text: decimals as
 * ten-thousandths (no Decimal per value), datetimes as text. A value in any other form goes
 * the Decimal way, `toListItem`'s own.
 */
export function toListItemFromRow(row: InvoiceListRow, today: string): InvoiceWithTimestampsDto {
  const money = listMoney(row);
  return {
    id: String(row.id),
    short_code: row.shortCode,
    invoice_no: row.invoiceNo,
    description: row.description,
    customer_id: String(row.clientId),
    customer_name: row.customerName,
    customer_phone: row.customerPhone,
    customer_address: row.customerAddress,
    customer_tax_id: row.customerTaxId,
    customer_country: row.customerCountry,
    payment_status: row.paymentStatus,
    status: statusOf(
      {
        draft: Boolean(row.draft),
        voided: row.voidedAt !== null,
        paymentStatus: row.paymentStatus,
        outstanding: money.outstanding,
        dueDate: row.dueDate,
      },
      today,
    ),
    void_reason: row.voidReason,
    recurring_invoice_id: idOrEmpty(row.recurringInvoiceId),
    buyer_reference: row.buyerReference,
    order_reference: row.orderReference,
    currency: row.currency,
    tax_rate: money.taxRate,
    tax_amount: money.taxAmount,
    sub_total: money.subTotal,
    total: money.total,
    amount_paid: money.amountPaid,
    outstanding_balance: money.outstandingBalance,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    note: row.note,
    discount_percent:
      row.discountPercent === null ? null : jsonNumber(driverDecimal(row.discountPercent)),
    discount_amount: formatMoney(driverDecimal(row.discountAmount), row.currency),
    prices_include_tax: Boolean(row.pricesIncludeTax),
    supply_date: row.supplyDate ?? '',
    period_start: row.periodStart ?? '',
    period_end: row.periodEnd ?? '',
    created_at: timestampText(row.createdAt),
    updated_at: timestampText(row.updatedAt),
  };
}

/** A decimal as the driver hands it over (text, or a number), exactly. */
function driverDecimal(value: unknown): Decimal {
  return new Decimal(String(value));
}

/** A row's money as `invoiceFields` writes it, and whether a balance is outstanding. */
function listMoney(row: InvoiceListRow) {
  const currency = row.currency;
  const [taxRate, taxAmount, subTotal, total, amountPaid] = [
    row.taxRate,
    row.taxAmount,
    row.subTotal,
    row.total,
    row.amountPaid,
  ].map(decimalUnits);
  if (
    taxRate === null ||
    taxAmount === null ||
    subTotal === null ||
    total === null ||
    amountPaid === null
  ) {
    const decimal = (value: unknown) => new Decimal(String(value));
    const outstanding = outstandingBalance(decimal(row.total), decimal(row.amountPaid));
    return {
      taxRate: jsonNumber(decimal(row.taxRate)),
      taxAmount: jsonMoney(decimal(row.taxAmount), currency),
      subTotal: jsonMoney(decimal(row.subTotal), currency),
      total: jsonMoney(decimal(row.total), currency),
      amountPaid: formatMoney(decimal(row.amountPaid), currency),
      outstandingBalance: formatMoney(outstanding, currency),
      outstanding: outstanding.gt(0),
    };
  }
  const places = minorUnits(currency);
  const outstanding = total - amountPaid;
  return {
    taxRate: new LosslessNumber(unitsPlain(taxRate)),
    taxAmount: new LosslessNumber(unitsFixed(taxAmount, places)),
    subTotal: new LosslessNumber(unitsFixed(subTotal, places)),
    total: new LosslessNumber(unitsFixed(total, places)),
    amountPaid: unitsFixed(amountPaid, places),
    outstandingBalance: unitsFixed(outstanding, places),
    outstanding: outstanding > 0n,
  };
}

/** SQLite's datetime text as TypeORM writes it (UTC, milliseconds), read as it reads it. */
const SQLITE_DATETIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{3})?$/;

/** `formatTimestamp` of a datetime as the driver hands it over. */
function timestampText(value: unknown): string {
  if (value instanceof Date) return formatTimestamp(value);
  if (typeof value === 'string' && SQLITE_DATETIME.test(value)) return value.slice(0, 19);
  return formatTimestamp(new Date(String(value)));
}

/**
 * `GET /invoice/{id}`: no timestamps on the invoice; lines with amounts, the ledger, sends
 * with their delivery records by send-log entry id.
 */
export function toDetail(
  invoice: Invoice,
  lines: InvoiceLineItem[],
  breakdown: DocumentTaxGroupRecord[],
  payments: InvoicePayment[],
  sends: InvoiceSendLogEntry[],
  deliveries: Map<number, DeliveryRecord>,
  today: string,
): InvoiceReadResponseDto {
  const { items, tax_breakdown, send_log } = toDetailParts(
    invoice,
    lines,
    breakdown,
    sends,
    deliveries,
  );
  return {
    invoice: [invoiceFields(invoice, today)],
    items,
    tax_breakdown,
    payments: payments.map((payment) => toPaymentEntry(payment, invoice.currency)),
    send_log,
  };
}

/**
 * The invoice's own fields as its read answers them, without lines and logs: the `before` of
 * an event for a change that touches only those fields (a payment, a void, a flag).
 */
export function toRecordPart(invoice: Invoice, today: string): { invoice: InvoiceDto[] } {
  return { invoice: [invoiceFields(invoice, today)] };
}

/** Add and update outputs: lines without amounts. */
export function toWriteResult(
  invoice: Invoice,
  { lines, breakdown }: WrittenLines<InvoiceLineItem>,
  today: string,
): InvoiceWriteResponseDto {
  return {
    invoice: [toListItem(invoice, today)],
    items: lines.map((line) => toLineItemWrite(line, invoice.currency)),
    tax_breakdown: toTaxBreakdown(breakdown, invoice.currency),
  };
}

export function toPaymentEntry(payment: InvoicePayment, currency: string): PaymentEntryDto {
  return {
    status: payment.status,
    reference: payment.reference,
    amount: jsonMoney(payment.amount, currency),
    bank: payment.method,
    payment_date: payment.paymentDate,
    created_at: formatTimestamp(payment.createdAt),
    reason: payment.reason,
    credit_note_id: idOrEmpty(payment.creditNoteId),
  };
}

/**
 * The invoice as its PDF and e-mail show it: `invoice` as read (with its row lock, when
 * sending), the rest from its print read.
 */
export function toInvoiceView(
  invoice: Invoice,
  print: Pick<InvoicePrint, 'lines' | 'breakdown' | 'payments' | 'creditNoteNumbers'>,
  locale: DocumentLocale,
  today: string,
): DocumentView {
  const mark = invoiceMark(invoice, today);
  return toDocumentView('invoice', invoice.invoiceNo, invoice, print.lines, {
    locale,
    breakdown: print.breakdown,
    amountPaid: invoice.amountPaid,
    mark,
    ...(mark === 'void' ? { voidReason: invoice.voidReason } : {}),
    ...(invoice.buyerReference === '' ? {} : { buyerReference: invoice.buyerReference }),
    ...(invoice.orderReference === '' ? {} : { orderReference: invoice.orderReference }),
    ledger: printedLedger(print.payments, print.creditNoteNumbers),
  });
}

/** An optional reference as the API writes it: the id's digits, or '' for none. */
function idOrEmpty(id: number | null): string {
  return id === null ? '' : String(id);
}
