import { setTimeout as delay } from 'node:timers/promises';
import { XMLParser } from 'fast-xml-parser';
import { Decimal } from '../src/common/money/decimal';
import { addClient } from './factories/clients';
import {
  addInvoice,
  InvoiceOutput,
  InvoiceWriteResult,
  payInvoice,
  readInvoice,
  sendInvoice,
} from './factories/invoices';
import { addEstimate } from './factories/estimates';
import { postTaxedInvoice } from './factories/taxes';
import { createTestApp, TestApp } from './setup/create-app';
import { eventually } from './setup/eventually';
import { popplerAttachments } from './setup/pdf-poppler';
import { ParsedMail, SmtpSink } from './setup/smtp-sink';
import { expectError, expectValidationError } from './setup/expectations';

/*
 * `GET /v1/invoice/{id}/einvoice` and `GET /v1/credit-note/{id}/einvoice` (docs/einvoices.md):
 * the document as an EN 16931 e-invoice, its figures those of the JSON answer; what a format
 * needs and the document, its client or the settings lack answers 422 naming each piece.
 */

/** A client in Germany with its electronic address and Leitweg-ID. */
const GERMAN_CLIENT = {
  names: 'Kunde GmbH',
  address: 'Weg 2, 10115 Berlin',
  country: 'DE',
  tax_id: 'DE987654321',
  einvoice_address: '9930:DE987654321',
  buyer_reference: '04011000-12345-34',
};

/** What an e-invoice needs of the issuer. */
const ISSUER_ENV = {
  COMPANY_NAME: 'Acme GmbH',
  COMPANY_ADDRESS: 'Hauptstraße 1, 10115 Berlin',
  COMPANY_COUNTRY: 'DE',
  COMPANY_TAX_ID: 'DE123456789',
  COMPANY_EINVOICE_ADDRESS: '9930:DE123456789',
};

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Tree = Record<string, any>;

/** An amount as written, with or without attributes. */
function amount(value: unknown): Decimal {
  const text = typeof value === 'object' && value !== null ? (value as Tree)['#text'] : value;
  return new Decimal(String(text));
}

/** The figures a receiver pays by, from a CII or a UBL document. */
function totalsOf(xml: string): { number: string; tax: Decimal; total: Decimal; due: Decimal } {
  const root = parser.parse(xml) as Tree;
  if (root.CrossIndustryInvoice) {
    const document = root.CrossIndustryInvoice as Tree;
    const totals = document.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement
      .SpecifiedTradeSettlementHeaderMonetarySummation as Tree;
    return {
      number: String(document.ExchangedDocument.ID),
      tax: amount(totals.TaxTotalAmount),
      total: amount(totals.GrandTotalAmount),
      due: amount(totals.DuePayableAmount),
    };
  }
  const document = (root.Invoice ?? root.CreditNote) as Tree;
  const taxTotal = [document.TaxTotal].flat()[0] as Tree;
  return {
    number: String(document.ID),
    tax: amount(taxTotal.TaxAmount),
    total: amount(document.LegalMonetaryTotal.TaxInclusiveAmount),
    due: amount(document.LegalMonetaryTotal.PayableAmount),
  };
}

