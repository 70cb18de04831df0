import { LosslessNumber } from 'lossless-json';
import { changesBetween } from './changes';

describe('changesBetween', () => {
  it('compares the record field by field and other parts whole, leaving logs out', () => {
    const before = {
      invoice: [{ id: '1', total: new LosslessNumber('10.50'), note: 'a' }],
      items: [{ description: 'x' }],
      payments: [],
    };
    const after = {
      invoice: [{ id: '1', total: new LosslessNumber('10.5'), note: 'a' }],
      items: [{ description: 'y' }],
      payments: [{ amount: 1 }],
    };
    expect(changesBetween(before, after)).toEqual({
      total: [before.invoice[0].total, after.invoice[0].total],
      items: [before.items, after.items],
    });
  });

  it('finds nothing between equal answers, and treats a missing field as null', () => {
    expect(changesBetween({ data: [{ a: 1 }] }, { data: [{ a: 1 }] })).toEqual({});
    expect(changesBetween({ data: [{ a: 1 }] }, { data: [{ a: 1, b: 'x' }] })).toEqual({
      b: [null, 'x'],
    });
  });
});
