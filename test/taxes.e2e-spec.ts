import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { CreditNoteWriteResult, readCreditNote } from './factories/credit-notes';
import { EstimateWriteResult, readEstimate } from './factories/estimates';
import {
  addInvoice,
  InvoiceDetail,
  InvoiceOutput,
  InvoiceWriteResult,
  LINE_READ_KEYS,
  LineItemRead,
  LineTaxRead,
  listInvoices,
  plainReadLine,
  plainTaxBreakdown,
  plainTaxTerms,
  readInvoice,
  zeroMoney,
} from './factories/invoices';
import {
  minorUnits,
  postTaxedCreditNote,
  postTaxedEstimate,
  postTaxedInvoice,
  TaxedInvoiceInput,
  taxGroup,
  writtenMoney,
} from './factories/taxes';
import { createTestApp, TestApp } from './setup/create-app';
import { expectSuccess, expectValidationError, keysOf } from './setup/expectations';

/*
 * Taxes, discounts, units, dates of supply (docs/rules.md; EN 16931): lines with taxes of their
 * own, line and document discounts, prices including tax, the VAT breakdown, and how updates,
 * conversions, credit notes and reports carry them, as a back office would try them. Every
 * figure is worked out by hand in the comment beside it, each step rounded half away from zero
 * to the currency's minor units.
 */

/** A tax as a read line answers it: named `Tax` (TAX_NAME's default) unless given. */
const tax = (rate: number, name = 'Tax', category = rate > 0 ? 'S' : 'Z'): LineTaxRead => ({
  name,
  category,
  rate,
});

/** A line as a read answers it: unit C62 and no discount unless given. */
function readLine(
  currency: string,
  line: Pick<LineItemRead, 'description' | 'quantity' | 'rate' | 'amount' | 'taxes'> &
    Partial<LineItemRead>,
): LineItemRead {
  return {
    unit: 'C62',
    discount_percent: null,
    discount_amount: zeroMoney(currency),
    ...line,
  };
}

/** An invoice of the list or an add answer as the read answers it: without timestamps. */
function asRead(invoice: InvoiceOutput): Omit<InvoiceOutput, 'created_at' | 'updated_at'> {
  const { created_at: _created, updated_at: _updated, ...fields } = invoice;
  return fields;
}

