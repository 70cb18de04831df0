/** The aging buckets, by days past due (CONTRACT.md, Receivables). */
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

/** The same rule as SQL over a day count, for the database that groups by it. */
export function agingBucketSql(daysPastDue: string): string {
  return `CASE WHEN ${daysPastDue} <= 0 THEN 'current' WHEN ${daysPastDue} <= 30 THEN '1-30'
    WHEN ${daysPastDue} <= 60 THEN '31-60' WHEN ${daysPastDue} <= 90 THEN '61-90'
    ELSE 'over_90' END`;
}

/** Whole days from `from` to `to`, both YYYY-MM-DD (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayNumber(to) - dayNumber(from)) / 86_400_000);
}

function dayNumber(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  return instant.getTime();
}
