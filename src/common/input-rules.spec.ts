import { isCalendarDate } from './input-rules';

describe('isCalendarDate', () => {
  it.each([
    '2026-03-01',
    '2028-02-29',
    '2000-02-29',
    '2026-12-31',
    '9999-12-31',
    '1000-01-01',
    '0001-01-01',
    '0099-12-31',
    '0100-01-01',
  ])('accepts the real date %s', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each([
    '2026-02-30',
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-01',
    '2026-01-00',
    '0000-01-01',
    '0099-02-29',
    '2026-2-3',
    '26-03-01',
    '2026/03/01',
    ' 2026-03-01',
    '2026-03-01T00:00:00Z',
    '',
  ])('refuses %j', (date) => {
    expect(isCalendarDate(date)).toBe(false);
  });

  it.each([20260301, null, undefined, new Date('2026-03-01'), ['2026-03-01']])(
    'refuses the non-text %p',
    (value) => {
      expect(isCalendarDate(value)).toBe(false);
    },
  );
});
