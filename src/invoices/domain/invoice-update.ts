import { DomainException } from '../../common/domain.exception';
import { Decimal } from '../../common/money/decimal';
import { formatMoney } from '../../common/money/money';

/** What an invoice holds that its ledger constrains. */
export interface PaidInvoice {
  currency: string;
  amountPaid: Decimal;
  /** Whether any payment, refund or credit is recorded (all of them are in its currency). */
  hasLedgerEntries: boolean;
}

/**
 * docs/decisions.md, payments: once payments are recorded the currency stays (so do refunds and
 * credits, which are amounts in that currency too), and the new total may not fall below the
 * amount already paid. `given` is the update's input: a total below the amount paid is reported
 * against the fields that make the total (items, tax_rate) it gave.
 */
export function checkUpdateAgainstPayments(
  stored: PaidInvoice,
  updated: { currency: string; total: Decimal },
  given: { items?: unknown; tax_rate?: unknown },
): void {
  if (updated.currency !== stored.currency && stored.hasLedgerEntries) {
    throw DomainException.invalidField(
      'currency',
      'currency cannot change once payments are recorded',
    );
  }
  if (updated.total.lt(stored.amountPaid)) {
    const total = formatMoney(updated.total, updated.currency);
    const paid = formatMoney(stored.amountPaid, stored.currency);
    const message = `the new total ${total} is below the amount already paid ${paid}`;
    const named = (['items', 'tax_rate'] as const).filter((field) => given[field] !== undefined);
    throw new DomainException(
      'TOTAL_BELOW_AMOUNT_PAID',
      `The new total ${total} is below the amount already paid ${paid}`,
      Object.fromEntries((named.length > 0 ? named : ['items']).map((field) => [field, [message]])),
    );
  }
}

/** A void invoice takes no change but archiving: its ledger, fields and sends stay as they are. */
export function refuseIfVoid(invoice: { voidedAt: Date | null; invoiceNo: string }): void {
  if (invoice.voidedAt !== null) {
    throw new DomainException('INVOICE_VOID', `Invoice ${invoice.invoiceNo} is void`);
  }
}

/** What tells an invoice numbered by the series (docs/numbering.md). */
interface SeriesNumbered {
  invoiceNo: string;
  numberFromSeries: boolean;
}

/**
 * An invoice numbered by the series keeps its number, so the series keeps no gap and no number
 * twice: an update giving another number answers 409 (the same number, or none, is fine).
 */
export function refuseNumberChange(invoice: SeriesNumbered, given: string | undefined): void {
  if (invoice.numberFromSeries && given !== undefined && given !== invoice.invoiceNo) {
    throw new DomainException(
      'NUMBER_FROM_SERIES',
      `Invoice ${invoice.invoiceNo} took its number from the series: it cannot change`,
      { invoice_no: [`invoice_no must stay ${invoice.invoiceNo}`] },
    );
  }
}

/** An invoice numbered by the series is voided, never deleted, void or not: 409. */
export function refuseArchiveOfSeriesNumber(invoice: SeriesNumbered): void {
  if (invoice.numberFromSeries) {
    throw new DomainException(
      'NUMBER_FROM_SERIES',
      `Invoice ${invoice.invoiceNo} took its number from the series: void it instead of deleting it`,
    );
  }
}
