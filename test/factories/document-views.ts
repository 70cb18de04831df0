import type { Issuer } from '../../src/document-vocabulary/issuer';
import type {
  DocumentView,
  DocumentViewLine,
  DocumentViewTaxGroup,
} from '../../src/documents/document-view';

/*
 * What the printed documents (PDF, e-mail) are given, for their unit tests: a line, a breakdown
 * group, and one worked invoice that uses every part of the tax model.
 */

/** The issuer the printed documents' tests print: the COMPANY_* settings a shop would set. */
export function testIssuer(change: Partial<Issuer> = {}): Issuer {
  return {
    name: 'Acme Supplies Ltd',
    address: '1 Main Street, Springfield',
    email: 'billing@acme.example',
    taxId: 'GB123456789',
    phone: '',
    website: '',
    registration: '',
    bankAccount: '',
    bankBic: '',
    bankName: '',
    paymentTerms: '',
    ...change,
  };
}

/** One line: an hour of work at 19 %, unless changed. */
export function viewLine(change: Partial<DocumentViewLine> = {}): DocumentViewLine {
  return {
    description: 'Work',
    quantity: '1',
    rate: '100.00',
    amount: '100.00',
    unit: 'C62',
    discount: '0.00',
    taxes: [{ name: 'Tax', category: 'S', rate: '19' }],
    ...change,
  };
}

/** 2.5 kg of coffee at 21.40, at 5 % VAT: a gross-priced line (prices include tax). */
export function coffeeLine(): DocumentViewLine {
  return viewLine({
    description: 'Coffee',
    quantity: '2.5',
    rate: '21.40',
    amount: '53.50',
    unit: 'KGM',
    taxes: [{ name: 'VAT', category: 'S', rate: '5' }],
  });
}

/** One breakdown group: 19 % on 100.00, unless changed. */
export function viewTaxGroup(change: Partial<DocumentViewTaxGroup> = {}): DocumentViewTaxGroup {
  return {
    name: 'Tax',
    category: 'S',
    rate: '19',
    taxableAmount: '100.00',
    taxAmount: '19.00',
    exemptionReason: '',
    exemptionCode: '',
    ...change,
  };
}

/** A German reverse-charge group (AE, 0 %) on `taxableAmount`, with its wording and code. */
export function reverseChargeGroup(taxableAmount: string): DocumentViewTaxGroup {
  return viewTaxGroup({
    category: 'AE',
    rate: '0',
    taxableAmount,
    taxAmount: '0.00',
    exemptionReason: 'Steuerschuldnerschaft des Leistungsempfängers',
    exemptionCode: 'VATEX-EU-AE',
  });
}

/**
 * A German invoice, unpaid: hours with 10 % off, books at 7 % with money off, a reverse-charge
 * licence, 10 % off the document, a service period. The figures are the service's own for it
 * (docs/taxes.md).
 */
export function germanMixedRateInvoice(): Partial<DocumentView> {
  return {
    locale: 'de',
    lines: [
      viewLine({
        description: 'Beratung',
        quantity: '3',
        rate: '95.00',
        amount: '256.50',
        unit: 'HUR',
        discount: '28.50',
        discountPercent: '10',
      }),
      viewLine({
        description: 'Fachbuch',
        quantity: '2',
        rate: '40.00',
        amount: '75.00',
        discount: '5.00',
        taxes: [{ name: 'Tax', category: 'S', rate: '7' }],
      }),
      viewLine({
        description: 'Softwarelizenz',
        quantity: '1',
        rate: '500.00',
        amount: '500.00',
        taxes: [{ name: 'Tax', category: 'AE', rate: '0' }],
      }),
    ],
    subTotal: '831.50',
    discount: '83.15',
    discountPercent: '10',
    pricesIncludeTax: false,
    periodStart: '2026-03-01',
    periodEnd: '2026-03-31',
    taxRate: '19',
    taxBreakdown: [
      viewTaxGroup({ taxableAmount: '230.85', taxAmount: '43.86' }),
      viewTaxGroup({ rate: '7', taxableAmount: '67.50', taxAmount: '4.73' }),
      reverseChargeGroup('450.00'),
    ],
    taxAmount: '48.59',
    total: '796.94',
    amountPaid: '0.00',
    balanceDue: '796.94',
  };
}

/**
 * What the PDF of germanMixedRateInvoice prints from its table to its balance, row by row (as
 * pdfText flattens it): each row's figures, then what prints under its description (its
 * discount, its tax); the totals; each group, the reverse charge's wording under its own.
 */
export const GERMAN_MIXED_RATE_ROWS = [
  'Beschreibung Menge Einzelpreis (EUR) Betrag (EUR)',
  'Beratung 3 Std. 95,00 256,50 Rabatt (10 %): -28,50 · USt. (19 %)',
  'Fachbuch 2 40,00 75,00 Rabatt: -5,00 · USt. (7 %)',
  'Softwarelizenz 1 500,00 500,00 USt. (0 %, Reverse Charge)',
  'Zwischensumme 831,50 EUR',
  'Rabatt (10 %) -83,15 EUR',
  'USt. (19 %) auf 230,85 EUR 43,86 EUR',
  'USt. (7 %) auf 67,50 EUR 4,73 EUR',
  'USt. (0 %, Reverse Charge) auf 450,00 EUR 0,00 EUR',
  'Steuerschuldnerschaft des Leistungsempfängers (VATEX-EU-AE)',
  'Gesamtbetrag 796,94 EUR',
  'Offener Betrag 796,94 EUR',
];
