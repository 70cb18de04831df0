import { DomainException } from '../../common/domain.exception';
import { Decimal } from '../../common/money/decimal';
import {
  applyPayment,
  checkPaymentDecimals,
  DEFAULT_PAYMENT_METHOD,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from './payment-status';

const d = (value: string) => new Decimal(value);

describe('applyPayment', () => {
  it('adds a payment below the balance and keeps the status', () => {
    const decision = applyPayment(d('100'), d('10'), d('20.10'), 'Not Paid');
    expect(decision).toEqual({ accepted: true, amountPaid: d('30.10'), paymentStatus: 'Not Paid' });
  });

  it('marks the invoice Paid when the balance reaches zero', () => {
    const decision = applyPayment(d('0.3'), d('0.1'), d('0.2'), 'Not Paid');
    expect(decision.accepted && decision.paymentStatus).toBe('Paid');
    expect(decision.accepted && decision.amountPaid.toFixed()).toBe('0.3');
  });

  it('accepts a payment of exactly the outstanding balance', () => {
    const decision = applyPayment(d('1.25'), d('0'), d('1.250'), 'Not Paid');
    expect(decision).toEqual({ accepted: true, amountPaid: d('1.25'), paymentStatus: 'Paid' });
  });

  it('keeps a status of Paid set by hand while a balance is still outstanding', () => {
    const decision = applyPayment(d('100'), d('0'), d('30'), 'Paid');
    expect(decision).toEqual({ accepted: true, amountPaid: d('30'), paymentStatus: 'Paid' });
  });

  it('refuses more than the outstanding balance', () => {
    const decision = applyPayment(d('100'), d('95'), d('5.01'), 'Not Paid');
    expect(decision).toEqual({ accepted: false, outstanding: d('5') });
  });

  it('reports the outstanding balance exactly when refusing', () => {
    const decision = applyPayment(d('0.3'), d('0.1'), d('0.2001'), 'Not Paid');
    expect(decision.accepted).toBe(false);
    expect(!decision.accepted && decision.outstanding.toFixed()).toBe('0.2');
  });

  it('refuses any payment on a settled invoice, whatever its flag says', () => {
    expect(applyPayment(d('100'), d('100'), d('0.01'), 'Paid').accepted).toBe(false);
    expect(applyPayment(d('100'), d('100'), d('0.01'), 'Not Paid').accepted).toBe(false);
  });

  it('refuses any payment on an invoice with a total of zero', () => {
    expect(applyPayment(d('0'), d('0'), d('0.01'), 'Not Paid')).toEqual({
      accepted: false,
      outstanding: d('0'),
    });
  });
});

describe('payment statuses and methods', () => {
  it('lists exactly the statuses and methods of the specification, default Others', () => {
    expect([...PAYMENT_STATUSES]).toEqual(['Paid', 'Not Paid']);
    expect([...PAYMENT_METHODS]).toEqual([
      'Cash',
      'Bank Transfer',
      'Cheque',
      'Credit Card',
      'Others',
    ]);
    expect(DEFAULT_PAYMENT_METHOD).toBe('Others');
  });
});

describe('checkPaymentDecimals', () => {
  it("accepts up to the currency's minor digits", () => {
    expect(() => checkPaymentDecimals(d('10.25'), 'USD')).not.toThrow();
    expect(() => checkPaymentDecimals(d('10.250'), 'USD')).not.toThrow();
    expect(() => checkPaymentDecimals(d('1000'), 'JPY')).not.toThrow();
    expect(() => checkPaymentDecimals(d('0.125'), 'KWD')).not.toThrow();
  });

  it('refuses more, naming amount_paid and the currency', () => {
    expect(() => checkPaymentDecimals(d('10.5'), 'JPY')).toThrow(DomainException);
    try {
      checkPaymentDecimals(d('0.001'), 'USD');
    } catch (error) {
      expect(error).toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: { amount_paid: ['amount_paid must have at most 2 decimals for USD'] },
      });
      return;
    }
    throw new Error('the payment was accepted');
  });
});
