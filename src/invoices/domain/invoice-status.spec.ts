import { Decimal } from '../../common/money/decimal';
import { invoiceStatus, StatusFacts } from './invoice-status';

const today = '2026-11-25';

function facts(fields: Partial<StatusFacts> & { paid?: string } = {}): StatusFacts {
  return {
    voidedAt: null,
    paymentStatus: 'Not Paid',
    total: new Decimal('100'),
    amountPaid: new Decimal(fields.paid ?? '0'),
    dueDate: today,
    ...fields,
  };
}

describe('invoiceStatus', () => {
  it('is void first, whatever else holds', () => {
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
