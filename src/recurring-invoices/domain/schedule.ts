import { shiftDate } from '../../common/clock';

/** How a schedule's periods are counted: every `interval_count` days, weeks, months or years. */
export const INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

/** What a schedule's period dates are worked out from. */
export interface Cadence {
  startDate: string;
  interval: Interval;
  intervalCount: number;
}

/** What ends a schedule: a last date, or a number of invoices (neither: it runs until ended). */
export interface ScheduleEnd {
  endDate: string | null;
  count: number | null;
}

/**
 * The date of period `index` (0 is the start date). Months and years are counted from the
 * start date, never from the period before, and a day the month lacks is its last day: monthly
 * from 31 January gives 28 (or 29) February, 31 March, 30 April; yearly from 29 February gives
 * 28 February in the years between leap years. So dates never drift.
 */
export function periodDate(cadence: Cadence, index: number): string {
  const steps = index * cadence.intervalCount;
  switch (cadence.interval) {
    case 'day':
      return shiftDate(cadence.startDate, steps);
    case 'week':
      return shiftDate(cadence.startDate, 7 * steps);
    case 'month':
      return addMonths(cadence.startDate, steps);
    case 'year':
      return addMonths(cadence.startDate, 12 * steps);
  }
}

/** The first period index whose date is on or after `date` (0 when `date` is before the start). */
export function firstIndexOnOrAfter(cadence: Cadence, date: string): number {
  if (date <= cadence.startDate) return 0;
  // A guess from the average length of a step, then moved to the exact index.
  const stepDays = { day: 1, week: 7, month: 30.436875, year: 365.2425 }[cadence.interval];
  const days = (Date.parse(date) - Date.parse(cadence.startDate)) / 86_400_000;
  let index = Math.max(0, Math.floor(days / (stepDays * cadence.intervalCount)) - 1);
  while (index > 0 && periodDate(cadence, index - 1) >= date) index -= 1;
  while (periodDate(cadence, index) < date) index += 1;
  return index;
}

/**
 * The date of period `index` when the schedule still makes it: null once past `endDate`, or
 * when `made` invoices already reach `count`.
 */
export function dueDateOfPeriod(
  cadence: Cadence,
  end: ScheduleEnd,
  index: number,
  made: number,
): string | null {
  if (end.count !== null && made >= end.count) return null;
  const date = periodDate(cadence, index);
  if (end.endDate !== null && date > end.endDate) return null;
  return date;
}

/** The last day of the period starting at `index`: the day before the next period's date. */
export function periodEnd(cadence: Cadence, index: number): string {
  return shiftDate(periodDate(cadence, index + 1), -1);
}

/** `date` (YYYY-MM-DD) moved by `months`, on the same day or the month's last when it has fewer. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12;
  const lastDay = daysInMonth(targetYear, targetMonth + 1);
  return `${String(targetYear).padStart(4, '0')}-${String(targetMonth + 1).padStart(2, '0')}-${String(Math.min(day, lastDay)).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
