import { shiftDate } from '../../common/clock';
import {
  addMonths,
  Cadence,
  dueDateOfPeriod,
  firstIndexOnOrAfter,
  periodDate,
  periodEnd,
} from './schedule';

const monthly = (startDate: string, intervalCount = 1): Cadence => ({
  startDate,
  interval: 'month',
  intervalCount,
});

describe('period dates', () => {
  it('anchor months on the start day, clamped to the month’s last day, never drifting', () => {
    const dates = [0, 1, 2, 3, 4, 12, 13].map((index) => periodDate(monthly('2027-01-31'), index));
    expect(dates).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2028-01-31',
      '2028-02-29',
    ]);
  });

  it('give 29 February in leap years only, yearly from a leap day', () => {
    const yearly: Cadence = { startDate: '2024-02-29', interval: 'year', intervalCount: 1 };
    expect([0, 1, 2, 3, 4, 76].map((index) => periodDate(yearly, index))).toEqual([
      '2024-02-29',
      '2025-02-28',
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
      // 2100 is not a leap year.
      '2100-02-28',
    ]);
  });

  it('count days and weeks exactly, and several intervals per period', () => {
    expect(periodDate({ startDate: '2026-12-30', interval: 'day', intervalCount: 3 }, 1)).toBe(
      '2027-01-02',
    );
    expect(periodDate({ startDate: '2026-02-23', interval: 'week', intervalCount: 2 }, 2)).toBe(
      '2026-03-23',
    );
    expect(periodDate(monthly('2026-11-30', 3), 1)).toBe('2027-02-28');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });

  it('end the day before the next period', () => {
    expect(periodEnd(monthly('2028-01-31'), 0)).toBe('2028-02-28');
    expect(periodEnd(monthly('2028-01-31'), 1)).toBe('2028-03-30');
    expect(periodEnd({ startDate: '2026-01-01', interval: 'day', intervalCount: 1 }, 0)).toBe(
      '2026-01-01',
    );
  });

  it('find the first period on or after any date, whatever the cadence', () => {
    const cadences: Cadence[] = [
      monthly('2027-01-31'),
      monthly('2026-05-15', 5),
      { startDate: '2024-02-29', interval: 'year', intervalCount: 1 },
      { startDate: '2026-01-07', interval: 'week', intervalCount: 3 },
      { startDate: '2026-01-07', interval: 'day', intervalCount: 366 },
    ];
    for (const cadence of cadences) {
      for (let day = 0; day < 1500; day += 7) {
        const date = shiftDate('2025-12-01', day);
        const index = firstIndexOnOrAfter(cadence, date);
        expect(periodDate(cadence, index) >= date).toBe(true);
        if (index > 0) expect(periodDate(cadence, index - 1) < date).toBe(true);
      }
    }
  });

  it('stop at the end date or after the count', () => {
    const cadence = monthly('2026-01-31');
    expect(dueDateOfPeriod(cadence, { endDate: '2026-03-31', count: null }, 2, 2)).toBe(
      '2026-03-31',
    );
    expect(dueDateOfPeriod(cadence, { endDate: '2026-03-30', count: null }, 2, 2)).toBeNull();
    expect(dueDateOfPeriod(cadence, { endDate: null, count: 3 }, 5, 2)).toBe('2026-06-30');
    expect(dueDateOfPeriod(cadence, { endDate: null, count: 3 }, 5, 3)).toBeNull();
  });
});
