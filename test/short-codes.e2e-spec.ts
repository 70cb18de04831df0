import * as shortCodes from '../src/common/short-code';
import { createClient } from './factories/clients';
import { createEstimate, estimateInput } from './factories/estimates';
import { createExpense, expenseInput } from './factories/expenses';
import { createInvoice, invoiceInput, readInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, SHORT_CODE } from './setup/expectations';

/*
 * Short codes and payment references are random, with a unique index behind them. A collision
 * is forced here by making the generator hand out a code already stored: the write must go
 * through with a fresh code, not answer 500.
 */
describe('Short-code collisions', () => {
  let test: TestApp;
  let client: string;
  let generate: jest.SpyInstance<string, []>;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
  });

  beforeEach(() => {
    generate = jest.spyOn(shortCodes, 'generateShortCode');
  });

  afterEach(() => {
    generate.mockRestore();
  });

  afterAll(async () => {
    await test.close();
  });

  it('an invoice whose first code is taken gets a fresh one', async () => {
    const existing = await createInvoice(test.http, { client });
    generate.mockClear().mockReturnValueOnce(existing.short_code);

    const response = await test.http.post('/v1/invoice/add').send(invoiceInput(client));

    const created = (expectSuccess(response) as { invoice: { short_code: string }[] }).invoice[0];
    expect(created.short_code).toMatch(SHORT_CODE);
    expect(created.short_code).not.toBe(existing.short_code);
    expect(generate).toHaveBeenCalledTimes(2);
  });

  it('an estimate whose first code is taken gets a fresh one', async () => {
    const existing = await createEstimate(test.http, { client });
    generate.mockClear().mockReturnValueOnce(existing.short_code);

    const response = await test.http.post('/v1/estimate/add').send(estimateInput(client));

    const created = (expectSuccess(response) as { estimate: { short_code: string }[] }).estimate[0];
    expect(created.short_code).toMatch(SHORT_CODE);
    expect(created.short_code).not.toBe(existing.short_code);
    expect(generate).toHaveBeenCalledTimes(2);
  });

  it('an estimate converted into an invoice whose first code is taken gets a fresh one', async () => {
    const existing = await createInvoice(test.http, { client });
    const estimate = await createEstimate(test.http, { client });
    generate.mockClear().mockReturnValueOnce(existing.short_code);

    const response = await test.http
      .post(`/v1/estimate/${estimate.id}/convert`)
      .send({ invoice_no: `CONV-${estimate.id}` });

    const created = (expectSuccess(response) as { invoice: { short_code: string }[] }).invoice[0];
    expect(created.short_code).toMatch(SHORT_CODE);
    expect(created.short_code).not.toBe(existing.short_code);
  });

  it('an expense whose first code is taken gets a fresh one', async () => {
    const existing = await test.http.get(`/v1/expense/${await createExpense(test.http)}`);
    const code = (existing.body as { expense: { short_code: string }[] }).expense[0].short_code;
    generate.mockClear().mockReturnValueOnce(code);

    const response = await test.http.post('/v1/expense/add').send(expenseInput());

    const created = (expectSuccess(response) as { expense: { short_code: string }[] }).expense[0];
    expect(created.short_code).toMatch(SHORT_CODE);
    expect(created.short_code).not.toBe(code);
    expect(generate).toHaveBeenCalledTimes(2);
  });

  it('a payment whose first reference is taken gets a fresh one, and is recorded once', async () => {
    const invoice = await createInvoice(test.http, { client });
    const pay = () =>
      test.http
        .post('/v1/invoice/record-payment')
        .send({ id: invoice.id, amount_paid: '10.00', payment_date: '2026-03-10' });
    // A reference is two codes: both halves of the first payment's are handed out again.
    generate.mockReturnValueOnce('AAAAAAAA').mockReturnValueOnce('BBBBBBBB');
    expectSuccess(await pay());
    generate.mockReturnValueOnce('AAAAAAAA').mockReturnValueOnce('BBBBBBBB');

    expectSuccess(await pay());

    const { invoice: stored, payments } = await readInvoice(test.http, invoice.id);
    const references = payments.map((payment) => payment.reference);
    expect(references).toContain('PAY-AAAAAAAABBBBBBBB');
    expect(new Set(references).size).toBe(2);
    expect(references.every((reference) => /^PAY-[0-9A-HJKMNP-TV-Z]{16}$/.test(reference))).toBe(
      true,
    );
    expect(stored[0].amount_paid).toBe('20.00');
  });

  it('gives up after a bounded number of codes, writing nothing', async () => {
    const existing = await createInvoice(test.http, { client });
    generate.mockClear().mockReturnValue(existing.short_code);
    const input = invoiceInput(client);

    const response = await test.http.post('/v1/invoice/add').send(input);

    expectError(response, 500);
    expect(generate).toHaveBeenCalledTimes(shortCodes.SHORT_CODE_ATTEMPTS);
    generate.mockRestore();
    const list = await test.http.get('/v1/invoice/all').expect(200);
    const numbers = (list.body as { data: { invoice_no: string }[] }).data.map(
      (row) => row.invoice_no,
    );
    expect(numbers).not.toContain(input.invoice_no);
  });
});
