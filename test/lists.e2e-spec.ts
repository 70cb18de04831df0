import { addClient, ClientOutput, createClient } from './factories/clients';
import {
  createEstimate,
  estimateLines,
  EstimateListItem,
  EstimateWritten,
} from './factories/estimates';
import { addExpense, ExpenseOutput } from './factories/expenses';
import { createInvoice, InvoiceOutput, lineItems } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectSuccess, expectValidationError } from './setup/expectations';
import { readOpenApiDocument } from './setup/openapi-requests';
import { QueryCounter } from './setup/query-counter';

/*
 * docs/rules.md, "Beyond the specification": paging (`page`, `per_page`, `meta`) and
 * the filters of the four lists. Each block builds its own records in `beforeAll` and knows
 * every live row of its table, so each answer is checked whole: which items, in which order,
 * and the exact `meta`. Blocks run in file order; a block only adds rows to tables whose
 * checks are already done.
 */

interface PageMeta {
  page: number;
  per_page: number;
  total: number;
}

type ClientListItem = Omit<ClientOutput, 'updated_at'>;

type Params = Record<string, string | number>;

/** `base?key=value&…` with every key and value percent-encoded, so `%`, `_`, `+` arrive as typed. */
function withQuery(base: string, params: Params = {}): string {
  const query = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return query === '' ? base : `${base}?${query}`;
}

function asClientListItem(client: ClientOutput): ClientListItem {
  const { updated_at: _updatedAt, ...listed } = client;
  return listed;
}

function asListedEstimate(written: EstimateWritten): EstimateListItem {
  const { estimate_no: referenceNo, ...rest } = written;
  return { ...rest, reference_no: referenceNo };
}

const CLIENTS = '/v1/client/all';
const EXPENSES = '/v1/expense/all';
const INVOICES = '/v1/invoice/all';
const ESTIMATES = '/v1/estimate/all';

/** Paging values every list refuses, each naming the parameter(s) at fault. */
const INVALID_PAGING: Array<[string, Params, string[]]> = [
  ['page=0', { page: '0' }, ['page']],
  ['page=-1', { page: '-1' }, ['page']],
  ['page=abc', { page: 'abc' }, ['page']],
  ['page=1.5', { page: '1.5' }, ['page']],
  ['page=1e1', { page: '1e1' }, ['page']],
  ['page empty', { page: '' }, ['page']],
  ['page as a list', { 'page[]': '1' }, ['page']],
  ['per_page=0', { per_page: '0' }, ['per_page']],
  ['per_page=501', { per_page: '501' }, ['per_page']],
  ['per_page=1.5', { per_page: '1.5' }, ['per_page']],
  ['per_page=abc', { per_page: 'abc' }, ['per_page']],
  ['per_page=-5', { per_page: '-5' }, ['per_page']],
  ['page=0 and per_page=501', { page: '0', per_page: '501' }, ['page', 'per_page']],
  ['page=abc with a valid per_page', { page: 'abc', per_page: '10' }, ['page']],
  ['per_page=1.5 with a valid page', { page: '2', per_page: '1.5' }, ['per_page']],
];

