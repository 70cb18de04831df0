import type { Response } from 'supertest';
import { eventually } from './setup/eventually';
import { createClient } from './factories/clients';
import { GERMAN_MIXED_RATE_ROWS } from './factories/document-views';
import { readInvoice, sendInvoice } from './factories/invoices';
import { postTaxedInvoice, taxGroup } from './factories/taxes';
import { createTestApp, TestApp } from './setup/create-app';
import { expectInOrder, flattened, pdfText } from './setup/pdf-text';
import { ParsedMail, SmtpSink } from './setup/smtp-sink';

/*
 * Taxes, discounts, units and dates of supply as printed: an invoice made through the API, its
 * PDF as a reader extracts it and its e-mail as a mail server receives it, each showing the
 * unit beside the quantity, each line's discount and (rates differing) its tax, the document
 * discount, the VAT breakdown with the reverse charge's wording, the service period or the date
 * of supply, and prices that include tax, in the client's language.
 */

const FAST_MAIL = {
  COMPANY_NAME: 'Acme Beratung GmbH',
  COMPANY_ADDRESS: 'Hauptstraße 1, 10115 Berlin',
  COMPANY_TAX_ID: 'DE123456789',
  MAIL_FROM: 'rechnung@acme.example',
  OUTBOX_POLL_MS: '20',
  MAIL_RETRY_BASE_MS: '20',
};

interface Printed {
  pdf: string;
  /** The plain-text part and the HTML part's text, whitespace runs as one space. */
  mail: { text: string; html: string };
}

/** The HTML part as a reader sees it: tags dropped, the entities these texts use decoded. */
function htmlText(html: string): string {
  return flattened(
    html
      .slice(html.indexOf('<body'))
      .replace(/<div style="display:none;[^"]*">[^<]*<\/div>/, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"'),
  );
}

