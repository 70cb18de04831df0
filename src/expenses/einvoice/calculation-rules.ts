import { FieldErrors } from '../../common/domain.exception';
import { Decimal, sum, ZERO } from '../../common/money/decimal';
import { ReceivedEinvoice } from './received-einvoice';

/**
 * The EN 16931 calculation rules on the document totals (BR-CO-10 to BR-CO-16), in exact
 * decimals: what a received invoice must agree with before its amount due is believed. Each
 * failed rule is named, with the figures that disagree; an optional total that is absent
 * counts as 0, as the rules read it.
 */
export function calculationProblems(invoice: ReceivedEinvoice): FieldErrors {
  const { totals } = invoice;
  const problems: FieldErrors = {};
  const check = (rule: string, stated: Decimal | null, expected: Decimal, text: string) => {
    if (stated !== null && !stated.equals(expected)) {
      problems[rule] = [
        `${text}: the document states ${stated.toFixed()}, the rule gives ${expected.toFixed()}`,
      ];
    }
  };
  check(
    'BR-CO-10',
    totals.lineNet,
    sum(invoice.lines.map((line) => line.netAmount)),
    'Sum of line net amounts (BT-106) = Σ line net amount (BT-131)',
  );
  check(
    'BR-CO-11',
    totals.allowances ?? (invoice.allowances.length > 0 ? ZERO : null),
    sum(invoice.allowances),
    'Sum of allowances on document level (BT-107) = Σ document allowance amount (BT-92)',
  );
  check(
    'BR-CO-12',
    totals.charges ?? (invoice.charges.length > 0 ? ZERO : null),
    sum(invoice.charges),
    'Sum of charges on document level (BT-108) = Σ document charge amount (BT-99)',
  );
  check(
    'BR-CO-13',
    totals.taxExclusive,
    totals.lineNet.minus(totals.allowances ?? ZERO).plus(totals.charges ?? ZERO),
    'Invoice total without VAT (BT-109) = BT-106 − BT-107 + BT-108',
  );
  check(
    'BR-CO-14',
    totals.tax,
    sum(invoice.breakdown.map((group) => group.taxAmount)),
    'Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117)',
  );
  check(
    'BR-CO-15',
    totals.taxInclusive,
    totals.taxExclusive.plus(totals.tax ?? ZERO),
    'Invoice total with VAT (BT-112) = BT-109 + BT-110',
  );
  check(
    'BR-CO-16',
    totals.due,
    totals.taxInclusive.minus(totals.prepaid ?? ZERO).plus(totals.rounding ?? ZERO),
    'Amount due for payment (BT-115) = BT-112 − BT-113 + BT-114',
  );
  if (invoice.lines.length === 0) problems['BR-16'] = ['An invoice has at least one line (BG-25)'];
  return problems;
}
