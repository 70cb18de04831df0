import { XMLBuilder } from 'fast-xml-parser';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import PDFDocument from 'pdfkit';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { einvoiceXml } from '../src/documents/einvoice/einvoice';
import type { DocumentView } from '../src/documents/document-view';
import { IMPORT_EXAMPLE } from '../src/expenses/dto/import-expense.dto';
import { germanMixedRateInvoice, testIssuer } from './factories/document-views';
import { einvoiceView } from './factories/einvoice-views';
import { addExpense, ExpenseOutput } from './factories/expenses';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';

/*
 * POST /v1/expense/import and GET /v1/expense/{id}/source (docs/einvoices.md, Import): received
 * e-invoices in each syntax and both body forms become expenses with their source; duplicates,
 * hostile and non-conforming files are refused and change nothing.
 */

const SELLER = testIssuer({
  name: 'Acme Cloud GmbH',
  address: 'Hauptstraße 1, 10115 Berlin',
  country: 'DE',
  einvoiceAddress: '0204:991-01234-56',
  taxId: 'DE123456789',
});

/** The service's own CII of an invoice view (src/documents/einvoice/einvoice.ts). */
function ownCii(change: Partial<DocumentView> = {}): string {
  const view = einvoiceView(change);
  const result = einvoiceXml('cii', view, { seller: SELLER, buyerAddress: '9930:DE987654321' });
  if ('problems' in result) throw new Error(JSON.stringify(result.problems));
  return result.xml;
}

interface UblLine {
  name: string;
  quantity: string;
  price: string;
  amount: string;
}

interface UblInput {
  kind?: 'Invoice' | 'CreditNote';
  number?: string;
  issueDate?: string;
  currency?: string;
  seller?: string;
  vatId?: string | null;
  lines?: UblLine[];
  rate?: string;
  taxable?: string;
  tax?: string;
  lineTotal?: string;
  taxExclusive?: string;
  taxInclusive?: string;
  prepaid?: string;
  due?: string;
}

/** A UBL 2.1 Invoice or CreditNote written here from its figures, with a builder. */
function ubl(input: UblInput = {}): string {
  const kind = input.kind ?? 'Invoice';
  const currency = input.currency ?? 'EUR';
  const money = (value: string) => ({ '#text': value, '@_currencyID': currency });
  const lines = input.lines ?? [
    { name: 'Office chairs', quantity: '2', price: '150.00', amount: '300.00' },
    { name: 'Desk lamp', quantity: '1', price: '45.50', amount: '45.50' },
  ];
  const rate = input.rate ?? '19';
  const lineName = kind === 'Invoice' ? 'cac:InvoiceLine' : 'cac:CreditNoteLine';
  const quantityName = kind === 'Invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity';
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    [kind]: {
      '@_xmlns': `urn:oasis:names:specification:ubl:schema:xsd:${kind}-2`,
      '@_xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
      '@_xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
      'cbc:CustomizationID': 'urn:cen.eu:en16931:2017',
      'cbc:ID': input.number ?? 'UBL-2026-7',
      'cbc:IssueDate': input.issueDate ?? '2026-04-02',
      [kind === 'Invoice' ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode']:
        kind === 'Invoice' ? '380' : '381',
      'cbc:DocumentCurrencyCode': currency,
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          'cac:PostalAddress': { 'cac:Country': { 'cbc:IdentificationCode': 'DE' } },
          ...(input.vatId === null
            ? {}
            : {
                'cac:PartyTaxScheme': {
                  'cbc:CompanyID': input.vatId ?? 'DE811111111',
                  'cac:TaxScheme': { 'cbc:ID': 'VAT' },
                },
              }),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': input.seller ?? 'Möbel & Co KG' },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': { 'cac:PartyLegalEntity': { 'cbc:RegistrationName': 'Northwind Traders' } },
      },
      'cac:TaxTotal': {
        'cbc:TaxAmount': money(input.tax ?? '65.65'),
        'cac:TaxSubtotal': {
          'cbc:TaxableAmount': money(input.taxable ?? '345.50'),
          'cbc:TaxAmount': money(input.tax ?? '65.65'),
          'cac:TaxCategory': {
            'cbc:ID': 'S',
            'cbc:Percent': rate,
            'cac:TaxScheme': { 'cbc:ID': 'VAT' },
          },
        },
      },
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': money(input.lineTotal ?? '345.50'),
        'cbc:TaxExclusiveAmount': money(input.taxExclusive ?? '345.50'),
        'cbc:TaxInclusiveAmount': money(input.taxInclusive ?? '411.15'),
        ...(input.prepaid ? { 'cbc:PrepaidAmount': money(input.prepaid) } : {}),
        'cbc:PayableAmount': money(input.due ?? '411.15'),
      },
      [lineName]: lines.map((line, index) => ({
        'cbc:ID': String(index + 1),
        [quantityName]: { '#text': line.quantity, '@_unitCode': 'C62' },
        'cbc:LineExtensionAmount': money(line.amount),
        'cac:Item': {
          'cbc:Name': line.name,
          'cac:ClassifiedTaxCategory': {
            'cbc:ID': 'S',
            'cbc:Percent': rate,
            'cac:TaxScheme': { 'cbc:ID': 'VAT' },
          },
        },
        'cac:Price': { 'cbc:PriceAmount': money(line.price) },
      })),
    },
  };
  return new XMLBuilder({ ignoreAttributes: false, format: true }).build(document);
}

