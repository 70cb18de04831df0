import { createClient } from './factories/clients';
import {
  createInvoice,
  InvoiceInput,
  ledgerState,
  InvoiceOutput,
  payInvoice,
  readInvoice,
  refundInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError, TIMESTAMP } from './setup/expectations';

describe('Invoices: POST /invoice/refund', () => {
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
  });

  afterAll(async () => {
    await test.close();
  });

  const refund = (input: Record<string, unknown>) =>
    test.http.post('/v1/invoice/refund').send(input);

  /** An invoice with a total of exactly `total` (one line, no tax). */
  const invoiceOf = (total: string, input: InvoiceInput = {}) =>
    createInvoice(test.http, {
      client,
      items: [{ description: 'Work', quantity: 1, rate: total }],
      ...input,
    });

  const state = (id: string) => ledgerState(test.http, id);

  describe('within the cash held', () => {
    it('appends a Refunded entry, lowers amount_paid and answers the entry and the invoice', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '60.00');

      const response = await refund({
        id: invoice.id,
        amount: '25.50',
        refund_date: '2026-03-15',
        payment_method: 'bank transfer',
        reason: '  Damaged goods  ',
      });

      const body = expectSuccess(response) as {
        message: string;
        invoice: InvoiceOutput[];
        entry: Record<string, unknown>;
      };
      expect(body.message).toBe(`Refund of 25.50 USD recorded for invoice ${invoice.invoice_no}`);
      expect(body.invoice[0]).toMatchObject({
        id: invoice.id,
        amount_paid: '34.50',
        outstanding_balance: '65.50',
        payment_status: 'Not Paid',
      });
      expect(body.entry).toEqual({
        status: 'Refunded',
        reference: expect.stringMatching(/^RFD-[0-9A-Z]{16}$/),
        amount: 25.5,
        bank: 'Bank Transfer',
        payment_date: '2026-03-15',
        created_at: expect.stringMatching(TIMESTAMP),
        reason: 'Damaged goods',
        credit_note_id: '',
      });
      expect(await state(invoice.id)).toEqual({
        amount_paid: '34.50',
        outstanding_balance: '65.50',
        payment_status: 'Not Paid',
        status: 'open',
        ledger: ['Completed 60', 'Refunded 25.5'],
      });
      const detail = await readInvoice(test.http, invoice.id);
      expect(detail.payments[1].reference).toBe(body.entry.reference);
    });

    it('may refund all the cash held, in parts, and no more', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '30.00');
      await payInvoice(test.http, invoice.id, '20.00');
      await refundInvoice(test.http, invoice.id, '45.00');
      await refundInvoice(test.http, invoice.id, '5.00');

      expect(await state(invoice.id)).toMatchObject({
        amount_paid: '0.00',
        outstanding_balance: '100.00',
        ledger: ['Completed 30', 'Completed 20', 'Refunded 45', 'Refunded 5'],
      });
      const refused = await refund({ id: invoice.id, amount: '0.01', refund_date: '2026-03-16' });
      expectValidationError(refused, ['amount']);
      expect((refused.body as { errors: Record<string, string[]> }).errors.amount).toEqual([
        'amount must not exceed the cash held 0.00',
      ]);
    });

    it('reopens a paid invoice: Not Paid, and payments are taken again', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '100.00');
      expect((await state(invoice.id)).payment_status).toBe('Paid');

      await refundInvoice(test.http, invoice.id, '40.00');

      expect(await state(invoice.id)).toMatchObject({
        amount_paid: '60.00',
        outstanding_balance: '40.00',
        payment_status: 'Not Paid',
      });
      await payInvoice(test.http, invoice.id, '40.00');
      expect(await state(invoice.id)).toMatchObject({
        amount_paid: '100.00',
        payment_status: 'Paid',
        status: 'paid',
      });
    });

    it('defaults the method to Others and the reason to empty', async () => {
      const invoice = await invoiceOf('10.00');
      await payInvoice(test.http, invoice.id, '10.00');
      await refundInvoice(test.http, invoice.id, '1.00');
      const [, entry] = (await readInvoice(test.http, invoice.id)).payments;
      expect(entry).toMatchObject({ status: 'Refunded', bank: 'Others', reason: '' });
    });

    it('counts the minor digits of the invoice currency: JPY none, KWD three', async () => {
      const yen = await invoiceOf('1000', { currency: 'JPY' });
      await payInvoice(test.http, yen.id, '1000');
      expectValidationError(
        await refund({ id: yen.id, amount: '0.5', refund_date: '2026-03-10' }),
        ['amount'],
      );
      await refundInvoice(test.http, yen.id, '333');
      expect((await state(yen.id)).amount_paid).toBe('667');

      const dinar = await invoiceOf('10.000', { currency: 'KWD' });
      await payInvoice(test.http, dinar.id, '10.000');
      expectValidationError(
        await refund({ id: dinar.id, amount: '0.0005', refund_date: '2026-03-10' }),
        ['amount'],
      );
      await refundInvoice(test.http, dinar.id, '0.125');
      expect(await state(dinar.id)).toMatchObject({
        amount_paid: '9.875',
        outstanding_balance: '0.125',
      });
    });
  });

  describe('beyond the cash held, or malformed', () => {
    let invoice: InvoiceOutput;

    beforeAll(async () => {
      invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '30.00');
    });

    afterEach(async () => {
      // A refused refund records nothing.
      expect(await state(invoice.id)).toEqual({
        amount_paid: '30.00',
        outstanding_balance: '70.00',
        payment_status: 'Not Paid',
        status: 'open',
        ledger: ['Completed 30'],
      });
    });

    const valid = () => ({ id: invoice.id, amount: '10.00', refund_date: '2026-03-10' });

    it('refuses more than the cash held, naming amount and the cash held', async () => {
      const response = await refund({ ...valid(), amount: '30.01' });
      expectValidationError(response, ['amount']);
      expect(response.body).toMatchObject({
        message: 'The refund exceeds the cash held on the invoice, 30.00',
      });
    });

    it('refuses a refund on an invoice that received nothing', async () => {
      const unpaid = await invoiceOf('50.00');
      expectValidationError(await refund({ ...valid(), id: unpaid.id, amount: '1.00' }), [
        'amount',
      ]);
    });

    it('names every missing required field', async () => {
      expectValidationError(await refund({}), ['amount', 'id', 'refund_date']);
    });

    it.each([
      ['zero', '0'],
      ['negative', '-1.00'],
      ['more places than the currency', '1.001'],
      ['exponent notation', '1e1'],
      ['not a number', 'ten'],
    ])('refuses an amount that is %s', async (_, amount) => {
      expectValidationError(await refund({ ...valid(), amount }), ['amount']);
    });

    it('refuses an impossible refund_date and an unknown method', async () => {
      expectValidationError(await refund({ ...valid(), refund_date: '2026-02-30' }), [
        'refund_date',
      ]);
      expectValidationError(await refund({ ...valid(), payment_method: 'Bitcoin' }), [
        'payment_method',
      ]);
      expectValidationError(await refund({ ...valid(), reason: 'x'.repeat(1001) }), ['reason']);
    });

    it('answers 404 for an unknown or archived invoice', async () => {
      expectError(await refund({ ...valid(), id: '999999' }), 404);
      const archived = await invoiceOf('10.00');
      await payInvoice(test.http, archived.id, '10.00');
      await test.http.delete(`/v1/invoice/${archived.id}`).expect(200);
      expectError(await refund({ ...valid(), id: archived.id, amount: '1.00' }), 404);
    });
  });

  describe('with an Idempotency-Key', () => {
    it('refunds once, and replays the answer to a retry', async () => {
      const invoice = await invoiceOf('100.00');
      await payInvoice(test.http, invoice.id, '50.00');
      const body = { id: invoice.id, amount: '20.00', refund_date: '2026-03-10' };
      const first = await refund(body).set('Idempotency-Key', 'refund-once');
      const retry = await refund(body).set('Idempotency-Key', 'refund-once');

      expectSuccess(first);
      expect(retry.status).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.text).toBe(first.text);
      expect((await state(invoice.id)).ledger).toEqual(['Completed 50', 'Refunded 20']);
    });
  });
});
