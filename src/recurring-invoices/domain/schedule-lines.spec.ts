import { Decimal } from '../../common/money/decimal';
import { lineInputOf } from '../../documents/domain/document-totals';
import { linesFromText, linesToText } from './schedule-lines';

describe('a schedule’s lines as kept', () => {
  it('come back exactly, decimals digit for digit and taxes with their exemptions', () => {
    const line = {
      description: 'Retainer',
      quantity: new Decimal('1.2500'),
      rate: new Decimal('0.3333'),
      unit: 'HUR',
      discountPercent: null,
      discountAmount: new Decimal('0.05'),
      discount: new Decimal('0.05'),
      amount: new Decimal('0.37'),
      taxes: [
        {
          name: 'VAT',
          category: 'E' as const,
          rate: new Decimal('0'),
          exemptionReason: 'Exempt',
          exemptionCode: 'VATEX-EU-132-1A',
        },
      ],
      appliedTaxes: [],
    };
    const [back] = linesFromText(linesToText([line]));
    expect(back.quantity.toFixed()).toBe('1.25');
    expect(back.rate.equals(line.rate)).toBe(true);
    expect(back.amount.toFixed(2)).toBe('0.37');
    expect(back.taxes?.[0]).toEqual({ ...line.taxes[0], rate: new Decimal('0') });
    expect(lineInputOf(back)).toEqual({
      description: 'Retainer',
      quantity: back.quantity,
      rate: back.rate,
      unit: 'HUR',
      discountPercent: null,
      discountAmount: back.discountAmount,
      taxes: back.taxes,
    });
  });

  it('keep a line without taxes of its own as one that takes the default tax', () => {
    const [back] = linesFromText(
      linesToText([
        {
          description: 'Rent',
          quantity: new Decimal(1),
          rate: new Decimal('1200'),
          unit: 'C62',
          discountPercent: new Decimal('10'),
          discountAmount: null,
          discount: new Decimal('120'),
          amount: new Decimal('1080'),
          taxes: null,
          appliedTaxes: [],
        },
      ]),
    );
    expect(back.taxes).toBeNull();
    expect(back.discountPercent?.toFixed()).toBe('10');
    expect(back.discount.toFixed()).toBe('120');
  });
});
