import { DomainException } from '../../common/domain.exception';
import { minorUnits } from '../../common/money/currency';
import { Decimal } from '../../common/money/decimal';
import { hasAtMostPlaces } from '../../common/money/money';
import { outstandingBalance } from '../../documents/domain/document-totals';

export const PAYMENT_STATUSES = ['Paid', 'Not Paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_METHODS = [
  'Cash',
  'Bank Transfer',
  'Cheque',
  'Credit Card',
  'Others',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'Others';

export const COMPLETED_PAYMENT = 'Completed';

export type PaymentDecision =
  | { accepted: true; amountPaid: Decimal; paymentStatus: PaymentStatus }
  | { accepted: false; outstanding: Decimal };

/**
 * CONTRACT.md, record-payment: a payment may not exceed the outstanding balance (so a settled
 * invoice takes none); the invoice becomes Paid when the balance reaches zero.
 */
export function applyPayment(
  total: Decimal,
  amountPaid: Decimal,
  payment: Decimal,
  currentStatus: PaymentStatus,
): PaymentDecision {
  const outstanding = outstandingBalance(total, amountPaid);
  if (payment.gt(outstanding)) return { accepted: false, outstanding };
  const newAmountPaid = amountPaid.plus(payment);
  const settled = outstandingBalance(total, newAmountPaid).lte(0);
  return {
    accepted: true,
    amountPaid: newAmountPaid,
    paymentStatus: settled ? 'Paid' : currentStatus,
  };
}

/** A payment has at most the minor digits of the invoice's currency (422 otherwise). */
export function checkPaymentDecimals(amount: Decimal, currency: string): void {
  const digits = minorUnits(currency);
  if (!hasAtMostPlaces(amount, digits)) {
    throw DomainException.invalidField(
      'amount_paid',
      `amount_paid must have at most ${digits} decimals for ${currency}`,
    );
  }
}
