import { DomainException } from '../../common/domain.exception';
import { Decimal } from '../../common/money/decimal';
import { outstandingBalance } from '../../documents/domain/document-totals';
import { cashHeldOf, checkMinorDigits, credit, Ledger, recordPayment, refund } from './ledger';
import {
  DEFAULT_PAYMENT_METHOD,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from '../../invoices/domain/payment-status';

const d = (value: string) => new Decimal(value);

function ledger(
  fields: Partial<Record<'total' | 'amountPaid' | 'amountCredited', string>> & {
    paymentStatus?: Ledger['paymentStatus'];
    currency?: string;
  },
): Ledger {
  return {
    currency: fields.currency ?? 'USD',
    total: d(fields.total ?? '100'),
    amountPaid: d(fields.amountPaid ?? '0'),
    amountCredited: d(fields.amountCredited ?? '0'),
    paymentStatus: fields.paymentStatus ?? 'Not Paid',
  };
}

function refusal(move: () => unknown): DomainException {
  try {
    move();
  } catch (error) {
    if (error instanceof DomainException) return error;
    throw error;
  }
  throw new Error('the move was accepted');
}

const summary = (move: ReturnType<typeof recordPayment>) => ({
  entries: move.entries.map((entry) => `${entry.status} ${entry.amount.toFixed()}`),
  amountPaid: move.after.amountPaid.toFixed(),
  amountCredited: move.after.amountCredited.toFixed(),
  paymentStatus: move.after.paymentStatus,
});

describe('recordPayment', () => {
  it('adds a payment below the balance and keeps the status', () => {
    expect(summary(recordPayment(ledger({ amountPaid: '10' }), d('20.10')))).toEqual({
      entries: ['Completed 20.1'],
      amountPaid: '30.1',
      amountCredited: '0',
      paymentStatus: 'Not Paid',
    });
  });

  it('marks the invoice Paid when the balance reaches zero, exactly', () => {
    const move = recordPayment(ledger({ total: '0.3', amountPaid: '0.1' }), d('0.2'));
    expect(move.after).toMatchObject({ paymentStatus: 'Paid' });
    expect(move.after.amountPaid.toFixed()).toBe('0.3');
  });

  it('keeps a status of Paid set by hand while a balance is still outstanding', () => {
    const move = recordPayment(ledger({ paymentStatus: 'Paid' }), d('30'));
    expect(move.after.paymentStatus).toBe('Paid');
  });

  it('refuses more than the outstanding balance, naming amount_paid', () => {
    const error = refusal(() => recordPayment(ledger({ amountPaid: '95' }), d('5.01')));
    expect(error.code).toBe('INVOICE_OVERPAID');
    expect(error.errors).toEqual({
      amount_paid: ['amount_paid must not exceed the outstanding balance 5.00'],
    });
  });

  it('refuses any payment on a settled invoice or one with a total of zero', () => {
    expect(() => recordPayment(ledger({ amountPaid: '100' }), d('0.01'))).toThrow(DomainException);
    expect(() => recordPayment(ledger({ total: '0' }), d('0.01'))).toThrow(DomainException);
  });

  it('counts a credit as paid: an invoice credited in full takes no payment', () => {
    const credited = ledger({ amountPaid: '100', amountCredited: '100' });
    expect(() => recordPayment(credited, d('0.01'))).toThrow(DomainException);
  });
});

describe('refund', () => {
  it('returns cash held and reopens a paid invoice', () => {
    const paid = ledger({ amountPaid: '100', paymentStatus: 'Paid' });
    expect(summary(refund(paid, d('30')))).toEqual({
      entries: ['Refunded 30'],
      amountPaid: '70',
      amountCredited: '0',
      paymentStatus: 'Not Paid',
    });
  });

  it('may return all the cash held, and no more', () => {
    const held = ledger({ amountPaid: '100', amountCredited: '60', paymentStatus: 'Paid' });
    expect(cashHeldOf(held).toFixed()).toBe('40');
    expect(refund(held, d('40')).after.amountPaid.toFixed()).toBe('60');
    const error = refusal(() => refund(held, d('40.01')));
    expect(error.code).toBe('REFUND_EXCEEDS_CASH_HELD');
    expect(error.errors).toEqual({ amount: ['amount must not exceed the cash held 40.00'] });
  });

  it('refuses any refund when nothing was received', () => {
    expect(refusal(() => refund(ledger({}), d('0.01'))).code).toBe('REFUND_EXCEEDS_CASH_HELD');
  });

  it('keeps Paid when nothing is outstanding afterwards (a zero total cannot happen, a credit can)', () => {
    // Paid 100 of 100, of which 100 was credited and 0 is cash: nothing to refund.
    const credited = ledger({ amountPaid: '100', amountCredited: '100', paymentStatus: 'Paid' });
    expect(() => refund(credited, d('0.01'))).toThrow(DomainException);
  });
});

describe('credit', () => {
  it('settles part of the outstanding balance', () => {
    expect(summary(credit(ledger({ amountPaid: '20' }), d('30'), false))).toEqual({
      entries: ['Credited 30'],
      amountPaid: '50',
      amountCredited: '30',
      paymentStatus: 'Not Paid',
    });
  });

  it('marks the invoice Paid when the credit settles the balance', () => {
    const move = credit(ledger({ amountPaid: '70' }), d('30'), false);
    expect(move.after.paymentStatus).toBe('Paid');
    expect(outstandingBalance(d('100'), move.after.amountPaid).toFixed()).toBe('0');
  });

  it('refuses more than the outstanding balance without refund, naming items', () => {
    const error = refusal(() => credit(ledger({ amountPaid: '80' }), d('30'), false));
    expect(error.code).toBe('CREDIT_EXCEEDS_BALANCE');
    expect(Object.keys(error.errors ?? {})).toEqual(['items']);
  });

  it('with refund, a paid invoice is refunded the part above its balance, then credited', () => {
    const paid = ledger({ amountPaid: '100', paymentStatus: 'Paid' });
    expect(summary(credit(paid, d('30'), true))).toEqual({
      entries: ['Refunded 30', 'Credited 30'],
      amountPaid: '100',
      amountCredited: '30',
      paymentStatus: 'Paid',
    });
  });

  it('with refund, refunds only what the balance does not absorb', () => {
    const part = ledger({ amountPaid: '90' });
    expect(summary(credit(part, d('30'), true))).toEqual({
      entries: ['Refunded 20', 'Credited 30'],
      amountPaid: '100',
      amountCredited: '30',
      paymentStatus: 'Paid',
    });
  });

  it('refuses more than the total less earlier credit notes, refund or not', () => {
    const credited = ledger({ amountPaid: '100', amountCredited: '80', paymentStatus: 'Paid' });
    const error = refusal(() => credit(credited, d('20.01'), true));
    expect(error.code).toBe('CREDIT_EXCEEDS_INVOICE');
    expect(error.errors).toEqual({
      items: [
        'the credit note’s total 20.01 exceeds the invoice’s total less its earlier credit notes, 20.00',
      ],
    });
    expect(credit(credited, d('20'), true).after.amountCredited.toFixed()).toBe('100');
  });

  it('refuses a credit of nothing', () => {
    expect(refusal(() => credit(ledger({}), d('0'), false)).errors).toEqual({
      items: ['the credit note’s total must be greater than 0'],
    });
  });
});

describe('checkMinorDigits', () => {
  it("accepts up to the currency's minor digits and names the field past them", () => {
    expect(() => checkMinorDigits(d('10.25'), 'USD', 'amount')).not.toThrow();
    expect(() => checkMinorDigits(d('1000'), 'JPY', 'amount')).not.toThrow();
    expect(() => checkMinorDigits(d('0.125'), 'KWD', 'amount')).not.toThrow();
    const error = refusal(() => checkMinorDigits(d('10.5'), 'JPY', 'amount_paid'));
    expect(error.errors).toEqual({
      amount_paid: ['amount_paid must have at most 0 decimals for JPY'],
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
