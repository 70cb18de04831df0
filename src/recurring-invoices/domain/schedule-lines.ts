import { Decimal } from '../../common/money/decimal';
import type { LineInput, LineTax, PricedLine } from '../../documents/domain/document-totals';
import type { VatCategory } from '../../documents/domain/vat-categories';

/** A schedule's line as kept: what each invoice copies, and the amounts it came to. */
export interface ScheduleLine extends LineInput {
  /** BT-136 in money (0 without a discount). */
  discount: Decimal;
  amount: Decimal;
}

interface StoredTax {
  name: string;
  category: string;
  rate: string;
  exemptionReason: string;
  exemptionCode: string;
}

interface StoredLine {
  description: string;
  quantity: string;
  rate: string;
  unit: string;
  discountPercent: string | null;
  discountAmount: string | null;
  discount: string;
  amount: string;
  taxes: StoredTax[] | null;
}

/** The drafted lines as JSON text, every decimal as its exact text. */
export function linesToText(lines: PricedLine[]): string {
  const stored: StoredLine[] = lines.map((line) => ({
    description: line.description,
    quantity: line.quantity.toFixed(),
    rate: line.rate.toFixed(),
    unit: line.unit,
    discountPercent: line.discountPercent?.toFixed() ?? null,
    discountAmount: line.discountAmount?.toFixed() ?? null,
    discount: line.discount.toFixed(),
    amount: line.amount.toFixed(),
    taxes: line.taxes?.map((tax) => ({ ...tax, rate: tax.rate.toFixed() })) ?? null,
  }));
  return JSON.stringify(stored);
}

/** The lines linesToText wrote. */
export function linesFromText(text: string): ScheduleLine[] {
  const stored = JSON.parse(text) as StoredLine[];
  return stored.map((line) => ({
    description: line.description,
    quantity: new Decimal(line.quantity),
    rate: new Decimal(line.rate),
    unit: line.unit,
    discountPercent: line.discountPercent === null ? null : new Decimal(line.discountPercent),
    discountAmount: line.discountAmount === null ? null : new Decimal(line.discountAmount),
    discount: new Decimal(line.discount),
    amount: new Decimal(line.amount),
    taxes:
      line.taxes?.map((tax): LineTax => ({
        ...tax,
        category: tax.category as VatCategory,
        rate: new Decimal(tax.rate),
      })) ?? null,
  }));
}
