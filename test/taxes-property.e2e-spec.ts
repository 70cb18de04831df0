import fc from 'fast-check';
import { isLosslessNumber, parse } from 'lossless-json';
import { Decimal } from '../src/common/money/decimal';
import { defaultTax } from '../src/documents/domain/document-draft';
import { LineInput, priceDocument } from '../src/documents/domain/document-totals';
import { VatCategory } from '../src/documents/domain/vat-categories';
import { createTestApp, TestApp } from './setup/create-app';
import { OracleDocument, OracleTax, oracleTotals } from './setup/en16931-oracle';
import { itWithoutDatabase } from './setup/test-database';
import { createClient } from './factories/clients';
import { invoiceNumber } from './factories/invoices';

/*
 * docs/rules.md, "Taxes, discounts, units, dates of supply", proved over generated documents:
 * mixed rates, several taxes a line, line and document discounts, net and gross prices, in
 * currencies of 0, 2 and 3 minor digits. Every answer must hold the EN 16931 sums
 * (sub_total = Σ line amounts; sub_total − discount = Σ group taxable amounts with net prices;
 * each group's tax as the rules compute it; total = taxable + tax, or the gross) and equal an
 * independent computation in integers (setup/en16931-oracle.ts). The pricing is checked alone
 * over many documents, then through the API, on each database, over fewer: the add answer,
 * the read and the list item of each.
 *
 * TAXES_SEED=<n> replays a run.
 */

const SEED =
  process.env.TAXES_SEED === undefined || process.env.TAXES_SEED === ''
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.TAXES_SEED);

const SLOW = process.env.TEST_SLOW === '1';

const CURRENCIES = [
  { code: 'JPY', digits: 0 },
  { code: 'EUR', digits: 2 },
  { code: 'KWD', digits: 3 },
] as const;

/** A decimal as text with at most `places` decimals, from `min` to `max` units. */
function decimalText(max: number, places: number, min = 0): fc.Arbitrary<string> {
  const scale = 10 ** places;
  return fc
    .integer({ min: Math.round(min * scale), max: max * scale })
    .map((units) => new Decimal(units).dividedBy(scale).toFixed());
}

/** The tax groups lines draw from: a few names and rates, as a German, Canadian, Japanese shop has. */
const TAXES: OracleTax[] = [
  { name: 'VAT', category: 'S', rate: '19' },
  { name: 'VAT', category: 'S', rate: '7' },
  { name: 'GST', category: 'S', rate: '5' },
  { name: 'PST', category: 'S', rate: '7' },
  { name: 'Consumption tax', category: 'S', rate: '8' },
  { name: 'Consumption tax', category: 'S', rate: '10' },
  { name: 'VAT', category: 'S', rate: '12.3456' },
  { name: 'VAT', category: 'Z', rate: '0' },
];

interface Generated {
  currency: (typeof CURRENCIES)[number];
  document: OracleDocument;
}

