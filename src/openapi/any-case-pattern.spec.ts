import fc from 'fast-check';
import { anyCasePattern, listedValues } from './any-case-pattern';

describe('anyCasePattern', () => {
  const methods = ['Cash', 'Bank Transfer', 'Credit Card', 'Others'];

  it('matches each listed value in any ASCII letter case', () => {
    const pattern = new RegExp(anyCasePattern(methods), 'u');
    for (const value of ['Cash', 'cash', 'CASH', 'cAsH', 'bank transfer', 'CREDIT CARD']) {
      expect({ value, matches: pattern.test(value) }).toEqual({ value, matches: true });
    }
  });

  it('matches nothing else: no padding, no look-alikes, no partial or joined values', () => {
    const pattern = new RegExp(anyCasePattern(methods), 'u');
    for (const value of [
      '',
      ' Cash',
      'Cash ',
      'Cashs',
      'Ca',
      'CashOthers',
      'Cash|Others',
      'Oſhers',
    ]) {
      expect({ value, matches: pattern.test(value) }).toEqual({ value, matches: false });
    }
  });

  it('agrees with a case-insensitive comparison on any text', () => {
    const listed = ['invoice.payment_recorded', 'client.created', 'not-paid', 'a+b', 'x.y*'];
    const pattern = new RegExp(anyCasePattern(listed), 'u');
    const lowered = new Set(listed.map((value) => value.toLowerCase()));
    const near = fc
      .constantFrom(...listed)
      .chain((value) =>
        fc
          .array(fc.boolean(), { minLength: value.length, maxLength: value.length })
          .map((upper) =>
            [...value].map((c, index) => (upper[index] ? c.toUpperCase() : c)).join(''),
          ),
      );
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ maxLength: 30 })), (text) => {
        const asciiLower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
        expect(pattern.test(text)).toBe(lowered.has(asciiLower));
      }),
    );
  });

  it('makes the value optional when "" is listed', () => {
    const pattern = new RegExp(anyCasePattern(['', 'DE', 'US']), 'u');
    expect(['', 'de', 'Us'].map((value) => pattern.test(value))).toEqual([true, true, true]);
    expect(['FR', ' ', 'DEUS'].map((value) => pattern.test(value))).toEqual([false, false, false]);
  });
});

describe('listedValues', () => {
  it('reads back the values of anyCasePattern, in upper case', () => {
    expect(listedValues(anyCasePattern(['Cash', 'Bank Transfer']))).toEqual([
      'CASH',
      'BANK TRANSFER',
    ]);
    expect(listedValues(anyCasePattern(['', 'de']))).toEqual(['', 'DE']);
    expect(listedValues(anyCasePattern(['invoice.created']))).toEqual(['INVOICE.CREATED']);
  });

  it('answers null for other patterns', () => {
    for (const pattern of ['^[0-9]+$', '^[A-Za-z]{3}$', '^(?:a|b)$', '^(?:[Aa]|b)$']) {
      expect({ pattern, values: listedValues(pattern) }).toEqual({ pattern, values: null });
    }
  });
});
