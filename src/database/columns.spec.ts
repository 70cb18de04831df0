import { Decimal } from '../common/money/decimal';
import { MAX_LINE_TAXES } from '../documents/dto/line-item.dto';
import { VAT_CATEGORIES, VATEX_CODES } from '../documents/domain/vat-categories';
import {
  DecimalColumn,
  LINE_TAXES_MAX_LENGTH,
  LineTaxesColumn,
  lineTaxesText,
  LineTaxValue,
} from './columns';
import { getMetadataArgsStorage } from 'typeorm';

/** The longest of a list's values. */
const longest = (values: Iterable<string>) =>
  [...values].reduce((found, value) => (value.length > found.length ? value : found), '');

/** The transformer LineTaxesColumn gives its column. */
function lineTaxesTransformer() {
  class Probe {
    @LineTaxesColumn()
    taxes: LineTaxValue[] | null;
  }
  return transformerOf(Probe);
}

/** The transformer DecimalColumn gives its column. */
function decimalTransformer() {
  class Probe {
    @DecimalColumn()
    amount: Decimal;
  }
  return transformerOf(Probe);
}

function transformerOf(probe: object) {
  const column = getMetadataArgsStorage().columns.find((args) => args.target === probe);
  const transformer = column?.options.transformer;
  if (!transformer || Array.isArray(transformer)) throw new Error('no transformer');
  return transformer;
}

describe('DecimalColumn', () => {
  it('reads each text exactly, one value shared by every row with the same text', () => {
    const { to, from } = decimalTransformer();
    const read = from('1234567890123.4567') as Decimal;
    expect(read.toFixed(4)).toBe('1234567890123.4567');
    expect(from(`${'1234567890123'}.4567`)).toBe(read);
    expect((from('-0.0001') as Decimal).toFixed(4)).toBe('-0.0001');
    expect(from('1.5000')).not.toBe(from('1.5'));
    expect((from('1.5') as Decimal).equals(from('1.5000') as Decimal)).toBe(true);
    expect(from(null)).toBeNull();
    expect(to(new Decimal('2.5'))).toBe('2.5000');
  });

  it('keeps reading exactly past the number of texts it keeps', () => {
    const { from } = decimalTransformer();
    const wrong: string[] = [];
    for (let index = 0; index < 25_000; index++) {
      const text = `${index}.0001`;
      if ((from(text) as Decimal).toFixed(4) !== text) wrong.push(text);
    }
    expect(wrong).toEqual([]);
  });
});

describe('LineTaxesColumn', () => {
  it('holds the longest taxes a line can carry: three, each name and reason at their limits in characters JSON escapes', () => {
    // LineTaxDto: name 1 to 64 characters, exemption_reason 1 to 500; a control character or a
    // lone surrogate is written \uXXXX (six characters).
    const tax: LineTaxValue = {
      name: '\u0001'.repeat(64),
      category: longest(VAT_CATEGORIES),
      rate: new Decimal('99.9999'),
      exemptionReason: '\ud800'.repeat(500),
      exemptionCode: longest(VATEX_CODES),
    };
    const text = lineTaxesText(Array.from({ length: MAX_LINE_TAXES }, () => tax));
    expect(text.length).toBe(10_462);
    expect(text.length).toBeLessThanOrEqual(LINE_TAXES_MAX_LENGTH);
  });

  it('reads a stored text back exactly, one frozen list shared by every line with the same text', () => {
    const { to, from } = lineTaxesTransformer();
    const text = to([
      {
        name: 'GST',
        category: 'S',
        rate: new Decimal('5.0000'),
        exemptionReason: '',
        exemptionCode: '',
      },
    ]) as string;
    expect(text).toBe(
      '[{"name":"GST","category":"S","rate":"5","exemptionReason":"","exemptionCode":""}]',
    );
    const first = from(text) as LineTaxValue[];
    const second = from(`${text}`) as LineTaxValue[];
    expect(second).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
    expect(first[0].rate.equals(5)).toBe(true);
    expect(from(null)).toBeNull();
    expect(to(null)).toBeNull();
  });
});
