import { formatTimestamp } from '../common/clock';
import { formatMoney, formatRate, jsonMoney, jsonNumber } from '../common/money/money';
import { lineTaxesOf } from '../documents/documents.mapper';
import { LineItemWithAmountDto } from '../documents/dto/line-item-response.dto';
import { linesFromText, ScheduleLine } from './domain/schedule-lines';
import { MadeInvoiceDto, RecurringInvoiceDto } from './dto/recurring-invoice-response.dto';
import { RecurringInvoice } from './entities/recurring-invoice.entity';

/** A schedule as every operation answers it, with the live invoices it made. */
export function toRecurringInvoice(
  schedule: RecurringInvoice,
  invoices: MadeInvoiceDto[],
): RecurringInvoiceDto {
  const currency = schedule.currency;
  return {
    id: String(schedule.id),
    customer_id: String(schedule.clientId),
    description: schedule.description,
    currency,
    tax_rate: jsonNumber(schedule.taxRate),
    tax_amount: jsonMoney(schedule.taxAmount, currency),
    sub_total: jsonMoney(schedule.subTotal, currency),
    total: jsonMoney(schedule.total, currency),
    discount_percent:
      schedule.discountPercent === null ? null : jsonNumber(schedule.discountPercent),
    discount_amount: formatMoney(schedule.discountAmount, currency),
    prices_include_tax: Boolean(schedule.pricesIncludeTax),
    note: schedule.note,
    items: linesFromText(schedule.items).map((line) => toLine(line, schedule)),
    interval: schedule.interval,
    interval_count: schedule.intervalCount,
    start_date: schedule.startDate,
    end_date: schedule.endDate ?? '',
    count: schedule.count,
    due_days: schedule.dueDays,
    auto_send: Boolean(schedule.autoSend),
    email: schedule.email,
    draft: Boolean(schedule.draft),
    status: schedule.status,
    next_date: schedule.nextDate ?? '',
    invoices_made: schedule.invoicesMade,
    invoices,
    created_at: formatTimestamp(schedule.createdAt),
    updated_at: formatTimestamp(schedule.updatedAt),
  };
}

function toLine(line: ScheduleLine, schedule: RecurringInvoice): LineItemWithAmountDto {
  const currency = schedule.currency;
  return {
    description: line.description,
    quantity: jsonNumber(line.quantity),
    rate: formatRate(line.rate, currency),
    amount: formatMoney(line.amount, currency),
    unit: line.unit,
    discount_percent: line.discountPercent === null ? null : jsonNumber(line.discountPercent),
    discount_amount: formatMoney(line.discount, currency),
    taxes: lineTaxesOf(line, schedule).map((tax) => ({
      name: tax.name,
      category: tax.category,
      rate: jsonNumber(tax.rate),
    })),
  };
}
