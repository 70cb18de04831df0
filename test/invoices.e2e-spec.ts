import { isLosslessNumber, parse } from 'lossless-json';
import type { Response } from 'supertest';
import { addClient, createClient } from './factories/clients';
import {
  addInvoice,
  createInvoice,
  INVOICE_KEYS,
  INVOICE_READ_KEYS,
  InvoiceDetail,
  InvoiceInput,
  invoiceInput,
  invoiceNumber,
  InvoiceOutput,
  InvoiceWriteResult,
  LINE_READ_KEYS,
  LINE_WRITE_KEYS,
  lineItems,
  listInvoices,
  PAYMENT_KEYS,
  payInvoice,
  plainReadLine,
  plainTaxBreakdown,
  plainTaxTerms,
  readInvoice,
  SEND_LOG_KEYS,
  sendInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  ID,
  NON_DIGIT_IDS,
  SHORT_CODE,
  timeWindow,
  TIMESTAMP,
  UNKNOWN_IDS,
} from './setup/expectations';

const sortedKeys = (value: unknown) => Object.keys(value as object).sort();

/** Today's date in UTC, read before and after a request: the service's "today" is one of them. */
function todayWindow(): { contains(date: string): boolean } {
  const before = new Date().toISOString().slice(0, 10);
  return {
    contains: (date) => date === before || date === new Date().toISOString().slice(0, 10),
  };
}

/** The body's JSON numbers as written, digit for digit. */
function rawJson(response: Response): Record<string, unknown> {
  return parse(response.text) as Record<string, unknown>;
}

function rawNumber(value: unknown): string {
  if (!isLosslessNumber(value)) throw new Error(`not a JSON number: ${String(value)}`);
  return value.value;
}

