import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import {
  createInvoice,
  invoiceNumber,
  payInvoice,
  readInvoice,
  sendInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { eventually } from './setup/eventually';
import { expectInOrder, flattened, pdfText } from './setup/pdf-text';
import { parseMail } from './setup/smtp-sink';

/*
 * Every label in the client's language, through the HTTP API: an invoice's PDF and e-mail with
 * the issuer's country by name and the payment terms written for that language
 * (PAYMENT_TERMS_DE, …, else PAYMENT_TERMS), and the statement PDF with its labels, written-out
 * dates and grouped amounts (JSON and CSV stay machine formats).
 */

const COMPANY = {
  COMPANY_NAME: 'Nordlicht Software GmbH',
  COMPANY_ADDRESS: 'Hauptstraße 1, 10115 Berlin',
  COMPANY_COUNTRY: 'de',
  COMPANY_EMAIL: 'rechnung@nordlicht.example',
  COMPANY_PHONE: '+49 30 1234567',
  COMPANY_TAX_ID: 'DE999999999',
  COMPANY_BANK_ACCOUNT: 'DE89 3704 0044 0532 0130 00',
  PAYMENT_TERMS: 'Payable within 30 days.',
  PAYMENT_TERMS_DE: 'Zahlbar innerhalb von 30 Tagen ohne Abzug.',
  PAYMENT_TERMS_FR: 'Payable sous 30 jours, sans escompte.',
  // No PAYMENT_TERMS_ES: Spanish documents print PAYMENT_TERMS.
  OUTBOX_POLL_MS: '20',
  MAIL_RETRY_BASE_MS: '20',
};

describe('Documents and statements in the client’s language', () => {
  let test: TestApp;
  let mailDir: string;

  beforeAll(async () => {
    mailDir = await mkdtemp(join(tmpdir(), 'invoicing-language-'));
    test = await createTestApp({ env: { ...COMPANY, MAIL_DIR: mailDir } });
  });

  afterAll(async () => {
    await test.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  /** The PDF at `path`, checked as one; answers its text, flattened. */
  async function pdfAt(path: string): Promise<string> {
    const response: Response = await test.http.get(path).responseType('blob');
    expect({ status: response.status, type: response.headers['content-type'] }).toEqual({
      status: 200,
      type: 'application/pdf',
    });
    return flattened((await pdfText(response.body as Buffer)).text);
  }

  /** An open invoice of 1,234,500.00 EUR (1000 × 1234.50) for a new client in `language`. */
  async function openInvoice(language: string, names: string) {
    const client = await createClient(test.http, { names, language });
    const invoice = await createInvoice(test.http, {
      client,
      invoice_no: invoiceNumber(`INV-${language || 'XX'}`),
      currency: 'EUR',
      tax_rate: 0,
      issue_date: '2026-03-01',
      due_date: '2026-03-31',
      items: [{ description: 'Beratung', quantity: '1000', rate: '1234.50' }],
    });
    return { client, invoice };
  }

  describe('an invoice', () => {
    it.each([
      {
        language: 'de',
        shown: [
          'RECHNUNG',
          COMPANY.COMPANY_NAME,
          COMPANY.COMPANY_ADDRESS,
          'Deutschland',
          COMPANY.COMPANY_EMAIL,
          'Telefon: +49 30 1234567',
          'USt-IdNr.: DE999999999',
          'Ausstellungsdatum 1. März 2026',
          'Beschreibung Menge Einzelpreis (EUR) Betrag (EUR)',
          'Beratung 1.000 1.234,50 1.234.500,00',
          'Zahlungsbedingungen Zahlbar innerhalb von 30 Tagen ohne Abzug.',
          'IBAN / Kontonummer: DE89 3704 0044 0532 0130 00',
        ],
      },
      {
        language: 'fr',
        shown: [
          'FACTURE',
          COMPANY.COMPANY_ADDRESS,
          'Allemagne',
          // French sets a (no-break) space before the colon; pdf.js extracts it as a plain one.
          'Téléphone : +49 30 1234567',
          'N° TVA : DE999999999',
          'Date d’émission 1 mars 2026',
          'Description Quantité Prix unitaire (EUR) Montant (EUR)',
          'Beratung 1 000 1 234,50 1 234 500,00',
          'Conditions de paiement Payable sous 30 jours, sans escompte.',
          'IBAN / N° de compte : DE89 3704 0044 0532 0130 00',
        ],
      },
      {
        language: 'es',
        shown: [
          'FACTURA',
          COMPANY.COMPANY_ADDRESS,
          'Alemania',
          'Teléfono: +49 30 1234567',
          'NIF: DE999999999',
          'Fecha de emisión 1 de marzo de 2026',
          // Short enough that no header wraps in its column.
          'Descripción Cantidad Precio (EUR) Importe (EUR)',
          'Beratung 1000 1234,50 1.234.500,00',
          // No PAYMENT_TERMS_ES: the terms everyone else gets.
          'Condiciones de pago Payable within 30 days.',
        ],
      },
      {
        // No language: DOCUMENT_LOCALE (en).
        language: '',
        shown: [
          'INVOICE',
          COMPANY.COMPANY_ADDRESS,
          'Germany',
          'Phone: +49 30 1234567',
          'Tax ID: DE999999999',
          'Payment terms Payable within 30 days.',
        ],
      },
    ])(
      'prints "$language" labels, the issuer’s country and its payment terms',
      async ({ language, shown }) => {
        const { invoice } = await openInvoice(language, `Client ${language}`);
        const text = await pdfAt(`/v1/invoice/${invoice.id}/pdf`);
        expectInOrder(text, shown);
        const others = ['Zahlbar innerhalb', 'Payable sous', 'Payable within'].filter(
          (terms) => !shown.some((part) => part.includes(terms)),
        );
        for (const terms of others) expect(text).not.toContain(terms);
      },
    );

    it('names the invoice a German credit note corrects in German', async () => {
      const { invoice } = await openInvoice('de', 'Gutschrift GmbH');
      const written = await addCreditNote(test.http, invoice.id, {
        issue_date: '2026-03-05',
        reason: 'Rabatt',
        items: [{ description: 'Rabatt', quantity: 1, rate: '10.00' }],
      });
      const text = await pdfAt(`/v1/credit-note/${written.credit_note[0].id}/pdf`);
      expect(text).toContain(`Ursprungsrechnung ${invoice.invoice_no}`);
      expect(text).not.toContain('Korrigiert Rechnung');
    });

    it('e-mails the terms and the issuer’s country in the client’s language', async () => {
      const sent: Record<string, string> = {};
      for (const language of ['de', 'fr', 'es']) {
        const { invoice } = await openInvoice(language, `Mail ${language}`);
        await sendInvoice(test.http, invoice.id, `${language}@example.com`);
        await eventually(
          async () => (await readInvoice(test.http, invoice.id)).send_log,
          (log) => log[log.length - 1]?.delivery === 'sent',
        );
        sent[language] = invoice.invoice_no;
      }
      const files = await readdir(mailDir);
      const mailOf = async (number: string) => {
        const file = files.find((name) => name.includes(`-${number}-`));
        expect(file).toBeDefined();
        return parseMail(await readFile(join(mailDir, file!)));
      };
      const german = await mailOf(sent.de);
      const french = await mailOf(sent.fr);
      const spanish = await mailOf(sent.es);
      for (const body of [german.text, german.html]) {
        expect(body).toContain('Zahlbar innerhalb von 30 Tagen ohne Abzug.');
        expect(body).toContain('Deutschland');
        expect(body).not.toContain('Payable within');
      }
      for (const body of [french.text, french.html]) {
        expect(body).toContain('Payable sous 30 jours, sans escompte.');
        expect(body).toContain('Allemagne');
      }
      for (const body of [spanish.text, spanish.html]) {
        expect(body).toContain('Payable within 30 days.');
        expect(body).toContain('Alemania');
      }
    });
  });

  describe('a statement', () => {
    /** A client in `language` with an invoice, a payment and a credit note in 2026. */
    async function statementClient(language: string) {
      const { client, invoice } = await openInvoice(language, `Statement ${language}`);
      await payInvoice(test.http, invoice.id, '234.50', { payment_date: '2026-03-10' });
      await addCreditNote(test.http, invoice.id, {
        credit_note_no: invoiceNumber(`CN-${language}`),
        issue_date: '2026-04-15',
        reason: 'Rabatt',
        items: [{ description: 'Rabatt', quantity: 1, rate: '100.00' }],
      });
      const query = 'from=2026-01-01&to=2026-06-30';
      const json = await test.http.get(`/v1/client/${client}/statement?${query}`).expect(200);
      const statement = (json.body as { data: StatementJson }).data;
      const text = await pdfAt(`/v1/client/${client}/statement/pdf?${query}`);
      return { invoice, statement, text };
    }

    it.each([
      {
        language: 'de',
        shown: (lines: StatementLineJson[], number: string) => [
          'KONTOAUSZUG',
          COMPANY.COMPANY_NAME,
          'Deutschland',
          'Telefon: +49 30 1234567',
          'Zeitraum 1. Januar 2026 bis 30. Juni 2026',
          'Kontoauszug für Statement de',
          'EUR',
          'Anfangssaldo 0,00 EUR',
          'Datum Referenz Buchungstext Betrag Saldo',
          `1. März 2026 ${number} Rechnung 1.234.500,00 1.234.500,00`,
          `10. März 2026 ${lines[1].reference} Zahlung zu Rechnung ${number} -234,50 1.234.265,50`,
          `15. April 2026 ${lines[2].reference} Gutschrift zu Rechnung ${number} -100,00 1.234.165,50`,
          'Endsaldo 1.234.165,50 EUR',
          'Kontoauszug · Statement de · Seite 1 von 1',
        ],
      },
      {
        language: 'fr',
        shown: (lines: StatementLineJson[], number: string) => [
          'RELEVÉ DE COMPTE',
          'Allemagne',
          'Téléphone : +49 30 1234567',
          'Période Du 1 janvier 2026 au 30 juin 2026',
          'Relevé établi pour Statement fr',
          'Solde initial 0,00 EUR',
          'Date Référence Libellé Montant Solde',
          `1 mars 2026 ${number} Facture 1 234 500,00 1 234 500,00`,
          `10 mars 2026 ${lines[1].reference} Paiement de la facture ${number} -234,50 1 234 265,50`,
          `15 avril 2026 ${lines[2].reference} Avoir sur la facture ${number} -100,00 1 234 165,50`,
          'Solde final 1 234 165,50 EUR',
          'Relevé de compte · Statement fr · page 1 sur 1',
        ],
      },
      {
        language: 'es',
        shown: (lines: StatementLineJson[], number: string) => [
          'EXTRACTO DE CUENTA',
          'Alemania',
          'Teléfono: +49 30 1234567',
          'Periodo Del 1 de enero de 2026 al 30 de junio de 2026',
          'Cliente Statement es',
          'Saldo inicial 0,00 EUR',
          'Fecha Referencia Concepto Importe Saldo',
          `1 de marzo de 2026 ${number} Factura 1.234.500,00 1.234.500,00`,
          `10 de marzo de 2026 ${lines[1].reference} Pago de la factura ${number} -234,50 1.234.265,50`,
          `15 de abril de 2026 ${lines[2].reference} Abono a la factura ${number} -100,00 1.234.165,50`,
          'Saldo final 1.234.165,50 EUR',
          'Extracto de cuenta · Statement es · página 1 de 1',
        ],
      },
    ])(
      'prints a "$language" client’s statement PDF in its language; the JSON stays as it was',
      async ({ language, shown }) => {
        const { invoice, statement, text } = await statementClient(language);
        const [section] = statement.currencies;
        // The machine formats keep ISO dates and plain decimals.
        expect(section.lines.map(({ date, type, amount }) => [date, type, amount])).toEqual([
          ['2026-03-01', 'invoice', '1234500.00'],
          ['2026-03-10', 'payment', '-234.50'],
          ['2026-04-15', 'credit_note', '-100.00'],
        ]);
        expect(section.closing_balance).toBe('1234165.50');
        expectInOrder(text, shown(section.lines, invoice.invoice_no));
        expect(text).not.toMatch(/Statement of account|Opening balance|2026-\d\d-\d\d|1234500/);
        // Each number once: the invoice's own line names it as its reference only.
        expect(text.split(invoice.invoice_no)).toHaveLength(4);
      },
    );

    it('prints a client whose language has no messages in DOCUMENT_LOCALE', async () => {
      const { text } = await statementClient('it');
      expectInOrder(text, [
        'STATEMENT OF ACCOUNT',
        'Germany',
        'Period From January 1, 2026 to June 30, 2026',
        'Opening balance 0.00 EUR',
        '1,234,500.00',
        'Closing balance 1,234,165.50 EUR',
      ]);
    });
  });
});

interface StatementLineJson {
  date: string;
  type: string;
  reference: string;
  invoice_no: string;
  amount: string;
  balance: string;
}

interface StatementJson {
  currencies: Array<{
    currency: string;
    opening_balance: string;
    lines: StatementLineJson[];
    closing_balance: string;
  }>;
}
