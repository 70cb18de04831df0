import { stringify as formEncode } from 'qs';
import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { addExpense, ExpenseOutput } from './factories/expenses';
import { createInvoice, InvoiceDetail, invoiceNumber, readInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';

/*
 * The input rules of docs/rules.md, Transport, taken exactly: a number is JSON's number literal
 * without exponent, as written, its decimal places counted as written; a listed value matches
 * in any case but is never trimmed; only free text is trimmed. Each refused spelling answers
 * 422 naming the field, in every encoding, and changes nothing.
 */

/** Spellings of five, a half and one and a half that are not the one grammar. */
const NOT_THE_GRAMMAR = ['+5', '.5', '5.', '00012', ' 5 ', '1.50000'];
/** The ones JSON's own number grammar refuses too: sent as a JSON number, the body is not JSON. */
const NOT_JSON = ['+5', '.5', '5.', '00012'];

type Encoding = 'JSON string' | 'JSON number' | 'form' | 'multipart';
const TEXT_ENCODINGS: Encoding[] = ['JSON string', 'form', 'multipart'];
const EVERY_ENCODING: Encoding[] = [...TEXT_ENCODINGS, 'JSON number'];

/**
 * Each spelling a numeric parameter refuses, in each encoding, and the status: 422 naming the
 * field, or 400 where a JSON number in that spelling makes the body not JSON at all. White
 * space around a JSON number is JSON's own, so ` 5 ` is a text example only; `1.50000` as a
 * JSON number, and multipart fields (text like a form's), are checked on their own below. A
 * negative zero is refused everywhere (see parseDecimal).
 */
const REFUSALS: Array<[string, Encoding, number]> = [
  ...[...NOT_THE_GRAMMAR, '-0'].flatMap((text) =>
    (['JSON string', 'form'] as const).map((encoding): [string, Encoding, number] => [
      text,
      encoding,
      422,
    ]),
  ),
  ['-0', 'JSON number', 422],
  ...NOT_JSON.map((text): [string, Encoding, number] => [text, 'JSON number', 400]),
];

type Body = Record<string, unknown>;

/** Where a value goes, and the error field that must name it. */
interface Target {
  name: string;
  field: string;
  send(value: unknown, encoding: Encoding): Promise<Response>;
  /** What the target's records read back as; equal before and after a refused request. */
  snapshot(): Promise<unknown>;
}

/** Stands for the number in the JSON text until it is written in. */
const MARK = '<the number>';

/** A body with `value` at `path`. */
function withValue(body: Body, path: Array<string | number>, value: unknown): Body {
  const copy = structuredClone(body);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

/** The form fields of a body, bracketed as a form sends them: `items[0][rate]`. */
function formFields(value: unknown, prefix = ''): Array<[string, string]> {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) =>
      formFields(inner, prefix ? `${prefix}[${key}]` : key),
    );
  }
  return [[prefix, String(value)]];
}

