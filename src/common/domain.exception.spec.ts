import { DomainException } from './domain.exception';

describe('DomainException', () => {
  it('cannot raise a 422 code without errors naming a field', () => {
    // The check is the compiler's: this file stops compiling if the next line ever type-checks.
    // @ts-expect-error docs/rules.md: every 422 names its fields in `errors`.
    const forgotten = () => new DomainException('TOTAL_BELOW_AMOUNT_PAID', 'below');
    const named = new DomainException('TOTAL_BELOW_AMOUNT_PAID', 'below', { items: ['below'] });
    expect(typeof forgotten).toBe('function');
    expect(named.errors).toEqual({ items: ['below'] });
  });
});
