import fc from 'fast-check';
import { DOCUMENT_LOCALES } from '../../document-vocabulary/document-locale';
import { formatAmount, formatCountry, formatDate, formatMoney } from './locale-format';

const NARROW_NBSP = '\u202f';

describe('formatAmount', () => {
  it.each([
    ['en', '14570949430.96', '14,570,949,430.96'],
    ['de', '14570949430.96', '14.570.949.430,96'],
    ['fr', '14570949430.96', `14${NARROW_NBSP}570${NARROW_NBSP}949${NARROW_NBSP}430,96`],
    ['es', '14570949430.96', '14.570.949.430,96'],
    ['es', '1234.50', '1234,50'],
    ['es', '12345.50', '12.345,50'],
    ['de', '1234.50', '1.234,50'],
    ['en', '1000000', '1,000,000'],
    ['de', '0.125', '0,125'],
    ['en', '-20.00', '-20.00'],
    ['de', '-1234.5', '-1.234,5'],
    ['fr', '-0.50', '-0,50'],
    ['de', '-0.00', '-0,00'],
    ['en', '0', '0'],
    ['de', '007.10', '7,10'],
  ] as const)('%s %s → %s', (locale, text, printed) => {
    expect(formatAmount(text, locale)).toBe(printed);
  });

  it('is exact for any number of digits (never through a JS number)', () => {
    const digits = '123456789012345678901234567890';
    expect(formatAmount(`${digits}.000000000000000000001`, 'de')).toBe(
      '123.456.789.012.345.678.901.234.567.890,000000000000000000001',
    );
  });

  it('gives back the digits, signs and fraction it was given, in every locale', () => {
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^[1-9]\d{0,40}$/),
        fc.option(fc.stringMatching(/^\d{1,12}$/), { nil: undefined }),
      )
      .map(([negative, integer, fraction]) =>
        [negative ? '-' : '', integer, fraction === undefined ? '' : `.${fraction}`].join(''),
      );
    fc.assert(
      fc.property(decimal, fc.constantFrom(...DOCUMENT_LOCALES), (text, locale) => {
        const printed = formatAmount(text, locale);
        const separator = locale === 'en' ? '.' : ',';
        const [integer, fraction] = printed.split(separator);
        expect(integer.replace(/[.,\u202f]/g, '')).toBe(text.split('.')[0]);
        expect(fraction).toBe(text.split('.')[1]);
      }),
    );
  });

  it('answers anything that is not plain decimal text unchanged', () => {
    for (const text of ['', 'abc', '1e5', '1,5', '.5', '+1', '1.', ' 1']) {
      expect(formatAmount(text, 'de')).toBe(text);
    }
  });
});

describe('formatMoney', () => {
  it('writes the ISO code after the grouped amount', () => {
    expect(formatMoney('1234.50', 'EUR', 'de')).toBe('1.234,50 EUR');
    expect(formatMoney('1234.50', 'EUR', 'en')).toBe('1,234.50 EUR');
    expect(formatMoney('1234.50', 'EUR', 'fr')).toBe(`1${NARROW_NBSP}234,50 EUR`);
    expect(formatMoney('750', 'JPY', 'es')).toBe('750 JPY');
  });
});

describe('formatDate', () => {
  it.each([
    ['en', 'November 26, 2026'],
    ['de', '26. November 2026'],
    ['fr', '26 novembre 2026'],
    ['es', '26 de noviembre de 2026'],
  ] as const)('%s: %s', (locale, printed) => {
    expect(formatDate('2026-11-26', locale)).toBe(printed);
  });

  it('is the calendar day whatever the time zone (first and last day of a year)', () => {
    expect(formatDate('2026-01-01', 'en')).toBe('January 1, 2026');
    expect(formatDate('2025-12-31', 'de')).toBe('31. Dezember 2025');
  });

  it('answers anything that is not a valid ISO date unchanged', () => {
    for (const text of ['', '2026-02-30', '2026-13-01', '26.11.2026', '2026-11-26T00:00:00Z']) {
      expect(formatDate(text, 'de')).toBe(text);
    }
  });
});

describe('formatCountry', () => {
  it('names the country in the locale', () => {
    expect(formatCountry('DE', 'fr')).toBe('Allemagne');
    expect(formatCountry('DE', 'de')).toBe('Deutschland');
    expect(formatCountry('ES', 'en')).toBe('Spain');
    expect(formatCountry('fr', 'es')).toBe('Francia');
  });

  it('answers an unknown or malformed code as it is', () => {
    for (const code of ['QQ', 'ZZ', 'XYZ', '1', '', 'D-']) {
      expect(formatCountry(code, 'de')).toBe(code);
    }
  });
});
