import { formatTimestamp } from '../common/clock';
import { formatMoney, jsonMoney } from '../common/money/money';
import { outstandingBalance } from '../documents/domain/document-totals';
import { DeliveryRecord } from '../delivery/entities/outbox-message.entity';
import {
  customerFields,
  dateFields,
  pricingFields,
  timestampFields,
  toLineItemRead,
  toLineItemWrite,
  toSendLogEntry,
} from '../documents/documents.mapper';
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

/** The invoice fields every output carries, in the specification's order. */
function invoiceFields(invoice: Invoice): InvoiceDto {
  return {
    id: String(invoice.id),
    short_code: invoice.shortCode,
    invoice_no: invoice.invoiceNo,
    description: invoice.description,
    ...customerFields(invoice),
    payment_status: invoice.paymentStatus,
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
export function toListItem(invoice: Invoice): InvoiceWithTimestampsDto {
  return { ...invoiceFields(invoice), ...timestampFields(invoice) };
}

/**
 * `GET /invoice/{id}`: no timestamps on the invoice; lines with amounts, payments, sends with
 * their delivery records by send-log entry id.
 */
export function toDetail(
  invoice: Invoice,
  lines: InvoiceLineItem[],
  payments: InvoicePayment[],
  sends: InvoiceSendLogEntry[],
  deliveries: Map<number, DeliveryRecord>,
): InvoiceReadResponseDto {
  return {
    invoice: [invoiceFields(invoice)],
    items: lines.map((line) => toLineItemRead(line, invoice.currency)),
    payments: payments.map((payment) => toPaymentEntry(payment, invoice.currency)),
    send_log: sends.map((entry) => toSendLogEntry(entry, deliveries.get(entry.id))),
  };
}

/** Add and update outputs: lines without amounts. */
export function toWriteResult(invoice: Invoice, lines: InvoiceLineItem[]): InvoiceWriteResponseDto {
  return {
    invoice: [toListItem(invoice)],
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
  };
}