describe('Input strictness', () => {
  let test: TestApp;
  let client: string;
  /** An invoice no refused request may touch, with one payment on it. */
  let invoiceId: string;
  let invoiceNo: string;
  let expense: ExpenseOutput;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
    const invoice = await createInvoice(test.http, {
      client,
      tax_rate: '10',
      items: [{ description: 'Design', quantity: '2', rate: '50.00' }],
    });
    invoiceId = invoice.id;
    invoiceNo = invoice.invoice_no;
    await test.http
      .post('/v1/invoice/record-payment')
      .send({ id: invoiceId, amount_paid: '10.00', payment_date: '2026-03-10' })
      .expect(200);
    expense = await addExpense(test.http, { amount: '12.50', currency: 'USD' });
  });

  afterAll(async () => {
    await test.close();
  });

  /** Sends `body` with `value` at `path`, in one encoding. */
  function request(
    method: 'post' | 'put',
    url: string,
    body: Body,
    path: Array<string | number>,
    value: unknown,
    encoding: Encoding,
  ) {
    const call = test.http[method](url);
    switch (encoding) {
      case 'JSON string':
        return call.send(withValue(body, path, value));
      case 'JSON number': {
        // Written into the JSON text as it is: the literal the client put there.
        const text = JSON.stringify(withValue(body, path, MARK));
        if (!text.includes(`"${MARK}"`)) throw new Error(`no place for the number in ${text}`);
        return call
          .set('Content-Type', 'application/json')
          .send(text.replace(`"${MARK}"`, String(value)));
      }
      case 'form':
        return call.type('form').send(formEncode(withValue(body, path, value)));
      case 'multipart': {
        let multipart = call;
        for (const [name, text] of formFields(withValue(body, path, value))) {
          multipart = multipart.field(name, text);
        }
        return multipart;
      }
    }
  }

  const invoiceBody = (): Body => ({
    client,
    invoice_no: invoiceNumber('STRICT'),
    payment_status: 'Not Paid',
    tax_rate: '10',
    items: [{ description: 'Design', quantity: '2', rate: '50.00' }],
  });
  const updateBody = (): Body => ({ ...invoiceBody(), invoice_no: invoiceNo });
  const paymentBody = (): Body => ({
    id: invoiceId,
    amount_paid: '5.00',
    payment_date: '2026-03-11',
    payment_method: 'Cash',
  });
  const expenseBody = (): Body => ({
    description: 'Printer paper',
    issue_date: '2026-03-01',
    amount: '12.50',
    currency: 'USD',
  });

  const invoiceState = (): Promise<InvoiceDetail> => readInvoice(test.http, invoiceId);
  const invoiceList = async () =>
    (await test.http.get('/v1/invoice/all').expect(200)).body as unknown;
  const expenseState = async () => ({
    list: ((await test.http.get('/v1/expense/all').expect(200)).body as { data: unknown[] }).data,
  });

  function target(
    name: string,
    method: 'post' | 'put',
    url: () => string,
    body: () => Body,
    path: Array<string | number>,
    snapshot: () => Promise<unknown>,
  ): Target {
    return {
      name,
      field: path.join('.'),
      send: (value, encoding) => request(method, url(), body(), path, value, encoding),
      snapshot,
    };
  }

  const NUMBER_TARGETS: Target[] = [
    target(
      'record-payment amount_paid',
      'post',
      () => '/v1/invoice/record-payment',
      paymentBody,
      ['amount_paid'],
      invoiceState,
    ),
    ...(['rate', 'quantity'] as const).map((field) =>
      target(
        `add invoice ${field}`,
        'post',
        () => '/v1/invoice/add',
        invoiceBody,
        ['items', 0, field],
        invoiceList,
      ),
    ),
    target(
      'add invoice tax_rate',
      'post',
      () => '/v1/invoice/add',
      invoiceBody,
      ['tax_rate'],
      invoiceList,
    ),
    ...(['rate', 'quantity'] as const).map((field) =>
      target(
        `update invoice ${field}`,
        'put',
        () => `/v1/invoice/${invoiceId}`,
        updateBody,
        ['items', 0, field],
        invoiceState,
      ),
    ),
    target(
      'update invoice tax_rate',
      'put',
      () => `/v1/invoice/${invoiceId}`,
      updateBody,
      ['tax_rate'],
      invoiceState,
    ),
    target(
      'add expense amount',
      'post',
      () => '/v1/expense/add',
      expenseBody,
      ['amount'],
      expenseState,
    ),
    target(
      'update expense amount',
      'put',
      () => `/v1/expense/${expense.id}`,
      expenseBody,
      ['amount'],
      expenseState,
    ),
  ];

  it.each(NUMBER_TARGETS.map((numberTarget) => [numberTarget.name, numberTarget] as const))(
    '%s: refuses every spelling outside the grammar, in every encoding, and changes nothing',
    async (_, numberTarget) => {
      const before = await numberTarget.snapshot();
      for (const [text, encoding, status] of REFUSALS) {
        const response = await numberTarget.send(text, encoding);
        expect({ text, encoding, status: response.status }).toEqual({ text, encoding, status });
        if (status === 422) expectValidationError(response, [numberTarget.field]);
        else expectError(response, status);
      }
      expect(await numberTarget.snapshot()).toEqual(before);
    },
  );

  describe('decimal places, counted as written', () => {
    it('refuses 1.50000 as a JSON number for every numeric parameter, and changes nothing', async () => {
      for (const numberTarget of NUMBER_TARGETS) {
        const before = await numberTarget.snapshot();
        const response = await numberTarget.send('1.50000', 'JSON number');
        expect({ target: numberTarget.name, status: response.status }).toEqual({
          target: numberTarget.name,
          status: 422,
        });
        expectValidationError(response, [numberTarget.field]);
        expect(await numberTarget.snapshot()).toEqual(before);
      }
    });

    it('refuses each spelling in multipart fields too, nested or not', async () => {
      for (const numberTarget of [NUMBER_TARGETS[0], NUMBER_TARGETS[1]]) {
        const before = await numberTarget.snapshot();
        for (const text of NOT_THE_GRAMMAR) {
          const response = await numberTarget.send(text, 'multipart');
          expect({ text, status: response.status }).toEqual({ text, status: 422 });
          expectValidationError(response, [numberTarget.field]);
        }
        expect(await numberTarget.snapshot()).toEqual(before);
      }
    });

    it('refuses 10.500 for a USD payment, whose limit is 2, in every encoding', async () => {
      const payment = NUMBER_TARGETS[0];
      const before = await payment.snapshot();
      for (const encoding of EVERY_ENCODING) {
        expectValidationError(await payment.send('10.500', encoding), ['amount_paid']);
      }
      expect(await payment.snapshot()).toEqual(before);
    });

    it('refuses 12.500 for a USD expense, in every encoding', async () => {
      const before = await expenseState();
      for (const encoding of EVERY_ENCODING) {
        const response = await request(
          'post',
          '/v1/expense/add',
          expenseBody(),
          ['amount'],
          '12.500',
          encoding,
        );
        expectValidationError(response, ['amount']);
      }
      expect(await expenseState()).toEqual(before);
    });

    it('takes 4 places written for a rate, trailing zeros and all', async () => {
      for (const encoding of EVERY_ENCODING) {
        const response = await request(
          'post',
          '/v1/invoice/add',
          invoiceBody(),
          ['items', 0, 'rate'],
          '1.5000',
          encoding,
        );
        const [line] = expectSuccess(response).items as Array<{ rate: string }>;
        expect({ encoding, rate: line.rate }).toEqual({ encoding, rate: '1.50' });
      }
    });
  });

  describe('listed values: any case, never trimmed', () => {
    it.each(['PAID ', ' Paid', 'paid\t', 'Not  Paid', 'pa\u0131d'])(
      'refuses payment_status %j on add and update, in every encoding',
      async (status) => {
        const beforeList = await invoiceList();
        const beforeInvoice = await invoiceState();
        for (const encoding of TEXT_ENCODINGS) {
          const added = await request(
            'post',
            '/v1/invoice/add',
            invoiceBody(),
            ['payment_status'],
            status,
            encoding,
          );
          expectValidationError(added, ['payment_status']);
          const updated = await request(
            'put',
            `/v1/invoice/${invoiceId}`,
            updateBody(),
            ['payment_status'],
            status,
            encoding,
          );
          expectValidationError(updated, ['payment_status']);
        }
        expect(await invoiceList()).toEqual(beforeList);
        expect(await invoiceState()).toEqual(beforeInvoice);
      },
    );

    it.each(['cash ', ' Cash', 'bank  transfer', 'Ban\u212a Transfer'])(
      'refuses payment_method %j on record-payment, in every encoding',
      async (method) => {
        const before = await invoiceState();
        for (const encoding of TEXT_ENCODINGS) {
          const response = await request(
            'post',
            '/v1/invoice/record-payment',
            paymentBody(),
            ['payment_method'],
            method,
            encoding,
          );
          expectValidationError(response, ['payment_method']);
        }
        expect(await invoiceState()).toEqual(before);
      },
    );

    it.each(['usd ', ' USD', 'U SD'])(
      'refuses currency %j on add expense and add invoice',
      async (currency) => {
        const before = await expenseState();
        const beforeList = await invoiceList();
        for (const encoding of TEXT_ENCODINGS) {
          const expenseResponse = await request(
            'post',
            '/v1/expense/add',
            expenseBody(),
            ['currency'],
            currency,
            encoding,
          );
          expectValidationError(expenseResponse, ['currency']);
          const invoiceResponse = await request(
            'post',
            '/v1/invoice/add',
            invoiceBody(),
            ['currency'],
            currency,
            encoding,
          );
          expectValidationError(invoiceResponse, ['currency']);
        }
        expect(await expenseState()).toEqual(before);
        expect(await invoiceList()).toEqual(beforeList);
      },
    );

    it.each(['true ', ' False', 'yes'])('refuses accepted %j on add estimate', async (accepted) => {
      const before = (await test.http.get('/v1/estimate/all').expect(200)).body as unknown;
      const estimate: Body = {
        client,
        estimate_no: 'EST-STRICT-1',
        accepted,
        items: [{ description: 'Design', quantity: '1', rate: '10' }],
      };
      for (const encoding of TEXT_ENCODINGS) {
        const response = await request(
          'post',
          '/v1/estimate/add',
          estimate,
          ['accepted'],
          accepted,
          encoding,
        );
        expectValidationError(response, ['accepted']);
      }
      expect((await test.http.get('/v1/estimate/all').expect(200)).body).toEqual(before);
    });

    it('stores listed values given in another case in the listed spelling', async () => {
      const payment = await request(
        'post',
        '/v1/invoice/record-payment',
        paymentBody(),
        ['payment_method'],
        'BANK TRANSFER',
        'form',
      );
      expectSuccess(payment);
      const added = await test.http
        .post('/v1/invoice/add')
        .send({ ...invoiceBody(), payment_status: 'PAID', currency: 'eur' });
      const [invoice] = expectSuccess(added).invoice as Array<{
        payment_status: string;
        currency: string;
      }>;
      const estimate = await test.http
        .post('/v1/estimate/add')
        .type('form')
        .send(
          formEncode({
            client,
            estimate_no: 'EST-STRICT-2',
            accepted: 'TRUE',
            items: [{ description: 'A', quantity: '1', rate: '1' }],
          }),
        );
      const [written] = expectSuccess(estimate).estimate as Array<{ accepted: string }>;

      expect((await invoiceState()).payments.map((entry) => entry.bank)).toContain('Bank Transfer');
      expect(invoice).toMatchObject({ payment_status: 'Paid', currency: 'EUR' });
      expect(written.accepted).toBe('True');
    });
  });

  describe('dates: exactly YYYY-MM-DD', () => {
    it.each([' 2026-03-01', '2026-03-01 ', '2026-03-01\n'])(
      'refuses %j in a body',
      async (date) => {
        const before = await expenseState();
        for (const encoding of TEXT_ENCODINGS) {
          const response = await request(
            'post',
            '/v1/expense/add',
            expenseBody(),
            ['issue_date'],
            date,
            encoding,
          );
          expectValidationError(response, ['issue_date']);
        }
        expect(await expenseState()).toEqual(before);
      },
    );
  });

  describe('list filters follow the same rules', () => {
    it.each([
      ['invoice', 'payment_status', 'PAID '],
      ['invoice', 'payment_status', ' not paid'],
      ['invoice', 'from', ' 2026-03-01'],
      ['invoice', 'to', '2026-03-01 '],
      ['estimate', 'accepted', 'true '],
      ['expense', 'category', 'Travel '],
      ['expense', 'currency', 'usd '],
      ['expense', 'from', '2026-03-01\t'],
      ['invoice', 'page', '01'],
      ['invoice', 'page', ' 1'],
      ['invoice', 'page', '+1'],
      ['invoice', 'page', '1.0'],
      ['expense', 'per_page', '050'],
      ['expense', 'per_page', '5 '],
    ])('GET /v1/%s/all refuses %s=%j', async (resource, name, value) => {
      expectValidationError(await test.http.get(`/v1/${resource}/all`).query({ [name]: value }), [
        name,
      ]);
    });

    it.each([
      ['invoice', 'payment_status', 'PAID'],
      ['estimate', 'accepted', 'tRuE'],
      ['expense', 'category', 'office supplies'],
      ['expense', 'currency', 'usd'],
      ['invoice', 'page', '1'],
      ['expense', 'per_page', '50'],
    ])('GET /v1/%s/all takes %s=%j', async (resource, name, value) => {
      expectSuccess(await test.http.get(`/v1/${resource}/all`).query({ [name]: value }));
    });
  });

  describe('free text is still trimmed', () => {
    it('trims a description and an invoice number', async () => {
      const added = await test.http
        .post('/v1/invoice/add')
        .type('form')
        .send(
          formEncode({
            ...invoiceBody(),
            invoice_no: '  STRICT-TRIMMED  ',
            description: '\tWork ',
          }),
        );
      const [invoice] = expectSuccess(added).invoice as Array<{
        invoice_no: string;
        description: string;
      }>;

      expect(invoice).toMatchObject({ invoice_no: 'STRICT-TRIMMED', description: 'Work' });
    });
  });

  describe('the one grammar, accepted', () => {
    it.each(['0', '5', '12.5', '0.125'])('takes the rate %s in every encoding', async (rate) => {
      for (const encoding of EVERY_ENCODING) {
        const response = await request(
          'post',
          '/v1/invoice/add',
          invoiceBody(),
          ['items', 0, 'rate'],
          rate,
          encoding,
        );
        const [line] = expectSuccess(response).items as Array<{ rate: string }>;
        expect({ encoding, rate: Number(line.rate) }).toEqual({ encoding, rate: Number(rate) });
      }
    });
  });
});