describe('Lists: paging and filters', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  const getList = async <T>(
    base: string,
    params: Params = {},
  ): Promise<{ status: string; data: T[]; meta?: PageMeta }> =>
    expectSuccess(await test.http.get(withQuery(base, params))) as unknown as {
      status: string;
      data: T[];
      meta?: PageMeta;
    };

  /** The whole (filtered) list: exactly these items, in this order, and no `meta` key. */
  const expectWhole = async <T>(base: string, params: Params, items: T[]) => {
    expect(await getList<T>(base, params)).toStrictEqual({ status: 'success', data: items });
  };

  /** One page: exactly these items and this `meta`. */
  const expectPage = async <T>(base: string, params: Params, items: T[], meta: PageMeta) => {
    expect(await getList<T>(base, params)).toStrictEqual({ status: 'success', data: items, meta });
  };

  const expectRefused = async (base: string, params: Params, fields: string[]) => {
    expectValidationError(await test.http.get(withQuery(base, params)), fields);
  };

  /** Every GET operation with its query parameters, from the OpenAPI document; ids are 1. */
  const queried = Object.entries(readOpenApiDocument().paths).flatMap(([template, methods]) => {
    const names = (methods.get?.parameters ?? [])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name);
    return names.length === 0 ? [] : [{ path: template.replace('{id}', '1'), names }];
  });

  describe('one rule for every date range: to before from answers 422 naming to', () => {
    const ranged = queried.filter(({ names }) => names.includes('from') && names.includes('to'));

    it('covers the lists and the reports', () => {
      expect(ranged.map(({ path }) => path)).toEqual(
        expect.arrayContaining([
          INVOICES,
          EXPENSES,
          '/v1/credit-note/all',
          '/v1/event/all',
          '/v1/report/profit-and-loss',
          '/v1/report/tax-summary',
          '/v1/client/1/statement',
        ]),
      );
    });

    it.each(ranged.map(({ path }) => [path]))('%s', async (path) => {
      await expectRefused(path, { from: '2026-03-02', to: '2026-03-01' }, ['to']);
      await expectRefused(path, { from: '2026-01-01', to: '2025-12-31' }, ['to']);
      // One day is a range.
      const oneDay = await test.http.get(withQuery(path, { from: '2026-03-01', to: '2026-03-01' }));
      expect(oneDay.status).not.toBe(422);
    });
  });

  describe('a query parameter given as an object answers 422 naming it', () => {
    // A key that names a property of Object.prototype must not make the parameter vanish.
    const FORMS = ['[__proto__]=x', '[__proto__][a]=x', '[toString]=x', '[constructor]=x', '[a]=b'];

    it.each(queried.map(({ path, names }) => [path, names]))('%s', async (path, names) => {
      const wrong: string[] = [];
      for (const name of names) {
        for (const form of FORMS) {
          const response = await test.http.get(`${path}?${name}${form}`);
          const errors = (response.body as { errors?: Record<string, unknown> }).errors ?? {};
          if (response.status !== 422 || Object.keys(errors).join() !== name) {
            wrong.push(`${name}${form}: ${response.status} ${JSON.stringify(errors)}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  describe.each([CLIENTS, EXPENSES, INVOICES, ESTIMATES])('%s refuses bad paging', (base) => {
    it.each(INVALID_PAGING)('%s', async (_case, params, fields) => {
      await expectRefused(base, params, fields);
    });
  });

  describe('GET /v1/client/all', () => {
    let alice: ClientListItem;
    let bob: ClientListItem;
    let carol: ClientListItem;
    let dave: ClientListItem;
    let eve: ClientListItem;
    let grace: ClientListItem;
    let heidi: ClientListItem;
    let ivan: ClientListItem;
    let live: ClientListItem[];

    beforeAll(async () => {
      const add = async (names: string, email: string) =>
        asClientListItem(await addClient(test.http, { names, email }));
      alice = await add('Alice Anderson', 'alice@example.com');
      bob = await add('Bob 100% Real', 'bob@example.org');
      carol = await add('Carol_Smith', 'carol@example.net');
      dave = await add('Dave Smith', 'dave@example.com');
      eve = await add('Eve', 'eve_smith@sample.io');
      const frank = await add('Frank Smith', 'frank_100%@example.com');
      grace = await add('Grace 1000 Percent', 'grace@example.com');
      heidi = await add('Heidi!', 'heidi@example.com');
      ivan = await add('Ivan \\ Backslash', 'ivan@example.com');
      await test.http.delete(`/v1/client/${frank.id}`).expect(200);
      live = [alice, bob, carol, dave, eve, grace, heidi, ivan];
    });

    it('answers every live client in id order, without the archived one and without meta', async () => {
      await expectWhole(CLIENTS, {}, live);
    });

    it('pages in id order: first, middle, last, past the end', async () => {
      const perPage3 = { per_page: 3 };
      await expectPage(CLIENTS, { ...perPage3, page: 1 }, [alice, bob, carol], {
        page: 1,
        per_page: 3,
        total: 8,
      });
      await expectPage(CLIENTS, { ...perPage3, page: 2 }, [dave, eve, grace], {
        page: 2,
        per_page: 3,
        total: 8,
      });
      await expectPage(CLIENTS, { ...perPage3, page: 3 }, [heidi, ivan], {
        page: 3,
        per_page: 3,
        total: 8,
      });
      await expectPage(CLIENTS, { ...perPage3, page: 4 }, [], { page: 4, per_page: 3, total: 8 });
      await expectPage(CLIENTS, { per_page: 1, page: 8 }, [ivan], {
        page: 8,
        per_page: 1,
        total: 8,
      });
      await expectPage(CLIENTS, { per_page: 1, page: 9 }, [], { page: 9, per_page: 1, total: 8 });
    });

    it('takes page 1 when only per_page is given, and 50 per page when only page is', async () => {
      await expectPage(CLIENTS, { per_page: 2 }, [alice, bob], { page: 1, per_page: 2, total: 8 });
      await expectPage(CLIENTS, { page: 1 }, live, { page: 1, per_page: 50, total: 8 });
      await expectPage(CLIENTS, { page: 2 }, [], { page: 2, per_page: 50, total: 8 });
    });

    it('accepts the bounds per_page=1 and per_page=500', async () => {
      await expectPage(CLIENTS, { per_page: 1 }, [alice], { page: 1, per_page: 1, total: 8 });
      await expectPage(CLIENTS, { per_page: 500 }, live, { page: 1, per_page: 500, total: 8 });
    });

    it('q matches part of the names or the e-mail, in any case', async () => {
      await expectWhole(CLIENTS, { q: 'smith' }, [carol, dave, eve]);
      await expectWhole(CLIENTS, { q: 'SMITH' }, [carol, dave, eve]);
      await expectWhole(CLIENTS, { q: 'sMiTh' }, [carol, dave, eve]);
      await expectWhole(CLIENTS, { q: 'EXAMPLE.ORG' }, [bob]);
      await expectWhole(CLIENTS, { q: 'anderson' }, [alice]);
      await expectWhole(CLIENTS, { q: 'Sample.IO' }, [eve]);
    });

    it('q lists a client once when both its names and its e-mail match', async () => {
      await expectWhole(CLIENTS, { q: 'ALICE' }, [alice]);
      await expectPage(CLIENTS, { q: 'alice', page: 1 }, [alice], {
        page: 1,
        per_page: 50,
        total: 1,
      });
    });

    it('q takes %, _ and ! literally', async () => {
      // As LIKE wildcards, `100%` would match "Grace 1000 Percent" and `_s` "Anderson".
      await expectWhole(CLIENTS, { q: '100%' }, [bob]);
      await expectWhole(CLIENTS, { q: '100' }, [bob, grace]);
      await expectWhole(CLIENTS, { q: '%' }, [bob]);
      await expectWhole(CLIENTS, { q: '_s' }, [carol, eve]);
      await expectWhole(CLIENTS, { q: '_' }, [carol, eve]);
      await expectWhole(CLIENTS, { q: '!' }, [heidi]);
      await expectWhole(CLIENTS, { q: 'i!' }, [heidi]);
      await expectWhole(CLIENTS, { q: '!%' }, []);
    });

    it('q takes a backslash literally', async () => {
      await expectWhole(CLIENTS, { q: '\\' }, [ivan]);
      await expectWhole(CLIENTS, { q: 'n \\ b' }, [ivan]);
      await expectWhole(CLIENTS, { q: '\\%' }, []);
    });

    it('q is trimmed; an empty q filters nothing', async () => {
      await expectWhole(CLIENTS, { q: '  dave  ' }, [dave]);
      await expectWhole(CLIENTS, { q: '' }, live);
    });

    it('q leaves archived clients out and may match nothing', async () => {
      // Only the archived Frank Smith has "frank" or "_100%" in names or e-mail.
      await expectWhole(CLIENTS, { q: 'frank' }, []);
      await expectWhole(CLIENTS, { q: '_100%' }, []);
      await expectPage(CLIENTS, { q: 'frank', per_page: 5 }, [], {
        page: 1,
        per_page: 5,
        total: 0,
      });
    });

    it('q with paging counts only the matching clients', async () => {
      await expectPage(CLIENTS, { q: 'smith', per_page: 2, page: 1 }, [carol, dave], {
        page: 1,
        per_page: 2,
        total: 3,
      });
      await expectPage(CLIENTS, { q: 'smith', per_page: 2, page: 2 }, [eve], {
        page: 2,
        per_page: 2,
        total: 3,
      });
      await expectPage(CLIENTS, { q: 'smith', per_page: 2, page: 3 }, [], {
        page: 3,
        per_page: 2,
        total: 3,
      });
      await expectPage(CLIENTS, { q: '_', page: 1 }, [carol, eve], {
        page: 1,
        per_page: 50,
        total: 2,
      });
    });

    it.each<[string, Params]>([
      ['too long', { q: 'x'.repeat(256) }],
      ['given twice', { 'q[]': 'smith' }],
      ['an object', { 'q[a]': 'smith' }],
    ])('answers 422 naming q when q is %s', async (_case, params) => {
      await expectRefused(CLIENTS, params, ['q']);
    });

    describe('with more clients than one default page', () => {
      let all: ClientListItem[];

      beforeAll(async () => {
        const more: ClientListItem[] = [];
        for (let index = 0; index < 44; index++) {
          more.push(asClientListItem(await addClient(test.http)));
        }
        all = [...live, ...more];
      });

      it('answers all 52 without paging, 50 on page 1 when only page is given', async () => {
        await expectWhole(CLIENTS, {}, all);
        await expectPage(CLIENTS, { page: 1 }, all.slice(0, 50), {
          page: 1,
          per_page: 50,
          total: 52,
        });
        await expectPage(CLIENTS, { page: 2 }, all.slice(50), {
          page: 2,
          per_page: 50,
          total: 52,
        });
        await expectPage(CLIENTS, { page: 3 }, [], { page: 3, per_page: 50, total: 52 });
        await expectPage(CLIENTS, { per_page: 51, page: 2 }, [all[51]], {
          page: 2,
          per_page: 51,
          total: 52,
        });
        await expectPage(CLIENTS, { per_page: 500 }, all, { page: 1, per_page: 500, total: 52 });
      });
    });
  });

  describe('GET /v1/expense/all', () => {
    let flight: ExpenseOutput;
    let lunch: ExpenseOutput;
    let paper: ExpenseOutput;
    let hotel: ExpenseOutput;
    let misc: ExpenseOutput;
    let legal: ExpenseOutput;
    let live: ExpenseOutput[];

    beforeAll(async () => {
      const add = (description: string, issue_date: string, currency: string, amount = '10.00') =>
        addExpense(test.http, { description, issue_date, currency, amount });
      flight = await add('Flight to Berlin', '2026-01-31', 'USD');
      lunch = await add('Team lunch', '2026-02-01', 'EUR');
      paper = await add('Printer paper', '2026-02-15', 'USD');
      const taxi = await add('Taxi ride', '2026-02-10', 'USD');
      hotel = await add('Hotel stay', '2026-02-28', 'USD');
      misc = await add('Misc', '2026-03-01', 'JPY', '500');
      legal = await add('Legal advice', '2026-03-05', 'EUR');
      await test.http.delete(`/v1/expense/${taxi.id}`).expect(200);
      live = [flight, lunch, paper, hotel, misc, legal];
      expect([taxi, ...live].map((expense) => expense.category)).toEqual([
        'Travel',
        'Travel',
        'Meals',
        'Office Supplies',
        'Travel',
        'General',
        'Professional Services',
      ]);
    });

    it('answers every live expense in id order, without the archived one and without meta', async () => {
      await expectWhole(EXPENSES, {}, live);
    });

    it('pages in id order: first, last, past the end; per_page defaults to 50', async () => {
      await expectPage(EXPENSES, { page: 1, per_page: 4 }, [flight, lunch, paper, hotel], {
        page: 1,
        per_page: 4,
        total: 6,
      });
      await expectPage(EXPENSES, { page: 2, per_page: 4 }, [misc, legal], {
        page: 2,
        per_page: 4,
        total: 6,
      });
      await expectPage(EXPENSES, { page: 3, per_page: 4 }, [], { page: 3, per_page: 4, total: 6 });
      await expectPage(EXPENSES, { page: 1 }, live, { page: 1, per_page: 50, total: 6 });
      await expectPage(EXPENSES, { per_page: 5 }, live.slice(0, 5), {
        page: 1,
        per_page: 5,
        total: 6,
      });
    });

    it('category matches one category, in any case, and leaves archived expenses out', async () => {
      await expectWhole(EXPENSES, { category: 'Travel' }, [flight, hotel]);
      await expectWhole(EXPENSES, { category: 'travel' }, [flight, hotel]);
      await expectWhole(EXPENSES, { category: 'TRAVEL' }, [flight, hotel]);
      await expectWhole(EXPENSES, { category: 'office supplies' }, [paper]);
      await expectWhole(EXPENSES, { category: 'PROFESSIONAL SERVICES' }, [legal]);
      await expectWhole(EXPENSES, { category: 'general' }, [misc]);
      await expectWhole(EXPENSES, { category: 'Rent' }, []);
    });

    it('currency matches one currency, lower case accepted', async () => {
      await expectWhole(EXPENSES, { currency: 'USD' }, [flight, paper, hotel]);
      await expectWhole(EXPENSES, { currency: 'usd' }, [flight, paper, hotel]);
      await expectWhole(EXPENSES, { currency: 'eur' }, [lunch, legal]);
      await expectWhole(EXPENSES, { currency: 'JPY' }, [misc]);
      await expectWhole(EXPENSES, { currency: 'GBP' }, []);
    });

    it('from and to bound issued_date, both inclusive', async () => {
      await expectWhole(EXPENSES, { from: '2026-02-01', to: '2026-02-28' }, [lunch, paper, hotel]);
      await expectWhole(EXPENSES, { from: '2026-02-28' }, [hotel, misc, legal]);
      await expectWhole(EXPENSES, { to: '2026-02-01' }, [flight, lunch]);
      await expectWhole(EXPENSES, { from: '2026-02-15', to: '2026-02-15' }, [paper]);
      await expectWhole(EXPENSES, { from: '2026-01-31', to: '2026-03-05' }, live);
      // Only the archived taxi ride was issued on 2026-02-10.
      await expectWhole(EXPENSES, { from: '2026-02-10', to: '2026-02-10' }, []);
      await expectWhole(EXPENSES, { from: '2026-03-06' }, []);
      await expectWhole(EXPENSES, { to: '2026-01-30' }, []);
    });

    it('combines filters', async () => {
      await expectWhole(EXPENSES, { category: 'travel', currency: 'usd', from: '2026-02-01' }, [
        hotel,
      ]);
      await expectWhole(EXPENSES, { currency: 'USD', to: '2026-02-15' }, [flight, paper]);
      await expectWhole(EXPENSES, { category: 'meals', currency: 'USD' }, []);
    });

    it('filters with paging count only the matching expenses', async () => {
      await expectPage(EXPENSES, { currency: 'USD', per_page: 2, page: 1 }, [flight, paper], {
        page: 1,
        per_page: 2,
        total: 3,
      });
      await expectPage(EXPENSES, { currency: 'USD', per_page: 2, page: 2 }, [hotel], {
        page: 2,
        per_page: 2,
        total: 3,
      });
      await expectPage(EXPENSES, { currency: 'USD', per_page: 2, page: 3 }, [], {
        page: 3,
        per_page: 2,
        total: 3,
      });
      await expectPage(EXPENSES, { category: 'TRAVEL', per_page: 1, page: 2 }, [hotel], {
        page: 2,
        per_page: 1,
        total: 2,
      });
      await expectPage(
        EXPENSES,
        { from: '2026-02-01', to: '2026-02-28', page: 1 },
        [lunch, paper, hotel],
        { page: 1, per_page: 50, total: 3 },
      );
    });

    it.each<[string, Params, string[]]>([
      ['category=Nope', { category: 'Nope' }, ['category']],
      ['category=Travels', { category: 'Travels' }, ['category']],
      ['category empty', { category: '' }, ['category']],
      ['category given twice', { 'category[]': 'Travel' }, ['category']],
      ['currency=ABC', { currency: 'ABC' }, ['currency']],
      ['currency=US', { currency: 'US' }, ['currency']],
      ['from=2026-02-30', { from: '2026-02-30' }, ['from']],
      ['to=2026-02-29', { to: '2026-02-29' }, ['to']],
      ['from=2026-2-1', { from: '2026-2-1' }, ['from']],
      ['to=01/02/2026', { to: '01/02/2026' }, ['to']],
      ['to with a time', { to: '2026-02-01T00:00:00Z' }, ['to']],
      [
        'everything wrong at once',
        { category: 'Nope', currency: 'ABC', from: '2026-13-01', to: 'x', page: '0' },
        ['category', 'currency', 'from', 'to', 'page'],
      ],
      ['a bad filter with good paging', { category: 'Nope', page: 1, per_page: 2 }, ['category']],
    ])('answers 422 for %s', async (_case, params, fields) => {
      await expectRefused(EXPENSES, params, fields);
    });
  });

  describe('GET /v1/invoice/all', () => {
    let x: string;
    let y: string;
    let z: string;
    let i1: InvoiceOutput;
    let i2: InvoiceOutput;
    let i3: InvoiceOutput;
    let i4: InvoiceOutput;
    let i6: InvoiceOutput;
    let live: InvoiceOutput[];

    beforeAll(async () => {
      x = await createClient(test.http);
      y = await createClient(test.http);
      z = await createClient(test.http, { names: 'Zed Archived', phone: '999', address: 'Gone' });
      const add = (client: string, payment_status: string, issue_date: string) =>
        createInvoice(test.http, { client, payment_status, issue_date });
      i1 = await add(x, 'Not Paid', '2026-01-31');
      i2 = await add(y, 'Paid', '2026-02-01');
      const i5 = await add(x, 'Not Paid', '2026-02-10');
      i3 = await add(x, 'Paid', '2026-02-14');
      i4 = await add(z, 'Not Paid', '2026-02-28');
      i6 = await add(x, 'Paid', '2026-03-01');
      await test.http.delete(`/v1/invoice/${i5.id}`).expect(200);
      await test.http.delete(`/v1/client/${z}`).expect(200);
      live = [i1, i2, i3, i4, i6];
    });

    it('answers every live invoice in id order, an archived client’s included, without meta', async () => {
      await expectWhole(INVOICES, {}, live);
      expect(i4).toMatchObject({
        customer_id: z,
        customer_name: 'Zed Archived',
        customer_phone: '999',
        customer_address: 'Gone',
      });
    });

    it('pages in id order: first, middle, last, past the end; per_page defaults to 50', async () => {
      await expectPage(INVOICES, { page: 1, per_page: 2 }, [i1, i2], {
        page: 1,
        per_page: 2,
        total: 5,
      });
      await expectPage(INVOICES, { page: 2, per_page: 2 }, [i3, i4], {
        page: 2,
        per_page: 2,
        total: 5,
      });
      await expectPage(INVOICES, { page: 3, per_page: 2 }, [i6], {
        page: 3,
        per_page: 2,
        total: 5,
      });
      await expectPage(INVOICES, { page: 4, per_page: 2 }, [], { page: 4, per_page: 2, total: 5 });
      await expectPage(INVOICES, { page: 1 }, live, { page: 1, per_page: 50, total: 5 });
      await expectPage(INVOICES, { per_page: 3 }, [i1, i2, i3], {
        page: 1,
        per_page: 3,
        total: 5,
      });
    });

    it('client matches one client’s live invoices, an archived client’s too', async () => {
      await expectWhole(INVOICES, { client: x }, [i1, i3, i6]);
      await expectWhole(INVOICES, { client: y }, [i2]);
      await expectWhole(INVOICES, { client: z }, [i4]);
      await expectWhole(INVOICES, { client: '999999' }, []);
    });

    it('payment_status matches in any case', async () => {
      await expectWhole(INVOICES, { payment_status: 'Paid' }, [i2, i3, i6]);
      await expectWhole(INVOICES, { payment_status: 'paid' }, [i2, i3, i6]);
      await expectWhole(INVOICES, { payment_status: 'PAID' }, [i2, i3, i6]);
      await expectWhole(INVOICES, { payment_status: 'Not Paid' }, [i1, i4]);
      await expectWhole(INVOICES, { payment_status: 'NOT PAID' }, [i1, i4]);
      await expectWhole(INVOICES, { payment_status: 'not paid' }, [i1, i4]);
    });

    it('payment_status accepts a space written as + in the query string', async () => {
      const body = expectSuccess(await test.http.get(`${INVOICES}?payment_status=not+paid`));
      expect(body).toStrictEqual({ status: 'success', data: [i1, i4] });
    });

    it('from and to bound issue_date, both inclusive', async () => {
      await expectWhole(INVOICES, { from: '2026-02-01', to: '2026-02-28' }, [i2, i3, i4]);
      await expectWhole(INVOICES, { from: '2026-03-01' }, [i6]);
      await expectWhole(INVOICES, { to: '2026-01-31' }, [i1]);
      await expectWhole(INVOICES, { from: '2026-02-14', to: '2026-02-14' }, [i3]);
      await expectWhole(INVOICES, { from: '2026-01-31', to: '2026-03-01' }, live);
      // Only the archived invoice was issued on 2026-02-10.
      await expectWhole(INVOICES, { from: '2026-02-10', to: '2026-02-10' }, []);
      await expectWhole(INVOICES, { from: '2026-03-02' }, []);
    });

    it('combines filters', async () => {
      await expectWhole(INVOICES, { client: x, payment_status: 'paid' }, [i3, i6]);
      await expectWhole(INVOICES, { client: x, payment_status: 'not paid' }, [i1]);
      await expectWhole(INVOICES, { client: x, from: '2026-02-01', to: '2026-02-28' }, [i3]);
      await expectWhole(
        INVOICES,
        { client: x, payment_status: 'Paid', from: '2026-02-14', to: '2026-03-01' },
        [i3, i6],
      );
      await expectWhole(INVOICES, { client: y, payment_status: 'not paid' }, []);
    });

    it('filters with paging count only the matching invoices', async () => {
      await expectPage(INVOICES, { client: x, per_page: 2, page: 1 }, [i1, i3], {
        page: 1,
        per_page: 2,
        total: 3,
      });
      await expectPage(INVOICES, { client: x, per_page: 2, page: 2 }, [i6], {
        page: 2,
        per_page: 2,
        total: 3,
      });
      await expectPage(INVOICES, { client: x, per_page: 2, page: 3 }, [], {
        page: 3,
        per_page: 2,
        total: 3,
      });
      await expectPage(INVOICES, { payment_status: 'PAID', per_page: 1, page: 3 }, [i6], {
        page: 3,
        per_page: 1,
        total: 3,
      });
      await expectPage(INVOICES, { from: '2026-02-01', to: '2026-02-28', page: 1 }, [i2, i3, i4], {
        page: 1,
        per_page: 50,
        total: 3,
      });
      await expectPage(INVOICES, { client: x, payment_status: 'not paid', per_page: 5 }, [i1], {
        page: 1,
        per_page: 5,
        total: 1,
      });
    });

    it.each<[string, Params, string[]]>([
      ['payment_status=maybe', { payment_status: 'maybe' }, ['payment_status']],
      ['payment_status=Partially Paid', { payment_status: 'Partially Paid' }, ['payment_status']],
      ['payment_status given twice', { 'payment_status[]': 'Paid' }, ['payment_status']],
      ['client=x', { client: 'x' }, ['client']],
      ['client=-1', { client: '-1' }, ['client']],
      ['client=1.5', { client: '1.5' }, ['client']],
      ['client given twice', { 'client[]': '1' }, ['client']],
      ['from=2026-02-30', { from: '2026-02-30' }, ['from']],
      ['to=2026-13-01', { to: '2026-13-01' }, ['to']],
      ['from=today', { from: 'today' }, ['from']],
      [
        'everything wrong at once',
        {
          client: 'x',
          payment_status: 'maybe',
          from: '2026-02-30',
          to: '2026-1-1',
          per_page: '501',
        },
        ['client', 'payment_status', 'from', 'to', 'per_page'],
      ],
      ['a bad filter with good paging', { payment_status: 'maybe', page: 1 }, ['payment_status']],
    ])('answers 422 for %s', async (_case, params, fields) => {
      await expectRefused(INVOICES, params, fields);
    });
  });

  describe('GET /v1/estimate/all', () => {
    let p: string;
    let q: string;
    let r: string;
    let s1: EstimateListItem;
    let s2: EstimateListItem;
    let s3: EstimateListItem;
    let s4: EstimateListItem;
    let s6: EstimateListItem;
    let live: EstimateListItem[];

    beforeAll(async () => {
      p = await createClient(test.http);
      q = await createClient(test.http);
      r = await createClient(test.http, { names: 'Rita Archived', phone: '777', address: 'Away' });
      const add = async (client: string, accepted: string) =>
        asListedEstimate(await createEstimate(test.http, { client, accepted }));
      s1 = await add(p, 'False');
      s2 = await add(q, 'True');
      const s5 = await add(p, 'True');
      s3 = await add(p, 'True');
      s4 = await add(r, 'False');
      s6 = await add(p, 'False');
      await test.http.delete(`/v1/estimate/${s5.id}`).expect(200);
      await test.http.delete(`/v1/client/${r}`).expect(200);
      live = [s1, s2, s3, s4, s6];
    });

    it('answers every live estimate in id order, an archived client’s included, without meta', async () => {
      await expectWhole(ESTIMATES, {}, live);
      expect(s4).toMatchObject({
        customer_id: r,
        customer_name: 'Rita Archived',
        customer_phone: '777',
        customer_address: 'Away',
      });
    });

    it('pages in id order: first, last, past the end; per_page defaults to 50', async () => {
      await expectPage(ESTIMATES, { page: 1, per_page: 3 }, [s1, s2, s3], {
        page: 1,
        per_page: 3,
        total: 5,
      });
      await expectPage(ESTIMATES, { page: 2, per_page: 3 }, [s4, s6], {
        page: 2,
        per_page: 3,
        total: 5,
      });
      await expectPage(ESTIMATES, { page: 3, per_page: 3 }, [], {
        page: 3,
        per_page: 3,
        total: 5,
      });
      await expectPage(ESTIMATES, { page: 1 }, live, { page: 1, per_page: 50, total: 5 });
      await expectPage(ESTIMATES, { per_page: 4 }, [s1, s2, s3, s4], {
        page: 1,
        per_page: 4,
        total: 5,
      });
    });

    it('client matches one client’s live estimates, an archived client’s too', async () => {
      await expectWhole(ESTIMATES, { client: p }, [s1, s3, s6]);
      await expectWhole(ESTIMATES, { client: q }, [s2]);
      await expectWhole(ESTIMATES, { client: r }, [s4]);
      await expectWhole(ESTIMATES, { client: '999999' }, []);
    });

    it('accepted takes True or False in any case', async () => {
      for (const accepted of ['True', 'true', 'TRUE', 'tRuE']) {
        await expectWhole(ESTIMATES, { accepted }, [s2, s3]);
      }
      for (const accepted of ['False', 'false', 'FALSE', 'fAlSe']) {
        await expectWhole(ESTIMATES, { accepted }, [s1, s4, s6]);
      }
    });

    it('combines filters', async () => {
      await expectWhole(ESTIMATES, { client: p, accepted: 'true' }, [s3]);
      await expectWhole(ESTIMATES, { client: p, accepted: 'false' }, [s1, s6]);
      await expectWhole(ESTIMATES, { client: r, accepted: 'true' }, []);
    });

    it('filters with paging count only the matching estimates', async () => {
      await expectPage(ESTIMATES, { accepted: 'FALSE', per_page: 2, page: 1 }, [s1, s4], {
        page: 1,
        per_page: 2,
        total: 3,
      });
      await expectPage(ESTIMATES, { accepted: 'FALSE', per_page: 2, page: 2 }, [s6], {
        page: 2,
        per_page: 2,
        total: 3,
      });
      await expectPage(ESTIMATES, { accepted: 'FALSE', per_page: 2, page: 3 }, [], {
        page: 3,
        per_page: 2,
        total: 3,
      });
      await expectPage(ESTIMATES, { client: p, per_page: 1, page: 2 }, [s3], {
        page: 2,
        per_page: 1,
        total: 3,
      });
      await expectPage(ESTIMATES, { client: p, accepted: 'True', page: 1 }, [s3], {
        page: 1,
        per_page: 50,
        total: 1,
      });
    });

    it.each<[string, Params, string[]]>([
      ['accepted=yes', { accepted: 'yes' }, ['accepted']],
      ['accepted=1', { accepted: '1' }, ['accepted']],
      ['accepted=0', { accepted: '0' }, ['accepted']],
      ['accepted=truee', { accepted: 'truee' }, ['accepted']],
      ['accepted given twice', { 'accepted[]': 'True' }, ['accepted']],
      ['client=x', { client: 'x' }, ['client']],
      ['client=1e3', { client: '1e3' }, ['client']],
      [
        'everything wrong at once',
        { client: 'x', accepted: 'yes', page: 'abc', per_page: '0' },
        ['client', 'accepted', 'page', 'per_page'],
      ],
      ['a bad filter with good paging', { accepted: 'yes', per_page: 2 }, ['accepted']],
    ])('answers 422 for %s', async (_case, params, fields) => {
      await expectRefused(ESTIMATES, params, fields);
    });
  });

  /*
   * A page costs the same number of statements whatever its size (STYLE.md 11): the rows and
   * the total, two statements and no transaction; expenses a third, the sources of the page's
   * imported ones (docs/einvoices.md, Import), by primary key. Runs last: it adds rows to
   * every table.
   */
  describe('statements per list request', () => {
    let queries: QueryCounter;
    let client: string;

    beforeAll(async () => {
      queries = new QueryCounter(test.app);
      client = await createClient(test.http);
      for (let index = 0; index < 30; index++) {
        await addExpense(test.http, { description: `Coffee ${index}`, currency: 'EUR' });
        await createInvoice(test.http, { client, items: lineItems(1 + (index % 3)) });
        await createEstimate(test.http, { client, items: estimateLines(1 + (index % 3)) });
      }
    });

    afterAll(() => {
      queries.restore();
    });

    it.each<[string, Params]>([
      [CLIENTS, {}],
      [CLIENTS, { q: 'example' }],
      [EXPENSES, {}],
      [EXPENSES, { currency: 'EUR', category: 'meals' }],
      [INVOICES, {}],
      [INVOICES, { payment_status: 'not paid' }],
      [ESTIMATES, {}],
      [ESTIMATES, { accepted: 'false' }],
    ])('%s %j: per_page=1 costs the same as per_page=30', async (base, filters) => {
      const sizes: number[] = [];
      const firstPage = (perPage: number) => async () => {
        sizes.push((await getList(base, { ...filters, page: 1, per_page: perPage })).data.length);
      };
      const one = await queries.measure(firstPage(1));
      const thirty = await queries.measure(firstPage(30));

      expect(sizes).toEqual([1, 30]);
      expect(thirty).toBe(one);
      // The page and the total (and an expense page's sources).
      expect(one).toBe(base === EXPENSES ? 3 : 2);
    });

    it.each([CLIENTS, EXPENSES, INVOICES, ESTIMATES])(
      '%s: a page costs one statement more than the whole list (its total)',
      async (base) => {
        const whole = await queries.measure(() => getList(base));
        const paged = await queries.measure(() => getList(base, { per_page: 30 }));
        expect(paged).toBe(whole + 1);
      },
    );
  });
});
