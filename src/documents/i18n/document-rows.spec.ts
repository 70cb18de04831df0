import {
  reverseChargeGroup,
  viewLine as line,
  viewTaxGroup as group,
} from '../../../test/factories/document-views';
import type { DocumentView } from '../document-view';
import { messagesFor } from './document-messages';
import {
  lineNotes,
  quantityText,
  referenceRows,
  supplyRow,
  taxLabel,
  totalRows,
} from './document-rows';

const NBSP = '\u00a0';
const NARROW_NBSP = '\u202f';

function view(change: Partial<DocumentView> = {}): DocumentView {
  return {
    kind: 'invoice',
    number: 'INV-1',
    description: '',
    issueDate: '2026-03-01',
    currency: 'EUR',
    customer: { name: 'Ada', phone: '', address: '' },
    lines: [line()],
    subTotal: '100.00',
    discount: '0.00',
    pricesIncludeTax: false,
    taxRate: '19',
    taxBreakdown: [group()],
    taxAmount: '19.00',
    total: '119.00',
    note: '',
    ...change,
  };
}

const rowsOf = (document: DocumentView, locale = 'en') =>
  totalRows(document, messagesFor(locale)).map((row) =>
    row.note ? `(${row.label})` : `${row.label} = ${row.value}`,
  );

describe('taxLabel', () => {
  const label = (locale: string, name: string, category: string, rate: string) =>
    taxLabel({ name, category, rate }, messagesFor(locale));

  it('names the default tax in the document’s language, and any other name as given', () => {
    expect(label('en', 'Tax', 'S', '19')).toBe('Tax (19%)');
    expect(label('de', 'Tax', 'S', '19')).toBe(`USt. (19${NBSP}%)`);
    expect(label('fr', 'Tax', 'S', '5.5')).toBe(`TVA (5,5${NARROW_NBSP}%)`);
    expect(label('es', 'Tax', 'S', '21')).toBe(`IVA (21${NBSP}%)`);
    expect(label('de', 'GST', 'S', '5')).toBe(`GST (5${NBSP}%)`);
    expect(label('en', 'VAT', 'S', '8.25')).toBe('VAT (8.25%)');
  });

  it('names the category where the rate does not say why no tax is charged', () => {
    const expected = {
      en: ['Tax (0%)', 'Tax (0%, Exempt)', 'Tax (0%, Reverse charge)'],
      de: ['USt. (0 %)', 'USt. (0 %, Steuerbefreit)', 'USt. (0 %, Reverse Charge)'],
      fr: ['TVA (0 %)', 'TVA (0 %, Exonéré)', 'TVA (0 %, Autoliquidation)'],
      es: ['IVA (0 %)', 'IVA (0 %, Exento)', 'IVA (0 %, Inversión del sujeto pasivo)'],
    };
    for (const [locale, [zero, exempt, reverse]] of Object.entries(expected)) {
      const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
      expect(plain(label(locale, 'Tax', 'Z', '0'))).toBe(zero);
      expect(plain(label(locale, 'Tax', 'E', '0'))).toBe(exempt);
      expect(plain(label(locale, 'Tax', 'AE', '0'))).toBe(reverse);
    }
    expect(label('en', 'VAT', 'K', '0')).toBe('VAT (0%, Intra-community supply)');
    expect(label('en', 'VAT', 'G', '0')).toBe('VAT (0%, Export)');
    expect(label('en', 'VAT', 'O', '0')).toBe('VAT (0%, Not subject to VAT)');
  });

  it('calls the Canary and Ceuta taxes IGIC and IPSI, not the locale’s VAT', () => {
    expect(label('es', 'Tax', 'L', '7')).toBe(`IGIC (7${NBSP}%)`);
    expect(label('en', 'Tax', 'M', '4')).toBe('IPSI (4%)');
    expect(label('es', 'Impuesto', 'L', '7')).toBe(`Impuesto (7${NBSP}%)`);
  });

  it('prints an unknown category (an old view) by its name and rate', () => {
    expect(label('en', 'Tax', 'X', '3')).toBe('Tax (3%)');
  });
});

