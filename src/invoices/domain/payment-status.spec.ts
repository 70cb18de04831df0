import { Decimal } from '../../common/money/decimal';
import { applyPayment } from './payment-status';

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

  it('refuses more than the outstanding balance', () => {
    const decision = applyPayment(d('100'), d('95'), d('5.01'), 'Not Paid');
    expect(decision).toEqual({ accepted: false, outstanding: d('5') });
  });

  it('refuses any payment on a settled invoice', () => {
    expect(applyPayment(d('100'), d('100'), d('0.01'), 'Paid').accepted).toBe(false);
  });
});
