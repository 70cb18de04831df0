import { DomainException } from '../../common/domain.exception';
import { minorUnits } from '../../common/money/currency';
import { Decimal } from '../../common/money/decimal';
import { formatMoney, hasAtMostPlaces } from '../../common/money/money';
import { outstandingBalance } from '../../documents/domain/document-totals';
import { LedgerEntryStatus, PaymentStatus } from '../../invoices/domain/payment-status';

/*
 * docs/corrections.md: an invoice's payments are its ledger. Money received (Completed),
 * money returned (Refunded) and what a credit note settles (Credited), amounts always
 * positive. The invoice row keeps the sums the rules need, under its row lock:
 *
 *   amount_paid     = Σ Completed + Σ Credited − Σ Refunded   (0 ≤ amount_paid ≤ total)
 *   amount_credited = Σ Credited                              (≤ amount_paid)
 *   cash held       = amount_paid − amount_credited = Σ Completed − Σ Refunded  (≥ 0)
 *
 * Each move below checks its rule, and answers the entries to append and the sums after them.
 */

/** What an invoice keeps of its ledger. */
export interface Ledger {
  currency: string;
  total: Decimal;
  amountPaid: Decimal;
  amountCredited: Decimal;
  paymentStatus: PaymentStatus;
}

/** The part of a ledger a move changes. */
export type LedgerSums = Pick<Ledger, 'amountPaid' | 'amountCredited' | 'paymentStatus'>;

export interface LedgerEntryDraft {
  status: LedgerEntryStatus;
  amount: Decimal;
}

/** The entries to append, in order, and the invoice's sums after all of them. */
export interface LedgerMove {
  entries: LedgerEntryDraft[];
  after: LedgerSums;
}

/** Money received and not returned: what a refund may give back. */
export function cashHeldOf(ledger: Pick<Ledger, 'amountPaid' | 'amountCredited'>): Decimal {
  return ledger.amountPaid.minus(ledger.amountCredited);
}

/** What credit notes may still credit: the total less the earlier credit notes. */
export function creditableOf(ledger: Pick<Ledger, 'total' | 'amountCredited'>): Decimal {
  return ledger.total.minus(ledger.amountCredited);
}

/** An amount has at most the minor digits of the invoice's currency (422 naming `field`). */
export function checkMinorDigits(amount: Decimal, currency: string, field: string): void {
  const digits = minorUnits(currency);
  if (!hasAtMostPlaces(amount, digits)) {
    throw DomainException.invalidField(
      field,
      `${field} must have at most ${digits} decimals for ${currency}`,
    );
  }
}

/**
 * record-payment: at most the outstanding balance (so a settled invoice takes none); Paid when
 * the balance reaches 0. A Paid set by hand stays while a balance is outstanding.
 */
export function recordPayment(ledger: Ledger, amount: Decimal): LedgerMove {
  const outstanding = outstandingBalance(ledger.total, ledger.amountPaid);
  if (amount.gt(outstanding)) {
    const text = money(outstanding, ledger);
    throw new DomainException(
      'INVOICE_OVERPAID',
      `The payment exceeds the outstanding balance of ${text}`,
      { amount_paid: [`amount_paid must not exceed the outstanding balance ${text}`] },
    );
  }
  const amountPaid = ledger.amountPaid.plus(amount);
  return {
    entries: [{ status: 'Completed', amount }],
    after: {
      amountPaid,
      amountCredited: ledger.amountCredited,
      paymentStatus: settledStatus(ledger, amountPaid),
    },
  };
}

/** A refund: at most the cash held; Not Paid when a balance is outstanding afterwards. */
export function refund(ledger: Ledger, amount: Decimal): LedgerMove {
  const cashHeld = cashHeldOf(ledger);
  if (amount.gt(cashHeld)) {
    const text = money(cashHeld, ledger);
    throw new DomainException(
      'REFUND_EXCEEDS_CASH_HELD',
      `The refund exceeds the cash held on the invoice, ${text}`,
      { amount: [`amount must not exceed the cash held ${text}`] },
    );
  }
  return refunded(ledger, amount);
}

/**
 * A credit note for `creditTotal`: within what the invoice may still be credited (its total
 * less earlier credit notes), and within the outstanding balance unless `withRefund`, which
 * first refunds the part above it (always within the cash held, given the first rule). The
 * Credited entry then settles it: Paid when nothing is outstanding.
 */
export function credit(ledger: Ledger, creditTotal: Decimal, withRefund: boolean): LedgerMove {
  if (creditTotal.lte(0)) {
    throw new DomainException('CREDIT_EXCEEDS_INVOICE', 'A credit note must credit something', {
      items: ['the credit note’s total must be greater than 0'],
    });
  }
  const creditable = creditableOf(ledger);
  if (creditTotal.gt(creditable)) {
    const text = money(creditable, ledger);
    throw new DomainException(
      'CREDIT_EXCEEDS_INVOICE',
      `The credit note's total exceeds what the invoice can still be credited, ${text}`,
      {
        items: [
          `the credit note’s total ${money(creditTotal, ledger)} exceeds the invoice’s total less its earlier credit notes, ${text}`,
        ],
      },
    );
  }
  const outstanding = outstandingBalance(ledger.total, ledger.amountPaid);
  const excess = creditTotal.minus(outstanding);
  const entries: LedgerEntryDraft[] = [];
  let before = ledger;
  if (excess.gt(0)) {
    if (!withRefund) {
      const text = money(outstanding, ledger);
      throw new DomainException(
        'CREDIT_EXCEEDS_BALANCE',
        `The credit note's total exceeds the outstanding balance of ${text}`,
        {
          items: [
            `the credit note’s total ${money(creditTotal, ledger)} exceeds the outstanding balance ${text}; refund: true refunds the difference`,
          ],
        },
      );
    }
    const refundMove = refunded(ledger, excess);
    entries.push(...refundMove.entries);
    before = { ...ledger, ...refundMove.after };
  }
  const amountPaid = before.amountPaid.plus(creditTotal);
  entries.push({ status: 'Credited', amount: creditTotal });
  return {
    entries,
    after: {
      amountPaid,
      amountCredited: before.amountCredited.plus(creditTotal),
      paymentStatus: settledStatus(before, amountPaid),
    },
  };
}

function refunded(ledger: Ledger, amount: Decimal): LedgerMove {
  const amountPaid = ledger.amountPaid.minus(amount);
  const reopened = ledger.total.minus(amountPaid).gt(0);
  return {
    entries: [{ status: 'Refunded', amount }],
    after: {
      amountPaid,
      amountCredited: ledger.amountCredited,
      paymentStatus: reopened ? 'Not Paid' : ledger.paymentStatus,
    },
  };
}

/** Paid once nothing is outstanding; otherwise the status stays as it was. */
function settledStatus(ledger: Ledger, amountPaid: Decimal): PaymentStatus {
  return ledger.total.minus(amountPaid).lte(0) ? 'Paid' : ledger.paymentStatus;
}

function money(value: Decimal, ledger: Ledger): string {
  return formatMoney(value, ledger.currency);
}
