import { expectInOrder, flattened, pdfText } from '../../../test/setup/pdf-text';
import { renderDocumentPdf } from './document-pdf.renderer';
import { DocumentView, Issuer } from './document-view';

const ISSUER: Issuer = {
  name: 'Acme Supplies Ltd',
  address: '1 Main Street, Springfield',
  email: 'billing@acme.example',
  taxId: 'GB123456789',
};

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
      'Acme Supplies Ltd',
      '1 Main Street, Springfield',
      'billing@acme.example',
      'Tax ID: GB123456789',
      'Invoice number INV-2026-0042',
      'Issue date 2026-03-01',
      'Due date 2026-03-31',
      'Bill to',
      'Ada Lovelace',
      '+44 20 7946 0000',
      '12 St James Square',
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
      'billing@acme.example',
      'Invoice number',
      'Bill to Ada Lovelace',
      'Descr',
    ]);
  });

  it('prints the currency’s minor digits as given and the currency code', async () => {
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
      'Tea 3 500 1500',
      'Sub-total 1500 JPY',
      'Tax (10%) 150 JPY',
      'Total 1650 JPY',
      'Amount paid 0 JPY',
      'Balance due 1650 JPY',
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
});
