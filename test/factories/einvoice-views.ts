import { Decimal } from '../../src/common/money/decimal';
import { formatMoney, formatRate } from '../../src/common/money/money';
import type { DocumentView } from '../../src/documents/document-view';
import { LineTax, priceDocument } from '../../src/documents/domain/document-totals';
import type { EinvoiceParties } from '../../src/documents/einvoice/einvoice';
import { germanMixedRateInvoice, testIssuer, viewLine, viewTaxGroup } from './document-views';

/*
 * What the e-invoice writers are given in their tests: a German seller with every setting a
 * profile may ask for, an invoice and a credit note view, and the matrix of documents every
 * format is checked on (one rate, two rates, discounts, each VAT category, three currencies, a
 * part payment, credit notes), and documents priced by the service's own pricing, net or gross.
 */

/** A seller every profile accepts: country, VAT id, registration, addresses, contact, IBAN. */
export const EINVOICE_SELLER = testIssuer({
  name: 'Acme GmbH',
  address: 'Hauptstraße 1, 10115 Berlin',
  country: 'DE',
  einvoiceAddress: '0204:991-01234-56',
  taxId: 'DE123456789',
  phone: '+49 30 1234567',
  email: 'rechnung@acme.example',
  bankAccount: 'DE89 3704 0044 0532 0130 00',
  bankBic: 'COBADEFFXXX',
  registration: 'Amtsgericht Berlin HRB 12345',
  paymentTerms: 'Zahlbar innerhalb von 30 Tagen',
});

export const EINVOICE_PARTIES: EinvoiceParties = {
  seller: EINVOICE_SELLER,
  buyerAddress: '9930:DE987654321',
};

/** An issued invoice to a German business: one hour at 19 %, unpaid, unless changed. */
export function einvoiceView(change: Partial<DocumentView> = {}): DocumentView {
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
    buyerReference: '04011000-12345-34',
    note: '',
    ...change,
  };
}

/** The invoice's figures as a credit note correcting RE-2026-0042, `refunded` paid back. */
export function creditNoteView(refunded: string, change: Partial<DocumentView> = {}): DocumentView {
  return {
    ...einvoiceView(change),
    // What only invoices have.
    dueDate: undefined,
    amountPaid: undefined,
    balanceDue: undefined,
    mark: undefined,
    kind: 'credit_note',
    number: 'GS-2026-0007',
    description: '',
    issueDate: '2026-04-10',
    corrects: 'RE-2026-0042',
    correctsDate: '2026-03-31',
    reason: 'Rückgabe',
    refunded,
  };
}

/** A document of one VAT category at 0 % to a French business, 10 % off the document. */
export function categoryView(
  category: string,
  exemptionReason: string,
  exemptionCode: string,
): DocumentView {
  return einvoiceView({
    customer: {
      name: 'Client SARL',
      phone: '',
      address: '3 rue de la Paix, 75002 Paris',
      taxId: 'FR40303265045',
      country: 'FR',
    },
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
        exemptionReason,
        exemptionCode,
      }),
    ],
    taxAmount: '0.00',
    total: '90.00',
    balanceDue: '90.00',
  });
}

/** The categories with what a document of each says of its exemption. */
export const CATEGORY_EXEMPTIONS: Array<[string, string, string]> = [
  ['Z', '', ''],
  ['E', 'Steuerbefreit nach § 4 Nr. 11 UStG', ''],
  ['AE', 'Steuerschuldnerschaft des Leistungsempfängers', 'VATEX-EU-AE'],
  ['K', 'Innergemeinschaftliche Lieferung', 'VATEX-EU-IC'],
  ['G', 'Ausfuhrlieferung', 'VATEX-EU-G'],
  ['O', 'Nicht steuerbar', 'VATEX-EU-O'],
];

/** Two rates, 19 % and 7 %, no discount. */
function twoRates(): Partial<DocumentView> {
  return {
    lines: [
      viewLine(),
      viewLine({
        description: 'Buch',
        quantity: '3',
        rate: '12.50',
        amount: '37.50',
        taxes: [{ name: 'Tax', category: 'S', rate: '7' }],
      }),
    ],
    subTotal: '137.50',
    taxBreakdown: [
      viewTaxGroup(),
      viewTaxGroup({ rate: '7', taxableAmount: '37.50', taxAmount: '2.63' }),
    ],
    taxAmount: '21.63',
    total: '159.13',
    balanceDue: '159.13',
  };
}

/** Every document each format is checked on, by name, with the parties it goes with. */
export function einvoiceMatrix(): Array<{ name: string; view: DocumentView }> {
  return [
    { name: 'one-rate', view: einvoiceView() },
    { name: 'two-rates', view: einvoiceView(twoRates()) },
    { name: 'discounts-mixed', view: einvoiceView(germanMixedRateInvoice()) },
    ...CATEGORY_EXEMPTIONS.map(([category, reason, code]) => ({
      name: `category-${category}`,
      view: categoryView(category, reason, code),
    })),
    {
      name: 'usd',
      view: einvoiceView({
        currency: 'USD',
        orderReference: 'PO-4500012345',
        ...twoRates(),
      }),
    },
    {
      name: 'jpy',
      view: einvoiceView({
        currency: 'JPY',
        lines: [
          viewLine({
            quantity: '3',
            rate: '1234',
            amount: '3702',
            discount: '0',
            taxes: [{ name: 'Tax', category: 'S', rate: '10' }],
          }),
        ],
        discount: '0',
        subTotal: '3702',
        taxRate: '10',
        taxBreakdown: [viewTaxGroup({ rate: '10', taxableAmount: '3702', taxAmount: '370' })],
        taxAmount: '370',
        total: '4072',
        balanceDue: '4072',
      }),
    },
    {
      name: 'part-paid',
      view: einvoiceView({ amountPaid: '19.00', balanceDue: '100.00' }),
    },
    { name: 'credit-note', view: creditNoteView('0.00', twoRates()) },
    { name: 'credit-note-refunded', view: creditNoteView('50.00', germanMixedRateInvoice()) },
  ];
}