describe('totalRows', () => {
  it('prints a plain document’s one tax as it always did', () => {
    expect(rowsOf(view())).toEqual([
      'Sub-total = 100.00 EUR',
      'Tax (19%) = 19.00 EUR',
      'Total = 119.00 EUR',
    ]);
    expect(rowsOf(view(), 'de')).toContain(`USt. (19${NBSP}%) = 19,00 EUR`);
  });

  it('prints a view queued before the breakdown as before: one tax at taxRate', () => {
    const older = view();
    delete older.taxBreakdown;
    delete older.discount;
    delete older.pricesIncludeTax;
    expect(rowsOf({ ...older, taxRate: '8.25', taxAmount: '8.25' })).toEqual([
      'Sub-total = 100.00 EUR',
      'Tax (8.25%) = 8.25 EUR',
      'Total = 119.00 EUR',
    ]);
  });

  it('puts the document discount between the sub-total and the groups, each on its taxable amount', () => {
    const document = view({
      subTotal: '600.00',
      discount: '60.00',
      discountPercent: '10',
      taxBreakdown: [
        group({ taxableAmount: '90.00', taxAmount: '17.10' }),
        reverseChargeGroup('450.00'),
      ],
      taxAmount: '17.10',
      total: '557.10',
    });
    expect(rowsOf(document, 'de').map((row) => row.replace(/\u00a0/g, ' '))).toEqual([
      'Zwischensumme = 600,00 EUR',
      'Rabatt (10 %) = -60,00 EUR',
      'USt. (19 %) auf 90,00 EUR = 17,10 EUR',
      'USt. (0 %, Reverse Charge) auf 450,00 EUR = 0,00 EUR',
      '(Steuerschuldnerschaft des Leistungsempfängers (VATEX-EU-AE))',
      'Gesamtbetrag = 557,10 EUR',
    ]);
    expect(rowsOf({ ...document, discountPercent: undefined })[1]).toBe('Discount = -60.00 EUR');
  });

  it('prints an exemption’s reason or code alone when only one is given', () => {
    const exempt = (exemptionReason: string, exemptionCode: string) =>
      rowsOf(
        view({
          taxBreakdown: [group({ category: 'E', rate: '0', exemptionReason, exemptionCode })],
        }),
      )[2];
    expect(exempt('Medical care', '')).toBe('(Medical care)');
    expect(exempt('', 'VATEX-EU-132-1B')).toBe('(VATEX-EU-132-1B)');
    expect(exempt('Medical care', 'VATEX-EU-132-1B')).toBe('(Medical care (VATEX-EU-132-1B))');
  });

  it('says prices include tax, prints the groups as included, and ends in the gross total', () => {
    const rows = rowsOf(
      view({
        pricesIncludeTax: true,
        subTotal: '119.00',
        discount: '11.90',
        discountPercent: '10',
        taxBreakdown: [group({ name: 'VAT', taxableAmount: '90.00', taxAmount: '17.10' })],
        taxAmount: '17.10',
        total: '107.10',
      }),
    );
    expect(rows).toEqual([
      '(Prices include tax)',
      'Sub-total = 119.00 EUR',
      'Discount (10%) = -11.90 EUR',
      'Incl. VAT (19%) on 90.00 EUR = 17.10 EUR',
      'Total = 107.10 EUR',
    ]);
  });
});

