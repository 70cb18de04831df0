import { shiftDate } from '../../common/clock';
import { AGING_BUCKETS, agingBucket, agingDueRanges } from './aging';

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