describe('E-invoices', () => {
  const sink = new SmtpSink();
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    await sink.start();
    test = await createTestApp({
      env: {
        ...ISSUER_ENV,
        SMTP_URL: sink.url,
        MAIL_FROM: 'billing@acme.example',
        OUTBOX_POLL_MS: '20',
      },
    });
    client = (await addClient(test.http, GERMAN_CLIENT)).id;
  });

  afterAll(async () => {
    await test.close();
    await sink.stop();
  });

  /** A two-rate German invoice of the client. */
  const germanInvoice = async (of = client): Promise<InvoiceOutput> => {
    const response = await postTaxedInvoice(test.http, {
      client: of,
      tax_rate: '19',
      items: [
        { description: 'Beratung', quantity: 2, rate: '150.00', taxes: [{ rate: 19 }] },
        { description: 'Fachbuch', quantity: 1, rate: '39.90', taxes: [{ rate: 7 }] },
      ],
    }).expect(200);
    return (response.body as InvoiceWriteResult).invoice[0];
  };

  const einvoice = (kind: 'invoice' | 'credit-note', id: string, format?: string) =>
    test.http
      .get(`/v1/${kind}/${id}/einvoice`)
      .query(format === undefined ? {} : { format })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          // The error envelope as JSON, the e-invoice as its bytes.
          const json = /json/.test(String(response.headers['content-type']));
          done(null, json ? (JSON.parse(bytes.toString('utf8')) as unknown) : bytes);
        });
      });

  it('answers an invoice in CII as application/xml named after its number, its figures those of its answer', async () => {
    const invoice = await germanInvoice();

    const response = await einvoice('invoice', invoice.id, 'cii').expect(200);

    expect(response.type).toBe('application/xml');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="${invoice.invoice_no}.xml"`,
    );
    const xml = (response.body as Buffer).toString('utf8');
    expect(totalsOf(xml)).toEqual({
      number: invoice.invoice_no,
      tax: new Decimal(String(invoice.tax_amount)),
      total: new Decimal(String(invoice.total)),
      due: new Decimal(invoice.outstanding_balance),
    });
    // The parties as the client and the settings give them.
    expect(xml).toContain('<ram:URIID schemeID="9930">DE987654321</ram:URIID>');
    expect(xml).toContain('<ram:BuyerReference>04011000-12345-34</ram:BuyerReference>');
  });

  it('answers Factur-X as the PDF named after its number, carrying the same CII as factur-x.xml', async () => {
    const invoice = await germanInvoice();

    const response = await einvoice('invoice', invoice.id, 'facturx').expect(200);

    expect(response.type).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="${invoice.invoice_no}.pdf"`,
    );
    const attachments = await popplerAttachments(response.body as Buffer);
    expect([...attachments.keys()]).toEqual(['factur-x.xml']);
    const cii = (await einvoice('invoice', invoice.id, 'cii').expect(200)).body as Buffer;
    expect(attachments.get('factur-x.xml')?.toString('utf8')).toBe(cii.toString('utf8'));
  });

  it('takes the format in any letter case, and a part-paid invoice is due its balance', async () => {
    const invoice = await germanInvoice();
    await payInvoice(test.http, invoice.id, '100.00');
    const paid = (await readInvoice(test.http, invoice.id)).invoice[0];

    const response = await einvoice('invoice', invoice.id, 'CII').expect(200);

    const totals = totalsOf((response.body as Buffer).toString('utf8'));
    expect(totals.due).toEqual(new Decimal(paid.outstanding_balance));
    expect(totals.total.minus(totals.due)).toEqual(new Decimal('100.00'));
  });

  it('refuses a missing or unknown format with 422 naming format', async () => {
    const invoice = await germanInvoice();

    expectValidationError(await einvoice('invoice', invoice.id), ['format']);
    expectValidationError(await einvoice('invoice', invoice.id, 'pdf'), ['format']);
    expectValidationError(await einvoice('invoice', invoice.id, ' cii'), ['format']);
  });

  it('answers 404 for an unknown or archived invoice and credit note', async () => {
    const invoice = await germanInvoice();
    await test.http.delete(`/v1/invoice/${invoice.id}`).expect(200);

    expectError(await einvoice('invoice', invoice.id, 'cii'), 404);
    expectError(await einvoice('invoice', '999999', 'cii'), 404);
    expectError(await einvoice('credit-note', '999999', 'cii'), 404);
  });

  it('answers 409 for a draft invoice: it has no number yet', async () => {
    const draft = (
      await test.http
        .post('/v1/invoice/add')
        .send({
          client,
          payment_status: 'Not Paid',
          draft: true,
          items: [{ description: 'Draft', quantity: 1, rate: '1.00' }],
        })
        .expect(200)
    ).body as { invoice: Array<{ id: string }> };

    expectError(await einvoice('invoice', draft.invoice[0].id, 'cii'), 409);
  });

  it('answers 422 naming every piece the invoice, its client and the settings lack', async () => {
    const bare = await createTestApp({ sharedDatabase: true });
    try {
      const nowhere = (await addClient(bare.http, { names: 'Nowhere Ltd' })).id;
      const { invoice } = await addInvoice(bare.http, { client: nowhere });

      const response = await bare.http
        .get(`/v1/invoice/${invoice[0].id}/einvoice`)
        .query({ format: 'cii' });

      expectError(response, 422);
      const errors = (response.body as { errors: Record<string, string[]> }).errors;
      expect(Object.keys(errors).sort()).toEqual([
        'company.country',
        'company.tax_id',
        'customer_country',
      ]);
    } finally {
      await bare.close();
    }
  });

  describe('sent to a client with an einvoice_format', () => {
    /** The mail the sink got for one document number (in the subject), once delivered. */
    const mailFor = async (number: string): Promise<ParsedMail> => {
      const [received] = await eventually(
        () => sink.received.filter((mail) => mail.mail.headers.subject?.includes(number)),
        (found) => found.length > 0,
      );
      return received.mail;
    };

    it('attaches the e-invoice beside the PDF, its figures those of the answer', async () => {
      const invoice = await germanInvoice(await formatClient());

      await sendInvoice(test.http, invoice.id, 'ap@kunde.example');

      const mail = await mailFor(invoice.invoice_no);
      expect(mail.attachments.map((each) => [each.filename, each.contentType])).toEqual([
        [`${invoice.invoice_no}.pdf`, 'application/pdf'],
        [`${invoice.invoice_no}.xml`, 'application/xml'],
      ]);
      const xml = mail.attachments[1].content.toString('utf8');
      expect(xml).toBe(
        ((await einvoice('invoice', invoice.id, 'cii').expect(200)).body as Buffer).toString(
          'utf8',
        ),
      );
      expect(totalsOf(xml).due).toEqual(new Decimal(invoice.outstanding_balance));
    });

    it('refuses the send with 422 naming what the e-invoice lacks, and writes nothing', async () => {
      const nowhere = (await addClient(test.http, { einvoice_format: 'cii' })).id;
      const { invoice } = await addInvoice(test.http, { client: nowhere });
      const before = await readInvoice(test.http, invoice[0].id);

      const response = await test.http
        .post('/v1/invoice/send')
        .send({ id: invoice[0].id, email: 'ap@nowhere.example' });

      expectValidationError(response, ['customer_country']);
      expect(await readInvoice(test.http, invoice[0].id)).toEqual(before);
      await delay(100);
      expect(
        sink.received.filter((mail) => mail.recipients.includes('ap@nowhere.example')),
      ).toEqual([]);
    });

    it('sends the Factur-X PDF in place of the plain one', async () => {
      const facturx = (await addClient(test.http, { ...GERMAN_CLIENT, einvoice_format: 'facturx' }))
        .id;
      const invoice = await germanInvoice(facturx);

      await sendInvoice(test.http, invoice.id, 'ap@kunde.example');

      const mail = await mailFor(invoice.invoice_no);
      expect(mail.attachments.map((each) => [each.filename, each.contentType])).toEqual([
        [`${invoice.invoice_no}.pdf`, 'application/pdf'],
      ]);
      const attachments = await popplerAttachments(mail.attachments[0].content);
      expect([...attachments.keys()]).toEqual(['factur-x.xml']);
      expect(totalsOf(attachments.get('factur-x.xml')!.toString('utf8')).total).toEqual(
        new Decimal(String(invoice.total)),
      );
    });

    it('sends an estimate without one: an estimate is no invoice', async () => {
      const { estimate } = await addEstimate(test.http, { client: await formatClient() });

      await test.http
        .post('/v1/estimate/send')
        .send({ id: estimate[0].id, email: 'ap@kunde.example' })
        .expect(200);

      const mail = await mailFor(estimate[0].estimate_no);
      expect(mail.attachments.map((each) => each.contentType)).toEqual(['application/pdf']);
    });
  });

  /** Another client in Germany, that takes CII e-invoices. */
  const formatClient = async (): Promise<string> =>
    (await addClient(test.http, { ...GERMAN_CLIENT, einvoice_format: 'cii' })).id;
});
