import { isCalendarDate, isIdText, parseId } from './input-rules';

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

describe('parseId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['0001', 1],
    ['00000000000000000001', 1],
    [`${'0'.repeat(100)}7`, 7],
    ['4294967295', 4_294_967_295],
    ['0004294967295', 4_294_967_295],
  ])('reads %j as %p, leading zeros ignored at any length', (text, id) => {
    expect(parseId(text)).toBe(id);
  });

  it.each([
    '0',
    '0000',
    '4294967296',
    '999999999999',
    '9'.repeat(30),
    '1'.repeat(400),
    '10000000000000000000001',
  ])('answers null for the digits %j, which name no record', (text) => {
    expect(parseId(text)).toBeNull();
  });

  it.each(['', 'abc', '-1', '+1', '1.0', '1e2', '0x1', ' 1', '1 ', '١', '１'])(
    'answers null for %j, which is not all ASCII digits',
    (text) => {
      expect(parseId(text)).toBeNull();
    },
  );
});

describe('isIdText', () => {
  it.each(['0', '1', '0001', '9'.repeat(30)])('takes %j for an id', (text) => {
    expect(isIdText(text)).toBe(true);
  });

  it.each(['', 'abc', '-1', '1.5', ' 1', '١', 1, null, undefined, ['1']])('refuses %p', (value) => {
    expect(isIdText(value)).toBe(false);
  });
});
