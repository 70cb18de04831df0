import { testIssuer } from '../../../test/factories/document-views';
import { expectInOrder, flattened, pdfText } from '../../../test/setup/pdf-text';
import { DocumentLocale } from '../../document-vocabulary/document-locale';
import { Issuer } from '../../document-vocabulary/issuer';
import { renderStatementPdf, StatementView, StatementViewLine } from './statement-pdf.renderer';

const ISSUER: Issuer = testIssuer();

const TABLE_HEADER = 'Date Reference Description Amount Balance';

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
async function render(view: StatementView, issuer = ISSUER, locale: DocumentLocale = 'en') {
  const { pages, text } = await pdfText(await renderStatementPdf(view, issuer, locale));
  return { pages: pages.map(flattened), text: flattened(text), lines: pages.join('\n') };
}

describe('renderStatementPdf', () => {
  it('answers a PDF with the issuer, client, period, balances and every line in order', async () => {
    const bytes = await renderStatementPdf(statementView(), ISSUER, 'en');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await render(statementView());
    expectInOrder(text, [
      'STATEMENT OF ACCOUNT',
      'Acme Supplies Ltd',
      '1 Main Street, Springfield',
      'billing@acme.example',
      'Tax ID: GB123456789',
      'Period From January 1, 2026 to November 25, 2026',
      'Statement for',
      'Ada Lovelace',
      '12 St James Square',
      'ada@example.test',
      'EUR',
      'Opening balance 150.00 EUR',
      TABLE_HEADER,
      'March 1, 2026 INV-1 Invoice 1,200.00 1,350.00',
      'March 10, 2026 PAY-20260310-A Payment for invoice INV-1 -200.00 1,150.00',
      'March 12, 2026 REF-20260312-B Refund on invoice INV-1 50.00 1,200.00',
      'April 2, 2026 CN-7 Credit note for invoice INV-1 -100.00 1,100.00',
      'Closing balance 1,100.00 EUR',
      'JPY',
      'Opening balance 0 JPY',
      TABLE_HEADER,
      'May 5, 2026 INV-2 Invoice 1,500 1,500',
      'Closing balance 1,500 JPY',
      'Statement of account · Ada Lovelace · page 1 of 1',
    ]);
  });

  it('says "Up to" when the statement has no start', async () => {
    const { text } = await render(statementView({ from: '' }));
    expect(text).toContain('Period Up to November 25, 2026');
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
          `June 1, 2026 ${line.reference} ` +
          `${line.type === 'invoice' ? 'Invoice' : `Payment for invoice ${line.invoiceNo}`} ` +
          `${line.amount} ${line.balance} `,
      ),
      'Closing balance 0.00 EUR',
      'Opening balance 0 JPY',
      'Closing balance 1,500 JPY',
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
    const first = await renderStatementPdf(statementView(), ISSUER, 'en');
    const second = await renderStatementPdf(statementView(), ISSUER, 'en');
    expect(first.equals(second)).toBe(true);
    const other = await renderStatementPdf(statementView({ to: '2026-11-26' }), ISSUER, 'en');
    expect(first.equals(other)).toBe(false);
  });

  it.each([
    {
      locale: 'de',
      shown: [
        'KONTOAUSZUG',
        'Zeitraum 1. Januar 2026 bis 25. November 2026',
        'Kontoauszug für Ada Lovelace',
        'Anfangssaldo 150,00 EUR',
        'Datum Referenz Buchungstext Betrag Saldo',
        '1. März 2026 INV-1 Rechnung 1.200,00 1.350,00',
        '10. März 2026 PAY-20260310-A Zahlung zu Rechnung INV-1 -200,00 1.150,00',
        '12. März 2026 REF-20260312-B Erstattung zu Rechnung INV-1 50,00 1.200,00',
        '2. April 2026 CN-7 Gutschrift zu Rechnung INV-1 -100,00 1.100,00',
        'Endsaldo 1.100,00 EUR',
        'Anfangssaldo 0 JPY',
        '5. Mai 2026 INV-2 Rechnung 1.500 1.500',
        'Kontoauszug · Ada Lovelace · Seite 1 von 1',
      ],
    },
    {
      locale: 'fr',
      shown: [
        'RELEVÉ DE COMPTE',
        'Période Du 1 janvier 2026 au 25 novembre 2026',
        'Relevé établi pour Ada Lovelace',
        'Solde initial 150,00 EUR',
        'Date Référence Libellé Montant Solde',
        '1 mars 2026 INV-1 Facture 1 200,00 1 350,00',
        '10 mars 2026 PAY-20260310-A Paiement de la facture INV-1 -200,00 1 150,00',
        '2 avril 2026 CN-7 Avoir sur la facture INV-1 -100,00 1 100,00',
        'Solde final 1 100,00 EUR',
        'Relevé de compte · Ada Lovelace · page 1 sur 1',
      ],
    },
    {
      locale: 'es',
      shown: [
        'EXTRACTO DE CUENTA',
        'Periodo Del 1 de enero de 2026 al 25 de noviembre de 2026',
        'Cliente Ada Lovelace',
        'Saldo inicial 150,00 EUR',
        'Fecha Referencia Concepto Importe Saldo',
        // es groups from five digits on.
        '1 de marzo de 2026 INV-1 Factura 1200,00 1350,00',
        '12 de marzo de 2026 REF-20260312-B Reembolso de la factura INV-1 50,00 1200,00',
        'Saldo final 1100,00 EUR',
        'Extracto de cuenta · Ada Lovelace · página 1 de 1',
      ],
    },
  ] as const)('prints in $locale: labels, written-out dates, grouped amounts', async (expected) => {
    const { text } = await render(statementView(), ISSUER, expected.locale);
    // flattened() made the no-break and narrow spaces (fr groups) plain ones.
    expectInOrder(text, expected.shown.map(flattened));
    expect(text).not.toMatch(/Statement|Opening|2026-\d\d-\d\d/);
  });

  it('names the issuer’s country and labels its details in the statement’s language', async () => {
    const issuer = { ...ISSUER, country: 'DE', phone: '+49 30 1234567' };
    const french = await render(statementView(), issuer, 'fr');
    // French sets a space before the colon (a no-break one, which pdf.js extracts as plain).
    expectInOrder(french.text, ['Allemagne', 'Téléphone : +49 30 1234567', 'N° TVA : GB123456789']);
    const german = await render(statementView(), issuer, 'de');
    expectInOrder(german.text, [
      'Deutschland',
      'Telefon: +49 30 1234567',
      'USt-IdNr.: GB123456789',
    ]);
  });

  it('keeps dates, references and amounts on one line, each number printed once', async () => {
    const reference = 'PAY-7K2M9QX4HB3NZ8TR';
    const invoice = 'INV-2026-000123';
    const big = '-17485139317.15';
    const view = statementView({
      currencies: [
        {
          currency: 'EUR',
          openingBalance: '0.00',
          lines: [
            {
              date: '2026-09-30',
              type: 'invoice',
              reference: invoice,
              invoiceNo: invoice,
              amount: '17485139317.15',
              balance: '17485139317.15',
            },
            {
              date: '2026-09-30',
              type: 'payment',
              reference,
              invoiceNo: invoice,
              amount: big,
              balance: '0.00',
            },
          ],
          closingBalance: '0.00',
        },
      ],
    });
    for (const [locale, amount] of [
      ['en', '-17,485,139,317.15'],
      ['de', '-17.485.139.317,15'],
      // pdf.js extracts the narrow no-break spaces of fr as plain ones.
      ['fr', '-17 485 139 317,15'],
      ['es', '-17.485.139.317,15'],
    ] as const) {
      const { lines, text } = await render(view, ISSUER, locale);
      const printed = lines.split('\n').map((line) => line.trim());
      // Each whole on one extracted line: neither broken mid-code nor mid-number.
      expect({ locale, reference: printed.some((line) => line.includes(reference)) }).toEqual({
        locale,
        reference: true,
      });
      expect(printed.some((line) => line.includes(amount))).toBe(true);
      // The invoice's number: its own line's reference, and the payment's invoice; no more.
      expect(text.split(invoice)).toHaveLength(3);
    }
  });
});
