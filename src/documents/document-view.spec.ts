import { Decimal } from '../common/money/decimal';
import {
  DocumentLineItemRecord,
  DocumentRecord,
  DocumentTaxGroupRecord,
} from './entities/document-columns';
import { documentLocale } from './i18n/document-messages';
import { DOCUMENT_LOCALES } from '../document-vocabulary/document-locale';
import { toDocumentView } from './document-view';

const d = (value: string) => new Decimal(value);

function record(fields: Partial<DocumentRecord> = {}): DocumentRecord {
  return Object.assign(new (class extends DocumentRecord {})(), {
    customerName: 'Ada Lovelace',
    customerPhone: '+44 1',
    customerAddress: '1 Analytical Way',
    customerTaxId: 'GB123456789',
    customerCountry: 'GB',
    description: 'Consulting',
    currency: 'JPY',
    taxRate: d('10'),
    taxName: 'Tax',
    subTotal: d('1000'),
    discountPercent: null,
    discountAmount: d('0'),
    pricesIncludeTax: false,
    supplyDate: null,
    periodStart: null,
    periodEnd: null,
    taxAmount: d('100'),
    total: d('1100'),
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    note: '',
    ...fields,
  });
}

function lineRecord(fields: Partial<DocumentLineItemRecord> = {}): DocumentLineItemRecord {
  return Object.assign(new (class extends DocumentLineItemRecord {})(), {
    description: 'Work',
    quantity: d('2'),
    rate: d('500'),
    amount: d('1000'),
    unit: 'C62',
    discountPercent: null,
    discountAmount: d('0'),
    taxes: null,
    ...fields,
  });
}

const line = lineRecord();

function group(fields: Partial<DocumentTaxGroupRecord>): DocumentTaxGroupRecord {
  return Object.assign(new (class extends DocumentTaxGroupRecord {})(), {
    name: 'Tax',
    category: 'S',
    rate: d('10'),
    taxableAmount: d('1000'),
    taxAmount: d('100'),
    exemptionReason: '',
    exemptionCode: '',
    ...fields,
  });
}

/** The breakdown of record(): one group at its default rate. */
const BREAKDOWN = [group({})];

