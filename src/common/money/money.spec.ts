import fc from 'fast-check';
import { stringify } from 'lossless-json';
import { isCurrencyCode, minorUnits } from './currency';
import { Decimal, parseDecimal, sum, writtenPlaces, ZERO } from './decimal';
import {
  formatMoney,
  formatRate,
  hasAtMostPlaces,
  jsonMoney,
  jsonNumber,
  MONEY_LIMIT,
  roundMoney,
} from './money';

const d = (text: string) => new Decimal(text);

describe('parseDecimal', () => {
  it.each([
    ['0', '0'],
    ['5', '5'],
    ['12.5', '12.5'],
    ['0.125', '0.125'],
    ['-1', '-1'],
    ['-7.25', '-7.25'],
    ['0.0', '0'],
    ['10.50', '10.5'],
    ['1234567890123.4567', '1234567890123.4567'],
    ['12345678901234567890.12345678901234567890', '12345678901234567890.1234567890123456789'],
    [12.5, '12.5'],
    [0, '0'],
    [-1, '-1'],
    [0.1, '0.1'],
    [2.675, '2.675'],
    [1500, '1500'],
  ])('reads %j as %s', (input, expected) => {
    const value = parseDecimal(input);

    expect(value).toBeInstanceOf(Decimal);
    expect(value?.toFixed()).toBe(expected);
  });

  it('keeps every digit of long numeric text, which a double would lose', () => {
    expect(parseDecimal('0.30000000000000004')?.toFixed()).toBe('0.30000000000000004');
    expect(parseDecimal('9007199254740993')?.toFixed()).toBe('9007199254740993');
    expect(parseDecimal('12.50000000000000001')?.decimalPlaces()).toBe(17);
  });

  it('reads a JS number by its value, even one String() prints in exponent form', () => {
    // The JSON body parser only hands over numbers whose plain text a double holds exactly.
    expect(parseDecimal(1e-7)?.toFixed()).toBe('0.0000001');
    expect(parseDecimal(1e21)?.toFixed()).toBe('1000000000000000000000');
  });

  it.each([
    ['a trailing space', '5 '],
    ['a leading space', ' 5'],
    ['spaces around', ' 5 '],
    ['a tab and a newline around', '\t42\n'],
    ['a no-break space', '\u00a05'],
    ['a plus sign', '+5'],
    ['a plus sign on a fraction', '+7.25'],
    ['a bare fraction', '.5'],
    ['a negative bare fraction', '-.5'],
    ['a bare point at the end', '5.'],
    ['leading zeros', '00012'],
    ['a leading zero before digits', '012.5'],
    ['a negative leading zero', '-012'],
    ['white space inside', '1 000'],
    ['a space after the sign', '- 5'],
    ['negative zero', '-0'],
    ['negative zero with places', '-0.00'],
    ['exponent text', '1e3'],
    ['upper-case exponent text', '1E3'],
    ['negative exponent text', '125e-2'],
    ['NaN text', 'NaN'],
    ['Infinity text', 'Infinity'],
    ['negative Infinity text', '-Infinity'],
    ['an empty string', ''],
    ['white space', '   '],
    ['a lone sign', '-'],
    ['a lone point', '.'],
    ['a decimal comma', '12,5'],
    ['hexadecimal', '0x10'],
    ['binary', '0b1'],
    ['Arabic-Indic digits', '١٢'],
    ['full-width digits', '１２'],
    ['a currency sign', '$5'],
    ['a unit', '5 USD'],
    ['two points', '1.2.3'],
    ['the JS number -0', -0],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['null', null],
    ['undefined', undefined],
    ['true', true],
    ['an object', { value: '1' }],
    ['an array', ['1']],
    ['a Decimal', new Decimal(1)],
  ])('refuses %s', (_, input) => {
    expect(parseDecimal(input)).toBeNull();
  });
});

describe('writtenPlaces', () => {
  it.each([
    ['5', 0],
    ['12.5', 1],
    ['10.500', 3],
    ['1.50000', 5],
    ['0.0', 1],
    ['100', 0],
  ])('counts the places of %j as written: %i', (text, places) => {
    expect(writtenPlaces(parseDecimal(text)!)).toBe(places);
  });

  it('counts the places of a value that was not read from text by its value', () => {
    expect(writtenPlaces(d('1.50000'))).toBe(1);
    expect(writtenPlaces(parseDecimal(1.5)!)).toBe(1);
    expect(writtenPlaces(parseDecimal('1.50000')!.plus(0))).toBe(1);
  });
});

describe('sum', () => {
  it('adds exactly, where binary floats do not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sum([d('0.1'), d('0.2')]).toFixed()).toBe('0.3');
    expect(sum([d('9999999999999.9999'), d('0.0001')]).toFixed()).toBe('10000000000000');
  });

  it('answers zero for nothing', () => {
    expect(sum([]).eq(ZERO)).toBe(true);
  });
});

