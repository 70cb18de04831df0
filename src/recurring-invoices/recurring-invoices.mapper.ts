import { formatTimestamp } from '../common/clock';
import { formatMoney, jsonMoney, jsonNumber } from '../common/money/money';
import { lineItemRead, lineTaxesOf, lineTaxesOutput } from '../documents/documents.mapper';
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
  return lineItemRead(
    line,
    line.discount,
    schedule.currency,
    lineTaxesOutput(lineTaxesOf(line, schedule)),
  );
}
