import {
  coffeeLine,
  GERMAN_MIXED_RATE_ROWS,
  germanMixedRateInvoice,
  testIssuer,
} from '../../../test/factories/document-views';
import { expectInOrder, flattened, pdfText } from '../../../test/setup/pdf-text';
import { renderDocumentPdf } from './document-pdf.renderer';
import { Issuer } from '../../document-vocabulary/issuer';
import { DocumentView } from '../document-view';

const ISSUER: Issuer = testIssuer();

const TABLE_HEADER = 'Description Quantity Rate (EUR) Amount (EUR)';

function invoiceView(change: Partial<DocumentView> = {}): DocumentView {
  return {
    kind: 'invoice',
    number: 'INV-2026-0042',
    description: 'Website redesign, phase two',
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    currency: 'EUR',
    customer: { name: 'Ada Lovelace', phone: '+44 20 7946 0000', address: '12 St James Square' },
    lines: [
      { description: 'Design workshop', quantity: '2', rate: '450.00', amount: '900.00' },
      { description: 'Hosting, one year', quantity: '1.5', rate: '10.125', amount: '15.19' },
    ],
    subTotal: '915.19',
    taxRate: '8.25',
    taxAmount: '75.50',
    total: '990.69',
    amountPaid: '100.00',
    balanceDue: '890.69',
    note: 'Payable by bank transfer within 30 days.',
    ...change,
  };
}

function manyLines(count: number): DocumentView['lines'] {
  return Array.from({ length: count }, (_, index) => ({
    description: `Item number ${index + 1}`,
    quantity: '1',
    rate: '1.00',
    amount: '1.00',
  }));
}

/** Each page's text with its lines flattened, for `toContain` on a row. */
/** An issuer with bank details and terms: what a document that asks for payment prints. */
const PAYABLE_ISSUER: Issuer = {
  ...ISSUER,
  bankAccount: 'DE89 3704 0044 0532 0130 00',
  paymentTerms: 'Net 30',
};

async function render(view: DocumentView, issuer = ISSUER) {
  const { pages, text } = await pdfText(await renderDocumentPdf(view, issuer));
  return { pages: pages.map(flattened), text: flattened(text) };
}

