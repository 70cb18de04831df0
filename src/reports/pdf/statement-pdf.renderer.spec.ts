import { expectInOrder, flattened, pdfText } from '../../../test/setup/pdf-text';
import { Issuer } from '../../documents/pdf/document-view';
import { renderStatementPdf, StatementView, StatementViewLine } from './statement-pdf.renderer';

const ISSUER: Issuer = {
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
};

const TABLE_HEADER = 'Date Type Reference Invoice Amount Balance';

function statementView(change: Partial<StatementView> = {}): StatementView {
  return {
    client: {
      id: '3',
      names: 'Ada Lovelace',
      email: 'ada@example.test',
      address: '12 St James Square',
    },
    from: '2026-01-01',
    to: '2026-11-25',
    currencies: [
      {
        currency: 'EUR',
        openingBalance: '150.00',
        lines: [
          {
            date: '2026-03-01',
            type: 'invoice',
            reference: 'INV-1',
            invoiceNo: 'INV-1',
            amount: '1200.00',
            balance: '1350.00',
          },
          {
            date: '2026-03-10',
            type: 'payment',
            reference: 'PAY-20260310-A',
            invoiceNo: 'INV-1',
            amount: '-200.00',
            balance: '1150.00',
          },
          {
            date: '2026-03-12',
            type: 'refund',
            reference: 'REF-20260312-B',
            invoiceNo: 'INV-1',
            amount: '50.00',
            balance: '1200.00',
          },
          {
            date: '2026-04-02',
            type: 'credit_note',
            reference: 'CN-7',
            invoiceNo: 'INV-1',
            amount: '-100.00',
            balance: '1100.00',
          },
        ],
        closingBalance: '1100.00',
      },
      {
        currency: 'JPY',
        openingBalance: '0',
        lines: [
          {
            date: '2026-05-05',
            type: 'invoice',
            reference: 'INV-2',
            invoiceNo: 'INV-2',
            amount: '1500',
            balance: '1500',
          },
        ],
        closingBalance: '1500',
      },
    ],
    ...change,
  };
}

function manyLines(count: number): StatementViewLine[] {
  return Array.from({ length: count }, (_, index) => ({
    date: '2026-06-01',
    type: index % 2 === 0 ? 'invoice' : 'payment',
    reference: `REF-${index + 1}`,
    invoiceNo: `INV-${index + 1}`,
    amount: index % 2 === 0 ? '10.00' : '-10.00',
    balance: index % 2 === 0 ? '10.00' : '0.00',
  }));
}

/** Each page's text with its lines flattened, for `toContain` on a row. */
async function render(view: StatementView, issuer = ISSUER) {
  const { pages, text } = await pdfText(await renderStatementPdf(view, issuer));
  return { pages: pages.map(flattened), text: flattened(text) };
}

describe('renderStatementPdf', () => {
  it('answers a PDF with the issuer, client, period, balances and every line in order', async () => {
    const bytes = await renderStatementPdf(statementView(), ISSUER);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await render(statementView());
    expectInOrder(text, [
      'STATEMENT OF ACCOUNT',
      'Acme Supplies Ltd',
      '1 Main Street, Springfield',
      'billing@acme.example',
      'Tax ID: GB123456789',
      'Period From 2026-01-01 to 2026-11-25',
      'Statement for',
      'Ada Lovelace',
      '12 St James Square',
      'ada@example.test',
      'EUR',
      'Opening balance 150.00 EUR',
      TABLE_HEADER,
      '2026-03-01 Invoice INV-1 INV-1 1200.00 1350.00',
      '2026-03-10 Payment PAY-20260310-A INV-1 -200.00 1150.00',
      '2026-03-12 Refund REF-20260312-B INV-1 50.00 1200.00',
      '2026-04-02 Credit note CN-7 INV-1 -100.00 1100.00',
      'Closing balance 1100.00 EUR',
      'JPY',
      'Opening balance 0 JPY',
      TABLE_HEADER,
      '2026-05-05 Invoice INV-2 INV-2 1500 1500',
      'Closing balance 1500 JPY',
      'Statement of account · Ada Lovelace · page 1 of 1',
    ]);
  });

  it('says "Up to" when the statement has no start', async () => {
    const { text } = await render(statementView({ from: '' }));
    expect(text).toContain('Period Up to 2026-11-25');
    expect(text).not.toContain('From');
  });

  it('prints a currency without lines in the period with its balances', async () => {
    const view = statementView({
      currencies: [
        { currency: 'GBP', openingBalance: '75.10', lines: [], closingBalance: '75.10' },
      ],
    });
    const { text } = await render(view);
    expectInOrder(text, [
      'Opening balance 75.10 GBP',
      TABLE_HEADER,
      'No transactions in this period.',
      'Closing balance 75.10 GBP',
    ]);
  });

  it('flows 300 lines onto several pages, the table header at the top of each', async () => {
    const lines = manyLines(300);
    const view = statementView({
      currencies: [
        { currency: 'EUR', openingBalance: '0.00', lines, closingBalance: '0.00' },
        ...statementView().currencies.slice(1),
      ],
    });
    const { pages, text } = await render(view);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]).toContain('Ada Lovelace');
    const withLines = pages.filter((page) => /REF-\d+ /.test(page));
    expect(withLines.length).toBeGreaterThan(1);
    for (const page of withLines) {
      const header = page.indexOf(TABLE_HEADER);
      expect(header).toBeGreaterThanOrEqual(0);
      expect(header).toBeLessThan(page.search(/REF-\d+ /));
    }
    // Every line once, in order, across the pages; then the balances of both currencies.
    expectInOrder(text, [
      'Opening balance 0.00 EUR',
      ...lines.map(
        (line) =>
          `${line.date} ${line.type === 'invoice' ? 'Invoice' : 'Payment'} ${line.reference} ` +
          `${line.invoiceNo} ${line.amount} ${line.balance} `,
      ),
      'Closing balance 0.00 EUR',
      'Opening balance 0 JPY',
      'Closing balance 1500 JPY',
    ]);
    expect(text.match(/REF-\d+ /g)).toHaveLength(300);
    pages.forEach((page, index) => expect(page).toContain(`page ${index + 1} of ${pages.length}`));
  });

  it('keeps Greek and Cyrillic names intact and prints control characters as spaces', async () => {
    const greek = 'Αλέξανδρος Παπαδόπουλος';
    const view = statementView({
      client: { id: '9', names: greek, email: '', address: 'Ул. Пушкина,\u0000д. 10, Москва' },
    });
    const { text } = await render(view, { ...ISSUER, name: 'Ωμέγα Εταιρεία', taxId: '' });
    expectInOrder(text, ['Ωμέγα Εταιρεία', greek, 'Ул. Пушкина, д. 10, Москва', 'EUR']);
    expect(text).not.toContain('Tax ID');
  });

  it('gives the same bytes for the same statement', async () => {
    const first = await renderStatementPdf(statementView(), ISSUER);
    const second = await renderStatementPdf(statementView(), ISSUER);
    expect(first.equals(second)).toBe(true);
    const other = await renderStatementPdf(statementView({ to: '2026-11-26' }), ISSUER);
    expect(first.equals(other)).toBe(false);
  });
});
