import { shiftDate } from '../../common/clock';
import { Decimal } from '../../common/money/decimal';
import { AGING_BUCKETS, agingBalance, agingBucket, agingDueRanges } from './aging';

describe('aging buckets', () => {
  it.each([
    [-5, 'current'],
    [0, 'current'],
    [1, '1-30'],
    [30, '1-30'],
    [31, '31-60'],
    [60, '31-60'],
    [61, '61-90'],
    [90, '61-90'],
    [91, 'over_90'],
  ])('%i days past due is %s', (days, bucket) => {
    expect(agingBucket(days)).toBe(bucket);
  });

  it('gives each due date the same bucket as a range of due dates as by its day count', () => {
    for (const asOf of ['2026-03-01', '2024-03-01', '2026-01-15']) {
      const ranges = agingDueRanges(asOf);
      for (let days = -3; days <= 200; days += 1) {
        const due = shiftDate(asOf, -days);
        const holding = AGING_BUCKETS.filter((bucket) => {
          const { from, before } = ranges[bucket];
          return (from === null || due >= from) && (before === null || due < before);
        });
        expect({ days, holding }).toEqual({ days, holding: [agingBucket(days)] });
      }
    }
  });
});

describe('agingBalance', () => {
  const d = (text: string) => new Decimal(text);
  const invoice = (fields: { voided?: boolean; paid?: string; status?: 'Paid' | 'Not Paid' }) => ({
    voided: fields.voided ?? false,
    paymentStatus: fields.status ?? ('Not Paid' as const),
    total: d('100'),
    amountPaid: d(fields.paid ?? '0'),
  });
  const text = (balance: Decimal | null) => balance?.toFixed() ?? null;

  it('is the outstanding balance with the later entries undone', () => {
    expect(text(agingBalance(invoice({ paid: '30' }), d('0')))).toBe('70');
    expect(text(agingBalance(invoice({ paid: '30' }), d('20')))).toBe('90');
    expect(text(agingBalance(invoice({ paid: '100', status: 'Paid' }), d('40')))).toBe('40');
  });

  it('is null when nothing was owed then, or the invoice is void', () => {
    expect(agingBalance(invoice({ paid: '100', status: 'Paid' }), d('0'))).toBeNull();
    expect(agingBalance(invoice({ paid: '30' }), d('-70'))).toBeNull();
    expect(agingBalance(invoice({ voided: true }), d('0'))).toBeNull();
  });

  it('leaves out an invoice marked Paid by hand while a balance remains', () => {
    expect(agingBalance(invoice({ paid: '30', status: 'Paid' }), d('10'))).toBeNull();
  });
});
