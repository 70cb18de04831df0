import { shiftDate } from '../../common/clock';

/** The aging buckets, by days past due (docs/receivables.md). */
export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/** `current` until the due date has passed (due today is current), then by whole days. */
export function agingBucket(daysPastDue: number): AgingBucket {
  if (daysPastDue <= 0) return 'current';
  if (daysPastDue <= 30) return '1-30';
  if (daysPastDue <= 60) return '31-60';
  if (daysPastDue <= 90) return '61-90';
  return 'over_90';
}

/**
 * The same rule as ranges of due dates, for the database that sums by bucket: each bucket is
 * the due dates from `from` (inclusive) to `before` (exclusive), either end open. Comparing
 * dates costs far less per row than counting days.
 */
export function agingDueRanges(
  asOf: string,
): Record<AgingBucket, { from: string | null; before: string | null }> {
  const back = (days: number) => shiftDate(asOf, -days);
  return {
    current: { from: asOf, before: null },
    '1-30': { from: back(30), before: asOf },
    '31-60': { from: back(60), before: back(30) },
    '61-90': { from: back(90), before: back(60) },
    over_90: { from: null, before: back(90) },
  };
}