describe('renderDocumentPdf', () => {
  it('answers a PDF whose text holds every field of an invoice, in reading order', async () => {
    const bytes = await renderDocumentPdf(invoiceView(), ISSUER);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await render(invoiceView());
    expectInOrder(text, [
      'INVOICE',
      'Invoice number INV-2026-0042',
      'Acme Supplies Ltd',
      '1 Main Street, Springfield',
      'billing@acme.example',
      'Tax ID: GB123456789',
      'Issue date March 1, 2026',
      'Due date March 31, 2026',
      'Bill to',
      'Ada Lovelace',
      '12 St James Square',
      '+44 20 7946 0000',
      'Website redesign, phase two',
      TABLE_HEADER,
      'Design workshop 2 450.00 900.00',
      'Hosting, one year 1.5 10.125 15.19',
      'Sub-total 915.19 EUR',
      'Tax (8.25%) 75.50 EUR',
      'Total 990.69 EUR',
      'Amount paid 100.00 EUR',
      'Balance due 890.69 EUR',
      'Note',
      'Payable by bank transfer within 30 days.',
      'Invoice INV-2026-0042 · page 1 of 1',
    ]);
  });

  it('titles an estimate as one, without amount paid or balance due', async () => {
    const { amountPaid: _paid, balanceDue: _due, ...invoice } = invoiceView();
    const { text } = await render({ ...invoice, kind: 'estimate', number: 'EST-7' });
    expectInOrder(text, ['ESTIMATE', 'Estimate number EST-7', 'Prepared for', 'Total 990.69 EUR']);
    expect(text).not.toContain('INVOICE');
    expect(text).not.toContain('Amount paid');
    expect(text).not.toContain('Balance due');
  });

  it('leaves out what is not set: the tax id, the phone, the description, the note', async () => {
    const view = invoiceView({
      description: '',
      note: '',
      customer: { name: 'Ada Lovelace', phone: '', address: '' },
    });
    const { text } = await render(view, { ...ISSUER, taxId: '' });
    expect(text).not.toContain('Tax ID');
    expect(text).not.toContain('Note');
    expectInOrder(text, [
      'Invoice number',
      'billing@acme.example',
      'Bill to Ada Lovelace',
      'Descr',
    ]);
  });

  it('prints the currency’s minor digits as given, grouped, and the currency code', async () => {
    const view = invoiceView({
      currency: 'JPY',
      lines: [{ description: 'Tea', quantity: '3', rate: '500', amount: '1500' }],
      subTotal: '1500',
      taxRate: '10',
      taxAmount: '150',
      total: '1650',
      amountPaid: '0',
      balanceDue: '1650',
    });
    const { text } = await render(view);
    expectInOrder(text, [
      'Rate (JPY) Amount (JPY)',
      'Tea 3 500 1,500',
      'Sub-total 1,500 JPY',
      'Tax (10%) 150 JPY',
      'Total 1,650 JPY',
      'Amount paid 0 JPY',
      'Balance due 1,650 JPY',
    ]);
  });

  it('flows 200 lines onto several pages, the table header at the top of each', async () => {
    const { pages, text } = await render(invoiceView({ lines: manyLines(200) }));
    expect(pages.length).toBeGreaterThan(2);
    const withLines = pages.filter((page) => /Item number \d+/.test(page));
    expect(withLines.length).toBeGreaterThan(2);
    for (const page of withLines) {
      const header = page.indexOf(TABLE_HEADER);
      expect(header).toBeGreaterThanOrEqual(0);
      expect(page.indexOf(TABLE_HEADER, header + 1)).toBe(-1);
      expect(header).toBeLessThan(page.search(/Item number \d+/));
    }
    // Every line once, in order, across the pages.
    expectInOrder(
      text,
      manyLines(200).map((line) => `${line.description} 1 1.00 1.00 `),
    );
    expect(text.match(/Item number \d+ /g)).toHaveLength(200);
    pages.forEach((page, index) => expect(page).toContain(`page ${index + 1} of ${pages.length}`));
  });

  it('keeps Greek and Cyrillic names intact', async () => {
    const greek = 'Αλέξανδρος Παπαδόπουλος';
    const cyrillic = 'Елизавета Петровна Смирнова';
    const { text } = await render(
      invoiceView({
        customer: { name: greek, phone: '', address: 'Ул. Пушкина, д. 10, Москва' },
        lines: [{ description: cyrillic, quantity: '1', rate: '1.00', amount: '1.00' }],
      }),
      { ...ISSUER, name: 'Ωμέγα Εταιρεία' },
    );
    expectInOrder(text, ['Ωμέγα Εταιρεία', greek, 'Ул. Пушкина, д. 10, Москва', cyrillic]);
  });

  it('wraps a very long description inside its column and extracts it whole', async () => {
    const long = `${'Installation and configuration of the equipment on site, '.repeat(15)}END`;
    const unbroken = 'x'.repeat(400);
    const view = invoiceView({
      lines: [
        { description: long, quantity: '1', rate: '5.00', amount: '5.00' },
        { description: unbroken, quantity: '2', rate: '1.00', amount: '2.00' },
      ],
    });
    const { pages } = await pdfText(await renderDocumentPdf(view, ISSUER));
    const text = pages.join('\n');
    expect(flattened(text)).toContain(`${long} 1 5.00 5.00`);
    // The unbroken word is cut into lines no wider than the description column.
    const pieces = text.split('\n').filter((line) => /^x+$/.test(line.trim()));
    expect(pieces.join('')).toBe(unbroken);
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces) expect(piece.trim().length).toBeLessThan(60);
    // The sentence wrapped too: its lines are short, and the numbers follow it.
    const longest = Math.max(...text.split('\n').map((line) => line.length));
    expect(longest).toBeLessThan(120);
  });

  it('never leaves the closing block alone on a last page: the last line goes with it', async () => {
    const issuer = {
      ...ISSUER,
      bankAccount: 'DE89 3704 0044 0532 0130 00',
      bankBic: 'COBADEFFXXX',
      bankName: 'Commerzbank',
      paymentTerms: 'Payable within 30 days of the invoice date.',
    };
    // Line counts around the ends of the first pages: each moves the closing block along.
    const lonely: number[] = [];
    for (const count of [21, 22, 23, 24, 25, 26, 27, 28, 55, 56, 57, 58, 59, 60]) {
      const { pages } = await render(invoiceView({ lines: manyLines(count) }), issuer);
      const last = pages[pages.length - 1];
      if (!last.includes(`Item number ${count} `)) lonely.push(count);
      expect(last).toContain('Payment terms');
    }
    expect(lonely).toEqual([]);
  });

  it('sizes the ledger’s date and the details by their text: a long Spanish date stays on one line', async () => {
    const view = invoiceView({
      locale: 'es',
      issueDate: '2026-11-28',
      dueDate: '2026-12-28',
      amountPaid: '100.00',
      ledger: [{ kind: 'payment', date: '2026-11-28', amount: '100.00', reference: 'PAY-1' }],
    });
    const lines = (await pdfText(await renderDocumentPdf(view, ISSUER))).text.split('\n');
    expect(lines.filter((line) => line.includes('28 de noviembre de 2026')).length).toBe(2);
    expect(lines.filter((line) => line.includes('28 de diciembre de 2026')).length).toBe(1);
    expect(lines.filter((line) => /^\s*(de )?2026\s*$/.test(line))).toEqual([]);
  });

  it('prints the buyer reference and the purchase order among the details, in the locale', async () => {
    const view = invoiceView({
      locale: 'de',
      buyerReference: '04011000-12345-34',
      orderReference: 'PO 4500012345',
    });
    const { text } = await pdfText(await renderDocumentPdf(view, ISSUER));
    expectInOrder(text, ['Käuferreferenz 04011000-12345-34', 'Bestellnummer PO 4500012345']);
    const plain = await pdfText(await renderDocumentPdf(invoiceView(), ISSUER));
    expect(plain.text).not.toMatch(/Buyer reference|Purchase order/);
  });

  it('wraps a 255-character reference inside the details and extracts it whole', async () => {
    const reference = 'R'.repeat(255);
    const { text } = await pdfText(
      await renderDocumentPdf(invoiceView({ orderReference: reference }), ISSUER),
    );
    const pieces = text.split('\n').filter((line) => /R{10,}\s*$/.test(line));
    expect(pieces.map((line) => /R+\s*$/.exec(line)?.[0].trim()).join('')).toBe(reference);
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThan(120);
  });

  it('prints a long registration below the dates across the page, on one line', async () => {
    const registration =
      'Amtsgericht Berlin-Charlottenburg HRB 123456 B, Geschäftsführer Dr. Ada Lovelace';
    const issuer = {
      ...ISSUER,
      phone: '+49 30 1234567',
      website: 'https://acme.example',
      registration,
    };
    const lines = (await pdfText(await renderDocumentPdf(invoiceView(), issuer))).text.split('\n');
    expect(lines.filter((line) => line.trim() === `Registration: ${registration}`)).toHaveLength(1);
  });

  it('prints control characters as spaces and keeps line breaks', async () => {
    const { text } = await render(
      invoiceView({ note: 'First\u0000line\r\nSecond\tline', description: 'Bell\u0007here' }),
    );
    expectInOrder(text, ['Bell here', 'Note First line Second line']);
  });

  it('gives the same bytes for the same document', async () => {
    const first = await renderDocumentPdf(invoiceView(), ISSUER);
    const second = await renderDocumentPdf(invoiceView(), ISSUER);
    expect(first.equals(second)).toBe(true);
    const other = await renderDocumentPdf(invoiceView({ total: '990.70' }), ISSUER);
    expect(first.equals(other)).toBe(false);
  });

  it('marks a paid invoice PAID, balance 0, and lists its ledger signed as it counts', async () => {
    const { text } = await render(
      invoiceView({
        mark: 'paid',
        amountPaid: '1000.69',
        balanceDue: '0.00',
        ledger: [
          { kind: 'payment', date: '2026-03-05', amount: '1000.69', reference: 'PAY-1' },
          { kind: 'refund', date: '2026-03-06', amount: '10.00', reference: 'PAY-2' },
          { kind: 'credit', date: '2026-03-07', amount: '10.00', reference: 'CN-1' },
        ],
      }),
    );
    expectInOrder(text, [
      'INVOICE PAID',
      // Credits count in the amount paid: its label says so.
      'Paid and credited 1,000.69 EUR',
      'Balance 0.00 EUR',
      'Payments, refunds and credits',
      'Date Type Reference Amount (EUR)',
      'March 5, 2026 Payment PAY-1 1,000.69',
      'March 6, 2026 Refund PAY-2 -10.00',
      'March 7, 2026 Credit CN-1 10.00',
    ]);
    expect(text).not.toMatch(/VOID|Balance due|Amount paid/);
  });

  it('says what a paid invoice without recorded payments settled, and asks for nothing', async () => {
    const issuer = PAYABLE_ISSUER;
    const { text } = await render(
      invoiceView({ mark: 'paid', amountPaid: '0.00', balanceDue: '990.69', ledger: [] }),
      issuer,
    );
    expectInOrder(text, [
      'INVOICE PAID',
      'Amount paid 0.00 EUR',
      'Settled without a recorded payment 990.69 EUR',
      'Balance 0.00 EUR',
    ]);
    expect(text).not.toMatch(/Balance due|DE89|Net 30|Payment terms/);
  });

  it('marks a void invoice VOID, prints its reason and asks for nothing', async () => {
    const issuer = PAYABLE_ISSUER;
    const { text } = await render(
      invoiceView({
        mark: 'void',
        voidReason: 'Issued twice by mistake',
        amountPaid: '0.00',
        balanceDue: '990.69',
      }),
      issuer,
    );
    expectInOrder(text, ['INVOICE VOID', 'Reason for voiding Issued twice by mistake']);
    expect(text).not.toContain('PAID');
    expect(text).not.toMatch(/DE89|Net 30|Balance/);
    const open = await render(invoiceView(), issuer);
    expect(open.text).not.toMatch(/PAID|VOID/);
    expect(open.text).toContain('IBAN / Account: DE89 3704 0044 0532 0130 00');
  });

  it('prints the issuer’s and the customer’s details an accountant looks for', async () => {
    const { text } = await render(
      invoiceView({
        customer: {
          name: 'Ada Lovelace',
          phone: '',
          address: 'Unter den Linden 1, Berlin',
          taxId: 'DE123456789',
          country: 'DE',
        },
      }),
      {
        ...ISSUER,
        phone: '+44 20 1234 5678',
        website: 'acme.example',
        registration: 'Companies House 01234567',
        bankName: 'Bristol Bank',
        bankAccount: 'GB33 BUKB 2020 1555 5555 55',
        bankBic: 'BUKBGB22',
        paymentTerms: 'Payable within 30 days.',
      },
    );
    expectInOrder(text, [
      'Acme Supplies Ltd',
      'Phone: +44 20 1234 5678',
      'acme.example',
      'Tax ID: GB123456789',
      'Registration: Companies House 01234567',
      'Bill to Ada Lovelace Unter den Linden 1, Berlin Germany VAT number: DE123456789',
      'Payment terms Payable within 30 days. Bank: Bristol Bank',
      'IBAN / Account: GB33 BUKB 2020 1555 5555 55 BIC: BUKBGB22',
    ]);
  });

  it('prints an estimate’s end date as "Valid until" and a credit note’s invoice', async () => {
    const { amountPaid: _paid, balanceDue: _due, ...invoice } = invoiceView();
    const estimate = await render({ ...invoice, kind: 'estimate', number: 'EST-7' });
    expect(estimate.text).toContain('Valid until March 31, 2026');
    expect(estimate.text).not.toContain('Due date');
    const { dueDate: _dueDate, ...undated } = invoice;
    const creditNote = await render({
      ...undated,
      kind: 'credit_note',
      number: 'CN-3',
      corrects: 'INV-2026-0042',
      reason: 'Damaged goods',
    });
    expectInOrder(creditNote.text, [
      'CREDIT NOTE',
      'Credit note number CN-3',
      'Corrects invoice INV-2026-0042',
      'Credited to',
      'Reason Damaged goods',
    ]);
  });

  it('prints labels, dates and grouped amounts in the document’s locale', async () => {
    const view = invoiceView({
      lines: [
        {
          description: 'Beratung',
          quantity: '123456.7891',
          rate: '10.125',
          amount: '14570949430.96',
        },
      ],
      subTotal: '14570949430.96',
      total: '14570949430.96',
      customer: { name: 'Ada', phone: '', address: '', country: 'FR' },
    });
    const expected = {
      en: [
        'Invoice number',
        'Issue date March 1, 2026',
        'France',
        'Quantity',
        '123,456.7891 10.125 14,570,949,430.96',
        'Total 14,570,949,430.96 EUR',
      ],
      de: [
        'Rechnungsnummer',
        '1. März 2026',
        'Frankreich',
        'Menge',
        '123.456,7891 10,125 14.570.949.430,96',
        '14.570.949.430,96 EUR',
      ],
      fr: [
        'Numéro de facture',
        '1 mars 2026',
        'France',
        'Quantité',
        '123\u202f456,7891 10,125 14\u202f570\u202f949\u202f430,96',
        '14\u202f570\u202f949\u202f430,96 EUR',
      ],
      es: [
        'Número de factura',
        '1 de marzo de 2026',
        'Francia',
        'Cantidad',
        '123.456,7891 10,125 14.570.949.430,96',
        '14.570.949.430,96 EUR',
      ],
    };
    for (const [locale, parts] of Object.entries(expected)) {
      const { text } = await render({ ...view, locale: locale as DocumentView['locale'] });
      // flattened() made every space (the no-break and narrow ones too) a plain one.
      expectInOrder(`${locale} ${text}`, [locale, ...parts.map(flattened)]);
    }
  });

  describe('taxes, discounts, units and dates of supply', () => {
    /** A German invoice: hours, line discounts, two rates and a reverse-charge line. */
    function mixedView(change: Partial<DocumentView> = {}): DocumentView {
      return invoiceView({ ...germanMixedRateInvoice(), ...change });
    }

    it('prints the unit, each line’s discount and tax, the discount, every group and the period', async () => {
      const { text } = await render(mixedView());
      expectInOrder(text, [
        'Ausstellungsdatum 1. März 2026',
        'Leistungszeitraum 1. März 2026 – 31. März 2026',
        'Fälligkeitsdatum 31. März 2026',
        ...GERMAN_MIXED_RATE_ROWS,
      ]);
      expect(text).not.toMatch(/\bTax\b|Discount|HUR/);
    });

    it('prints no line’s tax when every line carries the same one, and a named tax by its name', async () => {
      const lines = mixedView().lines.map((line) => ({
        ...line,
        taxes: [{ name: 'VAT', category: 'S', rate: '20' }],
      }));
      const { text } = await render(
        mixedView({
          locale: 'en',
          lines,
          discount: '0.00',
          discountPercent: undefined,
          taxBreakdown: [
            {
              name: 'VAT',
              category: 'S',
              rate: '20',
              taxableAmount: '831.50',
              taxAmount: '166.30',
              exemptionReason: '',
              exemptionCode: '',
            },
          ],
          taxAmount: '166.30',
          total: '997.80',
        }),
      );
      expectInOrder(text, [
        // Discounts still print; the one tax every line carries prints once, in the totals.
        'Beratung 3 h 95.00 256.50 Discount (10%): -28.50 Fachbuch 2 40.00 75.00 Discount: -5.00 Softwarelizenz 1 500.00 500.00',
        // One group on the whole sub-total: the row a single-rate document always printed.
        'Sub-total 831.50 EUR VAT (20%) 166.30 EUR Total 997.80 EUR',
      ]);
      expect(text).not.toMatch(/VAT \(20%\) [^1]|on 831/);
    });

    it('says prices include tax, prints each group as included, and ends in the gross total', async () => {
      const { text } = await render(
        invoiceView({
          lines: [
            coffeeLine(),
            {
              description: 'Machine',
              quantity: '1',
              rate: '238.00',
              amount: '238.00',
              unit: 'C62',
              discount: '0.00',
              taxes: [{ name: 'VAT', category: 'S', rate: '20' }],
            },
          ],
          subTotal: '291.50',
          discount: '29.15',
          discountPercent: '10',
          pricesIncludeTax: true,
          supplyDate: '2026-03-03',
          taxBreakdown: [
            {
              name: 'VAT',
              category: 'S',
              rate: '5',
              taxableAmount: '45.86',
              taxAmount: '2.29',
              exemptionReason: '',
              exemptionCode: '',
            },
            {
              name: 'VAT',
              category: 'S',
              rate: '20',
              taxableAmount: '178.50',
              taxAmount: '35.70',
              exemptionReason: '',
              exemptionCode: '',
            },
          ],
          taxAmount: '37.99',
          total: '262.35',
          amountPaid: '0.00',
          balanceDue: '262.35',
        }),
      );
      expectInOrder(text, [
        'Issue date March 1, 2026',
        'Date of supply March 3, 2026',
        'Due date March 31, 2026',
        'Coffee 2.5 kg 21.40 53.50 VAT (5%)',
        'Machine 1 238.00 238.00 VAT (20%)',
        'Prices include tax',
        'Sub-total 291.50 EUR',
        'Discount (10%) -29.15 EUR',
        'Incl. VAT (5%) on 45.86 EUR 2.29 EUR',
        'Incl. VAT (20%) on 178.50 EUR 35.70 EUR',
        'Total 262.35 EUR',
        'Balance due 262.35 EUR',
      ]);
    });

    it('keeps the closing block with the last line when the lines carry notes', async () => {
      const issuer = { ...PAYABLE_ISSUER, bankBic: 'COBADEFFXXX', bankName: 'Commerzbank' };
      const noted = (count: number) =>
        mixedView({
          lines: Array.from({ length: count }, (_, index) => ({
            ...mixedView().lines[index % 3],
            description: `Item number ${index + 1}`,
          })),
        });
      for (const count of [14, 15, 16, 17, 18, 19, 20, 21]) {
        const { pages } = await render(noted(count), issuer);
        const last = pages[pages.length - 1];
        expect({ count, kept: last.includes(`Item number ${count} `) }).toEqual({
          count,
          kept: true,
        });
        expect(last).toContain('Zahlungsbedingungen');
      }
    });
  });

  it('keeps a 64-character number on one line and a long quantity unbroken', async () => {
    const number = 'INV-' + '0123456789'.repeat(6);
    const { pages } = await pdfText(
      await renderDocumentPdf(
        invoiceView({
          number: number.slice(0, 64),
          lines: [
            { description: 'Tea', quantity: '123456.7891', rate: '1.00', amount: '123456.79' },
          ],
        }),
        ISSUER,
      ),
    );
    const lines = pages[0].split('\n').map((line) => line.trim());
    expect(lines.some((line) => line.includes(number.slice(0, 64)))).toBe(true);
    expect(lines.some((line) => line.includes('123,456.7891'))).toBe(true);
  });
});