describe('Taxes, discounts, units and dates of supply as printed', () => {
  const sink = new SmtpSink();
  let test: TestApp;

  beforeAll(async () => {
    await sink.start();
    test = await createTestApp({ env: { ...FAST_MAIL, SMTP_URL: sink.url } });
  });

  afterAll(async () => {
    await test.close();
    await sink.stop();
  });

  /** The invoice's PDF text, and its e-mail once the sink has it. */
  async function printed(id: string, number: string, email: string): Promise<Printed> {
    const response: Response = await test.http
      .get(`/v1/invoice/${id}/pdf`)
      .responseType('blob')
      .expect(200);
    const pdf = flattened((await pdfText(response.body as Buffer)).text);
    await sendInvoice(test.http, id, email);
    await eventually(
      async () => (await readInvoice(test.http, id)).send_log,
      (log) => log[0]?.delivery === 'sent',
    );
    const received = sink.received.filter((message) =>
      message.mail.headers.subject?.includes(number),
    );
    expect(received).toHaveLength(1);
    const mail: ParsedMail = received[0].mail;
    return { pdf, mail: { text: flattened(mail.text), html: htmlText(mail.html) } };
  }

  it('prints a German invoice of mixed rates: hours, discounts, reverse charge, the period', async () => {
    const client = await createClient(test.http, {
      names: 'Müller & Söhne GmbH',
      address: 'Unter den Linden 1, Berlin',
      tax_id: 'DE987654321',
      country: 'de',
      language: 'de',
    });
    const answer = await postTaxedInvoice(test.http, {
      client,
      currency: 'EUR',
      tax_rate: '19',
      issue_date: '2026-04-01',
      due_date: '2026-04-30',
      discount_percent: 10,
      period_start: '2026-03-01',
      period_end: '2026-03-31',
      items: [
        {
          description: 'Beratung',
          quantity: 3,
          rate: '95.00',
          unit: 'HUR',
          discount_percent: 10,
          taxes: [{ rate: 19 }],
        },
        {
          description: 'Fachbuch',
          quantity: 2,
          rate: '40.00',
          discount_amount: '5.00',
          taxes: [{ rate: 7 }],
        },
        {
          description: 'Softwarelizenz',
          quantity: 1,
          rate: '500.00',
          // No reason given: the reverse charge's standard wording, in the client's language.
          taxes: [{ rate: 0, category: 'AE' }],
        },
      ],
    });
    expect(answer.status).toBe(200);
    const invoice = (answer.body as { invoice: Array<{ id: string; invoice_no: string }> })
      .invoice[0];
    // 3 × 95.00 − 10 % = 256.50; 2 × 40.00 − 5.00 = 75.00; 500.00: 831.50, less 10 % = 83.15,
    // shared 25.65 / 7.50 / 50.00 over the three rates.
    expect((await readInvoice(test.http, invoice.id)).tax_breakdown).toEqual([
      taxGroup('Tax', 'S', 19, '230.85', '43.86'),
      taxGroup('Tax', 'S', 7, '67.50', '4.73'),
      taxGroup('Tax', 'AE', 0, '450.00', '0.00', {
        reason: 'Steuerschuldnerschaft des Leistungsempfängers',
        code: 'VATEX-EU-AE',
      }),
    ]);

    const { pdf, mail } = await printed(invoice.id, invoice.invoice_no, 'buchhaltung@example.com');
    expectInOrder(pdf, [
      'RECHNUNG',
      `Rechnungsnummer ${invoice.invoice_no}`,
      'Ausstellungsdatum 1. April 2026',
      'Leistungszeitraum 1. März 2026 – 31. März 2026',
      'Fälligkeitsdatum 30. April 2026',
      ...GERMAN_MIXED_RATE_ROWS,
    ]);
    // Every label in German: no English word, no unit code.
    expect(pdf).not.toMatch(/\bTax\b|Discount|Invoice|Reverse charge|HUR|C62/);

    for (const body of [mail.text, mail.html]) {
      expectInOrder(body, [
        'Ausstellungsdatum',
        '1. April 2026',
        'Leistungszeitraum',
        '1. März 2026 – 31. März 2026',
        'Beratung',
        '256,50 EUR',
        '3 Std. × 95,00 EUR · Rabatt (10 %): -28,50 · USt. (19 %)',
        'Fachbuch',
        '2 × 40,00 EUR · Rabatt: -5,00 · USt. (7 %)',
        'Softwarelizenz',
        '1 × 500,00 EUR · USt. (0 %, Reverse Charge)',
        'Zwischensumme',
        '831,50 EUR',
        'Rabatt (10 %)',
        '-83,15 EUR',
        'USt. (19 %) auf 230,85 EUR',
        '43,86 EUR',
        'USt. (7 %) auf 67,50 EUR',
        '4,73 EUR',
        'USt. (0 %, Reverse Charge) auf 450,00 EUR',
        '0,00 EUR',
        'Steuerschuldnerschaft des Leistungsempfängers (VATEX-EU-AE)',
        'Gesamtbetrag',
        '796,94 EUR',
      ]);
      expect(body).not.toMatch(/\bTax\b|Discount|Reverse charge|HUR/);
    }
  });

  it('prints an English invoice with prices that include tax: included groups, the gross total', async () => {
    const client = await createClient(test.http, { names: 'Grace Hopper', language: 'en' });
    const answer = await postTaxedInvoice(test.http, {
      client,
      currency: 'EUR',
      tax_rate: '20',
      issue_date: '2026-04-01',
      due_date: '2026-04-30',
      prices_include_tax: true,
      discount_percent: 10,
      supply_date: '2026-04-03',
      items: [
        {
          description: 'Coffee beans',
          quantity: '2.5',
          rate: '21.40',
          unit: 'KGM',
          taxes: [{ rate: 5, name: 'VAT' }],
        },
        {
          description: 'Espresso machine',
          quantity: 1,
          rate: '238.00',
          taxes: [{ rate: 20, name: 'VAT' }],
        },
      ],
    });
    expect(answer.status).toBe(200);
    const invoice = (answer.body as { invoice: Array<{ id: string; invoice_no: string }> })
      .invoice[0];
    // Gross 53.50 and 238.00 less their shares of 29.15 (5.35, 23.80): 48.15 holds 45.86 net
    // and 2.29 tax, 214.20 holds 178.50 and 35.70; the total is the gross 262.35.
    expect((await readInvoice(test.http, invoice.id)).tax_breakdown).toEqual([
      taxGroup('VAT', 'S', 5, '45.86', '2.29'),
      taxGroup('VAT', 'S', 20, '178.50', '35.70'),
    ]);

    const { pdf, mail } = await printed(invoice.id, invoice.invoice_no, 'grace@example.com');
    expectInOrder(pdf, [
      'Issue date April 1, 2026',
      'Date of supply April 3, 2026',
      'Due date April 30, 2026',
      'Coffee beans 2.5 kg 21.40 53.50 VAT (5%)',
      'Espresso machine 1 238.00 238.00 VAT (20%)',
      'Prices include tax',
      'Sub-total 291.50 EUR',
      'Discount (10%) -29.15 EUR',
      'Incl. VAT (5%) on 45.86 EUR 2.29 EUR',
      'Incl. VAT (20%) on 178.50 EUR 35.70 EUR',
      'Total 262.35 EUR',
      'Balance due 262.35 EUR',
    ]);
    for (const body of [mail.text, mail.html]) {
      expectInOrder(body, [
        'Date of supply',
        'April 3, 2026',
        'Coffee beans',
        '53.50 EUR',
        '2.5 kg × 21.40 EUR · VAT (5%)',
        'Prices include tax',
        'Sub-total',
        '291.50 EUR',
        'Discount (10%)',
        '-29.15 EUR',
        'Incl. VAT (5%) on 45.86 EUR',
        '2.29 EUR',
        'Incl. VAT (20%) on 178.50 EUR',
        '35.70 EUR',
        'Total',
        '262.35 EUR',
      ]);
    }
  });
});
