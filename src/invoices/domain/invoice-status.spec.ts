import fc from 'fast-check';
import { Decimal } from '../../common/money/decimal';
import {
  invoiceStatus,
  OPEN_FOREVER,
  openUntilOf,
  settlementOf,
  statusOf,
  StatusFacts,
} from './invoice-status';

const today = '2026-11-25';

function facts(fields: Partial<StatusFacts> & { paid?: string } = {}): StatusFacts {
  return {
    draft: false,
    voidedAt: null,
    paymentStatus: 'Not Paid',
    total: new Decimal('100'),
    amountPaid: new Decimal(fields.paid ?? '0'),
    dueDate: today,
    ...fields,
  };
}

describe('invoiceStatus', () => {
  it('is draft first, whatever else holds', () => {
    const draft = facts({ draft: true, voidedAt: new Date(), paymentStatus: 'Paid' });
    expect(invoiceStatus(draft, today)).toBe('draft');
  });

  it('is void next, whatever else holds', () => {
    const voided = facts({ voidedAt: new Date(), paymentStatus: 'Paid', dueDate: '2020-01-01' });
    expect(invoiceStatus(voided, today)).toBe('void');
  });

  it('is paid when payment_status is Paid, even with a balance past due', () => {
    expect(invoiceStatus(facts({ paymentStatus: 'Paid', dueDate: '2026-11-24' }), today)).toBe(
      'paid',
    );
  });

  it('is overdue from the day after the due date while a balance is outstanding', () => {
    expect(invoiceStatus(facts({ dueDate: '2026-11-25' }), today)).toBe('open');
    expect(invoiceStatus(facts({ dueDate: '2026-11-24' }), today)).toBe('overdue');
    expect(invoiceStatus(facts({ dueDate: '2026-11-24', paid: '99.99' }), today)).toBe('overdue');
  });

  it('is open past the due date when nothing is outstanding but the flag says Not Paid', () => {
    expect(invoiceStatus(facts({ dueDate: '2020-01-01', paid: '100' }), today)).toBe('open');
  });
});

describe('the stored columns settlement and open_until', () => {
  const date = fc
    .integer({ min: -3, max: 3 })
    .map((days) =>
      new Date(Date.parse('2026-11-25') + days * 86_400_000).toISOString().slice(0, 10),
    );
  const facts = fc.record({
    draft: fc.boolean(),
    voided: fc.boolean(),
    paymentStatus: fc.constantFrom('Paid' as const, 'Not Paid' as const),
    outstanding: fc.boolean(),
    dueDate: date,
  });

  it('read as the status filter reads them, give the status', () => {
    fc.assert(
      fc.property(facts, date, (invoice, today) => {
        const settlement = settlementOf(invoice);
        const openUntil = openUntilOf(invoice);
        const filtered =
          settlement === 'draft' || settlement === 'void' || settlement === 'paid'
            ? settlement
            : openUntil! < today
              ? 'overdue'
              : 'open';
        expect(filtered).toBe(statusOf(invoice, today));
        expect(openUntil === null).toBe(
          settlement === 'draft' || settlement === 'void' || settlement === 'paid',
        );
        expect(openUntil === OPEN_FOREVER).toBe(settlement === 'settled');
      }),
    );
  });
});
