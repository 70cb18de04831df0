import { formatNumber, NumberFormat, parseFormat, periodOf } from './number-format';

function format(text: string): NumberFormat {
  const parsed = parseFormat(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

describe('number formats', () => {
  it('writes the default formats, padded, and past the padding', () => {
    expect(formatNumber(format('INV-{YYYY}-{SEQ:4}'), '2026-03-15', 1)).toBe('INV-2026-0001');
    expect(formatNumber(format('INV-{YYYY}-{SEQ:4}'), '2026-03-15', 12345)).toBe('INV-2026-12345');
    expect(formatNumber(format('CN{YY}{MM}/{SEQ}'), '2027-11-01', 7)).toBe('CN2711/7');
    expect(formatNumber(format('{SEQ:6}'), '2027-11-01', 42)).toBe('000042');
  });

  it('makes the period of the date tokens the number carries', () => {
    expect(periodOf(format('INV-{YYYY}-{SEQ:4}'), '2026-12-31')).toBe('2026');
    expect(periodOf(format('INV-{YYYY}-{SEQ:4}'), '2027-01-01')).toBe('2027');
    expect(periodOf(format('{YY}{MM}-{SEQ}'), '2026-03-01')).toBe('26-03');
    expect(periodOf(format('{MM}/{YYYY}/{SEQ}'), '2026-03-01')).toBe('03-2026');
    expect(periodOf(format('N{SEQ:5}'), '2026-03-01')).toBe('');
  });

  it.each([
    ['INV-{YYYY}', 'exactly once'],
    ['{SEQ}-{SEQ}', 'exactly once'],
    ['INV-{DD}-{SEQ}', 'unknown token {DD}'],
    ['INV-{seq}', 'unknown token {seq}'],
    ['INV-{SEQ:0}', 'unknown token {SEQ:0}'],
    ['INV-{SEQ:11}', 'at most 10 digits'],
    ['INV-{SEQ:4', 'brace outside a token'],
    ['INV}-{SEQ}', 'brace outside a token'],
    [`${'X'.repeat(55)}{SEQ}`, 'longer than 64'],
  ])('refuses %s', (text, reason) => {
    expect(parseFormat(text)).toEqual(expect.stringContaining(reason));
  });

  it('takes a format whose longest number is exactly 64 characters', () => {
    expect(typeof parseFormat(`${'X'.repeat(50)}{YYYY}{SEQ}`)).toBe('object');
  });
});