describe('Invoices', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const add = (input: InvoiceInput) => test.http.post('/v1/invoice/add').send(input);

  describe('output shapes', () => {
    let clientId: string;
    let added: Response;
    let written: InvoiceWriteResult;
    let window: { contains(timestamp: string): boolean };

    beforeAll(async () => {
      clientId = await createClient(test.http, {
        names: 'Acme Ltd',
        phone: '+1 555 0100',
        address: '1 Main St, Springfield',
        tax_id: 'US 12-3456789',
        country: 'us',
        language: 'en',
      });
      window = timeWindow();
      added = await add({
        client: clientId,
        invoice_no: 'SHAPE-1',
        payment_status: 'Not Paid',
        description: 'March work',
        currency: 'USD',
        tax_rate: '7.5',
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        note: 'Thank you',
        items: [
          { description: 'Design', quantity: 2, rate: '10.5' },
          { description: 'Hosting', quantity: '1.5', rate: 0.125 },
        ],
      });
      written = added.body as InvoiceWriteResult;
    });

    /** 2 × 10.5 = 21.00; 1.5 × 0.125 = 0.1875 → 0.19; tax 21.19 × 7.5% = 1.58925 → 1.59. */
    const expectedFields = () => ({
      id: expect.stringMatching(ID) as string,
      short_code: expect.stringMatching(SHORT_CODE) as string,
      invoice_no: 'SHAPE-1',
      description: 'March work',
      customer_id: clientId,
      customer_name: 'Acme Ltd',
      customer_phone: '+1 555 0100',
      customer_address: '1 Main St, Springfield',
      customer_tax_id: 'US 12-3456789',
      customer_country: 'US',
      payment_status: 'Not Paid',
      // Due in March 2026 with nothing paid: overdue by any clock that runs this.
      status: 'overdue',
      void_reason: '',
      recurring_invoice_id: '',
      buyer_reference: '',
      order_reference: '',
      currency: 'USD',
      tax_rate: 7.5,
      tax_amount: 1.59,
      sub_total: 21.19,
      total: 22.78,
      amount_paid: '0.00',
      outstanding_balance: '22.78',
      issue_date: '2026-03-01',
      due_date: '2026-03-31',
      note: 'Thank you',
      ...plainTaxTerms(),
    });

    it('POST /invoice/add answers `invoice` (one, with timestamps) and `items` without amounts', () => {
      const body = expectSuccess(added);
      expect(sortedKeys(body)).toEqual(['invoice', 'items', 'status', 'tax_breakdown']);
      expect(written.invoice).toHaveLength(1);
      const [invoice] = written.invoice;
      expect(sortedKeys(invoice)).toEqual(INVOICE_KEYS);
      expect(invoice).toEqual({
        ...expectedFields(),
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: invoice.created_at,
      });
      expect(window.contains(invoice.created_at)).toBe(true);
      expect(written.items).toEqual([
        { description: 'Design', quantity: 2, rate: '10.50' },
        { description: 'Hosting', quantity: 1.5, rate: '0.125' },
      ]);
      for (const item of written.items) expect(sortedKeys(item)).toEqual(LINE_WRITE_KEYS);
      expect(written.tax_breakdown).toEqual(plainTaxBreakdown(7.5, '21.19', '1.59'));
    });

    it('writes JSON numbers digit for digit, money with the minor digits', () => {
      const raw = rawJson(added) as {
        invoice: Array<Record<string, unknown>>;
        items: Array<Record<string, unknown>>;
      };
      const [invoice] = raw.invoice;
      expect(
        ['tax_rate', 'tax_amount', 'sub_total', 'total'].map((key) => rawNumber(invoice[key])),
      ).toEqual(['7.5', '1.59', '21.19', '22.78']);
      expect(raw.items.map((item) => rawNumber(item.quantity))).toEqual(['2', '1.5']);
    });

    it('GET /invoice/{id} answers `invoice` (one, no timestamps), `items` with amounts, `payments`, `send_log`', async () => {
      const response = await test.http.get(`/v1/invoice/${written.invoice[0].id}`);

      const body = expectSuccess(response);
      expect(sortedKeys(body)).toEqual([
        'invoice',
        'items',
        'payments',
        'send_log',
        'status',
        'tax_breakdown',
      ]);
      const detail = body as unknown as InvoiceDetail;
      expect(detail.invoice).toHaveLength(1);
      expect(sortedKeys(detail.invoice[0])).toEqual(INVOICE_READ_KEYS);
      expect(detail.invoice[0]).toEqual({
        ...expectedFields(),
        id: written.invoice[0].id,
        short_code: written.invoice[0].short_code,
      });
      expect(detail.items).toEqual([
        plainReadLine({ description: 'Design', quantity: 2, rate: '10.50', amount: '21.00' }, 7.5),
        plainReadLine(
          { description: 'Hosting', quantity: 1.5, rate: '0.125', amount: '0.19' },
          7.5,
        ),
      ]);
      for (const item of detail.items) expect(sortedKeys(item)).toEqual(LINE_READ_KEYS);
      expect(detail.tax_breakdown).toEqual(plainTaxBreakdown(7.5, '21.19', '1.59'));
      expect(detail.payments).toEqual([]);
      expect(detail.send_log).toEqual([]);
    });

    it('GET /invoice/all answers `data` with every invoice as added, timestamps included', async () => {
      const response = await test.http.get('/v1/invoice/all');

      const body = expectSuccess(response);
      expect(sortedKeys(body)).toEqual(['data', 'status']);
      const data = body.data as InvoiceOutput[];
      expect(Array.isArray(data)).toBe(true);
      for (const invoice of data) expect(sortedKeys(invoice)).toEqual(INVOICE_KEYS);
      expect(new Set(data.map((invoice) => invoice.short_code)).size).toBe(data.length);
      expect(data.find((invoice) => invoice.id === written.invoice[0].id)).toEqual(
        written.invoice[0],
      );
    });

    it('PUT /invoice/{id} answers the add shape', async () => {
      const id = written.invoice[0].id;
      const response = await test.http.put(`/v1/invoice/${id}`).send({
        client: clientId,
        invoice_no: 'SHAPE-1',
        payment_status: 'Not Paid',
        items: [{ description: 'Design', quantity: 3, rate: '10.5' }],
      });

      const body = expectSuccess(response);
      expect(sortedKeys(body)).toEqual(['invoice', 'items', 'status', 'tax_breakdown']);
      const result = body as unknown as InvoiceWriteResult;
      expect(result.invoice).toHaveLength(1);
      expect(sortedKeys(result.invoice[0])).toEqual(INVOICE_KEYS);
      // 31.50 + 7.5% (2.3625 → 2.36)
      expect(result.invoice[0]).toMatchObject({
        id,
        sub_total: 31.5,
        tax_amount: 2.36,
        total: 33.86,
        outstanding_balance: '33.86',
        created_at: written.invoice[0].created_at,
      });
      expect(result.items).toEqual([{ description: 'Design', quantity: 3, rate: '10.50' }]);
      expect(result.tax_breakdown).toEqual(plainTaxBreakdown(7.5, '31.50', '2.36'));
    });

    it('payment entries and send-log entries carry exactly their fields, oldest first', async () => {
      const invoice = await createInvoice(test.http, {
        items: [{ description: 'Work', quantity: 1, rate: 50 }],
      });
      const paymentWindow = timeWindow();
      await payInvoice(test.http, invoice.id, '10.00', {
        payment_method: 'bank transfer',
        payment_date: '2026-03-05',
      });
      await payInvoice(test.http, invoice.id, 5.5, { payment_date: '2026-03-06' });
      await sendInvoice(test.http, invoice.id, 'first@example.com');
      await sendInvoice(test.http, invoice.id, 'second@example.com');

      const detail = await readInvoice(test.http, invoice.id);

      expect(detail.payments).toEqual([
        {
          status: 'Completed',
          reference: expect.any(String),
          amount: 10,
          bank: 'Bank Transfer',
          payment_date: '2026-03-05',
          created_at: expect.stringMatching(TIMESTAMP),
          reason: '',
          credit_note_id: '',
        },
        {
          status: 'Completed',
          reference: expect.any(String),
          amount: 5.5,
          bank: 'Others',
          payment_date: '2026-03-06',
          created_at: expect.stringMatching(TIMESTAMP),
          reason: '',
          credit_note_id: '',
        },
      ]);
      for (const payment of detail.payments) {
        expect(sortedKeys(payment)).toEqual(PAYMENT_KEYS);
        expect(payment.reference).not.toBe('');
        expect(paymentWindow.contains(payment.created_at)).toBe(true);
      }
      expect(detail.payments[0].reference).not.toBe(detail.payments[1].reference);
      // Not delivered: no worker runs in this file (OUTBOX_POLL_MS=0).
      const delivery = { delivery: 'queued', attempts: 0, kind: 'document' };
      expect(detail.send_log).toEqual([
        { email: 'first@example.com', date: expect.stringMatching(TIMESTAMP), ...delivery },
        { email: 'second@example.com', date: expect.stringMatching(TIMESTAMP), ...delivery },
      ]);
      for (const entry of detail.send_log) {
        expect(sortedKeys(entry)).toEqual(SEND_LOG_KEYS);
        expect(paymentWindow.contains(entry.date)).toBe(true);
      }
      expect(detail.invoice[0]).toMatchObject({
        amount_paid: '15.50',
        outstanding_balance: '34.50',
      });
      const raw = rawJson(await test.http.get(`/v1/invoice/${invoice.id}`).expect(200)) as {
        payments: Array<Record<string, unknown>>;
      };
      expect(raw.payments.map((payment) => rawNumber(payment.amount))).toEqual(['10.00', '5.50']);
    });

    it('send, record-payment, paid, not-paid and delete answer only `status` and `message`', async () => {
      const { id, invoice_no } = await createInvoice(test.http);
      const responses = [
        await test.http.post('/v1/invoice/send').send({ id, email: 'shape@example.com' }),
        await test.http
          .post('/v1/invoice/record-payment')
          .send({ id, amount_paid: '1.00', payment_date: '2026-03-01' }),
        await test.http.get(`/v1/invoice/paid/${id}`),
        await test.http.get(`/v1/invoice/not-paid/${id}`),
        await test.http.delete(`/v1/invoice/${id}`),
      ];

      for (const response of responses) {
        const body = expectSuccess(response);
        expect(sortedKeys(body)).toEqual(['message', 'status']);
        expect(typeof body.message).toBe('string');
        expect(body.message).toContain(invoice_no);
      }
    });
  });

  describe('customer fields and defaults', () => {
    it('copies the client: customer_id is its id, optional client fields come as ""', async () => {
      const client = await addClient(test.http, { names: 'No Extras' });

      const { invoice } = await addInvoice(test.http, { client: client.id });

      expect(invoice[0]).toMatchObject({
        customer_id: client.id,
        customer_name: 'No Extras',
        customer_phone: '',
        customer_address: '',
      });
    });

    it('defaults currency USD, tax_rate 0, issue_date today (UTC), due_date issue_date, "" texts', async () => {
      const today = todayWindow();
      const client = await createClient(test.http);
      const response = await add({
        client,
        invoice_no: invoiceNumber(),
        payment_status: 'Not Paid',
        items: [{ description: 'Only required', quantity: 1, rate: '20' }],
      });

      const [invoice] = (expectSuccess(response) as unknown as InvoiceWriteResult).invoice;
      expect(invoice).toMatchObject({
        currency: 'USD',
        tax_rate: 0,
        tax_amount: 0,
        sub_total: 20,
        total: 20,
        description: '',
        note: '',
        amount_paid: '0.00',
        outstanding_balance: '20.00',
      });
      expect(today.contains(invoice.issue_date)).toBe(true);
      expect(invoice.due_date).toBe(invoice.issue_date);
      const [read] = (await readInvoice(test.http, invoice.id)).invoice;
      expect(read).toMatchObject({ issue_date: invoice.issue_date, due_date: invoice.issue_date });
    });

    it('defaults due_date to a given issue_date', async () => {
      const { invoice } = await addInvoice(test.http, { issue_date: '2026-05-17' });

      expect(invoice[0]).toMatchObject({ issue_date: '2026-05-17', due_date: '2026-05-17' });
    });

    it('accepts a due_date equal to issue_date and a leap day', async () => {
      const { invoice } = await addInvoice(test.http, {
        issue_date: '2028-02-29',
        due_date: '2028-02-29',
      });

      expect(invoice[0]).toMatchObject({ issue_date: '2028-02-29', due_date: '2028-02-29' });
    });

    it('trims invoice_no and matches payment_status case-insensitively', async () => {
      const number = invoiceNumber('TRIM');
      const paid = await addInvoice(test.http, {
        invoice_no: `  ${number} `,
        payment_status: 'paid',
      });
      const notPaid = await addInvoice(test.http, { payment_status: 'NOT PAID' });

      expect(paid.invoice[0]).toMatchObject({ invoice_no: number, payment_status: 'Paid' });
      expect(notPaid.invoice[0].payment_status).toBe('Not Paid');
      expect((await readInvoice(test.http, paid.invoice[0].id)).invoice[0].payment_status).toBe(
        'Paid',
      );
    });

    it('accepts a lower-case currency and answers it upper-cased', async () => {
      const { invoice } = await addInvoice(test.http, { currency: 'eur' });

      expect(invoice[0].currency).toBe('EUR');
    });

    it('keeps the items in input order', async () => {
      const items = ['Zulu', 'Alpha', 'Mike', 'Bravo', 'Yankee'].map((description, index) => ({
        description,
        quantity: index + 1,
        rate: '1.00',
      }));
      const { invoice, items: written } = await addInvoice(test.http, { items });

      const expected = ['Zulu', 'Alpha', 'Mike', 'Bravo', 'Yankee'];
      expect(written.map((item) => item.description)).toEqual(expected);
      const detail = await readInvoice(test.http, invoice[0].id);
      expect(detail.items.map((item) => [item.description, item.amount])).toEqual(
        expected.map((description, index) => [description, `${index + 1}.00`]),
      );
    });
  });

  describe('totals (exact decimals, half away from zero)', () => {
    const priced = async (input: InvoiceInput) => {
      const { invoice } = await addInvoice(test.http, input);
      return readInvoice(test.http, invoice[0].id);
    };

    it('7 × 1.0050 = 7.035 rounds to 7.04 (a binary float gives 7.0349…)', async () => {
      const detail = await priced({ items: [{ description: 'x', quantity: 7, rate: '1.0050' }] });

      expect(detail.items).toEqual([
        plainReadLine({ description: 'x', quantity: 7, rate: '1.005', amount: '7.04' }),
      ]);
      expect(detail.invoice[0]).toMatchObject({ sub_total: 7.04, tax_amount: 0, total: 7.04 });
    });

    it('3 × 0.1 + 1 × 0.2 is exactly 0.50', async () => {
      const detail = await priced({
        items: [
          { description: 'a', quantity: 3, rate: '0.1' },
          { description: 'b', quantity: 1, rate: '0.2' },
        ],
      });

      expect(detail.items.map((item) => item.amount)).toEqual(['0.30', '0.20']);
      expect(detail.invoice[0]).toMatchObject({
        sub_total: 0.5,
        total: 0.5,
        outstanding_balance: '0.50',
      });
    });

    it('rounds each line on its own before summing', async () => {
      // 0.005 → 0.01 three times: 0.03, where rounding the sum (0.015) would give 0.02.
      const detail = await priced({ items: lineItems(3, { quantity: 1, rate: '0.005' }) });

      expect(detail.items.map((item) => [item.rate, item.amount])).toEqual([
        ['0.005', '0.01'],
        ['0.005', '0.01'],
        ['0.005', '0.01'],
      ]);
      expect(detail.invoice[0]).toMatchObject({ sub_total: 0.03, total: 0.03 });
    });

    it('rounds tax once, on the sub-total, half away from zero', async () => {
      // 20.05 × 7.5% = 1.50375 → 1.50
      const down = await priced({
        tax_rate: 7.5,
        items: [
          { description: 'a', quantity: 1, rate: '10.00' },
          { description: 'b', quantity: 1, rate: '10.05' },
        ],
      });
      // 10.10 × 5% = 0.505 → 0.51
      const half = await priced({
        tax_rate: '5',
        items: [{ description: 'a', quantity: 1, rate: '10.10' }],
      });

      expect(down.invoice[0]).toMatchObject({ sub_total: 20.05, tax_amount: 1.5, total: 21.55 });
      expect(half.invoice[0]).toMatchObject({ sub_total: 10.1, tax_amount: 0.51, total: 10.61 });
      expect(half.invoice[0].outstanding_balance).toBe('10.61');
    });

    it('outputs rates with at least the minor digits and at most 4', async () => {
      const detail = await priced({
        items: [
          { description: 'a', quantity: 1, rate: 3 },
          { description: 'b', quantity: 1, rate: '10.5' },
          { description: 'c', quantity: 1, rate: '0.125' },
          { description: 'd', quantity: 1, rate: '2.5000' },
          { description: 'e', quantity: '0.0001', rate: '1234.5678' },
        ],
      });

      expect(detail.items.map((item) => [item.quantity, item.rate, item.amount])).toEqual([
        [1, '3.00', '3.00'],
        [1, '10.50', '10.50'],
        [1, '0.125', '0.13'],
        [1, '2.50', '2.50'],
        [0.0001, '1234.5678', '0.12'],
      ]);
    });

    it('JPY has no minor digits', async () => {
      // 3 × 333.5 = 1000.5 → 1001; 1 × 500; 1501 × 10% = 150.1 → 150
      const detail = await priced({
        currency: 'JPY',
        tax_rate: 10,
        items: [
          { description: 'a', quantity: 3, rate: '333.5' },
          { description: 'b', quantity: 1, rate: '500' },
        ],
      });

      expect(detail.items.map((item) => [item.rate, item.amount])).toEqual([
        ['333.5', '1001'],
        ['500', '500'],
      ]);
      expect(detail.invoice[0]).toMatchObject({
        currency: 'JPY',
        sub_total: 1501,
        tax_amount: 150,
        total: 1651,
        amount_paid: '0',
        outstanding_balance: '1651',
      });
    });

    it('KWD has three minor digits', async () => {
      // 1.5 × 0.3335 = 0.50025 → 0.500; 2 × 1.25 = 2.500; 3.000 × 10% = 0.300
      const detail = await priced({
        currency: 'KWD',
        tax_rate: 10,
        items: [
          { description: 'a', quantity: 1.5, rate: '0.3335' },
          { description: 'b', quantity: 2, rate: '1.25' },
        ],
      });

      expect(detail.items.map((item) => [item.rate, item.amount])).toEqual([
        ['0.3335', '0.500'],
        ['1.250', '2.500'],
      ]);
      expect(detail.invoice[0]).toMatchObject({
        sub_total: 3,
        tax_amount: 0.3,
        total: 3.3,
        amount_paid: '0.000',
        outstanding_balance: '3.300',
      });
    });

    it('keeps every digit of a value a double cannot hold', async () => {
      const { invoice } = await addInvoice(test.http, {
        currency: 'KWD',
        items: [{ description: 'big', quantity: 1, rate: '9999999999999.999' }],
      });

      const response = await test.http.get(`/v1/invoice/${invoice[0].id}`).expect(200);

      const raw = rawJson(response) as {
        invoice: Array<Record<string, unknown>>;
        items: Array<Record<string, unknown>>;
      };
      expect(rawNumber(raw.invoice[0].sub_total)).toMatch(/^9999999999999\.9990*$/);
      expect(rawNumber(raw.invoice[0].total)).toMatch(/^9999999999999\.9990*$/);
      expect(raw.invoice[0].outstanding_balance).toBe('9999999999999.999');
      expect(raw.items[0]).toMatchObject({
        rate: '9999999999999.999',
        amount: '9999999999999.999',
      });
    });

    it('multiplies large quantities and rates exactly', async () => {
      // 9999.9999 × 999999999.9999 = 9999999899999.00000001
      const detail = await priced({
        items: [{ description: 'x', quantity: '9999.9999', rate: '999999999.9999' }],
      });

      expect(detail.items[0]).toEqual(
        plainReadLine({
          description: 'x',
          quantity: 9999.9999,
          rate: '999999999.9999',
          amount: '9999999899999.00',
        }),
      );
      expect(detail.invoice[0].outstanding_balance).toBe('9999999899999.00');
    });

    it('answers 422 when the total reaches 10^13', async () => {
      const client = await createClient(test.http);
      const response = await add(
        invoiceInput(client, {
          items: [
            { description: 'a', quantity: 1, rate: '9999999999999' },
            { description: 'b', quantity: 1, rate: '1' },
          ],
        }),
      );

      expectValidationError(response, ['total']);
    });
  });

  describe('validation of add', () => {
    let client: string;
    const valid = () => invoiceInput(client);
    const without = (field: keyof InvoiceInput) => {
      const input = valid();
      delete input[field];
      return input;
    };
    const withItem = (item: Record<string, unknown>, index = 0) => {
      const items: Array<Record<string, unknown>> = lineItems(2) as Array<Record<string, unknown>>;
      items[index] = { ...items[index], ...item };
      return { ...valid(), items };
    };

    beforeAll(async () => {
      client = await createClient(test.http);
    });

    it.each(['client', 'payment_status', 'items'] as const)(
      'answers 422 when %s is missing',
      async (field) => {
        expectValidationError(await add(without(field)), [field]);
      },
    );

    it('answers 422 for a null invoice_no; left out, the series numbers it (docs/numbering.md)', async () => {
      const withNull = test.http.post('/v1/invoice/add').send({ ...valid(), invoice_no: null });
      expectValidationError(await withNull, ['invoice_no']);
      const numbered = expectSuccess(await add(without('invoice_no'))) as {
        invoice: Array<{ invoice_no: string }>;
      };
      expect(numbered.invoice[0].invoice_no).toMatch(/^INV-\d{4}-\d{4}$/);
    });

    it('names every missing field at once', async () => {
      expectValidationError(await add({}), ['client', 'items', 'payment_status']);
    });

    it.each([
      ['empty', []],
      ['not an array', 'Design'],
      ['501 long', lineItems(501)],
    ])('answers 422 when items is %s', async (_label, items) => {
      expectValidationError(await add({ ...valid(), items: items as [] }), ['items']);
    });

    it('accepts 500 items', async () => {
      const response = await add({ ...valid(), items: lineItems(500, { rate: '0.01' }) });

      const result = expectSuccess(response) as unknown as InvoiceWriteResult;
      expect(result.items).toHaveLength(500);
      expect(result.invoice[0]).toMatchObject({ sub_total: 5, total: 5 });
    });

    it.each([
      ['0', 0],
      ['negative', -1],
      ['5 decimals', '1.23456'],
      ['not a number', 'abc'],
      ['exponent notation', '1e3'],
      ['empty text', ''],
    ])('answers 422 naming items.1.quantity when it is %s', async (_label, quantity) => {
      expectValidationError(await add(withItem({ quantity }, 1)), ['items.1.quantity']);
    });

    it.each([
      ['negative', '-0.01'],
      ['5 decimals', '0.00001'],
      ['not a number', 'ten'],
      ['Infinity', 'Infinity'],
    ])('answers 422 naming items.0.rate when it is %s', async (_label, rate) => {
      expectValidationError(await add(withItem({ rate })), ['items.0.rate']);
    });

    it('accepts a rate of 0 and a quantity with 4 decimals', async () => {
      const response = await add(withItem({ quantity: '0.0001', rate: 0 }));

      expect(expectSuccess(response).items).toEqual([
        { description: 'Line 1', quantity: 0.0001, rate: '0.00' },
        { description: 'Line 2', quantity: 1, rate: '1.00' },
      ]);
    });

    it('names nested fields by path', async () => {
      const response = await add({
        ...valid(),
        items: [
          { description: 'ok', quantity: 1, rate: '1' },
          { quantity: 1, rate: '1' },
          { description: 'bad', quantity: 0, rate: '-1' },
        ],
      });

      expectValidationError(response, ['items.1.description', 'items.2.quantity', 'items.2.rate']);
    });

    it.each([
      ['above 100', '100.0001'],
      ['negative', -1],
      ['5 decimals', '7.12345'],
      ['not a number', 'ten'],
    ])('answers 422 when tax_rate is %s', async (_label, taxRate) => {
      expectValidationError(await add({ ...valid(), tax_rate: taxRate }), ['tax_rate']);
    });

    it('accepts a tax_rate of 100 with 4 decimals below it', async () => {
      const full = await add({ ...valid(), tax_rate: 100 });
      const precise = await add({ ...valid(), tax_rate: '12.3456' });

      expect((expectSuccess(full) as unknown as InvoiceWriteResult).invoice[0]).toMatchObject({
        tax_rate: 100,
        tax_amount: 100,
        total: 200,
      });
      // 100.00 × 12.3456% = 12.3456 → 12.35
      expect((expectSuccess(precise) as unknown as InvoiceWriteResult).invoice[0]).toMatchObject({
        tax_rate: 12.3456,
        tax_amount: 12.35,
        total: 112.35,
      });
    });

    it.each(['XYZ', 'US', 'usdollar', 'XAU'])(
      'answers 422 when currency is %s',
      async (currency) => {
        expectValidationError(await add({ ...valid(), currency }), ['currency']);
      },
    );

    it.each(['Pending', 'Unpaid', 'true', ''])(
      'answers 422 when payment_status is "%s"',
      async (status) => {
        expectValidationError(await add({ ...valid(), payment_status: status }), [
          'payment_status',
        ]);
      },
    );

    it.each([
      ['empty', ''],
      ['only blanks', '   '],
      ['65 characters', 'N'.repeat(65)],
    ])('answers 422 when invoice_no is %s', async (_label, number) => {
      expectValidationError(await add({ ...valid(), invoice_no: number }), ['invoice_no']);
    });

    it('accepts a 64-character invoice_no', async () => {
      const number = `${invoiceNumber('LONG')}-`.padEnd(64, 'X');
      const response = await add({ ...valid(), invoice_no: number });

      expect((expectSuccess(response) as unknown as InvoiceWriteResult).invoice[0].invoice_no).toBe(
        number,
      );
    });

    it.each([
      ['issue_date', '2026-02-30'],
      ['issue_date', '2026-2-3'],
      ['issue_date', '03/01/2026'],
      ['due_date', '2026-13-01'],
      ['due_date', '2026-04-31T00:00:00'],
    ])('answers 422 when %s is %s', async (field, date) => {
      expectValidationError(await add({ ...valid(), issue_date: '2026-01-01', [field]: date }), [
        field,
      ]);
    });

    it('answers 422 when due_date is before issue_date', async () => {
      const response = await add({ ...valid(), issue_date: '2026-03-10', due_date: '2026-03-09' });

      expectValidationError(response, ['due_date']);
    });

    it.each([
      ['an unknown id', '999999'],
      ['not an id', 'abc'],
    ])('answers 422 when client is %s', async (_label, clientId) => {
      expectValidationError(await add({ ...valid(), client: clientId }), ['client']);
    });

    it('answers 422 for an archived client and creates nothing', async () => {
      const archived = await createClient(test.http);
      await test.http.delete(`/v1/client/${archived}`).expect(200);
      const number = invoiceNumber('ARCH');

      expectValidationError(await add({ ...valid(), client: archived, invoice_no: number }), [
        'client',
      ]);
      expect((await listInvoices(test.http)).some((invoice) => invoice.invoice_no === number)).toBe(
        false,
      );
    });

    it('treats null optional fields as not given', async () => {
      const response = await add({
        ...valid(),
        description: null,
        currency: null,
        tax_rate: null,
        issue_date: '2026-06-01',
        due_date: null,
        note: null,
      } as unknown as InvoiceInput);

      expect((expectSuccess(response) as unknown as InvoiceWriteResult).invoice[0]).toMatchObject({
        description: '',
        currency: 'USD',
        tax_rate: 0,
        due_date: '2026-06-01',
        note: '',
      });
    });

    it.each([
      ['items', ['x']],
      ['items', [null]],
      ['items', [[1, 2]]],
      ['items', [{ description: ['a'], quantity: {}, rate: [] }]],
      ['client', {}],
      ['client', ['1']],
      ['client', true],
      ['client', 1.5],
      ['invoice_no', ['INV']],
      ['payment_status', ['Paid']],
      ['tax_rate', {}],
      ['tax_rate', true],
      ['issue_date', 20260301],
      ['currency', 840],
      ['note', 5],
      ['description', {}],
    ])('answers 422 naming %s when it is %j', async (field, value) => {
      const response = await add({ ...valid(), [field]: value });

      expectError(response, 422);
      const errors = Object.keys((response.body as { errors: object }).errors);
      expect(errors.length).toBeGreaterThan(0);
      for (const key of errors) expect(key === field || key.startsWith(`${field}.`)).toBe(true);
    });

    it('creates nothing when validation fails', async () => {
      const number = invoiceNumber('NONE');
      await add({
        ...valid(),
        invoice_no: number,
        items: [{ description: 'x', quantity: 0, rate: '1' }],
      });

      expect((await listInvoices(test.http)).some((invoice) => invoice.invoice_no === number)).toBe(
        false,
      );
    });
  });

  describe('unknown ids', () => {
    let liveId: string;
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http);
      liveId = (await createInvoice(test.http, { client })).id;
    });

    // A valid body, so that only the id can be what is wrong.
    const requests = (id: string) => [
      () => test.http.get(`/v1/invoice/${id}`),
      () => test.http.put(`/v1/invoice/${id}`).send(invoiceInput(client)),
      () => test.http.delete(`/v1/invoice/${id}`),
      () => test.http.get(`/v1/invoice/paid/${id}`),
      () => test.http.get(`/v1/invoice/not-paid/${id}`),
    ];

    it.each([...NON_DIGIT_IDS, ...UNKNOWN_IDS])('answers 404 for the path id %s', async (id) => {
      for (const request of requests(id)) expectError(await request(), 404);
    });

    it('answers 404 for a path id with leading zeros of no record, and 200 for the live one', async () => {
      expectError(await test.http.get('/v1/invoice/0999999'), 404);
      expectSuccess(await test.http.get(`/v1/invoice/${liveId}`));
    });

    it.each(['999999', '4294967295'])(
      'answers 404 for send and record-payment of the unknown id %s',
      async (id) => {
        expectError(
          await test.http.post('/v1/invoice/send').send({ id, email: 'a@example.com' }),
          404,
        );
        expectError(
          await test.http
            .post('/v1/invoice/record-payment')
            .send({ id, amount_paid: '1.00', payment_date: '2026-03-01' }),
          404,
        );
      },
    );
  });

  describe('request encodings', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http);
    });

    const fields = (number: string, itemCount: number) => {
      const entries: Array<[string, string]> = [
        ['client', client],
        ['invoice_no', number],
        ['payment_status', 'Not Paid'],
        ['tax_rate', '10'],
        ['note', 'A & B = C'],
      ];
      for (let index = 0; index < itemCount; index++) {
        entries.push([`items[${index}][description]`, `Item ${index}`]);
        entries.push([`items[${index}][quantity]`, String(index + 1)]);
        entries.push([`items[${index}][rate]`, '2.50']);
      }
      return entries;
    };

    /** n items of (i+1) × 2.50: sub-total 2.50 × n(n+1)/2, plus 10% tax. */
    const expectEncoded = (response: Response, number: string, itemCount: number) => {
      const result = expectSuccess(response) as unknown as InvoiceWriteResult;
      const subTotal = (250 * ((itemCount * (itemCount + 1)) / 2)) / 100;
      expect(result.invoice[0]).toMatchObject({
        invoice_no: number,
        customer_id: client,
        note: 'A & B = C',
        tax_rate: 10,
        sub_total: subTotal,
      });
      expect(result.items).toEqual(
        Array.from({ length: itemCount }, (_, index) => ({
          description: `Item ${index}`,
          quantity: index + 1,
          rate: '2.50',
        })),
      );
    };

    it('adds from a URL-encoded form with items[0][description]=…', async () => {
      const number = invoiceNumber('FORM');
      const response = await test.http
        .post('/v1/invoice/add')
        .type('form')
        .send(new URLSearchParams(fields(number, 2)).toString());

      expectEncoded(response, number, 2);
      expect((expectSuccess(response) as unknown as InvoiceWriteResult).invoice[0]).toMatchObject({
        sub_total: 7.5,
        tax_amount: 0.75,
        total: 8.25,
      });
    });

    it('adds from a URL-encoded form with more than 20 items, in order', async () => {
      const number = invoiceNumber('FORM');
      const response = await test.http
        .post('/v1/invoice/add')
        .type('form')
        .send(new URLSearchParams(fields(number, 25)).toString());

      expectEncoded(response, number, 25);
    });

    it('adds from multipart form fields', async () => {
      const number = invoiceNumber('MULTI');
      let request = test.http.post('/v1/invoice/add');
      for (const [name, value] of fields(number, 12)) request = request.field(name, value);

      expectEncoded(await request, number, 12);
    });

    it('adds from query-string parameters', async () => {
      const number = invoiceNumber('QUERY');
      const query = new URLSearchParams(fields(number, 3)).toString();

      expectEncoded(await test.http.post(`/v1/invoice/add?${query}`), number, 3);
    });

    it('records a payment and a send from a URL-encoded form', async () => {
      const { id } = await createInvoice(test.http, { client });

      expectSuccess(
        await test.http
          .post('/v1/invoice/record-payment')
          .type('form')
          .send({ id, amount_paid: '12.34', payment_date: '2026-03-02', payment_method: 'Cheque' }),
      );
      expectSuccess(
        await test.http
          .post('/v1/invoice/send')
          .type('form')
          .send({ id, email: 'form@example.com' }),
      );

      const detail = await readInvoice(test.http, id);
      expect(detail.payments).toMatchObject([
        { amount: 12.34, bank: 'Cheque', payment_date: '2026-03-02' },
      ]);
      expect(detail.send_log).toMatchObject([{ email: 'form@example.com' }]);
      expect(detail.invoice[0]).toMatchObject({
        amount_paid: '12.34',
        outstanding_balance: '87.66',
      });
    });
  });
});
