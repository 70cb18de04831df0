import { formatMoney } from '../../common/money/money';
import { cashIncome, cashIncomeSql } from './cash-income';

describe('cashIncome', () => {
  it.each([
    // amount × sub_total / total, rounded half away from zero to the minor digits.
    ['600.00', '1000.00', '1200.00', 'NOK', '500.00'],
    ['0.04', '100.00', '160.00', 'DKK', '0.03'],
    ['-0.04', '100.00', '160.00', 'DKK', '-0.03'],
    ['4', '1000', '1600', 'KRW', '3'],
    ['1.000', '1.000', '3.000', 'KWD', '0.333'],
    // No tax: the whole amount.
    ['12.34', '12.34', '12.34', 'EUR', '12.34'],
    // A total of 0 has no tax share: the whole amount, never NaN.
    ['123.00', '0.00', '0.00', 'PLN', '123.00'],
    ['7', '0', '0', 'JPY', '7'],
  ])('%s of an invoice of %s net, %s in all (%s): %s', (amount, net, total, currency, income) => {
    const answer = cashIncome(amount, net, total, currency);
    expect(answer.isFinite()).toBe(true);
    expect(formatMoney(answer, currency)).toBe(income);
    expect(answer.decimalPlaces()).toBeLessThanOrEqual(income.split('.')[1]?.length ?? 0);
  });

  it('takes the whole amount when the total is 0 in its SQL copy too', () => {
    expect(cashIncomeSql('i.currency', 'p.amount', 'i.sub_total', 'i.total')).toMatch(
      /^CASE WHEN i\.total = 0 THEN p\.amount ELSE CASE .* END END$/,
    );
  });
});