describe('lineNotes', () => {
  it('says nothing when every line carries the same taxes and no discount', () => {
    const same = view({ lines: [line(), line({ description: 'More' })] });
    expect(lineNotes(same, messagesFor('en'))).toEqual([[], []]);
    const gstPst = [
      { name: 'GST', category: 'S', rate: '5' },
      { name: 'PST', category: 'S', rate: '7' },
    ];
    const both = view({ lines: [line({ taxes: gstPst }), line({ taxes: gstPst })] });
    expect(lineNotes(both, messagesFor('en'))).toEqual([[], []]);
  });

  it('names each line’s taxes when they differ, several joined by +', () => {
    const mixed = view({
      lines: [
        line({
          taxes: [
            { name: 'GST', category: 'S', rate: '5' },
            { name: 'PST', category: 'S', rate: '7' },
          ],
        }),
        line({ taxes: [{ name: 'GST', category: 'S', rate: '5' }] }),
      ],
    });
    expect(lineNotes(mixed, messagesFor('en'))).toEqual([['GST (5%) + PST (7%)'], ['GST (5%)']]);
  });

  it('prints a discount as a percent with its amount, or the amount alone, negative', () => {
    const discounted = view({
      lines: [
        line({ discount: '28.50', discountPercent: '10', taxes: undefined }),
        line({ discount: '1234.00', taxes: undefined }),
      ],
    });
    expect(lineNotes(discounted, messagesFor('de'))).toEqual([
      [`Rabatt (10${NBSP}%): -28,50`],
      ['Rabatt: -1.234,00'],
    ]);
    expect(lineNotes(discounted, messagesFor('fr'))[0]).toEqual([
      `Remise (10${NARROW_NBSP}%)${NBSP}: -28,50`,
    ]);
  });

  it('prints nothing for lines queued before taxes and discounts', () => {
    const older = view({
      lines: [{ description: 'Work', quantity: '1', rate: '1.00', amount: '1.00' }],
    });
    expect(lineNotes(older, messagesFor('en'))).toEqual([[]]);
  });
});

describe('quantityText', () => {
  it('follows the quantity with its unit in the language, nothing for a plain count', () => {
    expect(quantityText(line({ quantity: '3', unit: 'HUR' }), messagesFor('de'))).toBe(
      `3${NBSP}Std.`,
    );
    expect(quantityText(line({ quantity: '1234.5', unit: 'KGM' }), messagesFor('en'))).toBe(
      `1,234.5${NBSP}kg`,
    );
    expect(quantityText(line({ quantity: '2', unit: 'DAY' }), messagesFor('fr'))).toBe(
      `2${NBSP}jours`,
    );
    expect(quantityText(line({ quantity: '2', unit: 'C62' }), messagesFor('en'))).toBe('2');
    expect(quantityText(line({ quantity: '2', unit: undefined }), messagesFor('en'))).toBe('2');
  });
});

describe('supplyRow', () => {
  it('names the date of supply or the service period in the language, or nothing', () => {
    expect(supplyRow(view({ supplyDate: '2026-03-05' }), messagesFor('de'))).toEqual({
      label: 'Leistungsdatum',
      value: '5. März 2026',
    });
    expect(
      supplyRow(view({ periodStart: '2026-03-01', periodEnd: '2026-03-31' }), messagesFor('de')),
    ).toEqual({ label: 'Leistungszeitraum', value: '1. März 2026 – 31. März 2026' });
    expect(supplyRow(view({ supplyDate: '2026-03-05' }), messagesFor('es'))?.label).toBe(
      'Fecha de la operación',
    );
    expect(supplyRow(view(), messagesFor('en'))).toBeNull();
  });
});

describe('referenceRows', () => {
  it('names the buyer reference and the purchase order in the language, each when given', () => {
    const both = view({ buyerReference: '991-01234-56', orderReference: 'PO-7' });
    expect(referenceRows(both, messagesFor('en'))).toEqual([
      { label: 'Buyer reference', value: '991-01234-56' },
      { label: 'Purchase order', value: 'PO-7' },
    ]);
    expect(referenceRows(both, messagesFor('fr')).map((row) => row.label)).toEqual([
      'Référence acheteur',
      'Bon de commande',
    ]);
    expect(referenceRows(view({ orderReference: 'PO-7' }), messagesFor('es'))).toEqual([
      { label: 'Pedido', value: 'PO-7' },
    ]);
    expect(referenceRows(view(), messagesFor('de'))).toEqual([]);
  });
});
