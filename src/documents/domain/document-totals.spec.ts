import { Decimal } from '../../common/money/decimal';
import { defaultTax } from './document-draft';
import {
  LineInput,
  moneyOverLimit,
  outstandingBalance,
  priceDocument as price,
} from './document-totals';

const line = (quantity: string, rate: string): LineInput => ({
  description: 'x',
  quantity: new Decimal(quantity),
  rate: new Decimal(rate),
  unit: 'C62',
  discountPercent: null,
  discountAmount: null,
  taxes: null,
});

/** The specification's pricing: one tax rate for the document, no discount, net prices. */
function priceDocument(lines: LineInput[], taxRate: Decimal, currency: string) {
  return price(lines, {
    currency,
    defaultTax: defaultTax(taxRate, 'Tax'),
    discountPercent: null,
    discountAmount: null,
    pricesIncludeTax: false,
  });
}

describe('priceDocument', () => {
  it('multiplies, sums and adds tax exactly', () => {
    const totals = priceDocument([line('3', '0.1'), line('1', '0.2')], new Decimal('0'), 'USD');
    expect(totals.lines.map((priced) => priced.amount.toFixed())).toEqual(['0.3', '0.2']);
    expect(totals.subTotal.toFixed()).toBe('0.5');
    expect(totals.total.toFixed()).toBe('0.5');
  });

  it('rounds each line half away from zero to the minor units', () => {
    // 1.005 is 1.00499999... as a binary float; exact decimal arithmetic rounds it up.
    const totals = priceDocument([line('1', '1.005'), line('0.5', '0.125')], new Decimal(0), 'USD');
    expect(totals.lines.map((priced) => priced.amount.toFixed(2))).toEqual(['1.01', '0.06']);
    expect(totals.subTotal.toFixed(2)).toBe('1.07');
  });

  it('rounds tax once, on the sub-total', () => {
    const totals = priceDocument(
      [line('1', '10.00'), line('1', '10.05')],
      new Decimal('7.5'),
      'USD',
    );
    // 20.05 × 7.5% = 1.50375 → 1.50
    expect(totals.taxAmount.toFixed(2)).toBe('1.50');
    expect(totals.total.toFixed(2)).toBe('21.55');
  });

  it('uses the currency minor units: JPY 0, KWD 3', () => {
    const yen = priceDocument([line('3', '333.5')], new Decimal('10'), 'JPY');
    expect(yen.lines[0].amount.toFixed()).toBe('1001'); // 1000.5 → 1001
    expect(yen.taxAmount.toFixed()).toBe('100'); // 100.1 → 100
    expect(yen.total.toFixed()).toBe('1101');
    const dinar = priceDocument([line('1.5', '0.3335')], new Decimal('0'), 'KWD');
    expect(dinar.lines[0].amount.toFixed()).toBe('0.5'); // 0.50025 → 0.500
  });

  it('keeps exactness for large values with four decimals', () => {
    const totals = priceDocument([line('9999.9999', '999999999.9999')], new Decimal('0'), 'USD');
    // 9999999899999.00000001: seventeen significant digits, beyond a double.
    expect(totals.lines[0].amount.toFixed(2)).toBe('9999999899999.00');
    // 7 × 1.005 = 7.035 exactly; as binary floats it is 7.0349999… and rounds down.
    expect(priceDocument([line('7', '1.0050')], new Decimal(0), 'USD').total.toFixed(2)).toBe(
      '7.04',
    );
  });

  it('reports money values that reach 10^13', () => {
    const totals = priceDocument(
      [line('1', '9999999999999'), line('1', '1')],
      new Decimal(0),
      'USD',
    );
    expect(moneyOverLimit(totals)).toEqual(['total']);
    const huge = priceDocument([line('100000', '100000000')], new Decimal(0), 'USD');
    expect(moneyOverLimit(huge)).toEqual(['items.0.amount', 'total']);
  });
});

describe('outstandingBalance', () => {
  it('is total minus amount paid', () => {
    expect(outstandingBalance(new Decimal('100.10'), new Decimal('0.1')).toFixed(2)).toBe('100.00');
  });
});
