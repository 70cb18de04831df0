import fc from 'fast-check';
import { minorUnits } from '../common/money/currency';
import { Decimal } from '../common/money/decimal';
import { formatMoney } from '../common/money/money';
import { decimalUnits, unitsFixed, unitsPlain } from './decimal-text';

describe('decimal text', () => {
  const samples = [
    '0.0000',
    '0.5000',
    '1.0000',
    '1000.0000',
    '1234.5678',
    '0.0050',
    '0.0049',
    '0.0051',
    '0.5',
    '12',
    '-0.0040',
    '-0.0050',
    '-12.3450',
    '9999999999999.9999',
    '1.9950',
    '2.9995',
    '0.0001',
  ];

  it('rounds as Decimal toFixed(places, ROUND_HALF_UP) does, and writes toFixed() alike', () => {
    for (const text of samples) {
      const units = decimalUnits(text);
      expect(units).not.toBeNull();
      const decimal = new Decimal(text);
      for (let places = 0; places <= 4; places++) {
        expect([text, places, unitsFixed(units!, places)]).toEqual([
          text,
          places,
          decimal.toFixed(places, Decimal.ROUND_HALF_UP),
        ]);
      }
      expect([text, unitsPlain(units!)]).toEqual([text, decimal.toFixed()]);
    }
  });

  it('agrees with Decimal on differences of random values', () => {
    for (let run = 0; run < 2000; run++) {
      const random = () => (Math.floor(Math.random() * 1e9) / 1e4).toFixed(4);
      const [a, b] = [random(), random()];
      const units = decimalUnits(a)! - decimalUnits(b)!;
      const exact = new Decimal(a).minus(b);
      expect(unitsFixed(units, 2)).toBe(exact.toFixed(2, Decimal.ROUND_HALF_UP));
      expect(unitsFixed(units, 3)).toBe(exact.toFixed(3, Decimal.ROUND_HALF_UP));
      expect(units > 0n).toBe(exact.gt(0));
    }
  });

  it('rounds money as formatMoney does, in every currency the columns can hold', () => {
    // The columns keep 4 decimals, so the currencies of 0, 2, 3 and 4 minor digits.
    const currencies = ['JPY', 'USD', 'KWD', 'CLF'];
    const units = fc.bigInt({ min: -(10n ** 17n) + 1n, max: 10n ** 17n - 1n });
    // Midpoints at 3, 2 and 0 places: an odd number of halves of a last digit.
    const halves = fc
      .tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.constantFrom(5n, 50n, 5000n))
      .map(([n, half]) => (2n * n + 1n) * half);
    fc.assert(
      fc.property(fc.oneof(units, halves), fc.constantFrom(...currencies), (value, currency) => {
        const decimal = new Decimal(value.toString()).dividedBy(10_000);
        expect(unitsFixed(value, minorUnits(currency))).toBe(formatMoney(decimal, currency));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers null for anything but decimal text of at most four places', () => {
    for (const value of [1, null, '1.23456', '1e5', '', ' 1', '+1', '.5', 'abc']) {
      expect(decimalUnits(value)).toBeNull();
    }
  });
});
