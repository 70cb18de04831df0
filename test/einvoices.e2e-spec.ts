import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
import { CreditNoteWriteResult } from './factories/credit-notes';
import { addEstimate } from './factories/estimates';
import {
  postTaxedCreditNote,
  postTaxedInvoice,
  TaxedInvoiceInput,
  TaxedLineInput,
} from './factories/taxes';
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
  // XRechnung's seller contact (BT-41..43) and payment account (BT-84).
  COMPANY_PHONE: '+49 30 1234567',
  COMPANY_EMAIL: 'rechnung@acme.example',
  COMPANY_BANK_ACCOUNT: 'DE89370400440532013000',
};

/** Every format, XML and PDF. */
const FORMATS = ['ubl', 'cii', 'peppol', 'xrechnung-ubl', 'xrechnung-cii', 'facturx'] as const;

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

  it('imports what it serves as an expense, in every format, and the same invoice twice as 409', async () => {
    const syntaxes = { ubl: 'ubl', peppol: 'ubl', 'xrechnung-ubl': 'ubl', facturx: 'facturx' };
    for (const format of FORMATS) {
      const invoice = await germanInvoice();
      await payInvoice(test.http, invoice.id, '10.00');
      const served = (await einvoice('invoice', invoice.id, format).expect(200)).body as Buffer;
      const type = format === 'facturx' ? 'application/pdf' : 'application/xml';

      const response = await test.http
        .post('/v1/expense/import')
        .set('Content-Type', type)
        .send(served);

      expect({ format, status: response.status }).toEqual({ format, status: 200 });
      const [expense] = (response.body as { expense: Array<Record<string, unknown>> }).expense;
      const due = (await readInvoice(test.http, invoice.id)).invoice[0].outstanding_balance;
      expect({ format, ...expense }).toMatchObject({
        format,
        amount: due,
        vendor: 'Acme GmbH',
        source: {
          format: syntaxes[format as keyof typeof syntaxes] ?? 'cii',
          invoice_number: invoice.invoice_no,
          seller_vat_id: 'DE123456789',
        },
      });
      const again = format === 'cii' ? 'ubl' : 'cii';
      const twice = await test.http
        .post('/v1/expense/import')
        .set('Content-Type', 'application/xml')
        .send((await einvoice('invoice', invoice.id, again).expect(200)).body as Buffer);
      expectError(twice, 409);
    }
  });

  describe('the matrix: every format of every kind of document, its totals those of the answer', () => {
    /** A document of the matrix: how it is read back as JSON, and its e-invoice route. */
    interface Made {
      kind: 'invoice' | 'credit-note';
      id: string;
      tax: string;
      total: string;
      due: string;
    }

    const invoiceMade = async (input: Omit<TaxedInvoiceInput, 'client'>, of = client) => {
      const response = await postTaxedInvoice(test.http, { client: of, ...input });
      expect({ status: response.status, body: response.body as unknown }).toMatchObject({
        status: 200,
      });
      const { id } = (response.body as InvoiceWriteResult).invoice[0];
      return invoiceRead(id);
    };

    /** The invoice as read now (after payments): what it is due. */
    const invoiceRead = async (id: string): Promise<Made> => {
      const [read] = (await readInvoice(test.http, id)).invoice;
      return {
        kind: 'invoice',
        id,
        tax: String(read.tax_amount),
        total: String(read.total),
        due: read.outstanding_balance,
      };
    };

    const abroad = async (country: string, taxId: string) =>
      (
        await addClient(test.http, {
          ...GERMAN_CLIENT,
          address: country === 'US' ? 'Main St 1, 10001 New York' : 'Rue X 3, 75001 Paris',
          country,
          tax_id: taxId,
        })
      ).id;

    const line = (rate: string, taxes: TaxedLineInput['taxes'], extra = {}): TaxedLineInput => ({
      description: 'Leistung',
      quantity: 3,
      rate,
      taxes,
      ...extra,
    });

    /** A credit note of `items` against an invoice made of `invoice`, what it credits due. */
    const creditNoteMade = async (
      invoice: Omit<TaxedInvoiceInput, 'client'>,
      items: TaxedLineInput[],
    ): Promise<Made> => {
      const { id } = await invoiceMade(invoice);
      const response = await postTaxedCreditNote(test.http, id, {
        reason: 'Rabatt nachträglich',
        items,
      }).expect(200);
      const [note] = (response.body as CreditNoteWriteResult).credit_note;
      return {
        kind: 'credit-note',
        id: note.id,
        tax: String(note.tax_amount),
        total: String(note.total),
        due: String(note.total),
      };
    };

    const DOCUMENTS: Record<string, () => Promise<Made>> = {
      'one rate': () => invoiceMade({ items: [line('100.00', [{ rate: 19 }])] }),
      'two rates': () =>
        invoiceMade({
          items: [line('150.00', [{ rate: 19 }]), line('39.90', [{ rate: 7 }])],
        }),
      discounts: () =>
        invoiceMade({
          discount_percent: 10,
          items: [
            line('99.99', [{ rate: 19 }], { discount_percent: 15 }),
            line('12.34', [{ rate: 7 }], { discount_amount: '1.00' }),
          ],
        }),
      'zero rated (Z)': () => invoiceMade({ items: [line('50.00', [{ rate: 0, category: 'Z' }])] }),
      'exempt (E)': () =>
        invoiceMade({
          items: [
            line('80.00', [{ rate: 0, category: 'E', exemption_reason: 'Heilbehandlung' }]),
            line('20.00', [{ rate: 19 }]),
          ],
        }),
      'reverse charge (AE)': async () =>
        invoiceMade(
          {
            items: [line('500.00', [{ rate: 0, category: 'AE', exemption_code: 'VATEX-EU-AE' }])],
          },
          await abroad('FR', 'FR12345678901'),
        ),
      'intra-community (K)': async () =>
        invoiceMade(
          {
            supply_date: '2026-03-01',
            items: [line('400.00', [{ rate: 0, category: 'K', exemption_code: 'VATEX-EU-IC' }])],
          },
          await abroad('FR', 'FR12345678901'),
        ),
      'export (G)': async () =>
        invoiceMade(
          {
            currency: 'USD',
            items: [line('250.00', [{ rate: 0, category: 'G', exemption_code: 'VATEX-EU-G' }])],
          },
          await abroad('US', ''),
        ),
      'another currency': () =>
        invoiceMade({ currency: 'USD', items: [line('33.33', [{ rate: 19 }])] }),
      'prices including tax': () =>
        invoiceMade({
          prices_include_tax: true,
          items: [line('119.00', [{ rate: 19 }]), line('10.70', [{ rate: 7 }])],
        }),
      'prices including tax, discounted': () =>
        invoiceMade({
          prices_include_tax: true,
          discount_percent: 10,
          items: [
            line('99.99', [{ rate: 19 }], { discount_percent: 15 }),
            line('0.01', [{ rate: 19 }]),
            line('9.99', [{ rate: 7 }], { discount_amount: '1.00' }),
          ],
        }),
      // Its prices include tax as its invoice's do.
      'credit note of prices including tax': () =>
        creditNoteMade(
          {
            prices_include_tax: true,
            items: [line('119.00', [{ rate: 19 }]), line('10.70', [{ rate: 7 }])],
          },
          [line('11.90', [{ rate: 19 }]), line('1.07', [{ rate: 7 }])],
        ),
      'part-paid': async () => {
        const made = await invoiceMade({ items: [line('100.00', [{ rate: 19 }])] });
        await payInvoice(test.http, made.id, '57.00');
        return invoiceRead(made.id);
      },
      'credit note': () =>
        creditNoteMade({ items: [line('150.00', [{ rate: 19 }]), line('39.90', [{ rate: 7 }])] }, [
          line('10.00', [{ rate: 19 }]),
          line('5.00', [{ rate: 7 }]),
        ]),
    };

    /** Where a local run keeps every document served, to run the official rules over them. */
    const dumpDirectory = process.env.EINVOICE_DUMP_DIR;

    it.each(Object.keys(DOCUMENTS))('%s', async (name) => {
      const made = await DOCUMENTS[name]();
      for (const format of FORMATS) {
        const response = await einvoice(made.kind, made.id, format);
        expect({ format, status: response.status, body: response.body as unknown }).toMatchObject({
          format,
          status: 200,
        });
        const xml =
          format === 'facturx'
            ? (await popplerAttachments(response.body as Buffer)).get('factur-x.xml')
            : (response.body as Buffer);
        const text = xml?.toString('utf8') ?? '';
        expect({ format, ...totalsOf(text) }).toMatchObject({
          format,
          tax: new Decimal(made.tax),
          total: new Decimal(made.total),
          due: new Decimal(made.due),
        });
        if (dumpDirectory) {
          const file = `${name.replace(/\W+/g, '-')}.${format}.xml`;
          writeFileSync(join(dumpDirectory, file), text);
        }
      }
    });
  });
});
