import { Decimal } from '../../common/money/decimal';
import { roundMoney, roundMoneySql } from '../../common/money/money';

/**
 * What a ledger entry brings the cash basis of profit and loss: its amount without its
 * invoice's tax, pro rata to the tax in the total (`amount × net / total`, net = total −
 * tax_amount: the sub-total less the document discount, net of tax), rounded by `roundMoney`. An invoice whose total is 0 has no tax share: the whole amount counts (a paid
 * invoice refunded and then changed to nothing still shows the cash that came and went).
 * Its SQL copy is `cashIncomeSql` below, proved equal by test/rule-copies.e2e-spec.ts.
 */
export function cashIncome(
  amount: Decimal | string,
  net: Decimal | string,
  total: Decimal | string,
  currency: string,
): Decimal {
  const whole = new Decimal(amount);
  if (new Decimal(total).isZero()) return whole;
  return roundMoney(whole.times(net).dividedBy(total), currency);
}

/** `cashIncome` in MySQL/MariaDB, of the columns named (exact DECIMAL values). */
export function cashIncomeSql(
  currencyColumn: string,
  amount: string,
  net: string,
  total: string,
): string {
  const share = roundMoneySql(currencyColumn, `${amount} * (${net}) / ${total}`);
  return `CASE WHEN ${total} = 0 THEN ${amount} ELSE ${share} END`;
}
