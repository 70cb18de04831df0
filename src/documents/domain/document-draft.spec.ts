import { DomainException } from '../../common/domain.exception';
import { Decimal } from '../../common/money/decimal';
import { DocumentRecord } from '../entities/document-columns';
import { DocumentFields, draftColumns, draftDocument, ExistingDocument } from './document-draft';
import { LineInput } from './document-totals';

const d = (value: string) => new Decimal(value);
const client = {
  id: 7,
  names: 'Ada Lovelace',
  phone: '+44 1',
  address: '1 Analytical Way',
  taxId: 'GB123456789',
  country: 'GB',
  email: '',
  language: '',
  buyerReference: '',
};
const defaults = { currency: 'USD', today: '2026-03-01', taxName: 'Tax' };
const item = (quantity: string, rate: string): LineInput => ({
  description: 'Work',
  quantity: d(quantity),
  rate: d(rate),
  unit: 'C62',
  discountPercent: null,
  discountAmount: null,
  taxes: null,
});

function input(fields: Partial<DocumentFields> = {}): DocumentFields {
  return { client: '7', items: [item('2', '10.005')], ...fields };
}

function stored(): ExistingDocument {
  const record = Object.assign(new (class extends DocumentRecord {})(), {
    clientId: 7,
    description: 'Stored',
    currency: 'EUR',
    taxRate: d('5'),
    issueDate: '2026-01-10',
    dueDate: '2026-02-10',
    note: 'Stored note',
    discountPercent: null,
    discountAmount: d('0'),
    pricesIncludeTax: false,
    supplyDate: null,
    periodStart: null,
    periodEnd: null,
  });
  return { record, lines: [item('1', '4')] };
}

function refusal(draft: () => unknown): DomainException {
  try {
    draft();
  } catch (error) {
    if (error instanceof DomainException) return error;
    throw error;
  }
  throw new Error('the draft was accepted');
}

describe('draftDocument', () => {
  it('refuses a missing client with UNKNOWN_CLIENT, naming the input', () => {
    const error = refusal(() => draftDocument(input({ client: '0042' }), null, null, defaults));
    expect(error.code).toBe('UNKNOWN_CLIENT');
    expect(error.message).toBe('Client 0042 does not exist');
    expect(error.errors).toEqual({ client: ['client 0042 does not exist or is archived'] });
  });

  it('copies the customer from the client and takes the defaults', () => {
    const draft = draftDocument(input(), null, client, defaults);
    expect(draft).toMatchObject({
      clientId: 7,
      customerName: 'Ada Lovelace',
      customerPhone: '+44 1',
      customerAddress: '1 Analytical Way',
      customerTaxId: 'GB123456789',
      customerCountry: 'GB',
      description: '',
      currency: 'USD',
      issueDate: '2026-03-01',
      dueDate: '2026-03-01',
      note: '',
    });
    expect(draft.taxRate.toFixed()).toBe('0');
    expect(draft.lines.map((line) => line.amount.toFixed())).toEqual(['20.01']);
    expect(draft.total.toFixed()).toBe('20.01');
  });

  it('keeps the stored fields and lines an update leaves out', () => {
    const draft = draftDocument({ client: '7', items: undefined }, stored(), client, defaults);
    expect(draft).toMatchObject({
      description: 'Stored',
      currency: 'EUR',
      issueDate: '2026-01-10',
      dueDate: '2026-02-10',
      note: 'Stored note',
    });
    expect(draft.subTotal.toFixed()).toBe('4');
    expect(draft.taxAmount.toFixed()).toBe('0.2');
  });

  it('lets a new issue date without a due date take the issue date as due date', () => {
    const draft = draftDocument(input({ issue_date: '2026-05-05' }), stored(), client, defaults);
    expect([draft.issueDate, draft.dueDate]).toEqual(['2026-05-05', '2026-05-05']);
  });

  it('refuses a due date before the issue date', () => {
    const error = refusal(() =>
      draftDocument(
        input({ issue_date: '2026-03-02', due_date: '2026-03-01' }),
        null,
        client,
        defaults,
      ),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors).toEqual({ due_date: ['due_date must not be before issue_date'] });
  });

  it('refuses amounts that reach 10^13, naming each', () => {
    const error = refusal(() =>
      draftDocument(
        input({ items: [item('1', '1'), item('10', '1000000000000')] }),
        null,
        client,
        defaults,
      ),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors).toEqual({
      'items.1.amount': ['items.1.amount must be below 10000000000000'],
      total: ['total must be below 10000000000000'],
    });
  });
});

describe('draftColumns', () => {
  it('holds exactly the columns a draft decides', () => {
    const columns = draftColumns(draftDocument(input(), null, client, defaults));
    expect(Object.keys(columns).sort()).toEqual(
      [
        'clientId',
        'currency',
        'customerAddress',
        'customerCountry',
        'customerName',
        'customerPhone',
        'customerTaxId',
        'description',
        'discountAmount',
        'discountPercent',
        'dueDate',
        'issueDate',
        'note',
        'periodEnd',
        'periodStart',
        'pricesIncludeTax',
        'subTotal',
        'supplyDate',
        'taxAmount',
        'taxName',
        'taxRate',
        'total',
      ].sort(),
    );
  });
});
