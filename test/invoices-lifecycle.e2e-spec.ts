import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { addClient, createClient } from './factories/clients';
import {
  addInvoice,
  createInvoice,
  INVOICE_KEYS,
  InvoiceDetail,
  InvoiceInput,
  invoiceInput,
  invoiceNumber,
  InvoiceOutput,
  InvoiceWriteResult,
  lineItems,
  listInvoices,
  payInvoice,
  plainReadLine,
  plainTaxBreakdown,
  readInvoice,
  sendInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  nextSecond,
} from './setup/expectations';

const sortedKeys = (value: unknown) => Object.keys(value as object).sort();

describe('Invoices: numbers, updates, status, sends, archiving', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const add = (input: InvoiceInput) => test.http.post('/v1/invoice/add').send(input);
  const update = (id: string, input: InvoiceInput) =>
    test.http.put(`/v1/invoice/${id}`).send(input);
  const written = (response: Response) =>
    (expectSuccess(response) as unknown as InvoiceWriteResult).invoice[0];
  const listed = async (id: string) =>
    (await listInvoices(test.http)).find((invoice) => invoice.id === id);
  const withNumber = async (number: string) =>
    (await listInvoices(test.http)).filter((invoice) => invoice.invoice_no === number);

  /** The PUT input that restates an invoice as it is, with changes. */
  const restated = (invoice: InvoiceOutput, changes: InvoiceInput = {}): InvoiceInput => ({
    client: invoice.customer_id,
    invoice_no: invoice.invoice_no,
    payment_status: invoice.payment_status,
    ...changes,
  });

  describe('invoice_no is unique among live invoices', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http);
    });

    it('answers 409 on add with a live number, trimmed or not, and adds nothing', async () => {
      const number = invoiceNumber('DUP');
      await createInvoice(test.http, { client, invoice_no: number });

      expectError(await add(invoiceInput(client, { invoice_no: number })), 409);
      expectError(await add(invoiceInput(client, { invoice_no: ` ${number}  ` })), 409);
      expect(await withNumber(number)).toHaveLength(1);
    });

    it('answers 409 on update to another live invoice’s number, and changes nothing', async () => {
      const first = await createInvoice(test.http, { client });
      const second = await createInvoice(test.http, { client });

      const response = await update(
        second.id,
        restated(second, { invoice_no: first.invoice_no, note: 'changed' }),
      );

      expectError(response, 409);
      expect(await listed(second.id)).toEqual(second);
    });

    it('lets an update keep its own number', async () => {
      const invoice = await createInvoice(test.http, { client });

      const response = await update(invoice.id, restated(invoice, { note: 'same number' }));

      expect(written(response)).toMatchObject({
        invoice_no: invoice.invoice_no,
        note: 'same number',
      });
    });

    it('lets an archived invoice’s number be reused, on add and on update, more than once', async () => {
      const number = invoiceNumber('REUSE');
      const first = await createInvoice(test.http, { client, invoice_no: number });
      await test.http.delete(`/v1/invoice/${first.id}`).expect(200);

      const second = written(await add(invoiceInput(client, { invoice_no: number })));
      await test.http.delete(`/v1/invoice/${second.id}`).expect(200);
      const other = await createInvoice(test.http, { client });
      const renamed = written(await update(other.id, restated(other, { invoice_no: number })));

      expect(second.invoice_no).toBe(number);
      expect(renamed).toMatchObject({ id: other.id, invoice_no: number });
      expect((await withNumber(number)).map((invoice) => invoice.id)).toEqual([other.id]);
      expectError(await add(invoiceInput(client, { invoice_no: number })), 409);
    });

    it('compares numbers exactly: a number differing only in case is another number', async () => {
      const number = invoiceNumber('case');
      await createInvoice(test.http, { client, invoice_no: number });

      const upper = written(await add(invoiceInput(client, { invoice_no: number.toUpperCase() })));

      expect(upper.invoice_no).toBe(number.toUpperCase());
      expect(await withNumber(number)).toHaveLength(1);
    });

    it('lets exactly one of 10 parallel adds with one number through; the others answer 409', async () => {
      const number = invoiceNumber('RACE');

      const responses = await Promise.all(
        // Many lines keep each transaction open longer, so that they overlap.
        Array.from({ length: 10 }, () =>
          add(invoiceInput(client, { invoice_no: number, items: lineItems(100) })),
        ),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, ...Array<number>(9).fill(409)]);
      for (const response of responses) {
        if (response.status === 409) expectError(response, 409);
      }
      const winner = written(responses.find((response) => response.status === 200)!);
      expect((await withNumber(number)).map((invoice) => invoice.id)).toEqual([winner.id]);
    });

    it('lets exactly one of 6 parallel updates to one number through; the others answer 409', async () => {
      const number = invoiceNumber('RACE');
      const invoices: InvoiceOutput[] = [];
      for (let index = 0; index < 6; index++)
        invoices.push(await createInvoice(test.http, { client }));

      const responses = await Promise.all(
        invoices.map((invoice) => update(invoice.id, restated(invoice, { invoice_no: number }))),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      expect(await withNumber(number)).toHaveLength(1);
    });
  });

  describe('PUT /invoice/{id}', () => {
    it('keeps the lines when items is omitted, and reprices them', async () => {
      const { invoice } = await addInvoice(test.http, {
        items: [
          { description: 'Design', quantity: 2, rate: '10.50' },
          { description: 'Hosting', quantity: 1, rate: '5' },
        ],
      });

      const response = await update(invoice[0].id, restated(invoice[0], { tax_rate: 10 }));

      const result = expectSuccess(response) as unknown as InvoiceWriteResult;
      expect(result.items).toEqual([
        { description: 'Design', quantity: 2, rate: '10.50' },
        { description: 'Hosting', quantity: 1, rate: '5.00' },
      ]);
      expect(result.invoice[0]).toMatchObject({
        sub_total: 26,
        tax_rate: 10,
        tax_amount: 2.6,
        total: 28.6,
      });
      expect(result.tax_breakdown).toEqual(plainTaxBreakdown(10, '26.00', '2.60'));
      const detail = await readInvoice(test.http, invoice[0].id);
      expect(detail.items).toEqual([
        plainReadLine({ description: 'Design', quantity: 2, rate: '10.50', amount: '21.00' }, 10),
        plainReadLine({ description: 'Hosting', quantity: 1, rate: '5.00', amount: '5.00' }, 10),
      ]);
      expect(detail.tax_breakdown).toEqual(result.tax_breakdown);
      expect(detail.invoice[0]).toMatchObject({ total: 28.6, outstanding_balance: '28.60' });
    });

    it('replaces all lines when items is given, in input order', async () => {
      const { invoice } = await addInvoice(test.http, { items: lineItems(3) });

      const response = await update(
        invoice[0].id,
        restated(invoice[0], {
          items: [
            { description: 'New B', quantity: '0.5', rate: '3' },
            { description: 'New A', quantity: 4, rate: '0.25' },
          ],
        }),
      );

      expect((expectSuccess(response) as unknown as InvoiceWriteResult).items).toEqual([
        { description: 'New B', quantity: 0.5, rate: '3.00' },
        { description: 'New A', quantity: 4, rate: '0.25' },
      ]);
      const detail = await readInvoice(test.http, invoice[0].id);
      expect(detail.items.map((item) => [item.description, item.amount])).toEqual([
        ['New B', '1.50'],
        ['New A', '1.00'],
      ]);
      expect(detail.invoice[0]).toMatchObject({ sub_total: 2.5, total: 2.5 });
    });

    it('changes the written fields and updated_at, not created_at, id or short_code', async () => {
      const invoice = await createInvoice(test.http, { description: 'before', note: 'before' });
      await nextSecond();

      const after = written(
        await update(
          invoice.id,
          restated(invoice, {
            invoice_no: invoiceNumber('RENAMED'),
            payment_status: 'paid',
            description: 'after',
            note: 'after',
            currency: 'eur',
            issue_date: '2026-04-01',
            due_date: '2026-04-30',
          }),
        ),
      );

      expect(after).toMatchObject({
        id: invoice.id,
        short_code: invoice.short_code,
        payment_status: 'Paid',
        description: 'after',
        note: 'after',
        currency: 'EUR',
        issue_date: '2026-04-01',
        due_date: '2026-04-30',
        amount_paid: '0.00',
        created_at: invoice.created_at,
      });
      expect(after.invoice_no).toMatch(/^RENAMED-/);
      expect(after.updated_at > invoice.updated_at).toBe(true);
      expect(await listed(invoice.id)).toEqual(after);
    });

    it('keeps optional fields that are left out; a given "" clears them', async () => {
      const invoice = await createInvoice(test.http, {
        description: 'kept',
        note: 'kept note',
        currency: 'EUR',
        tax_rate: '20',
        issue_date: '2026-02-01',
        due_date: '2026-02-28',
      });

      const kept = written(await update(invoice.id, restated(invoice)));
      const cleared = written(
        await update(invoice.id, restated(invoice, { description: '', note: '' })),
      );

      expect(kept).toMatchObject({
        description: 'kept',
        note: 'kept note',
        currency: 'EUR',
        tax_rate: 20,
        total: 120,
        issue_date: '2026-02-01',
        due_date: '2026-02-28',
      });
      expect(cleared).toMatchObject({ description: '', note: '', currency: 'EUR' });
    });

    it('re-prices the kept lines in a new currency, and refuses a new currency once paid', async () => {
      const invoice = await createInvoice(test.http, {
        items: [{ description: 'Work', quantity: 3, rate: '333.5' }],
      });
      expect(invoice).toMatchObject({ sub_total: 1000.5, total: 1000.5 });

      const yen = written(await update(invoice.id, restated(invoice, { currency: 'JPY' })));
      expect(yen).toMatchObject({
        currency: 'JPY',
        sub_total: 1001,
        total: 1001,
        amount_paid: '0',
      });
      expect((await readInvoice(test.http, invoice.id)).items).toEqual([
        plainReadLine(
          { description: 'Work', quantity: 3, rate: '333.5', amount: '1001' },
          0,
          'JPY',
        ),
      ]);

      await payInvoice(test.http, invoice.id, '1');
      const refused = await update(invoice.id, restated(yen, { currency: 'USD' }));
      expectValidationError(refused, ['currency']);
      expect((await listed(invoice.id))!.currency).toBe('JPY');
    });

    it('copies the customer fields from the client on every update, never in between', async () => {
      const client = await addClient(test.http, {
        names: 'Old Name',
        phone: '111',
        address: 'Old Street',
      });
      const invoice = await createInvoice(test.http, { client: client.id });
      await test.http
        .put(`/v1/client/${client.id}`)
        .send({ names: 'New Name', phone: '222', address: 'New Street' })
        .expect(200);

      const untouched = (await readInvoice(test.http, invoice.id)).invoice[0];
      const updated = written(await update(invoice.id, restated(invoice)));

      const fields = (value: InvoiceOutput | InvoiceDetail['invoice'][0]) => [
        value.customer_name,
        value.customer_phone,
        value.customer_address,
      ];
      expect(fields(untouched)).toEqual(['Old Name', '111', 'Old Street']);
      expect(fields(updated)).toEqual(['New Name', '222', 'New Street']);
    });

    it('moves the invoice to another client with that client’s fields', async () => {
      const invoice = await createInvoice(test.http);
      const other = await addClient(test.http, {
        names: 'Other Co',
        phone: '333',
        address: 'Other Road',
      });

      const updated = written(await update(invoice.id, restated(invoice, { client: other.id })));

      expect(updated).toMatchObject({
        customer_id: other.id,
        customer_name: 'Other Co',
        customer_phone: '333',
        customer_address: 'Other Road',
      });
    });

    it('keeps the stored number when invoice_no is left out', async () => {
      const invoice = await createInvoice(test.http);
      const input = restated(invoice);
      delete input.invoice_no;

      const updated = expectSuccess(await update(invoice.id, input)) as {
        invoice: Array<{ invoice_no: string }>;
      };
      expect(updated.invoice[0].invoice_no).toBe(invoice.invoice_no);
    });

    it.each(['client', 'payment_status'] as const)(
      'answers 422 when %s is missing',
      async (field) => {
        const invoice = await createInvoice(test.http);
        const input = restated(invoice);
        delete input[field];

        expectValidationError(await update(invoice.id, input), [field]);
      },
    );

    it.each([
      ['empty items', { items: [] }, ['items']],
      ['a bad line', { items: [{ description: 'x', quantity: 1, rate: '-1' }] }, ['items.0.rate']],
      ['due before issue', { issue_date: '2026-03-10', due_date: '2026-03-01' }, ['due_date']],
      ['an unknown client', { client: '999999' }, ['client']],
      ['a bad payment_status', { payment_status: 'Pending' }, ['payment_status']],
    ])('answers 422 for %s and changes nothing', async (_label, changes, fields) => {
      const invoice = await createInvoice(test.http);

      expectValidationError(await update(invoice.id, restated(invoice, changes)), fields);
      expect(await listed(invoice.id)).toEqual(invoice);
    });

    it('answers 422 for an archived client', async () => {
      const invoice = await createInvoice(test.http);
      const archived = await createClient(test.http);
      await test.http.delete(`/v1/client/${archived}`).expect(200);

      expectValidationError(await update(invoice.id, restated(invoice, { client: archived })), [
        'client',
      ]);
    });

    it('answers 422 when the new total is below amount_paid, and changes nothing', async () => {
      const invoice = await createInvoice(test.http, {
        items: [{ description: 'Work', quantity: 1, rate: '100' }],
      });
      await payInvoice(test.http, invoice.id, '60.00');
      const before = await readInvoice(test.http, invoice.id);
      const listedBefore = await listed(invoice.id);

      const response = await update(
        invoice.id,
        restated(invoice, {
          note: 'cheaper',
          items: [{ description: 'Work', quantity: 1, rate: '59.99' }],
        }),
      );

      expectValidationError(response, ['items']);
      expect(await readInvoice(test.http, invoice.id)).toEqual(before);
      expect(await listed(invoice.id)).toEqual(listedBefore);
      expect(before.invoice[0]).toMatchObject({
        amount_paid: '60.00',
        outstanding_balance: '40.00',
      });
    });

    it('accepts a new total equal to amount_paid', async () => {
      const invoice = await createInvoice(test.http, {
        items: [{ description: 'Work', quantity: 1, rate: '100' }],
      });
      await payInvoice(test.http, invoice.id, '60.00');

      const response = await update(
        invoice.id,
        restated(invoice, { items: [{ description: 'Work', quantity: 2, rate: '30' }] }),
      );

      expect(written(response)).toMatchObject({
        total: 60,
        amount_paid: '60.00',
        outstanding_balance: '0.00',
      });
      expect((await readInvoice(test.http, invoice.id)).payments).toHaveLength(1);
    });
  });

  describe('GET /invoice/paid/{id} and /invoice/not-paid/{id}', () => {
    it('paid sets the flag only: no payment, amount_paid unchanged; updated_at moves', async () => {
      const invoice = await createInvoice(test.http);
      await payInvoice(test.http, invoice.id, '25.00');
      const before = await listed(invoice.id);
      await nextSecond();

      const response = await test.http.get(`/v1/invoice/paid/${invoice.id}`);

      expect(sortedKeys(expectSuccess(response))).toEqual(['message', 'status']);
      const detail = await readInvoice(test.http, invoice.id);
      expect(detail.invoice[0]).toMatchObject({
        payment_status: 'Paid',
        amount_paid: '25.00',
        outstanding_balance: '75.00',
      });
      expect(detail.payments).toHaveLength(1);
      const after = await listed(invoice.id);
      expect(after!.updated_at > before!.updated_at).toBe(true);
      expect(after).toEqual({
        ...before,
        payment_status: 'Paid',
        status: 'paid',
        updated_at: after!.updated_at,
      });
    });

    it('not-paid sets the flag only, even on a settled invoice', async () => {
      const invoice = await createInvoice(test.http);
      await payInvoice(test.http, invoice.id, '100.00');
      expect((await listed(invoice.id))!.payment_status).toBe('Paid');

      expectSuccess(await test.http.get(`/v1/invoice/not-paid/${invoice.id}`));

      const detail = await readInvoice(test.http, invoice.id);
      expect(detail.invoice[0]).toMatchObject({
        payment_status: 'Not Paid',
        amount_paid: '100.00',
        outstanding_balance: '0.00',
      });
      expect(detail.payments.map((payment) => payment.amount)).toEqual([100]);
    });

    it('can be repeated and flipped back and forth', async () => {
      const invoice = await createInvoice(test.http);
      const status = async () =>
        (await readInvoice(test.http, invoice.id)).invoice[0].payment_status;

      expectSuccess(await test.http.get(`/v1/invoice/paid/${invoice.id}`));
      expectSuccess(await test.http.get(`/v1/invoice/paid/${invoice.id}`));
      expect(await status()).toBe('Paid');
      expectSuccess(await test.http.get(`/v1/invoice/not-paid/${invoice.id}`));
      expect(await status()).toBe('Not Paid');
      expect((await readInvoice(test.http, invoice.id)).payments).toEqual([]);
    });
  });

  describe('POST /invoice/send', () => {
    const send = (input: Record<string, unknown>) => test.http.post('/v1/invoice/send').send(input);

    it.each([
      ['no email', {}, ['email']],
      ['an empty email', { email: '' }, ['email']],
      ['an invalid email', { email: 'not-an-address' }, ['email']],
      ['an email without domain', { email: 'someone@' }, ['email']],
    ])('answers 422 for %s and logs nothing', async (_label, input, fields) => {
      const { id } = await createInvoice(test.http);

      expectValidationError(await send({ id, ...input }), fields);
      expect((await readInvoice(test.http, id)).send_log).toEqual([]);
    });

    it.each([
      ['no id', {}],
      ['a non-digit id', { id: 'abc' }],
    ])('answers 422 for %s', async (_label, input) => {
      expectValidationError(await send({ email: 'a@example.com', ...input }), ['id']);
    });

    it('appends {email, date} in order and leaves payment_status and updated_at alone', async () => {
      const paid = await createInvoice(test.http, { payment_status: 'Paid' });
      const notPaid = await createInvoice(test.http);
      await nextSecond();

      expectSuccess(await send({ id: paid.id, email: 'one@example.com', phone: '+1 555 0199' }));
      expectSuccess(await send({ id: paid.id, email: 'two@example.com' }));
      expectSuccess(await send({ id: notPaid.id, email: 'three@example.com' }));

      expect((await readInvoice(test.http, paid.id)).send_log.map((entry) => entry.email)).toEqual([
        'one@example.com',
        'two@example.com',
      ]);
      expect(
        (await readInvoice(test.http, notPaid.id)).send_log.map((entry) => entry.email),
      ).toEqual(['three@example.com']);
      expect(await listed(paid.id)).toEqual(paid);
      expect(await listed(notPaid.id)).toEqual(notPaid);
    });
  });

  describe('DELETE /invoice/{id}', () => {
    it('archives: then every operation on it answers 404 and it leaves the lists; the row stays', async () => {
      const client = await createClient(test.http);
      const invoice = await createInvoice(test.http, { client });
      await payInvoice(test.http, invoice.id, '10.00');
      await sendInvoice(test.http, invoice.id, 'before@example.com');

      const response = await test.http.delete(`/v1/invoice/${invoice.id}`);

      const body = expectSuccess(response);
      expect(sortedKeys(body)).toEqual(['message', 'status']);
      expect(body.message).toEqual(expect.any(String));
      const { id } = invoice;
      const afterwards = [
        await test.http.get(`/v1/invoice/${id}`),
        await test.http.put(`/v1/invoice/${id}`).send(restated(invoice)),
        await test.http.delete(`/v1/invoice/${id}`),
        await test.http.get(`/v1/invoice/paid/${id}`),
        await test.http.get(`/v1/invoice/not-paid/${id}`),
        await test.http
          .post('/v1/invoice/record-payment')
          .send({ id, amount_paid: '1.00', payment_date: '2026-03-01' }),
        await test.http.post('/v1/invoice/send').send({ id, email: 'after@example.com' }),
      ];
      for (const answer of afterwards) expectError(answer, 404);
      expect(await listed(id)).toBeUndefined();
      const clientRead = await test.http.get(`/v1/client/${client}`).expect(200);
      expect((clientRead.body as { invoices: InvoiceOutput[] }).invoices).toEqual([]);

      const dataSource = test.app.get(DataSource);
      const rows = await dataSource.query<Array<{ invoice_no: string; deleted_at: unknown }>>(
        'SELECT invoice_no, deleted_at FROM invoices WHERE id = ?',
        [Number(id)],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].invoice_no).toBe(invoice.invoice_no);
      expect(rows[0].deleted_at).not.toBeNull();
      const count = async (table: string) => {
        const [row] = await dataSource.query<Array<{ n: unknown }>>(
          `SELECT COUNT(*) AS n FROM ${table} WHERE invoice_id = ?`,
          [Number(id)],
        );
        return Number(row.n);
      };
      expect([
        await count('invoice_line_items'),
        await count('invoice_payments'),
        await count('invoice_send_log'),
      ]).toEqual([1, 1, 1]);
    });

    it('leaves the other invoices alone', async () => {
      const kept = await createInvoice(test.http);
      const archived = await createInvoice(test.http);

      await test.http.delete(`/v1/invoice/${archived.id}`).expect(200);

      expect(await listed(kept.id)).toEqual(kept);
      expectSuccess(await test.http.get(`/v1/invoice/${kept.id}`));
    });
  });

  describe('archived clients', () => {
    it('keep their invoices readable and listed with the copied fields; new ones answer 422', async () => {
      const client = await addClient(test.http, {
        names: 'Gone Soon',
        phone: '444',
        address: 'Last Lane',
      });
      const invoice = await createInvoice(test.http, { client: client.id });

      await test.http.delete(`/v1/client/${client.id}`).expect(200);

      const detail = await readInvoice(test.http, invoice.id);
      expect(detail.invoice[0]).toMatchObject({
        customer_id: client.id,
        customer_name: 'Gone Soon',
        customer_phone: '444',
        customer_address: 'Last Lane',
      });
      expect(await listed(invoice.id)).toEqual(invoice);
      expectValidationError(await add(invoiceInput(client.id)), ['client']);
      await payInvoice(test.http, invoice.id, '1.00');
      await sendInvoice(test.http, invoice.id, 'still@example.com');
      expectSuccess(await test.http.get(`/v1/invoice/paid/${invoice.id}`));
    });
  });

  describe('GET /client/{id} embeds the client’s live invoices', () => {
    it('with timestamps, oldest first, without archived ones or other clients’ invoices', async () => {
      const client = await createClient(test.http);
      const other = await createClient(test.http);
      const first = await createInvoice(test.http, { client });
      const archived = await createInvoice(test.http, { client });
      await createInvoice(test.http, { client: other });
      const last = await createInvoice(test.http, {
        client,
        currency: 'JPY',
        items: [{ description: 'x', quantity: 1, rate: 1500 }],
      });
      await test.http.delete(`/v1/invoice/${archived.id}`).expect(200);
      await payInvoice(test.http, last.id, 500);

      const response = await test.http.get(`/v1/client/${client}`);

      const body = expectSuccess(response);
      const invoices = body.invoices as InvoiceOutput[];
      for (const invoice of invoices) expect(sortedKeys(invoice)).toEqual(INVOICE_KEYS);
      expect(invoices.map((invoice) => invoice.id)).toEqual([first.id, last.id]);
      expect(invoices[0]).toEqual(first);
      expect(invoices[1]).toEqual(await listed(last.id));
      expect(invoices[1]).toMatchObject({
        amount_paid: '500',
        outstanding_balance: '1000',
        total: 1500,
      });
    });
  });

  describe('GET /invoice/all', () => {
    it('answers every live invoice, oldest first (ascending id)', async () => {
      await createInvoice(test.http);
      await createInvoice(test.http);

      const ids = (await listInvoices(test.http)).map((invoice) => Number(invoice.id));

      expect(ids.length).toBeGreaterThanOrEqual(2);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });
  });
});
