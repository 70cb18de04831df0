import type { Response } from 'supertest';
import { addClient, createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import { createEstimate, estimateLines, estimateNumber } from './factories/estimates';
import {
  createInvoice,
  invoiceNumber,
  lineItems,
  payInvoice,
  refundInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, NON_DIGIT_IDS, UNKNOWN_IDS } from './setup/expectations';
import { expectInOrder, flattened, pdfText } from './setup/pdf-text';

/*
 * GET /v1/invoice/{id}/pdf and /v1/estimate/{id}/pdf: the answer (type, name, bytes) and what
 * a reader extracts from the document, checked against what the API holds.
 */

const COMPANY = {
  COMPANY_NAME: 'Northwind Trading Ltd',
  COMPANY_ADDRESS: '4 Harbour Road, Bristol',
  COMPANY_EMAIL: 'accounts@northwind.example',
  COMPANY_TAX_ID: 'GB987654321',
  COMPANY_PHONE: '+44 117 496 0000',
  COMPANY_REGISTRATION: 'Companies House 01234567',
  COMPANY_BANK_NAME: 'Bristol Bank',
  COMPANY_BANK_ACCOUNT: 'GB33 BUKB 2020 1555 5555 55',
  COMPANY_BANK_BIC: 'BUKBGB22',
  PAYMENT_TERMS: 'Payable within 30 days.',
};

const HEADER = (currency: string) => `Description Quantity Rate (${currency}) Amount (${currency})`;

describe('Documents as PDF', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp({ env: COMPANY });
  });

  afterAll(async () => {
    await test.close();
  });

  /** The PDF answer, its bytes in `body`. */
  function getPdf(kind: 'invoice' | 'estimate' | 'credit-note', id: string): Promise<Response> {
    return test.http.get(`/v1/${kind}/${id}/pdf`).responseType('blob');
  }

  /** A 200 PDF answer named `<number>.pdf`; answers its text, pages flattened. */
  async function expectPdf(response: Response, filename: string) {
    expect({
      status: response.status,
      type: response.headers['content-type'],
      disposition: response.headers['content-disposition'],
    }).toEqual({
      status: 200,
      type: 'application/pdf',
      disposition: `inline; filename="${filename}"`,
    });
    const bytes = response.body as Buffer;
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(Number(response.headers['content-length'])).toBe(bytes.length);
    const { pages } = await pdfText(bytes);
    const flat = pages.map(flattened);
    return { pages: flat, text: flat.join(' ') };
  }

  describe('an invoice', () => {
    let id: string;
    let number: string;

    beforeAll(async () => {
      const client = await createClient(test.http, {
        names: 'Ada Lovelace',
        phone: '+44 20 7946 0000',
        address: '12 St James Square, London',
      });
      number = invoiceNumber();
      id = (
        await createInvoice(test.http, {
          client,
          invoice_no: number,
          description: 'Analytical engine, phase two',
          currency: 'EUR',
          tax_rate: '8.25',
          issue_date: '2026-03-01',
          due_date: '2026-03-31',
          note: 'Payable by bank transfer within 30 days.',
          items: [
            { description: 'Design workshop', quantity: 2, rate: '450.00' },
            { description: 'Hosting, one year', quantity: '1.5', rate: '10.125' },
          ],
        })
      ).id;
      await payInvoice(test.http, id, '100.00');
      // The invoice keeps the customer fields it copied; a later rename is not printed.
      await test.http
        .put(`/v1/client/${client}`)
        .send({ names: 'Augusta Ada King', phone: '+44 0', address: 'Elsewhere' })
        .expect(200);
    });

    it('answers the document: the issuer, the client, every line, the totals and the payment', async () => {
      const { text } = await expectPdf(await getPdf('invoice', id), `${number}.pdf`);
      expectInOrder(text, [
        'INVOICE',
        `Invoice number ${number}`,
        COMPANY.COMPANY_NAME,
        COMPANY.COMPANY_ADDRESS,
        COMPANY.COMPANY_EMAIL,
        `Tax ID: ${COMPANY.COMPANY_TAX_ID}`,
        'Issue date March 1, 2026',
        'Due date March 31, 2026',
        'Bill to',
        'Ada Lovelace',
        '12 St James Square, London',
        '+44 20 7946 0000',
        'Analytical engine, phase two',
        HEADER('EUR'),
        'Design workshop 2 450.00 900.00',
        // 1.5 × 10.125 = 15.1875, rounded to the currency's cents.
        'Hosting, one year 1.5 10.125 15.19',
        'Sub-total 915.19 EUR',
        // 8.25 % of 915.19 = 75.503…
        'Tax (8.25%) 75.50 EUR',
        'Total 990.69 EUR',
        'Amount paid 100.00 EUR',
        'Balance due 890.69 EUR',
        'Payments, refunds and credits',
        'Date Type Reference Amount (EUR)',
        'March 10, 2026 Payment',
        '100.00',
        'Payment terms Payable within 30 days.',
        `Bank: ${COMPANY.COMPANY_BANK_NAME}`,
        `IBAN / Account: ${COMPANY.COMPANY_BANK_ACCOUNT}`,
        `BIC: ${COMPANY.COMPANY_BANK_BIC}`,
        'Note Payable by bank transfer within 30 days.',
      ]);
      expect(text).not.toMatch(/PAID|VOID/);
      expect(text).not.toContain('Augusta');
    });

    it('agrees with the invoice the API reads', async () => {
      const read = await test.http.get(`/v1/invoice/${id}`).expect(200);
      const invoice = (
        read.body as { invoice: Array<{ amount_paid: string; outstanding_balance: string }> }
      ).invoice[0];
      const { text } = await expectPdf(await getPdf('invoice', id), `${number}.pdf`);
      expect(text).toContain(`Amount paid ${invoice.amount_paid} EUR`);
      expect(text).toContain(`Balance due ${invoice.outstanding_balance} EUR`);
    });

    it('is the same file for every request, and for HEAD only the headers', async () => {
      const first = await getPdf('invoice', id);
      const second = await getPdf('invoice', id);
      expect((first.body as Buffer).equals(second.body as Buffer)).toBe(true);
      const head = await test.http.head(`/v1/invoice/${id}/pdf`);
      expect({ status: head.status, type: head.type }).toEqual({
        status: 200,
        type: 'application/pdf',
      });
    });
  });

  it('titles an estimate as one, without payments', async () => {
    const client = await createClient(test.http, { names: 'Grace Hopper', address: 'Arlington' });
    const number = estimateNumber();
    const estimate = await createEstimate(test.http, {
      client,
      estimate_no: number,
      currency: 'JPY',
      tax_rate: 10,
      items: [{ description: 'Compiler audit', quantity: 3, rate: 500 }],
    });
    const { text } = await expectPdf(await getPdf('estimate', estimate.id), `${number}.pdf`);
    expectInOrder(text, [
      'ESTIMATE',
      `Estimate number ${number}`,
      COMPANY.COMPANY_NAME,
      'Prepared for',
      'Grace Hopper',
      'Arlington',
      HEADER('JPY'),
      'Compiler audit 3 500 1,500',
      'Sub-total 1,500 JPY',
      'Tax (10%) 150 JPY',
      'Total 1,650 JPY',
    ]);
    expect(text).not.toContain('INVOICE');
    expect(text).not.toContain('Amount paid');
    expect(text).not.toContain('Balance due');
  });

  describe('figures that agree with the API (a ledger check runs on every invoice PDF too)', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http, { names: 'Ledger Client Ltd' });
    });

    const invoiceWith = (rate: string) =>
      createInvoice(test.http, {
        client,
        currency: 'EUR',
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        items: [{ description: 'Work', quantity: 1, rate }],
      });
    const printed = async (id: string, number: string) =>
      (await expectPdf(await getPdf('invoice', id), `${number}.pdf`)).text;

    it('lists payments and credits as adding and refunds as subtracting, summing to the amount paid', async () => {
      const invoice = await invoiceWith('1000.00');
      await payInvoice(test.http, invoice.id, '600.00');
      await refundInvoice(test.http, invoice.id, '100.00');
      const note = (
        await addCreditNote(test.http, invoice.id, {
          issue_date: '2026-03-20',
          items: [{ description: 'Discount', quantity: 1, rate: '200.00' }],
        })
      ).credit_note[0];
      const text = await printed(invoice.id, invoice.invoice_no);
      expectInOrder(text, [
        'Total 1,000.00 EUR',
        'Paid and credited 700.00 EUR',
        'Balance due 300.00 EUR',
        'Payments, refunds and credits',
        'March 10, 2026 Payment',
        '600.00',
        'March 12, 2026 Refund',
        '-100.00',
        `March 20, 2026 Credit ${note.credit_note_no} 200.00`,
        'Payment terms',
      ]);
    });

    it('shows a paid invoice a balance of 0 and asks for nothing; a void one its reason and no balance', async () => {
      const paidByHand = await invoiceWith('238.00');
      await test.http.get(`/v1/invoice/paid/${paidByHand.id}`).expect(200);
      const paid = await printed(paidByHand.id, paidByHand.invoice_no);
      expectInOrder(paid, [
        'PAID',
        'Amount paid 0.00 EUR',
        'Settled without a recorded payment 238.00 EUR',
        'Balance 0.00 EUR',
      ]);
      expect(paid).not.toMatch(/Balance due|Payment terms|GB33/);

      const voided = await invoiceWith('600.00');
      await test.http
        .post(`/v1/invoice/${voided.id}/void`)
        .send({ reason: 'Issued to the wrong company' })
        .expect(200);
      const text = await printed(voided.id, voided.invoice_no);
      expectInOrder(text, [
        'VOID',
        'Reason for voiding Issued to the wrong company',
        'Amount paid',
      ]);
      expect(text).not.toMatch(/Balance|Payment terms|GB33|600\.00 EUR Balance/);
    });

    it('names a credit note’s invoice with its date, and says what it refunded and when', async () => {
      const invoice = await invoiceWith('300.00');
      await payInvoice(test.http, invoice.id, '300.00');
      const note = (
        await addCreditNote(test.http, invoice.id, {
          issue_date: '2026-03-22',
          refund: true,
          items: [{ description: 'Returned', quantity: 1, rate: '120.00' }],
        })
      ).credit_note[0];
      const text = (
        await expectPdf(await getPdf('credit-note', note.id), `${note.credit_note_no}.pdf`)
      ).text;
      expectInOrder(text, [
        `Corrects invoice ${invoice.invoice_no}`,
        'Invoice date March 1, 2026',
        'Total 120.00 EUR',
        'Refunded on March 22, 2026 120.00 EUR',
      ]);
    });
  });

  describe('in the client’s language, with what an accountant looks for', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http, {
        names: 'Müller & Söhne GmbH',
        address: 'Unter den Linden 1, Berlin',
        tax_id: 'DE123456789',
        country: 'de',
        language: 'de',
      });
    });

    it('prints a German client’s invoice in German: labels, dates, grouped amounts, its tax number', async () => {
      const number = invoiceNumber();
      const invoice = await createInvoice(test.http, {
        client,
        invoice_no: number,
        currency: 'EUR',
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        items: [{ description: 'Beratung', quantity: '1000', rate: '1234.50' }],
      });
      await payInvoice(test.http, invoice.id, '234.50');
      const { text } = await expectPdf(await getPdf('invoice', invoice.id), `${number}.pdf`);
      expectInOrder(text, [
        'RECHNUNG',
        `Rechnungsnummer ${number}`,
        'Ausstellungsdatum 1. März 2026',
        'Fälligkeitsdatum 31. März 2026',
        'Rechnungsempfänger',
        'Müller & Söhne GmbH',
        'Deutschland',
        'USt-IdNr. des Kunden: DE123456789',
        'Beratung 1.000 1.234,50 1.234.500,00',
        'Gesamtbetrag 1.234.500,00 EUR',
        'Offener Betrag 1.234.265,50 EUR',
        'Zahlungen, Erstattungen und Gutschriften',
        '10. März 2026 Zahlung',
        '234,50',
        'Zahlungsbedingungen',
      ]);
      expect(text).not.toContain('Invoice');
    });

    it('marks an invoice paid in full BEZAHLT, and a void one STORNIERT without bank details', async () => {
      const paid = await createInvoice(test.http, {
        client,
        items: [{ description: 'Work', quantity: 1, rate: '50.00' }],
      });
      await payInvoice(test.http, paid.id, paid.total);
      const paidText = (await expectPdf(await getPdf('invoice', paid.id), `${paid.invoice_no}.pdf`))
        .text;
      expect(paidText).toContain('RECHNUNG BEZAHLT');
      const voided = await createInvoice(test.http, {
        client,
        items: [{ description: 'Work', quantity: 1, rate: '50.00' }],
      });
      await test.http.post(`/v1/invoice/${voided.id}/void`).send({ reason: 'Error' }).expect(200);
      const voidText = (
        await expectPdf(await getPdf('invoice', voided.id), `${voided.invoice_no}.pdf`)
      ).text;
      expect(voidText).toContain('RECHNUNG STORNIERT');
      expect(voidText).not.toContain(COMPANY.COMPANY_BANK_ACCOUNT);
      expect(voidText).not.toContain('BEZAHLT');
    });

    it('prints an estimate’s "valid until" and a credit note’s invoice and credit on the invoice', async () => {
      const estimate = await createEstimate(test.http, {
        client,
        issue_date: '2026-03-01',
        due_date: '2026-04-15',
        items: [{ description: 'Angebot', quantity: 1, rate: '10.00' }],
      });
      const estimateText = (
        await expectPdf(await getPdf('estimate', estimate.id), `${estimate.estimate_no}.pdf`)
      ).text;
      expect(estimateText).toContain('Gültig bis 15. April 2026');
      expect(estimateText).not.toContain('Fälligkeitsdatum');

      const invoice = await createInvoice(test.http, {
        client,
        issue_date: '2026-03-01',
        items: [{ description: 'Work', quantity: 1, rate: '100.00' }],
      });
      const written = await addCreditNote(test.http, invoice.id, {
        issue_date: '2026-03-05',
        reason: 'Rabatt',
        items: [{ description: 'Rabatt', quantity: 1, rate: '10.00' }],
      });
      const creditNote = written.credit_note[0];
      const creditText = (
        await expectPdf(
          await getPdf('credit-note', creditNote.id),
          `${creditNote.credit_note_no}.pdf`,
        )
      ).text;
      expectInOrder(creditText, [
        `Ursprungsrechnung ${invoice.invoice_no}`,
        'Rechnungsdatum 1. März 2026',
        'Grund Rabatt',
      ]);
      const invoiceText = (
        await expectPdf(await getPdf('invoice', invoice.id), `${invoice.invoice_no}.pdf`)
      ).text;
      expectInOrder(invoiceText, [
        'Zahlungen, Erstattungen und Gutschriften',
        // A credit counts towards the amount paid: printed as it counts, not as a deduction.
        `5. März 2026 Gutschrift ${creditNote.credit_note_no} 10,00`,
      ]);
      expect(invoiceText).toContain('Bezahlt und gutgeschrieben 10,00 USD');
    });
  });

  it('flows a 200-line invoice onto several pages, the table header on each', async () => {
    const number = invoiceNumber();
    const invoice = await createInvoice(test.http, {
      invoice_no: number,
      items: lineItems(200, { rate: '2.50' }),
    });
    const { pages, text } = await expectPdf(await getPdf('invoice', invoice.id), `${number}.pdf`);
    // The same page flow as before text layout handled every script.
    expect(pages.length).toBe(6);
    const withLines = pages.filter((page) => /Line \d+ 1 2\.50/.test(page));
    expect(withLines.length).toBeGreaterThan(2);
    for (const page of withLines) {
      const header = page.indexOf(HEADER('USD'));
      expect(header).toBeGreaterThanOrEqual(0);
      expect(header).toBeLessThan(page.search(/Line \d+ 1 2\.50/));
    }
    expectInOrder(
      text,
      Array.from({ length: 200 }, (_, index) => `Line ${index + 1} 1 2.50 2.50 `),
    );
    expect(text).toContain('Total 500.00 USD');
    expect(text).toContain(`page ${pages.length} of ${pages.length}`);
  });

  it('prints Greek and Cyrillic names and descriptions intact', async () => {
    const greek = await addClient(test.http, {
      names: 'Αλέξανδρος Παπαδόπουλος',
      address: 'Οδός Ερμού 15, Αθήνα',
    });
    const cyrillic = await addClient(test.http, {
      names: 'Елизавета Петровна Смирнова',
      address: 'ул. Пушкина, д. 10, Москва',
    });
    const invoice = await createInvoice(test.http, {
      client: greek.id,
      items: [{ description: 'Μετάφραση εγγράφων', quantity: 1, rate: '80.00' }],
    });
    const estimate = await createEstimate(test.http, {
      client: cyrillic.id,
      items: [{ description: 'Перевод документов', quantity: 1, rate: '80.00' }],
    });
    const invoicePdf = await expectPdf(
      await getPdf('invoice', invoice.id),
      `${invoice.invoice_no}.pdf`,
    );
    expectInOrder(invoicePdf.text, [
      'Αλέξανδρος Παπαδόπουλος',
      'Οδός Ερμού 15, Αθήνα',
      'Μετάφραση εγγράφων 1 80.00 80.00',
    ]);
    const estimatePdf = await expectPdf(
      await getPdf('estimate', estimate.id),
      `${estimate.estimate_no}.pdf`,
    );
    expectInOrder(estimatePdf.text, [
      'Елизавета Петровна Смирнова',
      'ул. Пушкина, д. 10, Москва',
      'Перевод документов 1 80.00 80.00',
    ]);
  });

  it('names a file whose number is not plain ASCII in both forms of Content-Disposition', async () => {
    const number = 'ΤΙΜ-2026/7"';
    const invoice = await createInvoice(test.http, { invoice_no: number });
    const response = await getPdf('invoice', invoice.id);
    expect({ status: response.status, type: response.type }).toEqual({
      status: 200,
      type: 'application/pdf',
    });
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="___-2026_7_.pdf"; filename*=UTF-8''%CE%A4%CE%99%CE%9C-2026%2F7%22.pdf`,
    );
    const { text } = await pdfText(response.body as Buffer);
    expect(flattened(text)).toContain(`Invoice number ${number}`);
  });

  describe.each(['invoice', 'estimate'] as const)('the %s PDF of no live record', (kind) => {
    const create = async () =>
      kind === 'invoice'
        ? (await createInvoice(test.http)).id
        : (await createEstimate(test.http, { items: estimateLines(1) })).id;

    it.each([...UNKNOWN_IDS, ...NON_DIGIT_IDS])('answers 404 for id %s', async (id) => {
      expectError(await test.http.get(`/v1/${kind}/${id}/pdf`), 404);
    });

    it('answers 404 once the record is archived', async () => {
      const id = await create();
      await getPdf(kind, id).then((response) => expect(response.status).toBe(200));
      await test.http.delete(`/v1/${kind}/${id}`).expect(200);
      expectError(await test.http.get(`/v1/${kind}/${id}/pdf`), 404);
    });
  });
});
