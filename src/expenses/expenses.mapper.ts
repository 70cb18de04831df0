import { formatTimestamp } from '../common/clock';
import { minorUnits } from '../common/money/currency';
import { Decimal } from '../common/money/decimal';
import { formatMoney } from '../common/money/money';
import { ExpenseDto, ExpenseSourceDto } from './dto/expense-response.dto';
import { ReceivedEinvoice } from './einvoice/received-einvoice';
import { Expense } from './entities/expense.entity';
import { ExpenseSource, SourceDetails } from './entities/expense-source.entity';

/**
 * The one shape of an expense, in lists, reads and write outputs alike; `source` is null for
 * an expense added by hand.
 */
export function toOutput(expense: Expense, source: ExpenseSource | null): ExpenseDto {
  return {
    id: String(expense.id),
    short_code: expense.shortCode,
    category: expense.category,
    description: expense.description,
    amount: formatMoney(expense.amount, expense.currency),
    currency: expense.currency,
    vendor: expense.vendor,
    issued_date: expense.issuedDate,
    created_at: formatTimestamp(expense.createdAt),
    updated_at: formatTimestamp(expense.updatedAt),
    source: source === null ? null : toSourceOutput(source),
  };
}

function toSourceOutput(source: ExpenseSource): ExpenseSourceDto {
  return {
    format: source.format,
    seller_vat_id: source.sellerVatId,
    invoice_number: source.invoiceNumber,
    type_code: source.typeCode,
    tax_breakdown: source.details.tax_breakdown,
    lines: source.details.lines,
  };
}

/**
 * What a source keeps of a received invoice's breakdown and lines, as the answer writes them:
 * amounts exact, with at least the currency's minor digits; rates and quantities as stated.
 */
export function sourceDetails(invoice: ReceivedEinvoice): SourceDetails {
  const places = minorUnits(invoice.currency);
  const money = (value: Decimal) => value.toFixed(Math.max(places, value.decimalPlaces()));
  const plain = (value: Decimal | null) => (value === null ? '' : value.toFixed());
  return {
    tax_breakdown: invoice.breakdown.map((group) => ({
      category: group.category,
      rate: plain(group.rate),
      taxable_amount: money(group.taxableAmount),
      tax_amount: money(group.taxAmount),
    })),
    lines: invoice.lines.map((line) => ({
      id: line.id,
      name: line.name,
      quantity: plain(line.quantity),
      unit: line.unit,
      net_price: line.netPrice === null ? '' : money(line.netPrice),
      net_amount: money(line.netAmount),
      vat_category: line.category,
      vat_rate: plain(line.rate),
    })),
  };
}