const generatedDocument: fc.Arbitrary<Generated> = fc
  .record({
    currency: fc.constantFrom(...CURRENCIES),
    defaultRate: fc.constantFrom('0', '7', '19', '20'),
    inclusive: fc.boolean(),
    lines: fc.array(
      fc.record({
        quantity: decimalText(50, 4, 0.0001),
        rate: decimalText(5000, 4),
        discount: fc.constantFrom('none', 'percent', 'amount'),
        discountPercent: decimalText(100, 4, 0.0001),
        discountShare: fc.integer({ min: 1, max: 100 }),
        taxes: fc.oneof(
          fc.constant(null),
          fc.uniqueArray(fc.constantFrom(...TAXES), {
            minLength: 1,
            maxLength: 3,
            selector: (tax) => `${tax.name}/${tax.rate}`,
          }),
        ),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    discount: fc.constantFrom('none', 'percent', 'amount'),
    discountPercent: decimalText(100, 4, 0.0001),
    discountShare: fc.integer({ min: 1, max: 100 }),
  })
  .map((input) => {
    const { currency } = input;
    const minor = (value: Decimal) =>
      value.toDecimalPlaces(currency.digits, Decimal.ROUND_DOWN).toFixed();
    const lines = input.lines.map((line) => {
      // A fixed discount of at most quantity × rate, in the currency's digits; none when that
      // rounds to nothing.
      const ceiling = new Decimal(line.quantity).times(line.rate);
      const amount = minor(ceiling.times(line.discountShare).dividedBy(100));
      const taxes = input.inclusive && line.taxes ? line.taxes.slice(0, 1) : line.taxes;
      return {
        quantity: line.quantity,
        rate: line.rate,
        ...(line.discount === 'percent' ? { discountPercent: line.discountPercent } : {}),
        ...(line.discount === 'amount' && new Decimal(amount).gt(0)
          ? { discountAmount: amount }
          : {}),
        ...(taxes ? { taxes } : {}),
      };
    });
    const document: OracleDocument = {
      minorDigits: currency.digits,
      defaultTax: {
        name: 'Tax',
        category: input.defaultRate === '0' ? 'Z' : 'S',
        rate: input.defaultRate,
      },
      lines,
      pricesIncludeTax: input.inclusive,
    };
    if (input.discount === 'percent') document.discountPercent = input.discountPercent;
    if (input.discount === 'amount') {
      // At most the sub-total: a share of it, in the currency's digits.
      const subTotal = new Decimal(oracleTotals(document).subTotal);
      const amount = minor(subTotal.times(input.discountShare).dividedBy(100));
      if (new Decimal(amount).gt(0)) document.discountAmount = amount;
    }
    return { currency, document };
  });

/** The EN 16931 sums every output must hold, whatever computed it. */
function expectSums(
  document: OracleDocument,
  figures: {
    lineAmounts: string[];
    subTotal: string;
    discount: string;
    groups: Array<{ taxable: string; tax: string; rate: string }>;
    tax: string;
    total: string;
  },
): void {
  const d = (text: string) => new Decimal(text);
  const sum = (values: string[]) => values.reduce((total, value) => total.plus(value), d('0'));
  expect(d(figures.subTotal).eq(sum(figures.lineAmounts))).toBe(true);
  expect(d(figures.tax).eq(sum(figures.groups.map((group) => group.tax)))).toBe(true);
  const net = d(figures.subTotal).minus(figures.discount);
  if (document.pricesIncludeTax) {
    expect(d(figures.total).eq(net)).toBe(true);
    const gross = sum(figures.groups.map((group) => group.taxable)).plus(figures.tax);
    expect(gross.eq(net)).toBe(true);
  } else {
    expect(d(figures.total).eq(net.plus(figures.tax))).toBe(true);
    // With one tax a line, the group taxable amounts add up to the net; a line taxed twice
    // counts in both groups.
    const taxedOnce = document.lines.every((line) => (line.taxes?.length ?? 1) === 1);
    if (taxedOnce) expect(sum(figures.groups.map((group) => group.taxable)).eq(net)).toBe(true);
  }
}

/** The request body of a generated document. */
function invoiceBody(client: string, { currency, document }: Generated) {
  return {
    client,
    invoice_no: invoiceNumber(),
    payment_status: 'Not Paid',
    currency: currency.code,
    tax_rate: document.defaultTax.rate,
    prices_include_tax: document.pricesIncludeTax ?? false,
    ...(document.discountPercent === undefined
      ? {}
      : { discount_percent: document.discountPercent }),
    ...(document.discountAmount === undefined ? {} : { discount_amount: document.discountAmount }),
    items: document.lines.map((line, index) => ({
      description: `Line ${index + 1}`,
      quantity: line.quantity,
      rate: line.rate,
      ...(line.discountPercent === undefined ? {} : { discount_percent: line.discountPercent }),
      ...(line.discountAmount === undefined ? {} : { discount_amount: line.discountAmount }),
      ...(line.taxes === undefined
        ? {}
        : {
            taxes: line.taxes.map((tax) => ({
              name: tax.name,
              category: tax.category,
              rate: tax.rate,
            })),
          }),
    })),
  };
}

/** A JSON answer with every number as its text, digit for digit. */
function exactJson(text: string): Record<string, unknown> {
  return parse(text, undefined, (value) =>
    isLosslessNumber(value) ? value.toString() : value,
  ) as Record<string, unknown>;
}

/** Money as the oracle writes it: exactly the currency's digits. */
function money(value: unknown, digits: number): string {
  return new Decimal(String(value)).toFixed(digits);
}

describe('taxes, discounts, inclusive prices: the EN 16931 sums hold on every output', () => {
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
  });

  afterAll(async () => {
    await test.close();
  });

  itWithoutDatabase(
    `prices ${SLOW ? 20000 : 2000} documents as the oracle does (seed ${SEED})`,
    () => {
      fc.assert(
        fc.property(generatedDocument, ({ currency, document }) => {
          const lines: LineInput[] = document.lines.map((line) => ({
            description: 'x',
            quantity: new Decimal(line.quantity),
            rate: new Decimal(line.rate),
            unit: 'C62',
            discountPercent:
              line.discountPercent === undefined ? null : new Decimal(line.discountPercent),
            discountAmount:
              line.discountAmount === undefined ? null : new Decimal(line.discountAmount),
            taxes:
              line.taxes?.map((tax) => ({
                name: tax.name,
                category: tax.category as VatCategory,
                rate: new Decimal(tax.rate),
                exemptionReason: '',
                exemptionCode: '',
              })) ?? null,
          }));
          const totals = priceDocument(lines, {
            currency: currency.code,
            defaultTax: defaultTax(new Decimal(document.defaultTax.rate), 'Tax'),
            discountPercent:
              document.discountPercent === undefined ? null : new Decimal(document.discountPercent),
            discountAmount:
              document.discountAmount === undefined ? null : new Decimal(document.discountAmount),
            pricesIncludeTax: document.pricesIncludeTax ?? false,
          });
          const expected = oracleTotals(document);
          const digits = currency.digits;
          const figures = {
            lineAmounts: totals.lines.map((line) => line.amount.toFixed(digits)),
            lineDiscounts: totals.lines.map((line) => line.discount.toFixed(digits)),
            subTotal: totals.subTotal.toFixed(digits),
            discount: totals.discountAmount.toFixed(digits),
            groups: totals.breakdown.map((group) => ({
              name: group.name,
              category: group.category,
              rate: group.rate.toFixed(),
              taxable: group.taxableAmount.toFixed(digits),
              tax: group.taxAmount.toFixed(digits),
            })),
            tax: totals.taxAmount.toFixed(digits),
            total: totals.total.toFixed(digits),
          };
          expect(figures).toEqual(expected);
          expectSums(document, figures);
        }),
        { seed: SEED, numRuns: SLOW ? 20000 : 2000 },
      );
    },
  );

  it(`answers ${SLOW ? 150 : 30} generated invoices as the oracle prices them, in the add answer, the read and the list (seed ${SEED})`, async () => {
    const samples = fc.sample(generatedDocument, { seed: SEED, numRuns: SLOW ? 150 : 30 });
    for (const sample of samples) {
      const { document, currency } = sample;
      const digits = currency.digits;
      const expected = oracleTotals(document);
      const added = await test.http.post('/v1/invoice/add').send(invoiceBody(client, sample));
      if (added.status !== 200) {
        throw new Error(
          `add answered ${added.status}: ${added.text} for ${JSON.stringify(sample)}`,
        );
      }
      const write = exactJson(added.text) as {
        invoice: Array<Record<string, string>>;
        tax_breakdown: Array<Record<string, string>>;
      };
      const id = write.invoice[0].id;
      const read = exactJson((await test.http.get(`/v1/invoice/${id}`).expect(200)).text) as {
        invoice: Array<Record<string, string>>;
        items: Array<Record<string, string>>;
        tax_breakdown: Array<Record<string, string>>;
      };
      const groupsOf = (breakdown: Array<Record<string, string>>) =>
        breakdown.map((group) => ({
          name: group.name,
          category: group.category,
          rate: new Decimal(group.rate).toFixed(),
          taxable: group.taxable_amount,
          tax: group.tax_amount,
        }));
      const oracleGroups = expected.groups.map((group) => ({
        ...group,
        rate: new Decimal(group.rate).toFixed(),
      }));
      for (const answer of [
        { record: write.invoice[0], breakdown: write.tax_breakdown },
        { record: read.invoice[0], breakdown: read.tax_breakdown },
      ]) {
        const figures = {
          lineAmounts: read.items.map((line) => line.amount),
          subTotal: money(answer.record.sub_total, digits),
          discount: answer.record.discount_amount,
          groups: groupsOf(answer.breakdown),
          tax: money(answer.record.tax_amount, digits),
          total: money(answer.record.total, digits),
        };
        expect({
          ...figures,
          lineDiscounts: read.items.map((line) => line.discount_amount),
        }).toEqual({
          lineAmounts: expected.lineAmounts,
          lineDiscounts: expected.lineDiscounts,
          subTotal: expected.subTotal,
          discount: expected.discount,
          groups: oracleGroups,
          tax: expected.tax,
          total: expected.total,
        });
        expectSums(document, figures);
      }
    }
    // The list answers each invoice as its read does.
    const list = exactJson(
      (await test.http.get(`/v1/invoice/all?client=${client}`).expect(200)).text,
    ).data as Array<Record<string, string>>;
    expect(list).toHaveLength(samples.length);
    for (const item of list) {
      const read = exactJson((await test.http.get(`/v1/invoice/${item.id}`).expect(200)).text) as {
        invoice: Array<Record<string, string>>;
      };
      const { created_at: _created, updated_at: _updated, ...listed } = item;
      expect(listed).toEqual(read.invoice[0]);
    }
  });
});
