import { formatTimestamp } from '../common/clock';
import { formatMoney, jsonMoney } from '../common/money/money';
import { outstandingBalance } from '../documents/domain/document-totals';
import { DeliveryRecord } from '../delivery/entities/outbox-message.entity';
import {
  customerFields,
  dateFields,
  pricingFields,
  timestampFields,
  toDetailParts,
  toLineItemWrite,
} from '../documents/documents.mapper';
import { DocumentLocale, DocumentView, toDocumentView } from '../documents/pdf/document-view';
import { invoiceStatus } from './domain/invoice-status';
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
import { InvoicePrint } from './invoices.repository';

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
    ...pricingFields(invoice),
    amount_paid: formatMoney(invoice.amountPaid, invoice.currency),
    outstanding_balance: formatMoney(
      outstandingBalance(invoice.total, invoice.amountPaid),
      invoice.currency,
    ),
    ...dateFields(invoice),
  };
}

/** Lists, the client read, add and update: with timestamps. */
export function toListItem(invoice: Invoice, today: string): InvoiceWithTimestampsDto {
  return { ...invoiceFields(invoice, today), ...timestampFields(invoice) };
}

/**
 * `GET /invoice/{id}`: no timestamps on the invoice; lines with amounts, the ledger, sends
 * with their delivery records by send-log entry id.
 */
export function toDetail(
  invoice: Invoice,
  lines: InvoiceLineItem[],
  payments: InvoicePayment[],
  sends: InvoiceSendLogEntry[],
  deliveries: Map<number, DeliveryRecord>,
  today: string,
): InvoiceReadResponseDto {
  const { items, send_log } = toDetailParts(invoice.currency, lines, sends, deliveries);
  return {
    invoice: [invoiceFields(invoice, today)],
    items,
    payments: payments.map((payment) => toPaymentEntry(payment, invoice.currency)),
    send_log,
  };
}

/**
 * The invoice's own fields as its read answers them, without lines and logs: the `before` of
 * an event for a change that touches only those fields (a payment, a void, a flag).
 */
export function toRecordPart(
  invoice: Invoice,
  today: string,
): Pick<InvoiceReadResponseDto, 'invoice'> {
  return { invoice: [invoiceFields(invoice, today)] };
}

/** Add and update outputs: lines without amounts. */
export function toWriteResult(
  invoice: Invoice,
  lines: InvoiceLineItem[],
  today: string,
): InvoiceWriteResponseDto {
  return {
    invoice: [toListItem(invoice, today)],
    items: lines.map((line) => toLineItemWrite(line, invoice.currency)),
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
    credit_note_id: payment.creditNoteId === null ? '' : String(payment.creditNoteId),
  };
}

/**
 * The invoice as its PDF and e-mail show it: `invoice` as read (with its row lock, when
 * sending), the rest from its print read.
 */
export function toInvoiceView(
  invoice: Invoice,
  print: Pick<InvoicePrint, 'lines' | 'payments' | 'creditNoteNumbers'>,
  locale: DocumentLocale,
  today: string,
): DocumentView {
  return toDocumentView('invoice', invoice.invoiceNo, invoice, print.lines, {
    locale,
    amountPaid: invoice.amountPaid,
    mark: invoiceMark(invoice, today),
    ledger: printedLedger(print.payments, print.creditNoteNumbers),
  });
}