/** A PDF carrying `xml` as an embedded file (pdfkit's attachments), as Factur-X does. */
function pdfWith(
  attachment: { name: string; xml: string } | null,
  padding?: Buffer,
): Promise<Buffer> {
  const document = new PDFDocument({ size: 'A4' });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) =>
    document.on('end', () => resolve(Buffer.concat(chunks))),
  );
  document.text('Rechnung RE-2026-0042');
  if (padding) document.file(padding, { name: 'scan.bin', type: 'application/octet-stream' });
  if (attachment) {
    document.file(Buffer.from(attachment.xml, 'utf8'), {
      name: attachment.name,
      type: 'text/xml',
    });
  }
  document.end();
  return done;
}

describe('Expenses: importing received e-invoices', () => {
  let test: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    test = await createTestApp();
    dataSource = test.app.get(DataSource);
  });

  afterAll(async () => {
    await test.close();
  });

  const importRaw = (body: string | Buffer, type = 'application/xml') =>
    test.http
      .post('/v1/expense/import')
      .set('Content-Type', type)
      .send(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

  const importForm = (body: string | Buffer, filename: string, field = 'file') =>
    test.http
      .post('/v1/expense/import')
      .attach(field, typeof body === 'string' ? Buffer.from(body, 'utf8') : body, filename);

  const imported = (response: Response): ExpenseOutput =>
    (expectSuccess(response) as { expense: ExpenseOutput[] }).expense[0];

  /** Rows of every table an import writes. */
  const counts = async (): Promise<number[]> =>
    Promise.all(
      ['expenses', 'expense_sources', 'events'].map(async (table) => {
        const [row] = await dataSource.query<Array<{ count: number | string }>>(
          `SELECT COUNT(*) AS count FROM ${table}`,
        );
        return Number(row.count);
      }),
    );

  /** Sends a request that must be refused with `status`, and checks it changed nothing. */
  const refused = async (send: () => Promise<Response>, status: number): Promise<Response> => {
    const before = await counts();
    const response = await send();
    expectError(response, status);
    expect(await counts()).toEqual(before);
    return response;
  };

  const source = (id: string) =>
    test.http
      .get(`/v1/expense/${id}/source`)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });

  it("imports the service's own CII: the expense, its source, and the file as sent", async () => {
    const xml = ownCii(germanMixedRateInvoice());

    const expense = imported(await importRaw(xml));

    expect(expense).toMatchObject({
      description: 'Invoice RE-2026-0042 from Acme Cloud GmbH',
      amount: '796.94',
      currency: 'EUR',
      vendor: 'Acme Cloud GmbH',
      issued_date: '2026-03-31',
      category: 'Software',
      source: {
        format: 'cii',
        seller_vat_id: 'DE123456789',
        invoice_number: 'RE-2026-0042',
        type_code: '380',
      },
    });
    expect(expense.source?.tax_breakdown).toEqual([
      { category: 'S', rate: '19', taxable_amount: '230.85', tax_amount: '43.86' },
      { category: 'S', rate: '7', taxable_amount: '67.50', tax_amount: '4.73' },
      { category: 'AE', rate: '0', taxable_amount: '450.00', tax_amount: '0.00' },
    ]);
    expect(expense.source?.lines.map((line) => [line.name, line.net_amount])).toEqual([
      ['Beratung', '256.50'],
      ['Fachbuch', '75.00'],
      ['Softwarelizenz', '500.00'],
    ]);
    // Read, listed and the file: the same.
    const read = expectSuccess(await test.http.get(`/v1/expense/${expense.id}`)) as {
      expense: ExpenseOutput[];
    };
    expect(read.expense[0]).toEqual(expense);
    const listed = (await test.http.get('/v1/expense/all').expect(200)).body as {
      data: ExpenseOutput[];
    };
    expect(listed.data.find((each) => each.id === expense.id)).toEqual(expense);
    const file = await source(expense.id).expect(200);
    expect(file.headers['content-type']).toMatch(/^application\/xml/);
    expect(file.headers['content-disposition']).toBe('inline; filename="RE-2026-0042.xml"');
    expect((file.body as Buffer).equals(Buffer.from(xml, 'utf8'))).toBe(true);
  });

  it('answers source null for an expense added by hand, and 404 for its file', async () => {
    const plain = await addExpense(test.http);

    expect(plain.source).toBeNull();
    expectError(await test.http.get(`/v1/expense/${plain.id}/source`), 404);
    expectError(await test.http.get('/v1/expense/999999/source'), 404);
  });

  it('imports a UBL Invoice sent as text/xml', async () => {
    const expense = imported(await importRaw(ubl(), 'text/xml; charset=utf-8'));

    expect(expense).toMatchObject({
      description: 'Invoice UBL-2026-7 from Möbel & Co KG',
      amount: '411.15',
      currency: 'EUR',
      vendor: 'Möbel & Co KG',
      issued_date: '2026-04-02',
      source: {
        format: 'ubl',
        seller_vat_id: 'DE811111111',
        invoice_number: 'UBL-2026-7',
        tax_breakdown: [
          { category: 'S', rate: '19', taxable_amount: '345.50', tax_amount: '65.65' },
        ],
        lines: [
          {
            id: '1',
            name: 'Office chairs',
            quantity: '2',
            unit: 'C62',
            net_price: '150.00',
            net_amount: '300.00',
            vat_category: 'S',
            vat_rate: '19',
          },
          expect.objectContaining({ name: 'Desk lamp', net_amount: '45.50' }),
        ],
      },
    });
  });

  it('imports a UBL CreditNote as a negative expense, and a prepaid invoice by its amount due', async () => {
    const credit = imported(
      await importRaw(
        ubl({
          kind: 'CreditNote',
          number: 'CN-2026-3',
          lines: [{ name: 'Returned lamp', quantity: '1', price: '45.50', amount: '45.50' }],
          taxable: '45.50',
          tax: '8.65',
          lineTotal: '45.50',
          taxExclusive: '45.50',
          taxInclusive: '54.15',
          due: '54.15',
        }),
      ),
    );
    expect(credit).toMatchObject({
      description: 'Credit note CN-2026-3 from Möbel & Co KG',
      amount: '-54.15',
      source: { format: 'ubl', type_code: '381', invoice_number: 'CN-2026-3' },
    });

    const prepaid = imported(
      await importRaw(ubl({ number: 'UBL-PRE-1', prepaid: '11.15', due: '400.00' })),
    );
    expect(prepaid.amount).toBe('400.00');
  });

  it('imports a Factur-X PDF, raw and as a multipart file, and answers the PDF as its source', async () => {
    const pdf = await pdfWith({ name: 'factur-x.xml', xml: ownCii({ number: 'FX-1' }) });

    const expense = imported(await importRaw(pdf, 'application/pdf'));
    expect(expense).toMatchObject({
      amount: '119.00',
      source: { format: 'facturx', invoice_number: 'FX-1' },
    });
    const file = await source(expense.id).expect(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect((file.body as Buffer).equals(pdf)).toBe(true);

    const zugferd = await pdfWith({ name: 'zugferd-invoice.xml', xml: ownCii({ number: 'FX-2' }) });
    const fromForm = imported(await importForm(zugferd, 'rechnung.pdf'));
    expect(fromForm.source).toMatchObject({ format: 'facturx', invoice_number: 'FX-2' });
  });

  it('keeps a PDF just under the 10 MB limit whole, on both databases', async () => {
    // Random bytes do not compress: the PDF is about as large as they are.
    const padding = randomBytes(9_900_000);
    const pdf = await pdfWith({ name: 'factur-x.xml', xml: ownCii({ number: 'BIG-1' }) }, padding);
    expect(pdf.length).toBeGreaterThan(9_900_000);
    expect(pdf.length).toBeLessThan(10 * 1024 * 1024);

    const expense = imported(await importRaw(pdf, 'application/pdf'));

    const file = await source(expense.id).expect(200);
    expect((file.body as Buffer).equals(pdf)).toBe(true);
  });

  it('takes the XML as the multipart file field `file`, and 422 naming file without it', async () => {
    const expense = imported(await importForm(ubl({ number: 'FORM-1' }), 'invoice.xml'));
    expect(expense.source).toMatchObject({ format: 'ubl', invoice_number: 'FORM-1' });

    const other = await refused(
      () => importForm(ubl({ number: 'FORM-2' }), 'i.xml', 'document'),
      422,
    );
    expectValidationError(other, ['file']);
    const fields = await refused(
      () => test.http.post('/v1/expense/import').field('description', 'No file'),
      422,
    );
    expectValidationError(fields, ['file']);
  });

  it('refuses the same seller and invoice number twice (409), and takes the number from another seller', async () => {
    imported(await importRaw(ubl({ number: 'DUP-1' })));

    const again = await refused(() => importRaw(ubl({ number: 'DUP-1' })), 409);
    expect((again.body as { message: string }).message).toMatch(/imported before/);
    // The seller's VAT identifier as another program writes it is the same seller.
    await refused(() => importRaw(ubl({ number: 'DUP-1', vatId: 'de 811.111.111' })), 409);
    // The same invoice as a PDF is the same invoice.
    const pdf = await pdfWith({ name: 'factur-x.xml', xml: ownCii({ number: 'DUP-2' }) });
    imported(await importRaw(pdf, 'application/pdf'));
    await refused(() => importRaw(ownCii({ number: 'DUP-2' })), 409);
    // Another seller's DUP-1, and a seller known by name alone.
    imported(await importRaw(ubl({ number: 'DUP-1', vatId: 'DE822222222' })));
    imported(await importRaw(ubl({ number: 'DUP-1', vatId: null, seller: 'Nameless' })));
    await refused(() => importRaw(ubl({ number: 'DUP-1', vatId: null, seller: 'Nameless' })), 409);
  });

  it('lets one of two imports of an invoice at once through: the unique index decides', async () => {
    const before = await counts();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => importRaw(ubl({ number: 'RACE-1' }))),
    );

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    // One expense, its source and its event.
    expect(await counts()).toEqual(before.map((count) => count + 1));
  });

  it('imports a CII credit note (type code 381) as a negative expense', async () => {
    const xml = ownCii({ number: 'GS-2026-1' }).replace(
      '<ram:TypeCode>380</ram:TypeCode>',
      '<ram:TypeCode>381</ram:TypeCode>',
    );

    const expense = imported(await importRaw(xml));

    expect(expense).toMatchObject({
      description: 'Credit note GS-2026-1 from Acme Cloud GmbH',
      amount: '-119.00',
      source: { format: 'cii', type_code: '381' },
    });
  });

  it('replays an Idempotency-Key instead of importing twice', async () => {
    const send = () =>
      test.http
        .post('/v1/expense/import')
        .set('Content-Type', 'application/xml')
        .set('Idempotency-Key', 'import-once')
        .send(Buffer.from(ubl({ number: 'IDEM-1' })));
    const first = imported(await send());
    const before = await counts();

    const replay = await send();

    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(imported(replay)).toEqual(first);
    expect(await counts()).toEqual(before);
  });

  describe('hostile and non-conforming files answer 422 naming the reason and change nothing', () => {
    const fileError = async (body: string | Buffer, type = 'application/xml') => {
      const response = await refused(() => importRaw(body, type), 422);
      expectValidationError(response, ['file']);
      const answer = response.body as { message: string; errors: { file: string[] } };
      return `${answer.message} ${answer.errors.file.join(' ')}`;
    };

    it('an external entity (XXE) pointing at /etc/passwd', async () => {
      const xxe = ubl({ number: 'XXE-1', seller: '&xxe;' }).replace(
        '?>',
        '?>\n<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
      );
      expect(await fileError(xxe)).toMatch(/DOCTYPE/);
      // Multipart too, and nothing of the file is answered.
      const response = await refused(() => importForm(xxe, 'x.xml'), 422);
      expect(response.text).not.toMatch(/root:/);
    });

    it('a billion-laughs entity bomb', async () => {
      const lol = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE lolz [<!ENTITY lol "lol">',
        ...Array.from(
          { length: 9 },
          (_, level) =>
            `<!ENTITY lol${level + 1} "${`&lol${level === 0 ? '' : level};`.repeat(10)}">`,
        ),
        ']>',
        '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol9;</Invoice>',
      ].join('\n');
      expect(await fileError(lol)).toMatch(/DOCTYPE/);
      // An ENTITY declaration without a DOCTYPE is refused as well.
      expect(await fileError(ubl().replace('?>', '?>\n<!ENTITY x "y">'))).toMatch(/ENTITY/);
    });

    it('a 20 MB body: 413, raw and multipart, before it is read whole', async () => {
      const huge = Buffer.alloc(20 * 1024 * 1024, 'a');
      await refused(() => importRaw(huge), 413);
      await refused(() => importForm(huge, 'huge.xml'), 413);
    });

    it('a 20 MB body sent in chunks, without a length: 413 once 10 MB have arrived', async () => {
      const before = await counts();
      const status = await new Promise<number>((resolve, reject) => {
        const { port } = test.app.getHttpServer().address() as AddressInfo;
        const sent = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/expense/import',
            headers: { 'Content-Type': 'application/xml', 'Transfer-Encoding': 'chunked' },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        // The service may stop reading and close once it has answered.
        sent.on('error', (error: NodeJS.ErrnoException) =>
          error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
        );
        const chunk = Buffer.alloc(1 << 20, 'a');
        let chunks = 0;
        const write = (): void => {
          while (chunks < 20) {
            chunks += 1;
            if (!sent.write(chunk)) {
              sent.once('drain', write);
              return;
            }
          }
          sent.end();
        };
        write();
      });
      expect(status).toBe(413);
      expect(await counts()).toEqual(before);
    });

    it('nesting deeper than 64 elements, text that is not XML or not UTF-8', async () => {
      const deep = `${'<a>'.repeat(200)}${'</a>'.repeat(200)}`;
      expect(await fileError(deep)).toMatch(/deeper than 64/);
      expect(await fileError('just some text, not XML')).toMatch(/no XML element|not well-formed/);
      expect(await fileError('<Invoice><unclosed></Invoice>')).toMatch(/not well-formed/);
      expect(
        await fileError(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x61, 0x3e])),
      ).toMatch(/UTF-8/);
      expect(await fileError('')).toMatch(/empty|required/);
    });

    it('a PDF without an attachment, or with another one', async () => {
      expect(await fileError(await pdfWith(null), 'application/pdf')).toMatch(/no embedded files/);
      const other = await pdfWith({ name: 'notes.xml', xml: ownCii() });
      expect(await fileError(other, 'application/pdf')).toMatch(/notes\.xml/);
      expect(await fileError(Buffer.from('%PDF-1.7\nbroken'), 'application/pdf')).toMatch(/PDF/);
      // 6 MB of XML compressed to a few KB: refused at the ceiling, never unpacked whole.
      const bomb = await pdfWith({ name: 'factur-x.xml', xml: `<a>${' '.repeat(6 << 20)}</a>` });
      expect(bomb.length).toBeLessThan(100_000);
      expect(await fileError(bomb, 'application/pdf')).toMatch(/larger than 5242880 bytes/);
    });

    it('XML of another kind', async () => {
      const response = await refused(
        () => importRaw('<?xml version="1.0"?><Order xmlns="urn:example"><ID>1</ID></Order>'),
        422,
      );
      expectValidationError(response, ['syntax']);
    });

    it('totals that disagree, by the rule that fails', async () => {
      const due = await refused(() => importRaw(ubl({ number: 'BAD-1', due: '411.16' })), 422);
      expectValidationError(due, ['BR-CO-16']);
      expect((due.body as { message: string }).message).toMatch(/BR-CO-16|BT-115/);
      const lines = await refused(
        () =>
          importRaw(
            ubl({
              number: 'BAD-2',
              lineTotal: '345.49',
              taxExclusive: '345.49',
              taxInclusive: '411.14',
              due: '411.14',
            }),
          ),
        422,
      );
      expectValidationError(lines, ['BR-CO-10']);
      const tax = await refused(() => importRaw(ubl({ number: 'BAD-3', tax: '65.66' })), 422);
      expectValidationError(tax, ['BR-CO-15']);
      const cii = ownCii({ number: 'BAD-4' }).replace(
        /<ram:GrandTotalAmount>119.00</,
        '<ram:GrandTotalAmount>119.01<',
      );
      expectValidationError(await refused(() => importRaw(cii), 422), ['BR-CO-15', 'BR-CO-16']);
    });

    it('missing fields the expense needs, each named by its EN 16931 term', async () => {
      const stripped = ubl({ number: 'GONE-1' })
        .replace(/<cbc:ID>GONE-1<\/cbc:ID>/, '')
        .replace(
          /<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/,
          '<cbc:IssueDate>2026-02-30</cbc:IssueDate>',
        )
        .replace(/<cbc:DocumentCurrencyCode>EUR<\/cbc:DocumentCurrencyCode>/, '')
        .replace(/<cbc:RegistrationName>Möbel &amp; Co KG<\/cbc:RegistrationName>/, '')
        .replace(/<cbc:PayableAmount[^>]*>[^<]*<\/cbc:PayableAmount>/, '');
      const response = await refused(() => importRaw(stripped), 422);
      expectValidationError(response, ['BT-1', 'BT-2', 'BT-5', 'BT-27', 'BT-115']);
      const unknownCurrency = await refused(
        () => importRaw(ubl({ number: 'CUR-1', currency: 'ABC' })),
        422,
      );
      expectValidationError(unknownCurrency, ['BT-5']);
    });

    it('another media type: 415', async () => {
      await refused(() => test.http.post('/v1/expense/import').send({ file: ubl() }), 415);
    });
  });

  it('imports the example of the OpenAPI document', async () => {
    const expense = imported(await importRaw(IMPORT_EXAMPLE));
    expect(expense).toMatchObject({ amount: '142.80', category: 'Software' });
  });
});