/** A document to be priced by `priceDocument`: decimals as text, a percent as a number. */
export interface DocumentToPrice {
  lines: Array<{
    quantity: Decimal;
    price: Decimal;
    /** VAT rate: S above 0, Z at 0. */
    rate: string;
    discountPercent: number | null;
    discountAmount?: Decimal | null;
  }>;
  discountPercent: number | null;
  discountAmount?: Decimal | null;
  currency: string;
  pricesIncludeTax?: boolean;
  /** Paid (an invoice) or refunded (a credit note): this percent of the total, in whole units. */
  paidShare: number;
  creditNote: boolean;
}

/** A view of a document priced by priceDocument, written as the view writes its figures. */
export function pricedView(document: DocumentToPrice): DocumentView {
  const { currency } = document;
  const pricesIncludeTax = document.pricesIncludeTax ?? false;
  const taxOf = (rate: string): LineTax => ({
    name: 'VAT',
    category: rate === '0' ? 'Z' : 'S',
    rate: new Decimal(rate),
    exemptionReason: '',
    exemptionCode: '',
  });
  const percent = (value: number | null) => (value === null ? null : new Decimal(value));
  const totals = priceDocument(
    document.lines.map((line) => ({
      description: 'Item',
      quantity: line.quantity,
      rate: line.price,
      unit: 'C62',
      discountPercent: percent(line.discountPercent),
      discountAmount: line.discountAmount ?? null,
      taxes: [taxOf(line.rate)],
    })),
    {
      currency,
      defaultTax: taxOf('19'),
      discountPercent: percent(document.discountPercent),
      discountAmount: document.discountAmount ?? null,
      pricesIncludeTax,
    },
  );
  const money = (value: Decimal) => formatMoney(value, currency);
  const paid = totals.total.times(document.paidShare).div(100).toDecimalPlaces(0);
  const figures: Partial<DocumentView> = {
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
    ...(document.discountPercent === null
      ? {}
      : { discountPercent: String(document.discountPercent) }),
    pricesIncludeTax,
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
    amountPaid: money(paid),
    balanceDue: money(totals.total.minus(paid)),
  };
  return document.creditNote ? creditNoteView(money(paid), figures) : einvoiceView(figures);
}

/** A line to price: quantity, price, VAT rate, and a line discount in percent or money. */
function toPrice(
  quantity: string,
  price: string,
  rate: string,
  discount: { percent?: number; amount?: string } = {},
): DocumentToPrice['lines'][number] {
  return {
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    rate,
    discountPercent: discount.percent ?? null,
    discountAmount: discount.amount === undefined ? null : new Decimal(discount.amount),
  };
}

/** Documents of gross prices (prices_include_tax), by name, priced by the service. */
export function grossEinvoiceMatrix(): Array<{ name: string; view: DocumentView }> {
  const gross = (change: Partial<DocumentToPrice> & Pick<DocumentToPrice, 'lines'>) =>
    pricedView({
      discountPercent: null,
      currency: 'EUR',
      pricesIncludeTax: true,
      paidShare: 0,
      creditNote: false,
      ...change,
    });
  const twoRates = [toPrice('3', '119.00', '19'), toPrice('3', '10.70', '7')];
  const discounted = [
    toPrice('2', '99.99', '19', { percent: 15 }),
    toPrice('1', '0.01', '19'),
    toPrice('3', '9.99', '19', { amount: '1.00' }),
    toPrice('1', '12.34', '7'),
    toPrice('7', '9.99', '7', { percent: 3 }),
  ];
  return [
    { name: 'gross-one-rate', view: gross({ lines: [toPrice('1', '119.00', '19')] }) },
    { name: 'gross-two-rates', view: gross({ lines: twoRates }) },
    { name: 'gross-discounts', view: gross({ lines: discounted, discountPercent: 10 }) },
    {
      name: 'gross-discount-amount',
      view: gross({ lines: discounted, discountAmount: new Decimal('0.03') }),
    },
    {
      name: 'gross-cents',
      view: gross({
        lines: [
          toPrice('1', '0.01', '19'),
          toPrice('1', '0.01', '7'),
          toPrice('1', '9.99', '19'),
          toPrice('3', '9.99', '7'),
          toPrice('0.25', '0.03', '20'),
        ],
        discountAmount: new Decimal('0.01'),
      }),
    },
    {
      name: 'gross-odd-rates',
      view: gross({
        lines: [
          toPrice('1.5', '10.55', '5.5'),
          toPrice('7', '3.33', '8.25'),
          toPrice('2', '50.00', '0'),
        ],
        discountPercent: 7,
      }),
    },
    {
      name: 'gross-jpy',
      view: gross({
        currency: 'JPY',
        lines: [toPrice('2.5', '999', '10', { percent: 5 }), toPrice('3', '1234', '8')],
        discountPercent: 3,
      }),
    },
    { name: 'gross-part-paid', view: gross({ lines: twoRates, paidShare: 37 }) },
    {
      name: 'gross-credit-note',
      view: gross({ lines: discounted, discountPercent: 10, creditNote: true, paidShare: 50 }),
    },
  ];
}