describe('isCurrencyCode and minorUnits', () => {
  it.each(['USD', 'usd', 'Usd', 'JPY', 'KWD', 'EUR', 'GBP', 'BHD', 'CHF'])('knows %s', (code) => {
    expect(isCurrencyCode(code)).toBe(true);
  });

  it.each([
    ['XXX', 'no currency'],
    ['XTS', 'the testing code'],
    ['XDR', 'the IMF special drawing right (no minor unit)'],
    ['XAU', 'gold'],
    ['XBA', 'a bond market unit'],
    ['ABC', 'not a code'],
    ['US', 'too short'],
    ['USDD', 'too long'],
    ['', 'empty'],
  ])('refuses %s (%s)', (code) => {
    expect(isCurrencyCode(code)).toBe(false);
  });

  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['USD', 2],
    ['usd', 2],
    ['EUR', 2],
    ['KWD', 3],
    ['BHD', 3],
  ])('gives %s %i minor digits', (code, digits) => {
    expect(minorUnits(code)).toBe(digits);
  });

  it('refuses to guess the minor digits of an unknown code', () => {
    expect(() => minorUnits('ABC')).toThrow();
    expect(() => minorUnits('XXX')).toThrow();
  });
});

describe('roundMoney', () => {
  it.each([
    ['2.675', 'USD', '2.68'],
    ['2.665', 'USD', '2.67'],
    ['2.674', 'USD', '2.67'],
    ['-2.675', 'USD', '-2.68'],
    ['1.005', 'USD', '1.01'],
    ['2.5', 'JPY', '3'],
    ['-2.5', 'JPY', '-3'],
    ['1.4999', 'JPY', '1'],
    ['1.0005', 'KWD', '1.001'],
    ['-1.0005', 'KWD', '-1.001'],
    ['1.0004', 'KWD', '1'],
    ['12.5', 'USD', '12.5'],
    ['0.004', 'USD', '0'],
    ['9999999999999.995', 'USD', '10000000000000'],
  ])('rounds %s %s half away from zero to %s', (input, currency, expected) => {
    expect(roundMoney(d(input), currency).toFixed()).toBe(expected);
  });

  it('rounds what binary floats get wrong', () => {
    // As a double, 2.675 is 2.67499999…: toFixed rounds it down.
    expect((2.675).toFixed(2)).toBe('2.67');
    expect(roundMoney(parseDecimal(2.675)!, 'USD').toFixed(2)).toBe('2.68');
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(roundMoney(parseDecimal(1.005)!, 'USD').toFixed(2)).toBe('1.01');
  });

  it('keeps 0.1 + 0.2 exactly 0.30', () => {
    expect(roundMoney(d('0.1').plus(d('0.2')), 'USD').toFixed()).toBe('0.3');
    expect(formatMoney(d('0.1').plus(d('0.2')), 'USD')).toBe('0.30');
  });

  it('rounds a product of a quantity and a rate exactly', () => {
    // 3 × 0.335 = 1.005 exactly; with doubles 3 * 0.335 is 1.0050000000000001.
    expect(formatMoney(roundMoney(d('3').times(d('0.335')), 'USD'), 'USD')).toBe('1.01');
    expect(formatMoney(roundMoney(d('1.5').times(d('0.0333')), 'USD'), 'USD')).toBe('0.05');
    expect(formatMoney(roundMoney(d('0.0003').times(d('1666.6667')), 'JPY'), 'JPY')).toBe('1');
  });

  it('does not change its argument', () => {
    const value = d('2.675');
    roundMoney(value, 'USD');
    expect(value.toFixed()).toBe('2.675');
  });
});

describe('formatMoney', () => {
  it.each([
    ['1500', 'JPY', '1500'],
    ['0', 'JPY', '0'],
    ['1500.4', 'JPY', '1500'],
    ['1500.5', 'JPY', '1501'],
    ['10.5', 'USD', '10.50'],
    ['10', 'USD', '10.00'],
    ['0', 'USD', '0.00'],
    ['0.1', 'USD', '0.10'],
    ['2.675', 'USD', '2.68'],
    ['1.25', 'KWD', '1.250'],
    ['1.0005', 'KWD', '1.001'],
    ['0.001', 'KWD', '0.001'],
    ['-10.5', 'USD', '-10.50'],
    ['9999999999999.99', 'USD', '9999999999999.99'],
    ['999999999999.999', 'KWD', '999999999999.999'],
    ['12.50', 'usd', '12.50'],
  ])('formats %s %s as %j', (input, currency, expected) => {
    expect(formatMoney(d(input), currency)).toBe(expected);
  });

  it('rounds as roundMoney does, in every currency', () => {
    const currencies = ['JPY', 'USD', 'KWD', 'CLF'];
    // Up to 6 decimals below 10^13, and midpoints of each currency's last digit.
    const millionths = fc.oneof(
      fc.bigInt({ min: -(10n ** 19n), max: 10n ** 19n }),
      fc
        .tuple(
          fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
          fc.constantFrom(50n, 500n, 5000n, 500_000n),
        )
        .map(([n, half]) => (2n * n + 1n) * half),
    );
    const value = millionths.map((n) => new Decimal(n.toString()).dividedBy(1_000_000));
    fc.assert(
      fc.property(value, fc.constantFrom(...currencies), (amount, currency) => {
        const rounded = roundMoney(amount, currency);
        const text = formatMoney(amount, currency);
        expect(new Decimal(text).equals(rounded)).toBe(true);
        expect(text.split('.')[1]?.length ?? 0).toBe(minorUnits(currency));
      }),
      { numRuns: 2000 },
    );
  });

  it('never writes exponent notation', () => {
    expect(formatMoney(d('1e12'), 'USD')).toBe('1000000000000.00');
    expect(formatMoney(d('1e-9'), 'USD')).toBe('0.00');
  });
});