describe('toDocumentView', () => {
  it('prints the customer as copied, tax id and country included, in the locale given', () => {
    const view = toDocumentView('estimate', 'E-1', record(), [line], {
      locale: 'de',
      breakdown: BREAKDOWN,
    });
    expect(view.locale).toBe('de');
    expect(view.customer).toEqual({
      name: 'Ada Lovelace',
      phone: '+44 1',
      address: '1 Analytical Way',
      taxId: 'GB123456789',
      country: 'GB',
    });
    expect(view).not.toHaveProperty('mark');
    expect(view).not.toHaveProperty('ledger');
    expect(view).not.toHaveProperty('amountPaid');
  });

  it("prints '' for a customer without tax id or country", () => {
    const view = toDocumentView(
      'credit_note',
      'CN-1',
      record({ customerTaxId: '', customerCountry: '' }),
      [line],
      { locale: 'en', breakdown: BREAKDOWN, corrects: 'INV-1', reason: 'Returned' },
    );
    expect(view.customer).toMatchObject({ taxId: '', country: '' });
    expect(view).toMatchObject({ corrects: 'INV-1', reason: 'Returned' });
  });

  it("prints an invoice's mark and its ledger, amounts in the currency's minor digits", () => {
    const view = toDocumentView('invoice', 'INV-1', record({ currency: 'USD' }), [line], {
      locale: 'en',
      breakdown: BREAKDOWN,
      amountPaid: d('20'),
      mark: 'paid',
      ledger: [
        { kind: 'payment', date: '2026-03-02', amount: d('25'), reference: 'PAY-1' },
        { kind: 'refund', date: '2026-03-03', amount: d('5.5'), reference: 'RFD-2' },
      ],
    });
    expect(view).toMatchObject({ mark: 'paid', amountPaid: '20.00', balanceDue: '1080.00' });
    expect(view.ledger).toEqual([
      { kind: 'payment', date: '2026-03-02', amount: '25.00', reference: 'PAY-1' },
      { kind: 'refund', date: '2026-03-03', amount: '5.50', reference: 'RFD-2' },
    ]);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it('prints a plain document’s line with its unit, no discount and the default tax', () => {
    const view = toDocumentView('invoice', 'INV-1', record({ currency: 'EUR' }), [line], {
      locale: 'en',
      breakdown: BREAKDOWN,
    });
    expect(view.lines).toEqual([
      {
        description: 'Work',
        quantity: '2',
        rate: '500.00',
        amount: '1000.00',
        unit: 'C62',
        discount: '0.00',
        taxes: [{ name: 'Tax', category: 'S', rate: '10' }],
      },
    ]);
    expect(view).toMatchObject({ discount: '0.00', pricesIncludeTax: false, taxRate: '10' });
    expect(view).not.toHaveProperty('discountPercent');
    expect(view).not.toHaveProperty('supplyDate');
    expect(view).not.toHaveProperty('periodStart');
    expect(view.taxBreakdown).toEqual([
      {
        name: 'Tax',
        category: 'S',
        rate: '10',
        taxableAmount: '1000.00',
        taxAmount: '100.00',
        exemptionReason: '',
        exemptionCode: '',
      },
    ]);
  });

  it('prints units, discounts, a line’s own taxes, the period and every group, money in minor digits', () => {
    const lines = [
      lineRecord({
        description: 'Consulting',
        quantity: d('3'),
        rate: d('95'),
        amount: d('256.5'),
        unit: 'HUR',
        discountPercent: d('10'),
        discountAmount: d('28.5'),
        taxes: [
          { name: 'VAT', category: 'S', rate: d('19'), exemptionReason: '', exemptionCode: '' },
        ],
      }),
      lineRecord({
        description: 'Licence',
        quantity: d('1'),
        rate: d('500'),
        amount: d('495'),
        discountAmount: d('5'),
        taxes: [
          {
            name: 'VAT',
            category: 'AE',
            rate: d('0'),
            exemptionReason: 'Reverse charge',
            exemptionCode: 'VATEX-EU-AE',
          },
        ],
      }),
    ];
    const view = toDocumentView(
      'invoice',
      'INV-2',
      record({
        currency: 'EUR',
        subTotal: d('751.5'),
        discountPercent: d('10'),
        discountAmount: d('75.15'),
        pricesIncludeTax: true,
        periodStart: '2026-03-01',
        periodEnd: '2026-03-31',
      }),
      lines,
      {
        locale: 'de',
        breakdown: [
          group({ name: 'VAT', rate: d('19'), taxableAmount: d('230.85'), taxAmount: d('43.86') }),
          group({
            name: 'VAT',
            category: 'AE',
            rate: d('0'),
            taxableAmount: d('445.5'),
            taxAmount: d('0'),
            exemptionReason: 'Reverse charge',
            exemptionCode: 'VATEX-EU-AE',
          }),
        ],
      },
    );
    expect(view.lines[0]).toMatchObject({
      unit: 'HUR',
      amount: '256.50',
      discount: '28.50',
      discountPercent: '10',
      taxes: [{ name: 'VAT', category: 'S', rate: '19' }],
    });
    expect(view.lines[1]).toMatchObject({ unit: 'C62', discount: '5.00' });
    expect(view.lines[1]).not.toHaveProperty('discountPercent');
    expect(view).toMatchObject({
      discount: '75.15',
      discountPercent: '10',
      pricesIncludeTax: true,
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
    });
    expect(view).not.toHaveProperty('supplyDate');
    expect(view.taxBreakdown).toEqual([
      expect.objectContaining({ taxableAmount: '230.85', taxAmount: '43.86', rate: '19' }),
      {
        name: 'VAT',
        category: 'AE',
        rate: '0',
        taxableAmount: '445.50',
        taxAmount: '0.00',
        exemptionReason: 'Reverse charge',
        exemptionCode: 'VATEX-EU-AE',
      },
    ]);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it('prints a date of supply, and no period without both of its ends', () => {
    const view = toDocumentView(
      'invoice',
      'INV-3',
      record({ supplyDate: '2026-03-05', periodStart: '2026-03-01' }),
      [line],
      { locale: 'en', breakdown: BREAKDOWN },
    );
    expect(view.supplyDate).toBe('2026-03-05');
    expect(view).not.toHaveProperty('periodStart');
  });
});

describe('documentLocale', () => {
  it.each([...DOCUMENT_LOCALES])(
    "takes the client's language %s when documents have it",
    (code) => {
      expect(documentLocale(code, 'en')).toBe(code);
    },
  );

  it.each(['', 'zu', 'xx', 'ja'])('falls back for the language %j', (language) => {
    expect(documentLocale(language, 'fr')).toBe('fr');
  });

  it.each(['DE', 'de-AT'])('reads %j as its language', (language) => {
    expect(documentLocale(language, 'fr')).toBe('de');
  });
});
