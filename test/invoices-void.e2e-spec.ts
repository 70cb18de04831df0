import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { creditNoteInput } from './factories/credit-notes';
import { createEstimate } from './factories/estimates';
import {
  createInvoice,
  invoiceInput,
  InvoiceInput,
  InvoiceOutput,
  listInvoices,
  payInvoice,
  readInvoice,
  refundInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';

describe('Invoices: POST /invoice/{id}/void', () => {
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
  });

  afterAll(async () => {
    await test.close();
  });

  const voidInvoice = (id: string, body: object = {}) =>
    test.http.post(`/v1/invoice/${id}/void`).send(body);

  const invoiceOf = (total: string, input: InvoiceInput = {}) =>
    createInvoice(test.http, {
      client,
      items: [{ description: 'Work', quantity: 1, rate: total }],
      ...input,
    });

  describe('while no cash is held', () => {
    it('voids: status void with its reason, number and money kept, still readable and listed', async () => {
      const invoice = await invoiceOf('100.00');

      const response = await voidInvoice(invoice.id, { reason: ' Issued in error ' });

      const body = expectSuccess(response) as { message: string; invoice: InvoiceOutput[] };
      expect(body.message).toBe(`Invoice ${invoice.invoice_no} voided`);
      expect(body.invoice[0]).toEqual({
        ...invoice,
        status: 'void',
        void_reason: 'Issued in error',
        updated_at: body.invoice[0].updated_at,
      });
      const read = await readInvoice(test.http, invoice.id);
      expect(read.invoice[0]).toMatchObject({
        invoice_no: invoice.invoice_no,
        status: 'void',
        void_reason: 'Issued in error',
        total: 100,
        amount_paid: '0.00',
      });
      expect((await listInvoices(test.http)).map((listed) => listed.id)).toContain(invoice.id);
      const overview = (await test.http.get(`/v1/client/${client}`).expect(200)).body as {
        invoices: InvoiceOutput[];
      };
      expect(overview.invoices.find((listed) => listed.id === invoice.id)?.status).toBe('void');
      await test.http.get(`/v1/invoice/${invoice.id}/pdf`).expect(200);
    });

    it('keeps its number taken', async () => {
      const invoice = await invoiceOf('10.00');
      await voidInvoice(invoice.id).expect(200);
      const again = await test.http
        .post('/v1/invoice/add')
        .send(invoiceInput(client, { invoice_no: invoice.invoice_no }));
      expectError(again, 409);
    });

    it('after refunding every payment, and when credit notes settled the whole of it', async () => {
      const refunded = await invoiceOf('100.00');
      await payInvoice(test.http, refunded.id, '40.00');
      expectError(await voidInvoice(refunded.id), 409);
      await refundInvoice(test.http, refunded.id, '40.00');
      await voidInvoice(refunded.id).expect(200);

      const credited = await invoiceOf('100.00');
      await test.http
        .post('/v1/credit-note/add')
        .send(
          creditNoteInput(credited.id, {
            items: [{ description: 'All', quantity: 1, rate: '100.00' }],
          }),
        )
        .expect(200);
      await voidInvoice(credited.id).expect(200);
      expect((await readInvoice(test.http, credited.id)).invoice[0]).toMatchObject({
        status: 'void',
        amount_paid: '100.00',
      });
    });

    it('is still archived by DELETE, which frees its number as for any invoice', async () => {
      const invoice = await invoiceOf('10.00');
      await voidInvoice(invoice.id).expect(200);
      await test.http.delete(`/v1/invoice/${invoice.id}`).expect(200);
      expectError(await test.http.get(`/v1/invoice/${invoice.id}`), 404);
      expectError(await voidInvoice(invoice.id), 404);
      await test.http
        .post('/v1/invoice/add')
        .send(invoiceInput(client, { invoice_no: invoice.invoice_no }))
        .expect(200);
    });

    it('replays to a retry with the same Idempotency-Key instead of answering 409', async () => {
      const invoice = await invoiceOf('10.00');
      const first = await voidInvoice(invoice.id, { reason: 'Twice' }).set(
        'Idempotency-Key',
        'void-1',
      );
      const retry = await voidInvoice(invoice.id, { reason: 'Twice' }).set(
        'Idempotency-Key',
        'void-1',
      );
      expectSuccess(first);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.text).toBe(first.text);
    });
  });

  describe('refused', () => {
    it('while cash is held: 409, and nothing changes', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '0.01');
      const before = await readInvoice(test.http, invoice.id);
      const response = await voidInvoice(invoice.id);
      expectError(response, 409);
      expect(response.body).toMatchObject({
        message: `Invoice ${invoice.invoice_no} holds 0.01 USD received; refund it before voiding`,
      });
      expect(await readInvoice(test.http, invoice.id)).toEqual(before);
    });

    it('an unknown or archived invoice: 404; a malformed reason: 422', async () => {
      expectError(await voidInvoice('999999'), 404);
      expectError(await voidInvoice('abc'), 404);
      const invoice = await invoiceOf('10.00');
      expectValidationError(await voidInvoice(invoice.id, { reason: 'x'.repeat(1001) }), [
        'reason',
      ]);
      expectValidationError(await voidInvoice(invoice.id, { reason: 12 }), ['reason']);
      expect((await readInvoice(test.http, invoice.id)).invoice[0].status).not.toBe('void');
    });
  });

  describe('a void invoice refuses every change with 409', () => {
    let invoice: InvoiceOutput;
    let before: unknown;

    beforeAll(async () => {
      invoice = await invoiceOf('100.00');
      await test.http.get(`/v1/invoice/paid/${invoice.id}`).expect(200);
      await voidInvoice(invoice.id, { reason: 'Cancelled' }).expect(200);
      before = await readInvoice(test.http, invoice.id);
    });

    afterEach(async () => {
      expect(await readInvoice(test.http, invoice.id)).toEqual(before);
    });

    const changes: Array<[string, () => Promise<Response>]> = [
      [
        'PUT /invoice/{id}',
        () =>
          test.http.put(`/v1/invoice/${invoice.id}`).send(
            invoiceInput(client, {
              invoice_no: invoice.invoice_no,
              description: 'Changed',
            }),
          ),
      ],
      [
        'record-payment',
        () =>
          test.http
            .post('/v1/invoice/record-payment')
            .send({ id: invoice.id, amount_paid: '1.00', payment_date: '2026-03-10' }),
      ],
      [
        'refund',
        () =>
          test.http
            .post('/v1/invoice/refund')
            .send({ id: invoice.id, amount: '1.00', refund_date: '2026-03-10' }),
      ],
      [
        'a credit note',
        () => test.http.post('/v1/credit-note/add').send(creditNoteInput(invoice.id)),
      ],
      ['paid', () => test.http.get(`/v1/invoice/paid/${invoice.id}`)],
      ['not-paid', () => test.http.get(`/v1/invoice/not-paid/${invoice.id}`)],
      [
        'send',
        () => test.http.post('/v1/invoice/send').send({ id: invoice.id, email: 'a@example.com' }),
      ],
      ['void again', () => voidInvoice(invoice.id)],
    ];

    it.each(changes)('%s', async (_, change) => {
      const response = await change();
      expectError(response, 409);
    });

    it('names the invoice as void', async () => {
      const response = await test.http.get(`/v1/invoice/not-paid/${invoice.id}`);
      expect(response.body).toEqual({
        status: 'error',
        message: `Invoice ${invoice.invoice_no} is void`,
      });
    });

    it('a conversion never lands on it: it makes a new invoice', async () => {
      const estimate = await createEstimate(test.http, { client });
      const converted = await test.http
        .post(`/v1/estimate/${estimate.id}/convert`)
        .send({ invoice_no: invoice.invoice_no });
      // Its number is still taken by the void invoice.
      expectError(converted, 409);
    });
  });
});
