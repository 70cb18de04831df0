import { createClient } from './factories/clients';
import {
  createInvoice,
  InvoiceInput,
  InvoiceOutput,
  listInvoices,
  payInvoice,
  readInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  nextSecond,
  timeWindow,
} from './setup/expectations';

const sortedKeys = (value: unknown) => Object.keys(value as object).sort();

describe('Invoices: POST /invoice/record-payment', () => {
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
  });

  afterAll(async () => {
    await test.close();
  });

  const pay = (input: Record<string, unknown>) =>
    test.http.post('/v1/invoice/record-payment').send(input);

  /** An invoice with a total of exactly `total` (one line, no tax). */
  const invoiceOf = (total: string, input: InvoiceInput = {}) =>
    createInvoice(test.http, {
      client,
      items: [{ description: 'Work', quantity: 1, rate: total }],
      ...input,
    });

  const state = async (id: string) => {
    const detail = await readInvoice(test.http, id);
    const { amount_paid, outstanding_balance, payment_status } = detail.invoice[0];
    return {
      amount_paid,
      outstanding_balance,
      payment_status,
      payments: detail.payments.map((entry) => entry.amount),
    };
  };

  const listed = async (id: string) =>
    (await listInvoices(test.http)).find((invoice) => invoice.id === id)!;

  describe('validation', () => {
    let invoice: InvoiceOutput;

    beforeAll(async () => {
      invoice = await invoiceOf('100.00');
    });

    afterEach(async () => {
      // Nothing was recorded by a refused payment.
      expect(await state(invoice.id)).toEqual({
        amount_paid: '0.00',
        outstanding_balance: '100.00',
        payment_status: 'Not Paid',
        payments: [],
      });
    });

    const valid = () => ({ id: invoice.id, amount_paid: '10.00', payment_date: '2026-03-10' });

    it('names every missing required field', async () => {
      expectValidationError(await pay({}), ['amount_paid', 'id', 'payment_date']);
    });

    it.each(['id', 'payment_date', 'amount_paid'] as const)(
      'answers 422 when %s is missing',
      async (field) => {
        const input: Record<string, unknown> = valid();
        delete input[field];

        expectValidationError(await pay(input), [field]);
      },
    );

    it.each([
      ['id', 'abc'],
      ['id', '1.5'],
      ['payment_date', '2026-02-30'],
      ['payment_date', '10/03/2026'],
      ['payment_date', ''],
      ['amount_paid', 0],
      ['amount_paid', '0.00'],
      ['amount_paid', '-5'],
      ['amount_paid', 'ten'],
      ['amount_paid', '1e1'],
      ['amount_paid', ''],
      ['amount_paid', '10.001'],
      ['payment_method', 'Bitcoin'],
      ['payment_method', 'Card'],
      ['payment_method', ''],
    ])('answers 422 when %s is "%s"', async (field, value) => {
      expectValidationError(await pay({ ...valid(), [field]: value }), [field]);
    });

    it('answers 422 for more than the outstanding balance', async () => {
      expectValidationError(await pay({ ...valid(), amount_paid: '100.01' }), ['amount_paid']);
    });
  });

  it('answers a message, appends a Completed entry and adds to amount_paid', async () => {
    const invoice = await invoiceOf('100.00');
    const window = timeWindow();

    const response = await pay({
      id: invoice.id,
      amount_paid: '20.10',
      payment_date: '2026-03-10',
      payment_method: 'Cash',
    });
    await payInvoice(test.http, invoice.id, 10, { payment_date: '2026-03-11' });

    const body = expectSuccess(response);
    expect(sortedKeys(body)).toEqual(['message', 'status']);
    expect(body.message).toEqual(expect.any(String));
    const detail = await readInvoice(test.http, invoice.id);
    expect(detail.invoice[0]).toMatchObject({
      payment_status: 'Not Paid',
      amount_paid: '30.10',
      outstanding_balance: '69.90',
      total: 100,
    });
    expect(detail.payments).toMatchObject([
      { status: 'Completed', amount: 20.1, bank: 'Cash', payment_date: '2026-03-10' },
      { status: 'Completed', amount: 10, bank: 'Others', payment_date: '2026-03-11' },
    ]);
    expect(window.contains(detail.payments[0].created_at)).toBe(true);
  });

  it('matches payment_method case-insensitively and outputs the listed spelling; default Others', async () => {
    const invoice = await invoiceOf('100.00');
    const given = ['cash', 'BANK TRANSFER', 'cheque', 'credit card', 'OTHERS'];

    for (const method of given)
      await payInvoice(test.http, invoice.id, '1.00', { payment_method: method });
    await payInvoice(test.http, invoice.id, '1.00');

    const banks = (await readInvoice(test.http, invoice.id)).payments.map((entry) => entry.bank);
    expect(banks).toEqual(['Cash', 'Bank Transfer', 'Cheque', 'Credit Card', 'Others', 'Others']);
  });

  it('gives every payment its own reference', async () => {
    const invoice = await invoiceOf('100.00');
    for (let index = 0; index < 5; index++) await payInvoice(test.http, invoice.id, '1.00');

    const references = (await readInvoice(test.http, invoice.id)).payments.map(
      (entry) => entry.reference,
    );

    expect(new Set(references).size).toBe(5);
    for (const reference of references) expect(reference).toMatch(/\S/);
  });

  it('marks the invoice Paid when the balance reaches 0, then takes no more', async () => {
    const invoice = await invoiceOf('100.00');
    await payInvoice(test.http, invoice.id, '60.00');
    expect(await state(invoice.id)).toMatchObject({
      payment_status: 'Not Paid',
      outstanding_balance: '40.00',
    });

    expectValidationError(
      await pay({ id: invoice.id, amount_paid: '40.01', payment_date: '2026-03-10' }),
      ['amount_paid'],
    );
    await payInvoice(test.http, invoice.id, '40.00');
    expect(await state(invoice.id)).toEqual({
      amount_paid: '100.00',
      outstanding_balance: '0.00',
      payment_status: 'Paid',
      payments: [60, 40],
    });

    expectValidationError(
      await pay({ id: invoice.id, amount_paid: '0.01', payment_date: '2026-03-10' }),
      ['amount_paid'],
    );
    // A settled invoice flagged Not Paid by hand still has nothing outstanding.
    expectSuccess(await test.http.get(`/v1/invoice/not-paid/${invoice.id}`));
    expectValidationError(
      await pay({ id: invoice.id, amount_paid: '0.01', payment_date: '2026-03-10' }),
      ['amount_paid'],
    );
    expect(await state(invoice.id)).toEqual({
      amount_paid: '100.00',
      outstanding_balance: '0.00',
      payment_status: 'Not Paid',
      payments: [60, 40],
    });
  });

  it('accepts a payment on an invoice flagged Paid by hand while a balance is outstanding', async () => {
    const invoice = await invoiceOf('100.00', { payment_status: 'Paid' });

    await payInvoice(test.http, invoice.id, '30.00');

    expect(await state(invoice.id)).toEqual({
      amount_paid: '30.00',
      outstanding_balance: '70.00',
      payment_status: 'Paid',
      payments: [30],
    });
  });

  it('settles exactly with amounts that are inexact as binary floats', async () => {
    const invoice = await invoiceOf('0.30');

    await payInvoice(test.http, invoice.id, 0.1);
    await payInvoice(test.http, invoice.id, '0.2');

    expect(await state(invoice.id)).toEqual({
      amount_paid: '0.30',
      outstanding_balance: '0.00',
      payment_status: 'Paid',
      payments: [0.1, 0.2],
    });
  });

  it('changes updated_at, not created_at', async () => {
    const invoice = await invoiceOf('100.00');
    await nextSecond();

    await payInvoice(test.http, invoice.id, '1.00');

    const after = await listed(invoice.id);
    expect(after.created_at).toBe(invoice.created_at);
    expect(after.updated_at > invoice.updated_at).toBe(true);
  });

  describe('minor digits of the invoice currency', () => {
    it('JPY: whole yen only', async () => {
      const invoice = await invoiceOf('1500', { currency: 'JPY' });

      expectValidationError(
        await pay({ id: invoice.id, amount_paid: '100.5', payment_date: '2026-03-10' }),
        ['amount_paid'],
      );
      await payInvoice(test.http, invoice.id, 1000);
      expect(await state(invoice.id)).toEqual({
        amount_paid: '1000',
        outstanding_balance: '500',
        payment_status: 'Not Paid',
        payments: [1000],
      });
      await payInvoice(test.http, invoice.id, '500');
      expect(await state(invoice.id)).toEqual({
        amount_paid: '1500',
        outstanding_balance: '0',
        payment_status: 'Paid',
        payments: [1000, 500],
      });
    });

    it('KWD: three decimals', async () => {
      const invoice = await invoiceOf('1.25', { currency: 'KWD' });

      expectValidationError(
        await pay({ id: invoice.id, amount_paid: '0.0005', payment_date: '2026-03-10' }),
        ['amount_paid'],
      );
      await payInvoice(test.http, invoice.id, '0.001');
      await payInvoice(test.http, invoice.id, '0.749');
      expect(await state(invoice.id)).toMatchObject({
        amount_paid: '0.750',
        outstanding_balance: '0.500',
      });
      await payInvoice(test.http, invoice.id, '0.500');
      expect(await state(invoice.id)).toEqual({
        amount_paid: '1.250',
        outstanding_balance: '0.000',
        payment_status: 'Paid',
        payments: [0.001, 0.749, 0.5],
      });
    });
  });

  it('answers 404 for an archived invoice and records nothing', async () => {
    const invoice = await invoiceOf('100.00');
    await test.http.delete(`/v1/invoice/${invoice.id}`).expect(200);

    expectError(
      await pay({ id: invoice.id, amount_paid: '1.00', payment_date: '2026-03-10' }),
      404,
    );
  });

  describe('concurrency', () => {
    it('serialises 20 parallel payments of 10.00 on a 100.00 invoice: exactly 10 are accepted', async () => {
      const invoice = await invoiceOf('100.00');

      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          pay({
            id: invoice.id,
            amount_paid: '10.00',
            payment_date: '2026-03-10',
            payment_method: index % 2 ? 'Cash' : 'Cheque',
          }),
        ),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([...Array<number>(10).fill(200), ...Array<number>(10).fill(422)]);
      for (const response of responses) {
        if (response.status === 422) expectValidationError(response, ['amount_paid']);
      }
      expect(await state(invoice.id)).toEqual({
        amount_paid: '100.00',
        outstanding_balance: '0.00',
        payment_status: 'Paid',
        payments: Array<number>(10).fill(10),
      });
    });

    it('keeps parallel payments on different invoices apart', async () => {
      const first = await invoiceOf('50.00');
      const second = await invoiceOf('30.00');

      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          pay({
            id: index % 2 ? first.id : second.id,
            amount_paid: '10.00',
            payment_date: '2026-03-10',
          }),
        ),
      );

      expect(responses.filter((response) => response.status === 200)).toHaveLength(5 + 3);
      expect(await state(first.id)).toMatchObject({ amount_paid: '50.00', payment_status: 'Paid' });
      expect(await state(second.id)).toMatchObject({
        amount_paid: '30.00',
        payment_status: 'Paid',
      });
      expect((await readInvoice(test.http, first.id)).payments).toHaveLength(5);
      expect((await readInvoice(test.http, second.id)).payments).toHaveLength(3);
    });
  });
});
