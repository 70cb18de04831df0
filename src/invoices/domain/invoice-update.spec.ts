import { DomainException } from '../../common/domain.exception';
import { Decimal } from '../../common/money/decimal';
import { checkUpdateAgainstPayments } from './invoice-update';

const d = (value: string) => new Decimal(value);

function refusal(check: () => void): DomainException {
  try {
    check();
  } catch (error) {
    if (error instanceof DomainException) return error;
    throw error;
  }
  throw new Error('the update was accepted');
}

describe('checkUpdateAgainstPayments', () => {
  const paid = { currency: 'USD', amountPaid: d('40'), hasLedgerEntries: true };

  it('accepts a new currency while nothing is paid, and a total at the amount paid', () => {
    const unpaid = { currency: 'USD', amountPaid: d('0'), hasLedgerEntries: false };
    expect(() =>
      checkUpdateAgainstPayments(unpaid, { currency: 'EUR', total: d('1') }, {}),
    ).not.toThrow();
    expect(() =>
      checkUpdateAgainstPayments(paid, { currency: 'USD', total: d('40') }, {}),
    ).not.toThrow();
  });

  it('refuses a new currency once payments are recorded', () => {
    const error = refusal(() =>
      checkUpdateAgainstPayments(paid, { currency: 'EUR', total: d('100') }, {}),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors).toEqual({
      currency: ['currency cannot change once payments are recorded'],
    });
  });

  it('refuses a new currency once a refund brought the amount paid back to 0', () => {
    const refunded = { currency: 'USD', amountPaid: d('0'), hasLedgerEntries: true };
    expect(() =>
      checkUpdateAgainstPayments(refunded, { currency: 'EUR', total: d('100') }, {}),
    ).toThrow(DomainException);
  });

  it('refuses a total below the amount paid, against the fields the update gave', () => {
    const error = refusal(() =>
      checkUpdateAgainstPayments(
        paid,
        { currency: 'USD', total: d('39.5') },
        { items: [], tax_rate: d('0') },
      ),
    );
    const message = 'the new total 39.50 is below the amount already paid 40.00';
    expect(error.code).toBe('TOTAL_BELOW_AMOUNT_PAID');
    expect(error.message).toBe('The new total 39.50 is below the amount already paid 40.00');
    expect(error.errors).toEqual({ items: [message], tax_rate: [message] });
  });

  it('names the lines when the update gave neither lines nor tax rate', () => {
    const error = refusal(() =>
      checkUpdateAgainstPayments(paid, { currency: 'USD', total: d('1') }, {}),
    );
    expect(Object.keys(error.errors ?? {})).toEqual(['items']);
  });

  it('names only the tax rate when only it was given', () => {
    const error = refusal(() =>
      checkUpdateAgainstPayments(paid, { currency: 'USD', total: d('1') }, { tax_rate: d('0') }),
    );
    expect(Object.keys(error.errors ?? {})).toEqual(['tax_rate']);
  });
});
