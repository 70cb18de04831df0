import { formatTimestamp } from '../common/clock';
import { formatMoney, formatRate, jsonMoney, jsonNumber } from '../common/money/money';
import { DeliveryRecord, deliveryState } from './domain/delivery-state';
import {
  DocumentCustomerFieldsDto,
  DocumentDateFieldsDto,
  DocumentPricingFieldsDto,
  TimestampFieldsDto,
} from './dto/document-fields-response.dto';
import { DocumentDetailPartsDto } from './dto/document-detail-response.dto';
import { LineItemOutputDto, LineItemWithAmountDto } from './dto/line-item-response.dto';
import { SendLogEntryDto } from './dto/send-log-entry-response.dto';
import {
  DocumentLineItemRecord,
  DocumentRecord,
  DocumentSendLogRecord,
  PricedDocumentRecord,
} from './entities/document-columns';

/*
 * Output pieces that every kind of document shares. Each resource's mapper composes them in
 * the specification's key order.
 */

export function customerFields(record: PricedDocumentRecord): DocumentCustomerFieldsDto {
  return {
    customer_id: String(record.clientId),
    customer_name: record.customerName,
    customer_phone: record.customerPhone,
    customer_address: record.customerAddress,
    customer_tax_id: record.customerTaxId,
    customer_country: record.customerCountry,
  };
}

export function pricingFields(record: PricedDocumentRecord): DocumentPricingFieldsDto {
  return {
    currency: record.currency,
    tax_rate: jsonNumber(record.taxRate),
    tax_amount: jsonMoney(record.taxAmount, record.currency),
    sub_total: jsonMoney(record.subTotal, record.currency),
    total: jsonMoney(record.total, record.currency),
  };
}

export function dateFields(record: DocumentRecord): DocumentDateFieldsDto {
  return { issue_date: record.issueDate, due_date: record.dueDate, note: record.note };
}

export function timestampFields(record: DocumentRecord): TimestampFieldsDto {
  return {
    created_at: formatTimestamp(record.createdAt),
    updated_at: formatTimestamp(record.updatedAt),
  };
}

/** A line as add and update answer it: no amount. */
export function toLineItemWrite(line: DocumentLineItemRecord, currency: string): LineItemOutputDto {
  return {
    description: line.description,
    quantity: jsonNumber(line.quantity),
    rate: formatRate(line.rate, currency),
  };
}

/** A line as a read answers it, with its amount. */
export function toLineItemRead(
  line: DocumentLineItemRecord,
  currency: string,
): LineItemWithAmountDto {
  return { ...toLineItemWrite(line, currency), amount: formatMoney(line.amount, currency) };
}

/** A send and its delivery record (none for a send recorded before the outbox existed). */
export function toSendLogEntry(
  entry: DocumentSendLogRecord,
  delivery: DeliveryRecord | undefined,
): SendLogEntryDto {
  return {
    email: entry.email,
    date: formatTimestamp(entry.sentAt),
    delivery: deliveryState(delivery),
    attempts: delivery?.attempts ?? 0,
    kind: entry.kind,
  };
}

/** What a read answers beside the document: its lines with amounts, and its sends. */
export function toDetailParts(
  currency: string,
  lines: DocumentLineItemRecord[],
  sends: DocumentSendLogRecord[],
  deliveries: Map<number, DeliveryRecord>,
): DocumentDetailPartsDto {
  return {
    items: lines.map((line) => toLineItemRead(line, currency)),
    send_log: sends.map((entry) => toSendLogEntry(entry, deliveries.get(entry.id))),
  };
}
