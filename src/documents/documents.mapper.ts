import { formatTimestamp } from '../common/clock';
import { Decimal } from '../common/money/decimal';
import { formatMoney, formatRate, jsonMoney, jsonNumber } from '../common/money/money';
import { DeliveryRecord, deliveryState } from './domain/delivery-state';
import type { DocumentInputDto } from './dto/document-input.dto';
import { defaultTax } from './domain/document-draft';
import { LineInput, lineInputOf, LineTax } from './domain/document-totals';
import {
  DocumentCustomerFieldsDto,
  DocumentDateFieldsDto,
  DocumentPricingFieldsDto,
  DocumentTaxTermsDto,
  TaxGroupDto,
  TimestampFieldsDto,
} from './dto/document-fields-response.dto';
import { DocumentDetailPartsDto } from './dto/document-detail-response.dto';
import {
  LineItemOutputDto,
  LineItemWithAmountDto,
  LineTaxOutputDto,
} from './dto/line-item-response.dto';
import { SendLogEntryDto } from './dto/send-log-entry-response.dto';
import {
  DocumentLineItemRecord,
  DocumentRecord,
  DocumentSendLogRecord,
  DocumentTaxGroupRecord,
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

/** Lines as a read answers them, with their amounts, units, discounts and taxes. */
export function toLineItemsRead(
  lines: DocumentLineItemRecord[],
  document: PricedDocumentRecord,
): LineItemWithAmountDto[] {
  const currency = document.currency;
  // Each line without taxes of its own shares its document's default tax, and lines whose
  // stored taxes were the same text share one parsed list (LineTaxesColumn): each list is
  // written out once. The answers are only read after (by the serialiser).
  let defaultTaxes: LineTaxOutputDto[] | undefined;
  const taxesOutput = new Map<LineTax[], LineTaxOutputDto[]>();
  return lines.map((line) => {
    let taxes: LineTaxOutputDto[] | undefined;
    if (line.taxes === null) {
      defaultTaxes ??= lineTaxesOutput(lineTaxesOf(line, document));
      taxes = defaultTaxes;
    } else {
      taxes = taxesOutput.get(line.taxes);
      if (!taxes) {
        taxes = lineTaxesOutput(line.taxes);
        taxesOutput.set(line.taxes, taxes);
      }
    }
    return lineItemRead(line, line.discountAmount, currency, taxes);
  });
}

/** What a line as read is made of, whichever record holds it (a document's, a schedule's). */
interface ReadLineFields {
  description: string;
  quantity: Decimal;
  rate: Decimal;
  amount: Decimal;
  unit: string;
  discountPercent: Decimal | null;
}

/** A line as a read answers it: `discount` in money, its taxes as answered. */
export function lineItemRead(
  line: ReadLineFields,
  discount: Decimal,
  currency: string,
  taxes: LineTaxOutputDto[],
): LineItemWithAmountDto {
  // Written out, not spread from toLineItemWrite: V8 builds a spread object with more keys
  // after it slowly (about 5 µs a line, measured).
  return {
    description: line.description,
    quantity: jsonNumber(line.quantity),
    rate: formatRate(line.rate, currency),
    amount: formatMoney(line.amount, currency),
    unit: line.unit,
    discount_percent: line.discountPercent === null ? null : jsonNumber(line.discountPercent),
    discount_amount: discount.isZero() ? zeroMoney(currency) : formatMoney(discount, currency),
    taxes,
  };
}

/** Taxes as a line answers them. */
export function lineTaxesOutput(taxes: LineTax[]): LineTaxOutputDto[] {
  return taxes.map((tax) => ({
    name: tax.name,
    category: tax.category,
    rate: jsonNumber(tax.rate),
  }));
}

/** Zero in a currency's minor digits ("0.00", "0" for JPY), by currency. */
const zeroes = new Map<string, string>();

function zeroMoney(currency: string): string {
  let zero = zeroes.get(currency);
  if (zero === undefined) {
    zero = formatMoney(new Decimal(0), currency);
    zeroes.set(currency, zero);
  }
  return zero;
}

/** The taxes a stored line carries: its own, or its document's default tax. */
export function lineTaxesOf(
  line: Pick<DocumentLineItemRecord, 'taxes'>,
  document: Pick<PricedDocumentRecord, 'taxRate' | 'taxName'>,
): LineTax[] {
  return line.taxes ?? [defaultTax(document.taxRate, document.taxName)];
}

/** A stored line as a draft reads it when an update leaves `items` out. */
export function toLineInput(line: DocumentLineItemRecord): LineInput {
  const input = lineInputOf(line);
  // An amount is kept only when it was given as one (a percent's is worked out again).
  input.discountAmount =
    line.discountPercent === null && !line.discountAmount.isZero() ? line.discountAmount : null;
  return input;
}

/**
 * What a document copied from another takes of its terms beyond the specification (discount,
 * prices including tax, date of supply or period), as input.
 */
export function copiedTerms(
  document: PricedDocumentRecord,
): Pick<
  DocumentInputDto,
  | 'discount_percent'
  | 'discount_amount'
  | 'prices_include_tax'
  | 'supply_date'
  | 'period_start'
  | 'period_end'
> {
  return {
    ...discountTerms(document),
    supply_date: document.supplyDate,
    period_start: document.periodStart,
    period_end: document.periodEnd,
  };
}

/**
 * The document discount and whether prices include tax, as input: a percent as given, an amount
 * only when it was given as one (a percent's amount is worked out again).
 */
export function discountTerms(
  document: Pick<PricedDocumentRecord, 'discountPercent' | 'discountAmount' | 'pricesIncludeTax'>,
): Pick<DocumentInputDto, 'discount_percent' | 'discount_amount' | 'prices_include_tax'> {
  const fixedDiscount = document.discountPercent === null && !document.discountAmount.isZero();
  return {
    discount_percent: document.discountPercent,
    discount_amount: fixedDiscount ? document.discountAmount : null,
    prices_include_tax: document.pricesIncludeTax ? 'True' : 'False',
  };
}

/**
 * The document discount, prices including tax, the date of supply or period: what every output
 * of a document carries beyond the specification.
 */
export function taxTermsFields(document: PricedDocumentRecord): DocumentTaxTermsDto {
  const currency = document.currency;
  return {
    discount_percent:
      document.discountPercent === null ? null : jsonNumber(document.discountPercent),
    discount_amount: formatMoney(document.discountAmount, currency),
    prices_include_tax: document.pricesIncludeTax,
    supply_date: document.supplyDate ?? '',
    period_start: document.periodStart ?? '',
    period_end: document.periodEnd ?? '',
  };
}

/** The VAT breakdown, as read, add and update answer it beside the lines. */
export function toTaxBreakdown(
  breakdown: DocumentTaxGroupRecord[],
  currency: string,
): TaxGroupDto[] {
  return breakdown.map((group) => ({
    name: group.name,
    category: group.category,
    rate: jsonNumber(group.rate),
    taxable_amount: formatMoney(group.taxableAmount, currency),
    tax_amount: formatMoney(group.taxAmount, currency),
    exemption_reason: group.exemptionReason,
    exemption_code: group.exemptionCode,
  }));
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

/** What a read answers beside the document: its lines with amounts, breakdown and sends. */
export function toDetailParts(
  document: PricedDocumentRecord,
  lines: DocumentLineItemRecord[],
  breakdown: DocumentTaxGroupRecord[],
  sends: DocumentSendLogRecord[],
  deliveries: Map<number, DeliveryRecord>,
): DocumentDetailPartsDto {
  return {
    items: toLineItemsRead(lines, document),
    tax_breakdown: toTaxBreakdown(breakdown, document.currency),
    send_log: sends.map((entry) => toSendLogEntry(entry, deliveries.get(entry.id))),
  };
}
