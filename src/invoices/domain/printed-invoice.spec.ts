import { Decimal } from '../../common/money/decimal';
import { StatusFacts } from './invoice-status';
import { invoiceMark, PrintableLedgerEntry, printedLedger } from './printed-invoice';

const today = '2026-11-25';

function facts(fields: Partial<StatusFacts> = {}): StatusFacts {
  return {
    draft: false,
    voidedAt: null,
    paymentStatus: 'Not Paid',
    total: new Decimal('100'),
    amountPaid: new Decimal('0'),
    dueDate: '2026-11-01',
    ...fields,
  };
}

function entry(id: number, fields: Partial<PrintableLedgerEntry> = {}): PrintableLedgerEntry {
  return {
    id,
    status: 'Completed',
    amount: new Decimal('10'),
    paymentDate: '2026-11-01',
    reference: `PAY-${id}`,
    creditNoteId: null,
    ...fields,
  };
}

describe('invoiceMark', () => {
  it('marks a void invoice void, whatever else holds', () => {
    expect(invoiceMark(facts({ voidedAt: new Date(), paymentStatus: 'Paid' }), today)).toBe('void');
  });

  it('marks a Paid invoice paid, with or without a balance', () => {
    expect(invoiceMark(facts({ paymentStatus: 'Paid' }), today)).toBe('paid');
    const settled = facts({ paymentStatus: 'Paid', amountPaid: new Decimal('100') });
    expect(invoiceMark(settled, today)).toBe('paid');
  });

  it('marks nothing while it is open or overdue, settled but Not Paid included', () => {
    expect(invoiceMark(facts({ dueDate: '2026-12-01' }), today)).toBeUndefined();
    expect(invoiceMark(facts(), today)).toBeUndefined();
    expect(invoiceMark(facts({ amountPaid: new Decimal('100') }), today)).toBeUndefined();
  });
});

describe('printedLedger', () => {
  it('names each kind, keeps amounts positive and exact, and takes the payment date', () => {
    const printed = printedLedger(
      [
        entry(1, { amount: new Decimal('60.5'), paymentDate: '2026-11-02' }),
        entry(2, { status: 'Refunded', amount: new Decimal('0.5'), reference: 'RFD-2' }),
        entry(3, { status: 'Credited', amount: new Decimal('39.5'), creditNoteId: 9 }),
      ],
      new Map(),
    );
    expect(printed.map(({ amount, ...rest }) => ({ ...rest, amount: amount.toFixed() }))).toEqual([
      { kind: 'refund', date: '2026-11-01', amount: '0.5', reference: 'RFD-2' },
      { kind: 'credit', date: '2026-11-01', amount: '39.5', reference: 'PAY-3' },
      { kind: 'payment', date: '2026-11-02', amount: '60.5', reference: 'PAY-1' },
    ]);
  });

  it('lists oldest first by date, entries of one date in the order they were recorded', () => {
    const printed = printedLedger(
      [
        entry(4, { paymentDate: '2026-10-05' }),
        entry(7, { paymentDate: '2026-09-30' }),
        entry(5, { paymentDate: '2026-10-05' }),
        entry(2, { paymentDate: '2026-10-05' }),
      ],
      new Map(),
    );
    expect(printed.map((line) => line.reference)).toEqual(['PAY-7', 'PAY-2', 'PAY-4', 'PAY-5']);
  });

  it("names a credit by its credit note's number when given, never a payment or refund", () => {
    const numbers = new Map([[9, 'CN-2026-001']]);
    const printed = printedLedger(
      [
        entry(1, { status: 'Refunded', creditNoteId: 9, reference: 'RFD-1' }),
        entry(2, { status: 'Credited', creditNoteId: 9, reference: 'CRD-2' }),
        entry(3, { status: 'Credited', creditNoteId: 10, reference: 'CRD-3' }),
      ],
      numbers,
    );
    expect(printed.map((line) => line.reference)).toEqual(['RFD-1', 'CN-2026-001', 'CRD-3']);
  });

  it('lists nothing for an empty ledger, and leaves out a status it does not know', () => {
    expect(printedLedger([], new Map())).toEqual([]);
    const unknown = entry(1, { status: 'Voided' as PrintableLedgerEntry['status'] });
    expect(printedLedger([unknown, entry(2)], new Map()).map((line) => line.reference)).toEqual([
      'PAY-2',
    ]);
  });

  it('leaves the entries it is given in their order', () => {
    const entries = [entry(2, { paymentDate: '2026-11-02' }), entry(1)];
    printedLedger(entries, new Map());
    expect(entries.map((line) => line.id)).toEqual([2, 1]);
  });
});