describe('formatRate', () => {
  it.each([
    ['10.5', 'USD', '10.50'],
    ['10', 'USD', '10.00'],
    ['0.125', 'USD', '0.125'],
    ['0.1234', 'USD', '0.1234'],
    ['3', 'JPY', '3'],
    ['2.5', 'JPY', '2.5'],
    ['0.0001', 'JPY', '0.0001'],
    ['1.5', 'KWD', '1.500'],
    ['1.2345', 'KWD', '1.2345'],
    ['12.50', 'USD', '12.50'],
  ])('formats the rate %s %s as %j', (input, currency, expected) => {
    expect(formatRate(d(input), currency)).toBe(expected);
  });

  it('writes at most 4 decimals, rounding half away from zero beyond them', () => {
    expect(formatRate(d('1.23456'), 'USD')).toBe('1.2346');
    expect(formatRate(d('1.23454'), 'USD')).toBe('1.2345');
    expect(formatRate(d('0.00005'), 'JPY')).toBe('0.0001');
  });

  it.each([
    ['0.5', 'USD'],
    ['7', 'KWD'],
    ['0.12345', 'JPY'],
    ['1234567.891', 'USD'],
    ['0', 'JPY'],
  ])('keeps %s %s between the minor digits and 4 decimals', (input, currency) => {
    const text = formatRate(d(input), currency);
    const decimals = text.includes('.') ? text.split('.')[1].length : 0;

    expect(decimals).toBeGreaterThanOrEqual(minorUnits(currency));
    expect(decimals).toBeLessThanOrEqual(Math.max(4, minorUnits(currency)));
    expect(text).toMatch(/^-?\d+(\.\d+)?$/);
  });
});

describe('jsonNumber and jsonMoney', () => {
  it('write decimals as JSON numbers digit for digit', () => {
    const body = stringify({
      sum: jsonNumber(d('0.1').plus(d('0.2'))),
      big: jsonNumber(d('9999999999999.9999')),
      huge: jsonNumber(d('123456789012345678901234.5')),
      tiny: jsonNumber(d('0.0001')),
      rate: jsonNumber(d('15.5')),
    });

    expect(body).toBe(
      '{"sum":0.3,"big":9999999999999.9999,"huge":123456789012345678901234.5,"tiny":0.0001,"rate":15.5}',
    );
  });

  it('never writes exponent notation', () => {
    expect(stringify({ n: jsonNumber(d('1e-7')) })).toBe('{"n":0.0000001}');
    expect(stringify({ n: jsonNumber(d('1e21')) })).toBe('{"n":1000000000000000000000}');
  });

  it('writes money as a JSON number with exactly the minor digits', () => {
    const body = stringify({
      usd: jsonMoney(d('2.675'), 'USD'),
      whole: jsonMoney(d('10'), 'USD'),
      jpy: jsonMoney(d('1500.5'), 'JPY'),
      kwd: jsonMoney(d('1.25'), 'KWD'),
      big: jsonMoney(d('999999999999.999'), 'KWD'),
    });

    expect(body).toBe('{"usd":2.68,"whole":10.00,"jpy":1501,"kwd":1.250,"big":999999999999.999}');
  });

  it('answers values that still read back as the same numbers', () => {
    const parsed = JSON.parse(
      stringify({ a: jsonMoney(d('12.5'), 'USD'), b: jsonNumber(d('3')) }) ?? '',
    ) as {
      a: number;
      b: number;
    };

    expect(parsed).toEqual({ a: 12.5, b: 3 });
  });
});

describe('MONEY_LIMIT and hasAtMostPlaces', () => {
  it('puts the money limit at 10^13', () => {
    expect(MONEY_LIMIT.toFixed()).toBe('10000000000000');
    expect(d('9999999999999.9999').lt(MONEY_LIMIT)).toBe(true);
    expect(d('10000000000000').lt(MONEY_LIMIT)).toBe(false);
  });

  it.each([
    ['12.5', 2, true],
    ['12.50', 2, true],
    ['12.505', 2, false],
    ['1500', 0, true],
    ['1500.5', 0, false],
    ['1.250', 3, true],
    ['1.2505', 3, false],
  ])('%s has at most %i places: %s', (input, places, expected) => {
    expect(hasAtMostPlaces(d(input), places)).toBe(expected);
  });

  it.each([
    ['10.50', 2, true],
    ['10.500', 2, false],
    ['1.50000', 4, false],
    ['1.5000', 4, true],
    ['1500.0', 0, false],
  ])('counts the places of input %j as written against %i: %s', (text, places, expected) => {
    expect(hasAtMostPlaces(parseDecimal(text)!, places)).toBe(expected);
  });
});