describe('Taxes, discounts, units, dates of supply', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const invoiceIds = async () => (await listInvoices(test.http)).map((invoice) => invoice.id);
  const listed = async (id: string) =>
    (await listInvoices(test.http)).find((invoice) => invoice.id === id);
  /** An add that must be accepted: the answer, and its body. */
  const added = async (input: TaxedInvoiceInput) => {
    const response = await postTaxedInvoice(test.http, input);
    return { response, body: expectSuccess(response) as unknown as InvoiceWriteResult };
  };
  const readResponse = async (id: string): Promise<{ response: Response; body: InvoiceDetail }> => {
    const response = await test.http.get(`/v1/invoice/${id}`);
    return { response, body: expectSuccess(response) as unknown as InvoiceDetail };
  };

  describe('Germany, EUR: books at 7 %, software at 19 %', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http, { names: 'Lesezeichen GmbH', country: 'DE' });
    });

    it('shares a 10 % document discount over the two groups; read, add and list agree', async () => {
      const { response, body } = await added({
        client,
        currency: 'EUR',
        tax_rate: 19,
        discount_percent: 10,
        supply_date: '2026-02-27',
        items: [
          {
            description: 'Fachbuch Steuerrecht',
            quantity: 3,
            rate: '24.90',
            taxes: [{ name: 'USt', rate: 7 }],
          },
          {
            description: 'Buchhaltungssoftware, Jahreslizenz',
            quantity: 1,
            rate: '199.99',
            taxes: [{ name: 'USt', rate: 19 }],
          },
        ],
      });

      /*
       * Lines: 3 × 24.90 = 74.70 and 199.99; sub_total 274.69.
       * Discount: 274.69 × 10 % = 27.469 → 27.47, shared in cents by the largest remainder:
       *   books 2747 × 7470 / 27469 = 747.02… → 747, software 2747 × 19999 / 27469 = 1999.97… →
       *   1999; the cent left goes to the larger remainder (software): 7.47 + 20.00 = 27.47.
       * Books:    74.70 − 7.47 = 67.23 taxable, × 7 % = 4.7061 → 4.71.
       * Software: 199.99 − 20.00 = 179.99 taxable, × 19 % = 34.1981 → 34.20.
       * Tax 4.71 + 34.20 = 38.91; total 274.69 − 27.47 + 38.91 = 286.13.
       */
      const breakdown = [
        taxGroup('USt', 'S', 7, '67.23', '4.71'),
        taxGroup('USt', 'S', 19, '179.99', '34.20'),
      ];
      expect(body.tax_breakdown).toEqual(breakdown);
      const [invoice] = body.invoice;
      expect(invoice).toMatchObject({
        currency: 'EUR',
        tax_rate: 19,
        sub_total: 274.69,
        tax_amount: 38.91,
        total: 286.13,
        outstanding_balance: '286.13',
        discount_percent: 10,
        discount_amount: '27.47',
        prices_include_tax: false,
        supply_date: '2026-02-27',
        period_start: '',
        period_end: '',
      });
      expect(writtenMoney(response, 'invoice')).toEqual({
        sub_total: '274.69',
        tax_amount: '38.91',
        total: '286.13',
      });
      // The shares add up: Σ taxable = sub_total − discount, Σ group tax = tax_amount.
      const taxable = breakdown.map((group) => minorUnits(group.taxable_amount));
      expect(taxable.reduce((a, b) => a + b)).toBe(minorUnits('274.69') - minorUnits('27.47'));
      const taxes = breakdown.map((group) => minorUnits(group.tax_amount));
      expect(taxes.reduce((a, b) => a + b)).toBe(minorUnits('38.91'));

      const read = await readResponse(invoice.id);
      expect(read.body.invoice).toEqual([asRead(invoice)]);
      expect(read.body.tax_breakdown).toEqual(breakdown);
      expect(read.body.items).toEqual([
        readLine('EUR', {
          description: 'Fachbuch Steuerrecht',
          quantity: 3,
          rate: '24.90',
          amount: '74.70',
          taxes: [tax(7, 'USt')],
        }),
        readLine('EUR', {
          description: 'Buchhaltungssoftware, Jahreslizenz',
          quantity: 1,
          rate: '199.99',
          amount: '199.99',
          taxes: [tax(19, 'USt')],
        }),
      ]);
      for (const item of read.body.items) expect(keysOf(item)).toEqual(LINE_READ_KEYS);
      expect(writtenMoney(read.response, 'invoice')).toEqual(writtenMoney(response, 'invoice'));
      expect(await listed(invoice.id)).toEqual(invoice);
    });

    it('three equal sets share a discount cent by cent, the cent left to the first', async () => {
      const { body } = await added({
        client,
        currency: 'EUR',
        tax_rate: 19,
        discount_amount: '0.10',
        items: [
          { description: 'Zeitschrift', quantity: 1, rate: '10.00', taxes: [{ rate: 0 }] },
          { description: 'Buch', quantity: 1, rate: '10.00', taxes: [{ rate: 7 }] },
          { description: 'Software', quantity: 1, rate: '10.00' },
        ],
      });
      /*
       * 10 cents over three sets of 10.00: 3.33… cents each, floors 3 + 3 + 3, the cent left to
       * the first of three equal remainders: shares 0.04, 0.03, 0.03.
       * Z 0 %: 9.96, no tax; 7 %: 9.97 × 7 % = 0.6979 → 0.70; 19 %: 9.97 × 19 % = 1.8943 → 1.89.
       * Total 30.00 − 0.10 + 2.59 = 32.49.
       */
      expect(body.tax_breakdown).toEqual([
        taxGroup('Tax', 'Z', 0, '9.96', '0.00'),
        taxGroup('Tax', 'S', 7, '9.97', '0.70'),
        taxGroup('Tax', 'S', 19, '9.97', '1.89'),
      ]);
      expect(body.invoice[0]).toMatchObject({
        sub_total: 30,
        discount_percent: null,
        discount_amount: '0.10',
        tax_amount: 2.59,
        total: 32.49,
      });
    });
  });

  describe('Canada, CAD: GST 5 % and PST 7 % on one line', () => {
    let client: string;
    const gstAndPst = [
      { name: 'GST', rate: 5 },
      { name: 'PST', rate: 7 },
    ];

    beforeAll(async () => {
      client = await createClient(test.http, { names: 'Maple Supplies Ltd', country: 'CA' });
    });

    it('the line counts in both groups with its full amount', async () => {
      const { response, body } = await added({
        client,
        currency: 'CAD',
        tax_rate: 5,
        items: [
          { description: 'Office chair', quantity: 2, rate: '45.50', taxes: gstAndPst },
          {
            description: 'Delivery',
            quantity: 1,
            rate: '120.00',
            taxes: [{ name: 'GST', rate: 5 }],
          },
        ],
      });
      /*
       * Chair 2 × 45.50 = 91.00 (GST and PST); delivery 120.00 (GST only); sub_total 211.00.
       * GST: 91.00 + 120.00 = 211.00 taxable, × 5 % = 10.55.
       * PST: 91.00 taxable (the chair's whole amount again), × 7 % = 6.37.
       * Tax 16.92; total 227.92.
       */
      const breakdown = [
        taxGroup('GST', 'S', 5, '211.00', '10.55'),
        taxGroup('PST', 'S', 7, '91.00', '6.37'),
      ];
      expect(body.tax_breakdown).toEqual(breakdown);
      expect(body.invoice[0]).toMatchObject({ tax_rate: 5, ...plainTaxTerms('CAD') });
      expect(writtenMoney(response, 'invoice')).toEqual({
        sub_total: '211.00',
        tax_amount: '16.92',
        total: '227.92',
      });

      const read = await readInvoice(test.http, body.invoice[0].id);
      expect(read.tax_breakdown).toEqual(breakdown);
      expect(read.items.map((item) => item.taxes)).toEqual([
        [tax(5, 'GST'), tax(7, 'PST')],
        [tax(5, 'GST')],
      ]);
    });

    it('a document discount is shared over the lines’ tax sets, the twice-taxed line once', async () => {
      const { response, body } = await added({
        client,
        currency: 'CAD',
        tax_rate: 5,
        discount_percent: 10,
        items: [
          { description: 'Office chair', quantity: 2, rate: '45.50', taxes: gstAndPst },
          {
            description: 'Delivery',
            quantity: 1,
            rate: '120.00',
            taxes: [{ name: 'GST', rate: 5 }],
          },
        ],
      });
      /*
       * 211.00 × 10 % = 21.10, over the sets {GST, PST} 91.00 and {GST} 120.00: 9.10 and 12.00.
       * GST: (91.00 − 9.10) + (120.00 − 12.00) = 189.90, × 5 % = 9.495 → 9.50.
       * PST: 91.00 − 9.10 = 81.90, × 7 % = 5.733 → 5.73.
       * Tax 15.23; total 211.00 − 21.10 + 15.23 = 205.13.
       */
      expect(body.tax_breakdown).toEqual([
        taxGroup('GST', 'S', 5, '189.90', '9.50'),
        taxGroup('PST', 'S', 7, '81.90', '5.73'),
      ]);
      expect(writtenMoney(response, 'invoice')).toEqual({
        sub_total: '211.00',
        tax_amount: '15.23',
        total: '205.13',
      });
      expect(body.invoice[0]).toMatchObject({ discount_percent: 10, discount_amount: '21.10' });
    });
  });

  it('Japan, JPY: 8 % and 10 % lines in whole yen', async () => {
    const client = await createClient(test.http, { names: 'Sakura Shokuhin KK', country: 'JP' });
    const { response, body } = await added({
      client,
      currency: 'JPY',
      tax_rate: 10,
      items: [
        { description: 'Green tea', quantity: 3, rate: 1280, taxes: [{ rate: 8 }] },
        { description: 'Rice', quantity: '2.5', rate: 333, unit: 'KGM', taxes: [{ rate: 8 }] },
        { description: 'Teapot', quantity: 1, rate: 2980 },
      ],
    });
    /*
     * Tea 3 × 1280 = 3840; rice 2.5 × 333 = 832.5 → 833; teapot 2980 at the default 10 %.
     * 8 %: 3840 + 833 = 4673, × 8 % = 373.84 → 374. 10 %: 2980 × 10 % = 298.
     * sub_total 7653; tax 672; total 8325.
     */
    const breakdown = [
      taxGroup('Tax', 'S', 8, '4673', '374'),
      taxGroup('Tax', 'S', 10, '2980', '298'),
    ];
    expect(body.tax_breakdown).toEqual(breakdown);
    expect(writtenMoney(response, 'invoice')).toEqual({
      sub_total: '7653',
      tax_amount: '672',
      total: '8325',
    });
    expect(body.invoice[0]).toMatchObject({
      amount_paid: '0',
      outstanding_balance: '8325',
      discount_amount: '0',
    });

    const read = await readInvoice(test.http, body.invoice[0].id);
    expect(read.tax_breakdown).toEqual(breakdown);
    expect(read.items).toEqual([
      readLine('JPY', {
        description: 'Green tea',
        quantity: 3,
        rate: '1280',
        amount: '3840',
        taxes: [tax(8)],
      }),
      readLine('JPY', {
        description: 'Rice',
        quantity: 2.5,
        rate: '333',
        amount: '833',
        unit: 'KGM',
        taxes: [tax(8)],
      }),
      readLine('JPY', {
        description: 'Teapot',
        quantity: 1,
        rate: '2980',
        amount: '2980',
        taxes: [tax(10)],
      }),
    ]);
  });

  it('KWD (3 minor digits): line discounts by percent and by amount, half away from zero', async () => {
    const client = await createClient(test.http, { names: 'Gulf Office Co', country: 'KW' });
    const { response, body } = await added({
      client,
      currency: 'KWD',
      tax_rate: 5,
      items: [
        { description: 'Toner', quantity: 3, rate: '1.2345', discount_percent: '6.25' },
        { description: 'Paper', quantity: 2, rate: '5.250', discount_amount: '0.125' },
        { description: 'Binder clips', quantity: 1, rate: '1.003' },
      ],
    });
    /*
     * Toner: 3 × 1.2345 = 3.7035 → 3.704; 6.25 % of it = 0.2315 → 0.232; amount 3.472.
     * Paper: 2 × 5.250 = 10.500 − 0.125 = 10.375.
     * Clips: 1.003.
     * sub_total 14.850; × 5 % = 0.7425 → 0.743; total 15.593.
     */
    const breakdown = [taxGroup('Tax', 'S', 5, '14.850', '0.743')];
    expect(body.tax_breakdown).toEqual(breakdown);
    expect(writtenMoney(response, 'invoice')).toEqual({
      sub_total: '14.850',
      tax_amount: '0.743',
      total: '15.593',
    });
    expect(body.invoice[0]).toMatchObject({
      discount_percent: null,
      discount_amount: '0.000',
      outstanding_balance: '15.593',
    });

    const read = await readInvoice(test.http, body.invoice[0].id);
    expect(read.tax_breakdown).toEqual(breakdown);
    expect(read.items).toEqual([
      readLine('KWD', {
        description: 'Toner',
        quantity: 3,
        rate: '1.2345',
        amount: '3.472',
        discount_percent: 6.25,
        discount_amount: '0.232',
        taxes: [tax(5)],
      }),
      readLine('KWD', {
        description: 'Paper',
        quantity: 2,
        rate: '5.250',
        amount: '10.375',
        discount_amount: '0.125',
        taxes: [tax(5)],
      }),
      readLine('KWD', {
        description: 'Binder clips',
        quantity: 1,
        rate: '1.003',
        amount: '1.003',
        taxes: [tax(5)],
      }),
    ]);
  });

  describe('prices including tax, EUR 19 %', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http, { names: 'Bergsport Huber', country: 'DE' });
    });

    it('splits each group’s gross; the total is the gross less the discount, exactly', async () => {
      const { response, body } = await added({
        client,
        currency: 'EUR',
        tax_rate: 19,
        prices_include_tax: true,
        discount_amount: '5.00',
        items: [
          { description: 'Wanderschuhe', quantity: 2, rate: '59.99' },
          { description: 'Socken', quantity: 3, rate: '12.50', discount_percent: 10 },
          { description: 'Wanderkarte', quantity: 1, rate: '21.40', taxes: [{ rate: 7 }] },
        ],
      });
      /*
       * Gross lines: 2 × 59.99 = 119.98; 3 × 12.50 = 37.50 − 10 % (3.75) = 33.75; 21.40.
       * sub_total 175.13. Discount 5.00 shared over the sets 153.73 (19 %) and 21.40 (7 %):
       *   500 × 15373 / 17513 = 438.90… → 438, 500 × 2140 / 17513 = 61.09… → 61; the cent left
       *   to the larger remainder (19 %): 4.39 and 0.61.
       * 19 %: G = 153.73 − 4.39 = 149.34; taxable 149.34 × 100 / 119 = 125.4958 → 125.50;
       *   tax 149.34 − 125.50 = 23.84.
       * 7 %:  G = 21.40 − 0.61 = 20.79; taxable 20.79 × 100 / 107 = 19.4299 → 19.43;
       *   tax 20.79 − 19.43 = 1.36.
       * Tax 25.20; total 175.13 − 5.00 = 170.13 (= 125.50 + 23.84 + 19.43 + 1.36).
       */
      const breakdown = [
        taxGroup('Tax', 'S', 19, '125.50', '23.84'),
        taxGroup('Tax', 'S', 7, '19.43', '1.36'),
      ];
      expect(body.tax_breakdown).toEqual(breakdown);
      expect(writtenMoney(response, 'invoice')).toEqual({
        sub_total: '175.13',
        tax_amount: '25.20',
        total: '170.13',
      });
      expect(body.invoice[0]).toMatchObject({
        prices_include_tax: true,
        discount_percent: null,
        discount_amount: '5.00',
        outstanding_balance: '170.13',
      });

      const read = await readInvoice(test.http, body.invoice[0].id);
      expect(read.tax_breakdown).toEqual(breakdown);
      expect(read.invoice[0]).toEqual(asRead(body.invoice[0]));
      expect(
        read.items.map(({ rate, amount, discount_amount }) => [rate, amount, discount_amount]),
      ).toEqual([
        ['59.99', '119.98', '0.00'],
        ['12.50', '33.75', '3.75'],
        ['21.40', '21.40', '0.00'],
      ]);
    });

    it('refuses a line with two taxes (422) and adds nothing', async () => {
      const before = await invoiceIds();
      const response = await postTaxedInvoice(test.http, {
        client,
        currency: 'EUR',
        tax_rate: 19,
        prices_include_tax: true,
        items: [
          {
            description: 'Bundle',
            quantity: 1,
            rate: '119.00',
            taxes: [{ rate: 19 }, { name: 'Öko', rate: 2 }],
          },
        ],
      });
      expectValidationError(response, ['items.0.taxes']);
      expect(await invoiceIds()).toEqual(before);
    });
  });

  describe('EU reverse charge, exemptions and refusals', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http, {
        names: 'Alpenbau GmbH',
        country: 'AT',
        language: 'de',
      });
    });

    it('three taxes at their longest, in characters JSON writes in six, are stored and read back whole', async () => {
      // The longest taxes text a line can hold (LINE_TAXES_MAX_LENGTH, a VARCHAR on MariaDB):
      // 64-character names and 500-character reasons, all but their last character \u0001.
      const long = (last: string, length: number) => `${'\u0001'.repeat(length - 1)}${last}`;
      const marks = ['a', 'b', 'c'];
      const { body } = await added({
        client,
        currency: 'EUR',
        items: [
          {
            description: 'Exempt three ways',
            quantity: 1,
            rate: '100.00',
            taxes: marks.map((mark) => ({
              name: long(mark, 64),
              category: 'E',
              rate: 0,
              exemption_reason: long(mark, 500),
            })),
          },
        ],
      });
      const breakdown = marks.map((mark) =>
        taxGroup(long(mark, 64), 'E', 0, '100.00', '0.00', { reason: long(mark, 500) }),
      );
      expect(body.tax_breakdown).toEqual(breakdown);

      const read = await readInvoice(test.http, body.invoice[0].id);
      expect(read.tax_breakdown).toEqual(breakdown);
      expect(read.items[0].taxes).toEqual(marks.map((mark) => tax(0, long(mark, 64), 'E')));
    });

    it('AE without a reason takes the standard wording in the client’s language and VATEX-EU-AE', async () => {
      const { response, body } = await added({
        client,
        currency: 'EUR',
        tax_rate: 19,
        items: [
          {
            description: 'Bauleitung',
            quantity: 8,
            rate: '120.00',
            unit: 'HUR',
            taxes: [{ category: 'AE', rate: 0 }],
          },
        ],
      });
      // 8 h × 120.00 = 960.00, reverse charged: no tax, total 960.00.
      const breakdown = [
        taxGroup('Tax', 'AE', 0, '960.00', '0.00', {
          reason: 'Steuerschuldnerschaft des Leistungsempfängers',
          code: 'VATEX-EU-AE',
        }),
      ];
      expect(body.tax_breakdown).toEqual(breakdown);
      expect(writtenMoney(response, 'invoice')).toEqual({
        sub_total: '960.00',
        tax_amount: '0.00',
        total: '960.00',
      });
      // tax_rate stays the document's default rate.
      expect(body.invoice[0].tax_rate).toBe(19);

      const read = await readInvoice(test.http, body.invoice[0].id);
      expect(read.tax_breakdown).toEqual(breakdown);
      expect(read.items).toEqual([
        readLine('EUR', {
          description: 'Bauleitung',
          quantity: 8,
          rate: '120.00',
          amount: '960.00',
          unit: 'HUR',
          taxes: [tax(0, 'Tax', 'AE')],
        }),
      ]);
    });

    const line = { description: 'Work', quantity: 2, rate: '10.00' };
    it.each<[string, Partial<TaxedInvoiceInput>, string[]]>([
      [
        'category E with neither reason nor code',
        { items: [{ ...line, taxes: [{ category: 'E', rate: 0 }] }] },
        ['items.0.taxes.0.exemption_reason'],
      ],
      [
        'rate 5 with category Z',
        { items: [{ ...line, taxes: [{ category: 'Z', rate: 5 }] }] },
        ['items.0.taxes.0.rate'],
      ],
      [
        'category S at rate 0',
        { items: [{ ...line, taxes: [{ category: 'S', rate: 0 }] }] },
        ['items.0.taxes.0.rate'],
      ],
      ['an unknown unit', { items: [{ ...line, unit: 'PCS' }] }, ['items.0.unit']],
      [
        'both discounts on one line',
        { items: [{ ...line, discount_percent: 10, discount_amount: '1.00' }] },
        ['items.0.discount_amount'],
      ],
      [
        'a line discount_amount above quantity × rate',
        // 2 × 10.00 = 20.00
        { items: [{ ...line, discount_amount: '20.01' }] },
        ['items.0.discount_amount'],
      ],
      [
        'a document discount_amount above the sub-total',
        { items: [line], discount_amount: '20.01' },
        ['discount_amount'],
      ],
      [
        'period_start without period_end',
        { items: [line], period_start: '2026-02-01' },
        ['period_end'],
      ],
      [
        'a supply_date with a period',
        {
          items: [line],
          supply_date: '2026-02-15',
          period_start: '2026-02-01',
          period_end: '2026-02-28',
        },
        ['supply_date'],
      ],
      [
        'period_end before period_start',
        { items: [line], period_start: '2026-02-28', period_end: '2026-02-01' },
        ['period_end'],
      ],
    ])('refuses %s (422) and adds nothing', async (_case, input, fields) => {
      const before = await invoiceIds();
      const response = await postTaxedInvoice(test.http, {
        client,
        currency: 'EUR',
        tax_rate: 19,
        items: [line],
        ...input,
      });
      expectValidationError(response, fields);
      expect(await invoiceIds()).toEqual(before);
    });
  });

  describe('a request that uses none of it answers as before', () => {
    it('one group named Tax at tax_rate: the single-rate formula', async () => {
      const written = await addInvoice(test.http, {
        currency: 'USD',
        tax_rate: '8.875',
        items: [
          { description: 'Widget', quantity: 3, rate: '19.99' },
          { description: 'Sample', quantity: 1, rate: '0.005' },
        ],
      });
      /*
       * 3 × 19.99 = 59.97; 0.005 → 0.01; sub_total 59.98.
       * tax_amount = 59.98 × 8.875 / 100 = 5.323225 → 5.32; total 65.30.
       */
      const [invoice] = written.invoice;
      expect(invoice).toMatchObject({
        tax_rate: 8.875,
        sub_total: 59.98,
        tax_amount: 5.32,
        total: 65.3,
        outstanding_balance: '65.30',
        ...plainTaxTerms('USD'),
      });
      expect(written.tax_breakdown).toEqual(plainTaxBreakdown(8.875, '59.98', '5.32'));
      const read = await readInvoice(test.http, invoice.id);
      expect(read.tax_breakdown).toEqual(plainTaxBreakdown(8.875, '59.98', '5.32'));
      expect(read.items).toEqual([
        plainReadLine(
          { description: 'Widget', quantity: 3, rate: '19.99', amount: '59.97' },
          8.875,
        ),
        plainReadLine({ description: 'Sample', quantity: 1, rate: '0.005', amount: '0.01' }, 8.875),
      ]);
    });

    it('the TAX_NAME setting names the default tax and every tax given without a name', async () => {
      // A second instance on this file's database, with the setting.
      const named = await createTestApp({ env: { TAX_NAME: 'MwSt' }, sharedDatabase: true });
      try {
        const client = await createClient(named.http, { names: 'Kiosk am Markt', country: 'DE' });
        const response = await postTaxedInvoice(named.http, {
          client,
          currency: 'EUR',
          tax_rate: 19,
          items: [
            { description: 'Zeitung', quantity: 1, rate: '10.00', taxes: [{ rate: 7 }] },
            { description: 'Kaffee', quantity: 1, rate: '10.00' },
          ],
        });
        const body = expectSuccess(response) as unknown as InvoiceWriteResult;
        // 10.00 × 7 % = 0.70; 10.00 × 19 % = 1.90.
        expect(body.tax_breakdown).toEqual([
          taxGroup('MwSt', 'S', 7, '10.00', '0.70'),
          taxGroup('MwSt', 'S', 19, '10.00', '1.90'),
        ]);
        const read = await readInvoice(named.http, body.invoice[0].id);
        expect(read.items.map((item) => item.taxes)).toEqual([[tax(7, 'MwSt')], [tax(19, 'MwSt')]]);
      } finally {
        await named.close();
      }
    });

    it('without tax_rate: one zero-rated group at 0 %', async () => {
      const written = await addInvoice(test.http, { currency: 'USD' });
      expect(written.invoice[0]).toMatchObject({
        tax_rate: 0,
        sub_total: 100,
        tax_amount: 0,
        total: 100,
        ...plainTaxTerms('USD'),
      });
      expect(written.tax_breakdown).toEqual(plainTaxBreakdown(0, '100.00', '0.00'));
    });
  });

  describe('PUT /v1/invoice/{id}', () => {
    it('keeps the lines, re-taxes only the default ones, removes the discount, moves to a period', async () => {
      const client = await createClient(test.http, { names: 'Werkstatt Meier', country: 'DE' });
      const { body } = await added({
        client,
        currency: 'EUR',
        tax_rate: 19,
        discount_percent: 5,
        supply_date: '2026-03-01',
        items: [
          { description: 'Montage', quantity: 10, rate: '8.00', unit: 'HUR' },
          {
            description: 'Fachbuch',
            quantity: 2,
            rate: '15.00',
            discount_percent: 10,
            taxes: [{ rate: 7 }],
          },
        ],
      });
      const [invoice] = body.invoice;
      /*
       * Montage 10 h × 8.00 = 80.00 (default tax 19 %); Fachbuch 2 × 15.00 = 30.00 − 10 % =
       * 27.00 (7 %); sub_total 107.00. Discount 5 % = 5.35, shared 80 : 27 exactly: 4.00 and
       * 1.35. 19 %: 76.00 → 14.44; 7 %: 25.65 × 7 % = 1.7955 → 1.80. Total 101.65 + 16.24 =
       * 117.89.
       */
      expect(body.tax_breakdown).toEqual([
        taxGroup('Tax', 'S', 19, '76.00', '14.44'),
        taxGroup('Tax', 'S', 7, '25.65', '1.80'),
      ]);
      expect(invoice).toMatchObject({ sub_total: 107, tax_amount: 16.24, total: 117.89 });
      const identity = {
        client,
        invoice_no: invoice.invoice_no,
        payment_status: 'Not Paid',
      };

      // A new default rate: only Montage, which carries no tax of its own, moves to 16 %.
      const retaxed = await test.http
        .put(`/v1/invoice/${invoice.id}`)
        .send({ ...identity, tax_rate: 16 });
      const retaxedBody = expectSuccess(retaxed) as unknown as InvoiceWriteResult;
      // 16 %: 76.00 × 16 % = 12.16; 7 % unchanged 1.80; total 101.65 + 13.96 = 115.61.
      expect(retaxedBody.tax_breakdown).toEqual([
        taxGroup('Tax', 'S', 16, '76.00', '12.16'),
        taxGroup('Tax', 'S', 7, '25.65', '1.80'),
      ]);
      expect(writtenMoney(retaxed, 'invoice')).toEqual({
        sub_total: '107.00',
        tax_amount: '13.96',
        total: '115.61',
      });
      expect(retaxedBody.invoice[0]).toMatchObject({
        tax_rate: 16,
        discount_percent: 5,
        discount_amount: '5.35',
        supply_date: '2026-03-01',
        period_start: '',
        period_end: '',
      });
      expect(retaxedBody.items).toEqual(body.items);
      const lines = [
        readLine('EUR', {
          description: 'Montage',
          quantity: 10,
          rate: '8.00',
          amount: '80.00',
          unit: 'HUR',
          taxes: [tax(16)],
        }),
        readLine('EUR', {
          description: 'Fachbuch',
          quantity: 2,
          rate: '15.00',
          amount: '27.00',
          discount_percent: 10,
          discount_amount: '3.00',
          taxes: [tax(7)],
        }),
      ];
      expect((await readInvoice(test.http, invoice.id)).items).toEqual(lines);

      // No discount any more, and a service period in place of the date of supply.
      const moved = await test.http.put(`/v1/invoice/${invoice.id}`).send({
        ...identity,
        discount_percent: null,
        period_start: '2026-02-01',
        period_end: '2026-02-28',
      });
      const movedBody = expectSuccess(moved) as unknown as InvoiceWriteResult;
      // 16 %: 80.00 → 12.80; 7 %: 27.00 → 1.89; total 107.00 + 14.69 = 121.69.
      const breakdown = [
        taxGroup('Tax', 'S', 16, '80.00', '12.80'),
        taxGroup('Tax', 'S', 7, '27.00', '1.89'),
      ];
      expect(movedBody.tax_breakdown).toEqual(breakdown);
      expect(writtenMoney(moved, 'invoice')).toEqual({
        sub_total: '107.00',
        tax_amount: '14.69',
        total: '121.69',
      });
      expect(movedBody.invoice[0]).toMatchObject({
        tax_rate: 16,
        discount_percent: null,
        discount_amount: '0.00',
        supply_date: '',
        period_start: '2026-02-01',
        period_end: '2026-02-28',
      });
      const read = await readInvoice(test.http, invoice.id);
      expect(read.invoice[0]).toEqual(asRead(movedBody.invoice[0]));
      expect(read.items).toEqual(lines);
      expect(read.tax_breakdown).toEqual(breakdown);

      // A refused update changes nothing.
      expectValidationError(
        await test.http
          .put(`/v1/invoice/${invoice.id}`)
          .send({ ...identity, period_start: '2026-02-28', period_end: '2026-02-01' }),
        ['period_end'],
      );
      expect(await readInvoice(test.http, invoice.id)).toEqual(read);
    });
  });

  it('an estimate with mixed rates, a discount and a period converts into the same invoice', async () => {
    const client = await createClient(test.http, { names: 'Schulungszentrum Nord', country: 'DE' });
    const estimateResponse = await postTaxedEstimate(test.http, {
      client,
      currency: 'EUR',
      tax_rate: 19,
      discount_amount: '10.00',
      period_start: '2026-04-01',
      period_end: '2026-04-30',
      items: [
        { description: 'Workshop', quantity: 4, rate: '25.00', unit: 'DAY', discount_percent: 5 },
        {
          description: 'Handbuch',
          quantity: 1,
          rate: '49.90',
          discount_amount: '4.90',
          taxes: [{ rate: 7 }],
        },
      ],
    });
    const estimate = expectSuccess(estimateResponse) as unknown as EstimateWriteResult;
    /*
     * Workshop 4 days × 25.00 = 100.00 − 5 % = 95.00 (19 %); Handbuch 49.90 − 4.90 = 45.00
     * (7 %); sub_total 140.00. Discount 10.00 shared: 1000 × 9500 / 14000 = 678.57… → 678,
     * 1000 × 4500 / 14000 = 321.42… → 321, the cent left to the larger remainder (Workshop):
     * 6.79 and 3.21. 19 %: 88.21 × 19 % = 16.7599 → 16.76; 7 %: 41.79 × 7 % = 2.9253 → 2.93.
     * Tax 19.69; total 130.00 + 19.69 = 149.69.
     */
    const breakdown = [
      taxGroup('Tax', 'S', 19, '88.21', '16.76'),
      taxGroup('Tax', 'S', 7, '41.79', '2.93'),
    ];
    expect(estimate.tax_breakdown).toEqual(breakdown);
    expect(writtenMoney(estimateResponse, 'estimate')).toEqual({
      sub_total: '140.00',
      tax_amount: '19.69',
      total: '149.69',
    });
    const terms = {
      discount_percent: null,
      discount_amount: '10.00',
      prices_include_tax: false,
      supply_date: '',
      period_start: '2026-04-01',
      period_end: '2026-04-30',
    };
    expect(estimate.estimate[0]).toMatchObject(terms);
    const estimateRead = await readEstimate(test.http, estimate.estimate[0].id);

    const converted = await test.http
      .post(`/v1/estimate/${estimate.estimate[0].id}/convert`)
      .send({ invoice_no: 'TAX-CONV-1' });
    const invoice = expectSuccess(converted) as unknown as InvoiceWriteResult;
    expect(invoice.tax_breakdown).toEqual(breakdown);
    expect(invoice.items).toEqual(estimate.items);
    expect(writtenMoney(converted, 'invoice')).toEqual(writtenMoney(estimateResponse, 'estimate'));
    expect(invoice.invoice[0]).toMatchObject({
      tax_rate: 19,
      outstanding_balance: '149.69',
      ...terms,
    });

    const read = await readInvoice(test.http, invoice.invoice[0].id);
    expect(read.items).toEqual(estimateRead.items);
    expect(read.items).toEqual([
      readLine('EUR', {
        description: 'Workshop',
        quantity: 4,
        rate: '25.00',
        amount: '95.00',
        unit: 'DAY',
        discount_percent: 5,
        discount_amount: '5.00',
        taxes: [tax(19)],
      }),
      readLine('EUR', {
        description: 'Handbuch',
        quantity: 1,
        rate: '49.90',
        amount: '45.00',
        discount_amount: '4.90',
        taxes: [tax(7)],
      }),
    ]);
    expect(read.tax_breakdown).toEqual(breakdown);
    expect(read.invoice[0]).toEqual(asRead(invoice.invoice[0]));
  });

  describe('credit notes', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http, { names: 'Verlag Sommer', country: 'DE' });
    });

    it('on a mixed-rate invoice: own taxes, or the invoice’s default tax', async () => {
      const { body } = await added({
        client,
        currency: 'EUR',
        tax_rate: 19,
        items: [
          { description: 'Beratung', quantity: 1, rate: '100.00' },
          { description: 'Fachbuch', quantity: 1, rate: '50.00', taxes: [{ rate: 7 }] },
        ],
      });
      // 100.00 × 19 % = 19.00; 50.00 × 7 % = 3.50; total 172.50.
      expect(body.invoice[0]).toMatchObject({ total: 172.5 });

      const response = await postTaxedCreditNote(test.http, body.invoice[0].id, {
        issue_date: '2026-03-20',
        items: [
          { description: 'Fachbuch zurück', quantity: 1, rate: '20.00', taxes: [{ rate: 7 }] },
          { description: 'Beratung gutgeschrieben', quantity: 1, rate: '10.00' },
        ],
      });
      const note = expectSuccess(response) as unknown as CreditNoteWriteResult;
      /*
       * 20.00 at its own 7 % = 1.40; 10.00 at the invoice's default 19 % = 1.90.
       * sub_total 30.00, tax 3.30, total 33.30; the invoice's balance 172.50 − 33.30 = 139.20.
       */
      const breakdown = [
        taxGroup('Tax', 'S', 7, '20.00', '1.40'),
        taxGroup('Tax', 'S', 19, '10.00', '1.90'),
      ];
      expect(note.tax_breakdown).toEqual(breakdown);
      expect(writtenMoney(response, 'credit_note')).toEqual({
        sub_total: '30.00',
        tax_amount: '3.30',
        total: '33.30',
      });
      expect(note.credit_note[0]).toMatchObject({ tax_rate: 19, ...plainTaxTerms('EUR') });
      const lines = [
        readLine('EUR', {
          description: 'Fachbuch zurück',
          quantity: 1,
          rate: '20.00',
          amount: '20.00',
          taxes: [tax(7)],
        }),
        readLine('EUR', {
          description: 'Beratung gutgeschrieben',
          quantity: 1,
          rate: '10.00',
          amount: '10.00',
          taxes: [tax(19)],
        }),
      ];
      expect(note.items).toEqual(lines);
      expect(note.invoice[0]).toMatchObject({
        amount_paid: '33.30',
        outstanding_balance: '139.20',
      });

      const read = await readCreditNote(test.http, note.credit_note[0].id);
      expect(read.items).toEqual(lines);
      expect(read.tax_breakdown).toEqual(breakdown);
      expect(read.credit_note).toEqual(note.credit_note);
    });

    it('follows the invoice’s prices including tax', async () => {
      const { body } = await added({
        client,
        currency: 'EUR',
        tax_rate: 19,
        prices_include_tax: true,
        items: [{ description: 'Abonnement', quantity: 1, rate: '119.00' }],
      });
      // Gross 119.00: taxable 119.00 × 100 / 119 = 100.00, tax 19.00, total 119.00.
      expect(body.tax_breakdown).toEqual([taxGroup('Tax', 'S', 19, '100.00', '19.00')]);
      expect(body.invoice[0]).toMatchObject({ sub_total: 119, tax_amount: 19, total: 119 });

      const response = await postTaxedCreditNote(test.http, body.invoice[0].id, {
        issue_date: '2026-03-20',
        items: [{ description: 'Anteilige Gutschrift', quantity: 1, rate: '11.90' }],
      });
      const note = expectSuccess(response) as unknown as CreditNoteWriteResult;
      // Gross 11.90: taxable 11.90 × 100 / 119 = 10.00, tax 1.90; total the gross 11.90.
      expect(note.tax_breakdown).toEqual([taxGroup('Tax', 'S', 19, '10.00', '1.90')]);
      expect(writtenMoney(response, 'credit_note')).toEqual({
        sub_total: '11.90',
        tax_amount: '1.90',
        total: '11.90',
      });
      expect(note.credit_note[0]).toMatchObject({ prices_include_tax: true });
      expect(note.invoice[0]).toMatchObject({ outstanding_balance: '107.10' });
    });
  });

  describe('reports (CHF, May 2026: no other scenario uses either)', () => {
    const may = 'from=2026-05-01&to=2026-05-31';

    beforeAll(async () => {
      const client = await createClient(test.http, { names: 'Uhrwerk AG', country: 'CH' });
      const mwst = (rate: number) => [{ name: 'MWST', rate }];
      // Sub-total 200.00, discount 20.00 shared 120 : 80 exactly (12.00 and 8.00).
      // 8.1 %: 108.00 → 8.748 → 8.75; 2.6 %: 72.00 → 1.872 → 1.87. Total 180.00 + 10.62.
      const first = await added({
        client,
        currency: 'CHF',
        tax_rate: '8.1',
        issue_date: '2026-05-04',
        discount_percent: 10,
        items: [
          { description: 'Revision', quantity: 10, rate: '12.00', unit: 'HUR', taxes: mwst(8.1) },
          { description: 'Fachbuch', quantity: 1, rate: '80.00', taxes: mwst(2.6) },
        ],
      });
      expect(first.body.invoice[0]).toMatchObject({ tax_amount: 10.62, total: 190.62 });
      // 8.1 %: 50.00 → 4.05; reverse charged 300.00, no tax. Total 354.05.
      const second = await added({
        client,
        currency: 'CHF',
        tax_rate: '8.1',
        issue_date: '2026-05-10',
        items: [
          { description: 'Software', quantity: 1, rate: '50.00', taxes: mwst(8.1) },
          {
            description: 'Montage im Ausland',
            quantity: 1,
            rate: '300.00',
            taxes: [{ name: 'MWST', category: 'AE', rate: 0 }],
          },
        ],
      });
      expect(second.body.invoice[0]).toMatchObject({ tax_amount: 4.05, total: 354.05 });
      // Gross 108.10: taxable 108.10 × 100 / 108.1 = 100.00, tax 8.10.
      const third = await added({
        client,
        currency: 'CHF',
        tax_rate: '8.1',
        issue_date: '2026-05-12',
        prices_include_tax: true,
        items: [{ description: 'Batterie', quantity: 1, rate: '108.10', taxes: mwst(8.1) }],
      });
      expect(third.body.invoice[0]).toMatchObject({ tax_amount: 8.1, total: 108.1 });
      // In June: outside the period.
      await added({
        client,
        currency: 'CHF',
        tax_rate: '8.1',
        issue_date: '2026-06-01',
        items: [{ description: 'Juni', quantity: 1, rate: '1000.00', taxes: mwst(8.1) }],
      });
      // 20.00 × 8.1 % = 1.62; total 21.62.
      const note = await postTaxedCreditNote(test.http, first.body.invoice[0].id, {
        issue_date: '2026-05-20',
        items: [{ description: 'Gutschrift', quantity: 1, rate: '20.00', taxes: mwst(8.1) }],
      });
      expect(writtenMoney(note, 'credit_note')).toEqual({
        sub_total: '20.00',
        tax_amount: '1.62',
        total: '21.62',
      });
    });

    it('GET /v1/report/tax-summary: one entry per (name, category, rate), invoices less credit notes', async () => {
      const response = await test.http.get(`/v1/report/tax-summary?${may}`);
      const report = expectSuccess(response).data as {
        currencies: Array<{ currency: string }>;
      };
      /*
       * MWST AE 0:   300.00 taxable, no tax (second invoice).
       * MWST S 2.6:  72.00, 1.87 (first invoice).
       * MWST S 8.1:  108.00 + 50.00 + 100.00 − 20.00 = 238.00;
       *              8.75 + 4.05 + 8.10 − 1.62 = 19.28 (three invoices, one credit note).
       * Totals: 610.00 and 21.15, of three invoices and one credit note.
       */
      expect(report.currencies.find((section) => section.currency === 'CHF')).toEqual({
        currency: 'CHF',
        rates: [
          {
            tax_rate: 0,
            name: 'MWST',
            category: 'AE',
            invoices: 1,
            credit_notes: 0,
            taxable: '300.00',
            tax: '0.00',
          },
          {
            tax_rate: 2.6,
            name: 'MWST',
            category: 'S',
            invoices: 1,
            credit_notes: 0,
            taxable: '72.00',
            tax: '1.87',
          },
          {
            tax_rate: 8.1,
            name: 'MWST',
            category: 'S',
            invoices: 3,
            credit_notes: 1,
            taxable: '238.00',
            tax: '19.28',
          },
        ],
        totals: { invoices: 3, credit_notes: 1, taxable: '610.00', tax: '21.15' },
      });
    });

    it('GET /v1/report/profit-and-loss (accrual): income net of the document discount and tax', async () => {
      const response = await test.http.get(`/v1/report/profit-and-loss?${may}`);
      const report = expectSuccess(response).data as {
        basis: string;
        currencies: Array<{ currency: string }>;
      };
      /*
       * total − tax_amount of each: 190.62 − 10.62 = 180.00 (200.00 less its 20.00 discount);
       * 354.05 − 4.05 = 350.00; 108.10 − 8.10 = 100.00 (gross prices); less the credit note's
       * 21.62 − 1.62 = 20.00: 610.00.
       */
      const figures = { income: '610.00', expenses: {}, expenses_total: '0.00', profit: '610.00' };
      expect(report.basis).toBe('accrual');
      expect(report.currencies.find((section) => section.currency === 'CHF')).toEqual({
        currency: 'CHF',
        months: [{ month: '2026-05', ...figures }],
        totals: figures,
      });
    });
  });
});
