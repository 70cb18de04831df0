import fc from 'fast-check';
import { LosslessNumber, stringify } from 'lossless-json';
import { jsonText } from './json-text';

describe('jsonText', () => {
  const cases: Array<[string, unknown]> = [
    [
      'an envelope with exact decimals',
      {
        status: 'success',
        data: [
          {
            id: '1',
            total: new LosslessNumber('12345678901234.5000'),
            tax_rate: new LosslessNumber('0'),
          },
          { id: '2', total: new LosslessNumber('-0.01'), amount_paid: '10.50' },
        ],
        meta: { page: 1, per_page: 50, total: 2 },
      },
    ],
    [
      'text that needs escaping',
      {
        quote: 'say "hi"',
        backslash: 'a\\b',
        control: '\u0000\u0001\n\t\u001f',
        unicode: 'Πέτρος Петровна 東京 😀',
        lone: 'x\ud800y',
        separators: '\u2028\u2029',
        'key "quoted"\n': 'v',
      },
    ],
    [
      'numbers, booleans, nulls and empty containers',
      {
        int: 42,
        negative: -7,
        fraction: 0.5,
        big: 1e21,
        nan: Number.NaN,
        infinite: Infinity,
        yes: true,
        no: false,
        none: null,
        list: [],
        object: {},
        nested: [[1, [2]], { a: { b: [] } }],
      },
    ],
    [
      'undefined: left out of objects, null in arrays',
      { a: undefined, b: [undefined, 1], c: 'kept' },
    ],
    ['a bare string', 'text'],
    ['a bare array', [1, 'two', new LosslessNumber('3.00'), null]],
  ];

  it.each(cases)('writes %s exactly as lossless-json does', (_case, value) => {
    expect(jsonText(value)).toBe(stringify(value));
  });

  it('writes any text, as value and as key, as lossless-json does (generated: lone surrogates, controls, quotes)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({
        unit: fc.constantFrom('"', '\\', '\u0000', '\u001f', '\ud800', '\udc00', 'é', '😀', 'a'),
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text))), (value) => {
        expect(jsonText(value)).toBe(stringify(value));
      }),
      { numRuns: 500 },
    );
  });

  it('parses back to the same values', () => {
    const value = { names: 'Ada "Lovelace"\n', amount: new LosslessNumber('10.50') };
    expect(JSON.parse(jsonText(value)!)).toEqual({ names: 'Ada "Lovelace"\n', amount: 10.5 });
  });
});
