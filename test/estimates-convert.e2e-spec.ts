import { addClient, createClient } from './factories/clients';
import { addEstimate, createEstimate, estimateNumber, readEstimate } from './factories/estimates';
import {
  INVOICE_KEYS,
  plainTaxBreakdown,
  plainTaxTerms,
  TaxGroupOutput,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  ID,
  keysOf,
  NON_DIGIT_IDS,
  SHORT_CODE,
  timeWindow,
  TIMESTAMP,
} from './setup/expectations';

/*
 * POST /v1/estimate/{id}/convert (docs/rules.md, Beyond the specification): a live estimate becomes an invoice
 * answered in the add-invoice shape, and the estimate reads accepted "True"; once only.
 */

interface InvoiceWritten {
  id: string;
  invoice_no: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

interface InvoiceWriteResult {
  invoice: InvoiceWritten[];
  items: Array<{ description: string; quantity: number; rate: string }>;
  tax_breakdown: TaxGroupOutput[];
}

const todayUtc = (): string => new Date().toISOString().slice(0, 10);

describe('Estimates: POST /v1/estimate/{id}/convert', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const convert = (id: string, input: object) =>
    test.http.post(`/v1/estimate/${id}/convert`).send(input);

  const invoiceIds = async (): Promise<string[]> => {
    const response = await test.http.get('/v1/invoice/all').expect(200);
    return (response.body as { data: Array<{ id: string }> }).data.map((invoice) => invoice.id);
  };

  const addInvoice = (client: string, invoiceNo: string) =>
    test.http
      .post('/v1/invoice/add')
      .send({
        client,
        invoice_no: invoiceNo,
        payment_status: 'Paid',
        items: [{ description: 'Existing', quantity: 1, rate: '5.00' }],
      })
      .expect(200);

  it('creates an invoice from the estimate, answered in the add-invoice shape', async () => {
    const client = await addClient(test.http, {
      names: 'Convert Co',
      phone: '+49 30 1234',
      address: 'Hauptstr. 1',
      tax_id: 'DE123456789',
      country: 'de',
    });
    const added = await addEstimate(test.http, {
      client: client.id,
      estimate_no: 'EST-CONV-1',
      description: 'Kitchen refit',
      currency: 'EUR',
      tax_rate: '7.5',
      issue_date: '2026-01-05',
      due_date: '2026-01-20',
      note: 'Quote valid 14 days',
      items: [
        { description: 'Zinc worktop', quantity: 2, rate: '99.995' }, // 199.99
        { description: 'Abrasives', quantity: '0.5', rate: '0.01' }, // 0.005 → 0.01
        { description: 'Labour', quantity: '12.5', rate: '40' }, // 500.00
      ],
    });
    const [estimate] = added.estimate;
    const listedBefore = await invoiceIds();

    const window = timeWindow();
    const before = todayUtc();
    const response = await convert(estimate.id, { invoice_no: 'INV-CONV-1' });
    const after = todayUtc();

    const body = expectSuccess(response) as unknown as InvoiceWriteResult;
    expect(keysOf(body)).toEqual(['invoice', 'items', 'status', 'tax_breakdown']);
    expect(body.invoice).toHaveLength(1);
    const [invoice] = body.invoice;
    expect(keysOf(invoice)).toEqual(INVOICE_KEYS);
    expect(invoice).toEqual({
      id: expect.stringMatching(ID),
      short_code: expect.stringMatching(SHORT_CODE),
      invoice_no: 'INV-CONV-1',
      description: 'Kitchen refit',
      customer_id: client.id,
      customer_name: 'Convert Co',
      customer_phone: '+49 30 1234',
      customer_address: 'Hauptstr. 1',
      customer_tax_id: 'DE123456789',
      customer_country: 'DE',
      payment_status: 'Not Paid',
      // Due the day it is issued (today): open.
      status: 'open',
      void_reason: '',
      recurring_invoice_id: '',
      buyer_reference: '',
      order_reference: '',
      currency: 'EUR',
      tax_rate: 7.5,
      // 700.00 × 7.5% = 52.50.
      sub_total: 700,
      tax_amount: 52.5,
      total: 752.5,
      amount_paid: '0.00',
      outstanding_balance: '752.50',
      issue_date: expect.any(String),
      due_date: expect.any(String),
      note: 'Quote valid 14 days',
      ...plainTaxTerms('EUR'),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: invoice.created_at,
    });
    expect(window.contains(invoice.created_at)).toBe(true);
    // Issued now, whatever the estimate's own dates were.
    expect([before, after]).toContain(invoice.issue_date);
    expect(invoice.due_date).toBe(invoice.issue_date);
    expect(response.text).toMatch(/"sub_total":700\.00[,}]/);
    expect(response.text).toMatch(/"total":752\.50[,}]/);

    // The same totals as the estimate, and the same lines in the same order.
    expect(invoice).toMatchObject({
      currency: estimate.currency,
      tax_rate: estimate.tax_rate,
      sub_total: estimate.sub_total,
      tax_amount: estimate.tax_amount,
      total: estimate.total,
      description: estimate.description,
      note: estimate.note,
    });
    expect(body.items).toEqual(added.items);
    expect(body.items).toEqual([
      { description: 'Zinc worktop', quantity: 2, rate: '99.995' },
      { description: 'Abrasives', quantity: 0.5, rate: '0.01' },
      { description: 'Labour', quantity: 12.5, rate: '40.00' },
    ]);
    for (const item of body.items)
      expect(keysOf(item)).toEqual(['description', 'quantity', 'rate']);
    expect(body.tax_breakdown).toEqual(added.tax_breakdown);
    expect(body.tax_breakdown).toEqual(plainTaxBreakdown(7.5, '700.00', '52.50'));

    // The estimate now reads accepted "True", and nothing else of it changed.
    const estimateRead = await readEstimate(test.http, estimate.id);
    const { estimate_no: _number, ...unchanged } = estimate;
    expect(estimateRead.estimate[0]).toEqual({
      ...unchanged,
      reference_no: 'EST-CONV-1',
      accepted: 'True',
    });

    // The new invoice is listed and readable, with the estimate's line amounts.
    expect(await invoiceIds()).toEqual([...listedBefore, invoice.id]);
    const listed = (await test.http.get('/v1/invoice/all').expect(200)).body as {
      data: InvoiceWritten[];
    };
    expect(listed.data.find((candidate) => candidate.id === invoice.id)).toEqual(invoice);
    const read = await test.http.get(`/v1/invoice/${invoice.id}`).expect(200);
    const { created_at: _created, updated_at: _updated, ...withoutTimestamps } = invoice;
    expect(read.body).toEqual({
      status: 'success',
      invoice: [withoutTimestamps],
      items: estimateRead.items,
      tax_breakdown: estimateRead.tax_breakdown,
      payments: [],
      send_log: [],
    });
    expect(estimateRead.items.map((item) => item.amount)).toEqual(['199.99', '0.01', '500.00']);
  });

  it('keeps JPY rounding and the client in the invoice', async () => {
    const client = await createClient(test.http);
    const estimate = await createEstimate(test.http, {
      client,
      currency: 'JPY',
      tax_rate: 10,
      items: [
        { description: 'half', quantity: 5, rate: '0.5' }, // 2.5 → 3
        { description: 'flat', quantity: 1, rate: 1500 },
      ],
    });
    const body = expectSuccess(
      await convert(estimate.id, { invoice_no: estimateNumber('INV') }),
    ) as unknown as InvoiceWriteResult;
    expect(body.invoice[0]).toMatchObject({
      customer_id: client,
      currency: 'JPY',
      sub_total: 1503,
      tax_amount: 150,
      total: 1653,
      amount_paid: '0',
      outstanding_balance: '1653',
    });
    const read = await test.http.get(`/v1/invoice/${body.invoice[0].id}`).expect(200);
    expect(
      (read.body as { items: Array<{ amount: string }> }).items.map((item) => item.amount),
    ).toEqual(['3', '1500']);
  });

  it('uses the given issue and due dates', async () => {
    const estimate = await createEstimate(test.http);
    const body = expectSuccess(
      await convert(estimate.id, {
        invoice_no: estimateNumber('INV'),
        issue_date: '2026-06-01',
        due_date: '2026-06-30',
      }),
    ) as unknown as InvoiceWriteResult;
    expect(body.invoice[0]).toMatchObject({ issue_date: '2026-06-01', due_date: '2026-06-30' });
  });

  it('converts an estimate that was already marked accepted but never converted', async () => {
    const estimate = await createEstimate(test.http, { accepted: 'True' });
    expectSuccess(await convert(estimate.id, { invoice_no: estimateNumber('INV') }));
    expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('True');
  });

  it('answers 409 to a second conversion and creates no second invoice', async () => {
    const estimate = await createEstimate(test.http);
    expectSuccess(await convert(estimate.id, { invoice_no: estimateNumber('INV') }));
    const listed = await invoiceIds();

    expectError(await convert(estimate.id, { invoice_no: estimateNumber('INV') }), 409);
    expect(await invoiceIds()).toEqual(listed);
  });

  it('answers 409 to a second conversion even after accepted was set back to False', async () => {
    const estimate = await createEstimate(test.http);
    expectSuccess(await convert(estimate.id, { invoice_no: estimateNumber('INV') }));
    await test.http
      .put(`/v1/estimate/${estimate.id}`)
      .send({ client: estimate.customer_id, estimate_no: estimate.estimate_no, accepted: 'False' })
      .expect(200);
    const listed = await invoiceIds();
    expectError(await convert(estimate.id, { invoice_no: estimateNumber('INV') }), 409);
    expect(await invoiceIds()).toEqual(listed);
  });

  it('answers 409 for an invoice_no a live invoice has, and leaves the estimate unconverted', async () => {
    const client = await createClient(test.http);
    await addInvoice(client, 'INV-TAKEN-1');
    const estimate = await createEstimate(test.http, { client });
    const before = await readEstimate(test.http, estimate.id);
    const listed = await invoiceIds();

    for (const number of ['INV-TAKEN-1', '  INV-TAKEN-1  ']) {
      expectError(await convert(estimate.id, { invoice_no: number }), 409);
    }
    expect(await readEstimate(test.http, estimate.id)).toEqual(before);
    expect(before.estimate[0].accepted).toBe('False');
    expect(await invoiceIds()).toEqual(listed);

    // Nothing was marked converted: a free number converts it now.
    const body = expectSuccess(
      await convert(estimate.id, { invoice_no: 'INV-TAKEN-2' }),
    ) as unknown as InvoiceWriteResult;
    expect(body.invoice[0].invoice_no).toBe('INV-TAKEN-2');
    expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('True');
  });

  it("reuses an archived invoice's number", async () => {
    const client = await createClient(test.http);
    const archived = await addInvoice(client, 'INV-ARCHIVED-1');
    await test.http
      .delete(`/v1/invoice/${(archived.body as InvoiceWriteResult).invoice[0].id}`)
      .expect(200);
    const estimate = await createEstimate(test.http, { client });
    expectSuccess(await convert(estimate.id, { invoice_no: 'INV-ARCHIVED-1' }));
  });

  it.each<[string, object]>([
    ['null', { invoice_no: null }],
    ['empty', { invoice_no: '' }],
    ['blank', { invoice_no: '   ' }],
    ['too long', { invoice_no: 'N'.repeat(65) }],
    ['not text', { invoice_no: ['INV-1'] }],
  ])('answers 422 naming invoice_no when it is %s, and converts nothing', async (_case, input) => {
    const estimate = await createEstimate(test.http);
    const listed = await invoiceIds();
    expectValidationError(await convert(estimate.id, input), ['invoice_no']);
    expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('False');
    expect(await invoiceIds()).toEqual(listed);
  });

  it('answers 422 for a due_date before the issue_date', async () => {
    const estimate = await createEstimate(test.http);
    const response = await convert(estimate.id, {
      invoice_no: estimateNumber('INV'),
      issue_date: '2026-06-10',
      due_date: '2026-06-01',
    });
    expectValidationError(response, ['due_date']);
    expect((await readEstimate(test.http, estimate.id)).estimate[0].accepted).toBe('False');
  });

  it('answers 404 for an archived estimate, an unknown id and a non-digit id', async () => {
    const estimate = await createEstimate(test.http);
    await test.http.delete(`/v1/estimate/${estimate.id}`).expect(200);
    const listed = await invoiceIds();
    for (const id of [estimate.id, '999999', ...NON_DIGIT_IDS]) {
      expectError(await convert(id, { invoice_no: estimateNumber('INV') }), 404);
    }
    expect(await invoiceIds()).toEqual(listed);
  });

  it('lets exactly one of two parallel conversions succeed: one 200, one 409, one new invoice', async () => {
    // Three estimates, each converted twice at once, all six requests in flight together.
    const estimates = await Promise.all([1, 2, 3].map(() => createEstimate(test.http)));
    const listed = await invoiceIds();
    const pairs = await Promise.all(
      estimates.map((estimate) =>
        Promise.all([
          convert(estimate.id, { invoice_no: estimateNumber('INV-RACE') }),
          convert(estimate.id, { invoice_no: estimateNumber('INV-RACE') }),
        ]),
      ),
    );

    const winners: string[] = [];
    for (const [index, pair] of pairs.entries()) {
      expect(pair.map((response) => response.status).sort()).toEqual([200, 409]);
      expectError(
        pair.find((response) => response.status === 409)!,
        409,
      );
      const winner = pair.find((response) => response.status === 200)!.body as InvoiceWriteResult;
      expect(winner.invoice[0].customer_id).toBe(estimates[index].customer_id);
      winners.push(winner.invoice[0].id);
      expect((await readEstimate(test.http, estimates[index].id)).estimate[0].accepted).toBe(
        'True',
      );
    }
    const after = await invoiceIds();
    expect(after).toHaveLength(listed.length + 3);
    expect(after.slice(listed.length).sort()).toEqual([...winners].sort());
  });

  it('lets exactly one of several parallel conversions succeed', async () => {
    const estimate = await createEstimate(test.http);
    const listed = await invoiceIds();
    const responses = await Promise.all(
      ['C', 'D', 'E', 'F'].map((suffix) =>
        convert(estimate.id, { invoice_no: `INV-RACE-${suffix}` }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await invoiceIds()).toHaveLength(listed.length + 1);
  });

  it('converts two estimates in parallel into two invoices', async () => {
    const [first, second] = await Promise.all([
      createEstimate(test.http),
      createEstimate(test.http),
    ]);
    const listed = await invoiceIds();
    const responses = await Promise.all([
      convert(first.id, { invoice_no: 'INV-PAIR-1' }),
      convert(second.id, { invoice_no: 'INV-PAIR-2' }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(await invoiceIds()).toHaveLength(listed.length + 2);
  });
});
