import { parse } from 'csv-parse/sync';
import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import { addExpense } from './factories/expenses';
import {
  createInvoice,
  InvoiceInput,
  InvoiceOutput,
  payInvoice,
  PaymentEntry,
  readInvoice,
  refundInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess, expectValidationError } from './setup/expectations';
import { flattened, pdfText } from './setup/pdf-text';
import { TestClock } from './setup/test-clock';

/*
 * Receivables reports (docs/receivables.md) through HTTP on a real database: aging,
 * profit-and-loss, tax summary and client statements, as JSON and as CSV.
 *
 * Today is fixed at 2026-11-25. A report sums every record of the database, so each scenario
 * keeps to currencies of its own (aging edges CHF, as_of GBP, corrections SEK, currencies
 * EUR/JPY, profit-and-loss NOK, cash rounding DKK/KRW, a total changed to 0 PLN, tax summary
 * AUD/KWD, formula-like names CAD) or, for statements, to clients of its own: its expectations
 * are then exact.
 */

const TODAY = '2026-11-25';

describe('Receivables reports', () => {
  let test: TestApp;
  const clock = new TestClock();

  beforeAll(async () => {
    clock.setToday(TODAY);
    test = await createTestApp({ clock });
  });

  afterAll(async () => {
    await test.close();
  });

  /** A successful JSON report: answers its `data`. */
  const getReport = async <T>(path: string): Promise<T> =>
    expectSuccess(await test.http.get(path)).data as T;
  const aging = (query = '') => getReport<AgingReport>(`/v1/report/aging${query}`);
  const profitAndLoss = (query = '') =>
    getReport<ProfitAndLossReport>(`/v1/report/profit-and-loss${query}`);
  const taxSummary = (query = '') => getReport<TaxSummaryReport>(`/v1/report/tax-summary${query}`);
  const statement = (client: string, query = '') =>
    getReport<Statement>(`/v1/client/${client}/statement${query}`);
  const csvOf = async (path: string) => csvAnswer(await test.http.get(path));

  /** An invoice of one line of `rate` (its sub_total), due on its issue date unless told. */
  const invoiceOf = (client: string, currency: string, rate: string, input: InvoiceInput = {}) =>
    createInvoice(test.http, {
      client,
      currency,
      items: [{ description: 'Work', quantity: 1, rate }],
      ...input,
    });
  const voidInvoice = (id: string) => test.http.post(`/v1/invoice/${id}/void`).send({}).expect(200);
  const archiveInvoice = (id: string) => test.http.delete(`/v1/invoice/${id}`).expect(200);
  const markPaid = (id: string) => test.http.get(`/v1/invoice/paid/${id}`).expect(200);
  const creditNote = async (invoice: string, rate: string, issue_date: string, number?: string) =>
    (
      await addCreditNote(test.http, invoice, {
        items: [{ description: 'Correction', quantity: 1, rate }],
        issue_date,
        ...(number === undefined ? {} : { credit_note_no: number }),
      })
    ).credit_note[0];
  const ledger = async (id: string): Promise<PaymentEntry[]> =>
    (await readInvoice(test.http, id)).payments;

  describe('GET /v1/report/aging', () => {
    describe('buckets by days past due', () => {
      // Days past due (as_of − due_date) → bucket; one client each, named so they sort as listed.
      const EDGES: Array<[string, number, Bucket]> = [
        ['Edge A', -5, 'current'],
        ['Edge B', 0, 'current'],
        ['Edge C', 1, '1-30'],
        ['Edge D', 30, '1-30'],
        ['Edge E', 31, '31-60'],
        ['Edge F', 60, '31-60'],
        ['Edge G', 61, '61-90'],
        ['Edge H', 90, '61-90'],
        ['Edge I', 91, 'over_90'],
        ['Edge J', 400, 'over_90'],
      ];
      const clients: string[] = [];

      beforeAll(async () => {
        for (const [names, days] of EDGES) {
          const client = await createClient(test.http, { names });
          const due = addDays(TODAY, -days);
          const issue = due < TODAY ? due : TODAY;
          await invoiceOf(client, 'CHF', '100.00', { issue_date: issue, due_date: due });
          clients.push(client);
        }
      });

      it('puts due today in current, 1 and 30 days in 1-30, 31 and 60 in 31-60, 61 and 90 in 61-90, 91 in over_90', async () => {
        const report = await aging();
        expect(report.as_of).toBe(TODAY);
        expect(currencySection(report, 'CHF')).toEqual({
          currency: 'CHF',
          clients: EDGES.map(([names, , bucket], index) => ({
            client_id: clients[index],
            client: names,
            invoices: 1,
            ...buckets({ [bucket]: '100.00' }, '100.00'),
          })),
          totals: {
            invoices: 10,
            ...buckets(
              {
                current: '200.00',
                '1-30': '200.00',
                '31-60': '200.00',
                '61-90': '200.00',
                over_90: '200.00',
              },
              '1000.00',
            ),
          },
        });
      });

      it('counts the days from as_of: a day later, each edge moves on to the next bucket', async () => {
        const report = await aging(`?as_of=${addDays(TODAY, 1)}`);
        const moved = currencySection(report, 'CHF')?.clients.map((row) => [
          row.client,
          bucketOf(row),
        ]);
        expect(moved).toEqual([
          ['Edge A', 'current'],
          ['Edge B', '1-30'],
          ['Edge C', '1-30'],
          ['Edge D', '31-60'],
          ['Edge E', '31-60'],
          ['Edge F', '61-90'],
          ['Edge G', '61-90'],
          ['Edge H', 'over_90'],
          ['Edge I', 'over_90'],
          ['Edge J', 'over_90'],
        ]);
      });

      it('defaults as_of to today', async () => {
        expect(await aging()).toEqual(await aging(`?as_of=${TODAY}`));
      });
    });

    describe('as_of in the past', () => {
      let client: string;
      let early: InvoiceOutput;
      let settled: InvoiceOutput;

      beforeAll(async () => {
        client = await createClient(test.http, { names: 'As Of Ltd' });
        early = await invoiceOf(client, 'GBP', '300.00', {
          issue_date: '2026-09-01',
          due_date: '2026-09-15',
        });
        await payInvoice(test.http, early.id, '100.00', { payment_date: '2026-10-10' });
        await payInvoice(test.http, early.id, '50.00', { payment_date: '2026-11-20' });
        await invoiceOf(client, 'GBP', '40.00', {
          issue_date: '2026-11-01',
          due_date: '2026-11-30',
        });
        settled = await invoiceOf(client, 'GBP', '70.00', {
          issue_date: '2026-08-01',
          due_date: '2026-08-31',
        });
        await payInvoice(test.http, settled.id, '70.00', { payment_date: '2026-10-20' });
        await refundInvoice(test.http, settled.id, '20.00', { refund_date: '2026-11-10' });
      });

      const row = async (asOf: string) =>
        currencySection(await aging(`?as_of=${asOf}`), 'GBP')?.clients ?? [];

      it('counts no ledger entry dated after as_of', async () => {
        // early: 300 due 24 days before; settled: 70, its payment of 2026-10-20 still to come.
        expect(await row('2026-10-09')).toEqual([
          {
            client_id: client,
            client: 'As Of Ltd',
            invoices: 2,
            ...buckets({ '1-30': '300.00', '31-60': '70.00' }, '370.00'),
          },
        ]);
      });

      it('counts an entry dated on as_of itself', async () => {
        expect(await row('2026-10-10')).toEqual([
          {
            client_id: client,
            client: 'As Of Ltd',
            invoices: 2,
            ...buckets({ '1-30': '200.00', '31-60': '70.00' }, '270.00'),
          },
        ]);
      });

      it('leaves out an invoice settled by as_of and one issued after it', async () => {
        expect(await row('2026-10-31')).toEqual([
          {
            client_id: client,
            client: 'As Of Ltd',
            invoices: 1,
            ...buckets({ '31-60': '200.00' }, '200.00'),
          },
        ]);
      });

      it('counts an invoice issued on as_of', async () => {
        expect(await row('2026-11-01')).toEqual([
          {
            client_id: client,
            client: 'As Of Ltd',
            invoices: 2,
            ...buckets({ current: '40.00', '31-60': '200.00' }, '240.00'),
          },
        ]);
      });

      it('today: every payment counted, and the refund raising the settled invoice again', async () => {
        expect(await row(TODAY)).toEqual([
          {
            client_id: client,
            client: 'As Of Ltd',
            invoices: 3,
            ...buckets({ current: '40.00', '61-90': '170.00' }, '210.00'),
          },
        ]);
      });

      it('before any invoice was issued: no line', async () => {
        expect(await row('2026-07-31')).toEqual([]);
        expect(await aging('?as_of=2026-07-31')).toMatchObject({ as_of: '2026-07-31' });
      });
    });

    describe('payments, refunds, credit notes, and invoices left out', () => {
      let client: string;
      let renamed: string;

      beforeAll(async () => {
        client = await createClient(test.http, { names: 'Corrections AB' });
        const dates = { issue_date: '2026-11-01', due_date: '2026-12-05' };
        const partial = await invoiceOf(client, 'SEK', '1000.00', dates);
        await payInvoice(test.http, partial.id, '300.00', { payment_date: '2026-11-15' });
        const refunded = await invoiceOf(client, 'SEK', '500.00', dates);
        await payInvoice(test.http, refunded.id, '500.00', { payment_date: '2026-11-01' });
        await refundInvoice(test.http, refunded.id, '120.00', { refund_date: '2026-11-18' });
        const credited = await invoiceOf(client, 'SEK', '400.00', dates);
        await creditNote(credited.id, '150.00', '2026-11-20');

        const creditedInFull = await invoiceOf(client, 'SEK', '90.00', dates);
        await creditNote(creditedInFull.id, '90.00', '2026-11-02');
        const markedPaid = await invoiceOf(client, 'SEK', '60.00', dates);
        await markPaid(markedPaid.id);
        await invoiceOf(client, 'SEK', '65.00', { ...dates, payment_status: 'Paid' });
        const voided = await invoiceOf(client, 'SEK', '80.00', dates);
        await voidInvoice(voided.id);
        const archived = await invoiceOf(client, 'SEK', '70.00', dates);
        await archiveInvoice(archived.id);

        // A client renamed, then archived: its invoice still counts, under its current name.
        renamed = await createClient(test.http, { names: 'Gone AB' });
        await invoiceOf(renamed, 'SEK', '45.00', dates);
        await test.http
          .put(`/v1/client/${renamed}`)
          .send({ names: 'Gone AB (renamed)' })
          .expect(200);
        await test.http.delete(`/v1/client/${renamed}`).expect(200);
      });

      it('a partial payment, a refund and a credit note each change the balance', async () => {
        // 1000 − 300, 500 − 500 + 120, 400 − 150; paid in full, hand-marked Paid (twice),
        // void and archived invoices left out.
        expect(currencySection(await aging(), 'SEK')).toEqual({
          currency: 'SEK',
          clients: [
            {
              client_id: client,
              client: 'Corrections AB',
              invoices: 3,
              ...buckets({ current: '1070.00' }, '1070.00'),
            },
            {
              client_id: renamed,
              client: 'Gone AB (renamed)',
              invoices: 1,
              ...buckets({ current: '45.00' }, '45.00'),
            },
          ],
          totals: { invoices: 4, ...buckets({ current: '1115.00' }, '1115.00') },
        });
      });

      it('as of a date before the refund and the credit note: neither counted yet', async () => {
        const before = currencySection(await aging('?as_of=2026-11-17'), 'SEK');
        // 700 and 400; the refunded invoice was still paid in full.
        expect(before?.clients[0]).toEqual({
          client_id: client,
          client: 'Corrections AB',
          invoices: 2,
          ...buckets({ current: '1100.00' }, '1100.00'),
        });
        const between = currencySection(await aging('?as_of=2026-11-19'), 'SEK');
        expect(between?.clients[0]).toMatchObject({ invoices: 3, total: '1220.00' });
      });
    });

    describe('currencies', () => {
      const ids: Record<string, string> = {};

      beforeAll(async () => {
        ids.alpha = await createClient(test.http, { names: 'Alpha GmbH' });
        ids.beta = await createClient(test.http, { names: 'Beta KK' });
        ids.twinFirst = await createClient(test.http, { names: 'Twin Ltd' });
        ids.twinSecond = await createClient(test.http, { names: 'Twin Ltd' });
        const due = (days: number) => ({
          issue_date: addDays(TODAY, -days),
          due_date: addDays(TODAY, -days),
        });
        await invoiceOf(ids.alpha, 'EUR', '120.50', due(10));
        await invoiceOf(ids.alpha, 'JPY', '1500', due(0));
        await invoiceOf(ids.beta, 'JPY', '2000', due(45));
        await invoiceOf(ids.beta, 'JPY', '999', due(0));
        await invoiceOf(ids.beta, 'EUR', '79.50', due(100));
        // Same name: by id, whichever invoice came first.
        await invoiceOf(ids.twinSecond, 'EUR', '20.00', due(0));
        await invoiceOf(ids.twinFirst, 'EUR', '10.00', due(0));
      });

      it('reports each currency apart, in code order, never summed together', async () => {
        const report = await aging();
        const codes = report.currencies.map((section) => section.currency);
        expect(codes).toEqual([...codes].sort());
        expect(codes).toEqual(expect.arrayContaining(['EUR', 'JPY']));

        expect(currencySection(report, 'EUR')).toEqual({
          currency: 'EUR',
          clients: [
            {
              client_id: ids.alpha,
              client: 'Alpha GmbH',
              invoices: 1,
              ...buckets({ '1-30': '120.50' }, '120.50'),
            },
            {
              client_id: ids.beta,
              client: 'Beta KK',
              invoices: 1,
              ...buckets({ over_90: '79.50' }, '79.50'),
            },
            {
              client_id: ids.twinFirst,
              client: 'Twin Ltd',
              invoices: 1,
              ...buckets({ current: '10.00' }, '10.00'),
            },
            {
              client_id: ids.twinSecond,
              client: 'Twin Ltd',
              invoices: 1,
              ...buckets({ current: '20.00' }, '20.00'),
            },
          ],
          totals: {
            invoices: 4,
            ...buckets({ current: '30.00', '1-30': '120.50', over_90: '79.50' }, '230.00'),
          },
        });
      });

      it('writes JPY amounts with no minor digits', async () => {
        expect(currencySection(await aging(), 'JPY')).toEqual({
          currency: 'JPY',
          clients: [
            {
              client_id: ids.alpha,
              client: 'Alpha GmbH',
              invoices: 1,
              ...buckets({ current: '1500' }, '1500', '0'),
            },
            {
              client_id: ids.beta,
              client: 'Beta KK',
              invoices: 2,
              ...buckets({ current: '999', '31-60': '2000' }, '2999', '0'),
            },
          ],
          totals: {
            invoices: 3,
            ...buckets({ current: '2499', '31-60': '2000' }, '4499', '0'),
          },
        });
      });
    });

    it('refuses a malformed as_of or an unknown format: 422 naming it', async () => {
      for (const asOf of [
        '2026-02-29',
        '2026-13-01',
        '26-11-25',
        'yesterday',
        '2026-11-25T00:00',
      ]) {
        expectValidationError(await test.http.get(`/v1/report/aging?as_of=${asOf}`), ['as_of']);
      }
      expectValidationError(await test.http.get('/v1/report/aging?format=xml'), ['format']);
    });
  });

  describe('GET /v1/report/profit-and-loss', () => {
    beforeAll(async () => {
      const client = await createClient(test.http, { names: 'Fjord AS' });
      // 1000.00 + 20% = 1200.00 issued in March, half paid in April, 120.00 refunded in May,
      // and a credit note of 100.00 + 20% in June.
      const sold = await invoiceOf(client, 'NOK', '1000.00', {
        issue_date: '2026-03-10',
        tax_rate: 20,
      });
      await payInvoice(test.http, sold.id, '600.00', { payment_date: '2026-04-15' });
      await refundInvoice(test.http, sold.id, '120.00', { refund_date: '2026-05-20' });
      await creditNote(sold.id, '100.00', '2026-06-05');

      // Void (with its payment and refund) and archived (with its payment and credit note).
      const voided = await invoiceOf(client, 'NOK', '200.00', {
        issue_date: '2026-03-12',
        tax_rate: 20,
      });
      await payInvoice(test.http, voided.id, '120.00', { payment_date: '2026-04-20' });
      await refundInvoice(test.http, voided.id, '120.00', { refund_date: '2026-05-25' });
      await voidInvoice(voided.id);
      const archived = await invoiceOf(client, 'NOK', '100.00', { issue_date: '2026-03-15' });
      await payInvoice(test.http, archived.id, '50.00', { payment_date: '2026-04-25' });
      await creditNote(archived.id, '10.00', '2026-06-10');
      await archiveInvoice(archived.id);

      const expense = async (description: string, issue_date: string, amount: string) =>
        addExpense(test.http, { description, issue_date, amount, currency: 'NOK' });
      const categories = [
        await expense('Hotel in Oslo', '2026-03-20', '250.00'),
        await expense('Software subscription', '2026-04-02', '99.90'),
        await expense('Taxi to the office', '2026-04-28', '30.10'),
        await expense('Team lunch', '2025-12-31', '15.00'),
      ].map((added) => added.category);
      expect(categories).toEqual(['Travel', 'Software', 'Travel', 'Meals']);
      const laptop = await expense('New laptop', '2026-03-03', '999.00');
      await test.http.delete(`/v1/expense/${laptop.id}`).expect(200);
      await addExpense(test.http, {
        description: 'Dinner',
        issue_date: '2026-03-05',
        amount: '40.00',
        currency: 'EUR',
      });
    });

    it('accrual: invoices by issue date less credit notes, expenses by category, profit', async () => {
      const report = await profitAndLoss();
      expect(report).toMatchObject({ basis: 'accrual', from: '2026-01-01', to: TODAY });
      expect(currencySection(report, 'NOK')).toEqual({
        currency: 'NOK',
        months: [
          month('2026-03', '1000.00', { Travel: '250.00' }, '250.00', '750.00'),
          month('2026-04', '0.00', { Software: '99.90', Travel: '30.10' }, '130.00', '-130.00'),
          month('2026-06', '-100.00', {}, '0.00', '-100.00'),
        ],
        totals: figures('900.00', { Software: '99.90', Travel: '280.10' }, '380.00', '520.00'),
      });
    });

    it('cash: payments less refunds by their date, tax left out pro rata, credits no cash', async () => {
      const report = await profitAndLoss('?basis=cash');
      expect(report).toMatchObject({ basis: 'cash', from: '2026-01-01', to: TODAY });
      // 600 × 1000 / 1200 = 500 in April, 120 × 1000 / 1200 = 100 back in May; the credit
      // note of June is no cash: June has no figure at all.
      expect(currencySection(report, 'NOK')).toEqual({
        currency: 'NOK',
        months: [
          month('2026-03', '0.00', { Travel: '250.00' }, '250.00', '-250.00'),
          month('2026-04', '500.00', { Software: '99.90', Travel: '30.10' }, '130.00', '370.00'),
          month('2026-05', '-100.00', {}, '0.00', '-100.00'),
        ],
        totals: figures('400.00', { Software: '99.90', Travel: '280.10' }, '380.00', '20.00'),
      });
    });

    it('lists expense categories by name', async () => {
      for (const basis of ['accrual', 'cash']) {
        const section = currencySection(await profitAndLoss(`?basis=${basis}`), 'NOK');
        expect(Object.keys(section?.months[1].expenses ?? {})).toEqual(['Software', 'Travel']);
        expect(Object.keys(section?.totals.expenses ?? {})).toEqual(['Software', 'Travel']);
      }
    });

    it('takes basis in any case', async () => {
      expect((await profitAndLoss('?basis=CASH')).basis).toBe('cash');
      expect((await profitAndLoss('?basis=Accrual')).basis).toBe('accrual');
      expect(await profitAndLoss('?basis=Cash')).toEqual(await profitAndLoss('?basis=cash'));
    });

    it('counts only what is dated within from and to, both included', async () => {
      const report = await profitAndLoss('?basis=cash&from=2026-04-02&to=2026-04-28');
      expect(report).toMatchObject({ basis: 'cash', from: '2026-04-02', to: '2026-04-28' });
      const april = month(
        '2026-04',
        '500.00',
        { Software: '99.90', Travel: '30.10' },
        '130.00',
        '370.00',
      );
      expect(currencySection(report, 'NOK')).toEqual({
        currency: 'NOK',
        months: [april],
        totals: figures('500.00', { Software: '99.90', Travel: '30.10' }, '130.00', '370.00'),
      });
      const narrower = await profitAndLoss('?basis=cash&from=2026-04-03&to=2026-04-27');
      expect(currencySection(narrower, 'NOK')?.months).toEqual([
        month('2026-04', '500.00', {}, '0.00', '500.00'),
      ]);
    });

    it('defaults from to the first of January of to’s year; a month with expenses only is listed', async () => {
      const report = await profitAndLoss('?to=2025-12-31');
      expect(report).toMatchObject({ basis: 'accrual', from: '2025-01-01', to: '2025-12-31' });
      expect(currencySection(report, 'NOK')).toEqual({
        currency: 'NOK',
        months: [month('2025-12', '0.00', { Meals: '15.00' }, '15.00', '-15.00')],
        totals: figures('0.00', { Meals: '15.00' }, '15.00', '-15.00'),
      });
      // from alone: to is today.
      expect(await profitAndLoss('?from=2026-06-01')).toMatchObject({
        from: '2026-06-01',
        to: TODAY,
      });
    });

    it('refuses malformed dates, to before from, an unknown basis or format: 422 naming each', async () => {
      const get = (query: string) => test.http.get(`/v1/report/profit-and-loss?${query}`);
      expectValidationError(await get('from=2026-02-30'), ['from']);
      expectValidationError(await get('from=26-01-01'), ['from']);
      expectValidationError(await get('to=2026-13-01'), ['to']);
      expectValidationError(await get('to=today'), ['to']);
      expectValidationError(await get('from=2026-05-01&to=2026-04-30'), ['to']);
      expectValidationError(await get('basis=weekly'), ['basis']);
      expectValidationError(await get('format=xlsx'), ['format']);
      // One day is a range.
      expectSuccess(await get('from=2026-04-30&to=2026-04-30'));
    });

    describe('cash basis rounding', () => {
      beforeAll(async () => {
        const client = await createClient(test.http, { names: 'Rounding ApS' });
        // 100.00 + 60% = 160.00: an entry's income is amount × 100 / 160 = amount × 0.625.
        const kroner = await invoiceOf(client, 'DKK', '100.00', {
          issue_date: '2026-02-01',
          tax_rate: 60,
        });
        for (const day of ['03', '04', '05']) {
          await payInvoice(test.http, kroner.id, '0.04', { payment_date: `2026-02-${day}` });
        }
        await payInvoice(test.http, kroner.id, '10.00', { payment_date: '2026-02-06' });
        await refundInvoice(test.http, kroner.id, '0.04', { refund_date: '2026-03-02' });

        // 1000 + 60% = 1600, no minor digits.
        const won = await invoiceOf(client, 'KRW', '1000', {
          issue_date: '2026-02-01',
          tax_rate: 60,
        });
        await payInvoice(test.http, won.id, '4', { payment_date: '2026-02-10' });
        await payInvoice(test.http, won.id, '1596', { payment_date: '2026-03-10' });
        await refundInvoice(test.http, won.id, '4', { refund_date: '2026-04-10' });
      });

      it('rounds each entry half away from zero, before summing', async () => {
        const report = await profitAndLoss('?basis=cash');
        // 0.04 × 0.625 = 0.025 → 0.03, three times, and 10.00 → 6.25: 6.34 (not 6.33 from
        // rounding the sum, nor 6.31 rounding half to even); the refund −0.025 → −0.03.
        expect(currencySection(report, 'DKK')).toEqual({
          currency: 'DKK',
          months: [
            month('2026-02', '6.34', {}, '0.00', '6.34'),
            month('2026-03', '-0.03', {}, '0.00', '-0.03'),
          ],
          totals: figures('6.31', {}, '0.00', '6.31'),
        });
        // 4 × 0.625 = 2.5 → 3; 1596 × 0.625 = 997.5 → 998; the refund −2.5 → −3.
        expect(currencySection(report, 'KRW')).toEqual({
          currency: 'KRW',
          months: [
            month('2026-02', '3', {}, '0', '3'),
            month('2026-03', '998', {}, '0', '998'),
            month('2026-04', '-3', {}, '0', '-3'),
          ],
          totals: figures('998', {}, '0', '998'),
        });
      });

      it('accrual counts the sub_total once, whatever was paid', async () => {
        const report = await profitAndLoss();
        expect(currencySection(report, 'DKK')?.months).toEqual([
          month('2026-02', '100.00', {}, '0.00', '100.00'),
        ]);
        expect(currencySection(report, 'KRW')?.months).toEqual([
          month('2026-02', '1000', {}, '0', '1000'),
        ]);
      });
    });

    describe('an invoice changed to a total of 0 after its cash came and went', () => {
      beforeAll(async () => {
        const client = await createClient(test.http, { names: 'Zero Sp. z o.o.' });
        // 100.00 + 23% = 123.00, paid in July, refunded in August, then changed to nothing:
        // a total of 0 has no tax share, so each entry counts whole.
        const emptied = await invoiceOf(client, 'PLN', '100.00', {
          issue_date: '2026-07-01',
          tax_rate: 23,
        });
        await payInvoice(test.http, emptied.id, '123.00', { payment_date: '2026-07-02' });
        await refundInvoice(test.http, emptied.id, '123.00', { refund_date: '2026-08-03' });
        const changed = await test.http.put(`/v1/invoice/${emptied.id}`).send({
          client: emptied.customer_id,
          invoice_no: emptied.invoice_no,
          payment_status: 'Not Paid',
          currency: 'PLN',
          issue_date: '2026-07-01',
          tax_rate: 23,
          items: [{ description: 'Nothing', quantity: 1, rate: 0 }],
        });
        expectSuccess(changed);
        const now = await readInvoice(test.http, emptied.id);
        const [fields] = now.invoice;
        expect([Number(fields.total), Number(fields.amount_paid), now.payments.length]).toEqual([
          0, 0, 2,
        ]);
      });

      it('cash counts the payment and the refund whole, never NaN', async () => {
        const report = await profitAndLoss('?basis=cash');
        expect(currencySection(report, 'PLN')).toEqual({
          currency: 'PLN',
          months: [
            month('2026-07', '123.00', {}, '0.00', '123.00'),
            month('2026-08', '-123.00', {}, '0.00', '-123.00'),
          ],
          totals: figures('0.00', {}, '0.00', '0.00'),
        });
      });

      it('accrual counts its sub_total of 0', async () => {
        expect(currencySection(await profitAndLoss(), 'PLN')?.months).toEqual([
          month('2026-07', '0.00', {}, '0.00', '0.00'),
        ]);
      });
    });
  });

  describe('GET /v1/report/tax-summary', () => {
    beforeAll(async () => {
      const client = await createClient(test.http, { names: 'Outback Pty' });
      const aud = (rate: string, issue_date: string, tax_rate: number) =>
        invoiceOf(client, 'AUD', rate, { issue_date, tax_rate });
      await aud('200.00', '2026-02-01', 10);
      const corrected = await aud('300.00', '2026-03-01', 10);
      await creditNote(corrected.id, '100.00', '2026-04-01');
      await aud('50.00', '2026-03-05', 0);
      await aud('100.00', '2026-01-15', 7.5);
      // Issued last year, credited this year: the credit note counts this year.
      const lastYear = await aud('500.00', '2025-12-20', 10);
      await creditNote(lastYear.id, '50.00', '2026-01-05');
      // Credited in full then voided; and archived with a credit note: all left out.
      const voided = await aud('80.00', '2026-03-10', 10);
      await creditNote(voided.id, '80.00', '2026-03-11');
      await voidInvoice(voided.id);
      const archived = await aud('60.00', '2026-03-12', 10);
      await creditNote(archived.id, '20.00', '2026-03-13');
      await archiveInvoice(archived.id);

      // 12.345 × 10% = 1.2345 → 1.235.
      await invoiceOf(client, 'KWD', '12.345', { issue_date: '2026-05-01', tax_rate: 10 });
    });

    it('per currency and rate, ascending: invoices less credit notes, with counts', async () => {
      const response = await test.http.get('/v1/report/tax-summary');
      const report = expectSuccess(response).data as TaxSummaryReport;
      expect(report).toMatchObject({ from: '2026-01-01', to: TODAY });
      expect(currencySection(report, 'AUD')).toEqual({
        currency: 'AUD',
        rates: [
          {
            tax_rate: 0,
            name: 'Tax',
            category: 'Z',
            invoices: 1,
            credit_notes: 0,
            taxable: '50.00',
            tax: '0.00',
          },
          {
            tax_rate: 7.5,
            name: 'Tax',
            category: 'S',
            invoices: 1,
            credit_notes: 0,
            taxable: '100.00',
            tax: '7.50',
          },
          // 200 + 300 − 100 − 50; 20 + 30 − 10 − 5.
          {
            tax_rate: 10,
            name: 'Tax',
            category: 'S',
            invoices: 2,
            credit_notes: 2,
            taxable: '350.00',
            tax: '35.00',
          },
        ],
        totals: { invoices: 4, credit_notes: 2, taxable: '500.00', tax: '42.50' },
      });
      expect(currencySection(report, 'KWD')).toEqual({
        currency: 'KWD',
        rates: [
          {
            tax_rate: 10,
            name: 'Tax',
            category: 'S',
            invoices: 1,
            credit_notes: 0,
            taxable: '12.345',
            tax: '1.235',
          },
        ],
        totals: { invoices: 1, credit_notes: 0, taxable: '12.345', tax: '1.235' },
      });
      // tax_rate is a JSON number, as on invoices.
      expect(response.text).toContain('"tax_rate":7.5,');
    });

    it('counts only documents issued within from and to, both included', async () => {
      const march = await taxSummary('?from=2026-03-01&to=2026-03-31');
      expect(march).toMatchObject({ from: '2026-03-01', to: '2026-03-31' });
      expect(currencySection(march, 'AUD')).toEqual({
        currency: 'AUD',
        rates: [
          {
            tax_rate: 0,
            name: 'Tax',
            category: 'Z',
            invoices: 1,
            credit_notes: 0,
            taxable: '50.00',
            tax: '0.00',
          },
          {
            tax_rate: 10,
            name: 'Tax',
            category: 'S',
            invoices: 1,
            credit_notes: 0,
            taxable: '300.00',
            tax: '30.00',
          },
        ],
        totals: { invoices: 2, credit_notes: 0, taxable: '350.00', tax: '30.00' },
      });
      expect(currencySection(march, 'KWD')).toBeUndefined();
    });

    it('a rate with credit notes only: negative figures', async () => {
      const spring = await taxSummary('?from=2026-04-01&to=2026-04-30');
      expect(currencySection(spring, 'AUD')).toEqual({
        currency: 'AUD',
        rates: [
          {
            tax_rate: 10,
            name: 'Tax',
            category: 'S',
            invoices: 0,
            credit_notes: 1,
            taxable: '-100.00',
            tax: '-10.00',
          },
        ],
        totals: { invoices: 0, credit_notes: 1, taxable: '-100.00', tax: '-10.00' },
      });
    });

    it('defaults from to the first of January of to’s year', async () => {
      const report = await taxSummary('?to=2025-12-31');
      expect(report).toMatchObject({ from: '2025-01-01', to: '2025-12-31' });
      expect(currencySection(report, 'AUD')?.rates).toEqual([
        {
          tax_rate: 10,
          name: 'Tax',
          category: 'S',
          invoices: 1,
          credit_notes: 0,
          taxable: '500.00',
          tax: '50.00',
        },
      ]);
    });

    it('refuses malformed dates, to before from, an unknown format: 422 naming each', async () => {
      const get = (query: string) => test.http.get(`/v1/report/tax-summary?${query}`);
      expectValidationError(await get('from=2026-02-29'), ['from']);
      expectValidationError(await get('to=2026-04-31'), ['to']);
      expectValidationError(await get('from=2026-03-02&to=2026-03-01'), ['to']);
      expectValidationError(await get('format=pdf'), ['format']);
    });
  });

  describe('GET /v1/client/{id}/statement', () => {
    let client: string;
    let first: InvoiceOutput;
    let second: InvoiceOutput;
    let third: InvoiceOutput;
    /** Ledger references: S1's payment, refund and second payment; S2's payment; S3's. */
    const refs: Record<string, string> = {};

    beforeAll(async () => {
      client = await createClient(test.http, {
        names: 'Statement Client',
        email: 'ap@statement.test',
      });
      first = await invoiceOf(client, 'USD', '500.00', {
        invoice_no: 'INV-ST-1',
        issue_date: '2026-03-01',
        tax_rate: 20,
      });
      // Recorded before the invoice of the same date is added: still listed after it.
      await payInvoice(test.http, first.id, '200.00', { payment_date: '2026-03-10' });
      second = await invoiceOf(client, 'USD', '300.00', {
        invoice_no: 'INV-ST-2',
        issue_date: '2026-03-10',
      });
      await refundInvoice(test.http, first.id, '50.00', { refund_date: '2026-04-01' });
      await creditNote(second.id, '100.00', '2026-04-15', 'CN-ST-1');
      await payInvoice(test.http, second.id, '50.00', { payment_date: '2026-05-01' });
      await payInvoice(test.http, first.id, '30.00', { payment_date: '2026-05-01' });

      const voided = await invoiceOf(client, 'USD', '40.00', {
        invoice_no: 'INV-ST-VOID',
        issue_date: '2026-03-05',
      });
      await voidInvoice(voided.id);
      const archived = await invoiceOf(client, 'USD', '70.00', {
        invoice_no: 'INV-ST-GONE',
        issue_date: '2026-03-06',
      });
      await payInvoice(test.http, archived.id, '70.00', { payment_date: '2026-03-07' });
      await archiveInvoice(archived.id);

      third = await invoiceOf(client, 'NZD', '80.00', {
        invoice_no: 'INV-ST-3',
        issue_date: '2026-06-01',
      });
      await payInvoice(test.http, third.id, '80.00', { payment_date: '2026-06-02' });

      const [paid, refunded, paidAgain] = await ledger(first.id);
      const [, paidSecond] = await ledger(second.id);
      const [paidThird] = await ledger(third.id);
      Object.assign(refs, {
        paid: paid.reference,
        refunded: refunded.reference,
        paidAgain: paidAgain.reference,
        paidSecond: paidSecond.reference,
        paidThird: paidThird.reference,
      });
    });

    /** The USD lines of the whole history, in statement order. */
    const usdLines = (): StatementLine[] => [
      line('2026-03-01', 'invoice', 'INV-ST-1', 'INV-ST-1', '600.00', '600.00'),
      line('2026-03-10', 'invoice', 'INV-ST-2', 'INV-ST-2', '300.00', '900.00'),
      line('2026-03-10', 'payment', refs.paid, 'INV-ST-1', '-200.00', '700.00'),
      line('2026-04-01', 'refund', refs.refunded, 'INV-ST-1', '50.00', '750.00'),
      line('2026-04-15', 'credit_note', 'CN-ST-1', 'INV-ST-2', '-100.00', '650.00'),
      line('2026-05-01', 'payment', refs.paidSecond, 'INV-ST-2', '-50.00', '600.00'),
      line('2026-05-01', 'payment', refs.paidAgain, 'INV-ST-1', '-30.00', '570.00'),
    ];
    const nzd = (opening = '0.00') => ({
      currency: 'NZD',
      opening_balance: opening,
      lines: [
        line('2026-06-01', 'invoice', 'INV-ST-3', 'INV-ST-3', '80.00', '80.00'),
        line('2026-06-02', 'payment', refs.paidThird, 'INV-ST-3', '-80.00', '0.00'),
      ],
      closing_balance: '0.00',
    });

    it('from the first document: opening 0, every line with its running balance, closing', async () => {
      const report = await statement(client);
      expect(report).toMatchObject({
        client: { id: client, names: 'Statement Client', email: 'ap@statement.test' },
        from: '',
        to: TODAY,
      });
      expect(sortedByCurrency(report.currencies)).toEqual([
        nzd(),
        {
          currency: 'USD',
          opening_balance: '0.00',
          lines: usdLines(),
          closing_balance: '570.00',
        },
      ]);
    });

    it('with from: the opening balance is everything dated before it', async () => {
      const report = await statement(client, '?from=2026-04-01');
      expect(report).toMatchObject({ from: '2026-04-01', to: TODAY });
      expect(sortedByCurrency(report.currencies)).toEqual([
        nzd(),
        {
          currency: 'USD',
          opening_balance: '700.00',
          lines: usdLines().slice(3),
          closing_balance: '570.00',
        },
      ]);
    });

    it('lines dated on from and on to are in the range', async () => {
      const report = await statement(client, '?from=2026-03-10&to=2026-04-01');
      expect(report).toMatchObject({ from: '2026-03-10', to: '2026-04-01' });
      expect(report.currencies.find((section) => section.currency === 'USD')).toEqual({
        currency: 'USD',
        opening_balance: '600.00',
        lines: usdLines().slice(1, 4),
        closing_balance: '750.00',
      });
      const early = await statement(client, '?to=2026-03-31');
      expect(early.from).toBe('');
      expect(early.currencies.find((section) => section.currency === 'USD')).toEqual({
        currency: 'USD',
        opening_balance: '0.00',
        lines: usdLines().slice(0, 3),
        closing_balance: '700.00',
      });
    });

    it('a client with no invoice: no currency', async () => {
      const idle = await createClient(test.http, { names: 'Idle Client', email: '' });
      expect(await statement(idle)).toEqual({
        client: { id: idle, names: 'Idle Client', email: '' },
        from: '',
        to: TODAY,
        currencies: [],
      });
    });

    it('answers 404 for an unknown or archived client, as JSON and as PDF', async () => {
      const archived = await createClient(test.http, { names: 'Archived Client' });
      await invoiceOf(archived, 'USD', '10.00', { issue_date: '2026-03-01' });
      await test.http.delete(`/v1/client/${archived}`).expect(200);
      for (const id of ['999999', 'abc', '0', archived]) {
        expectError(await test.http.get(`/v1/client/${id}/statement`), 404);
        expectError(await test.http.get(`/v1/client/${id}/statement/pdf`), 404);
      }
    });

    it('refuses malformed dates, to before from, an unknown format: 422 naming each', async () => {
      const get = (query: string) => test.http.get(`/v1/client/${client}/statement?${query}`);
      expectValidationError(await get('from=2026-04-31'), ['from']);
      expectValidationError(await get('to=2026/04/30'), ['to']);
      expectValidationError(await get('from=2026-04-02&to=2026-04-01'), ['to']);
      expectValidationError(await get('format=xml'), ['format']);
    });

    it('as CSV: an opening row, the lines, a closing row per currency, as the JSON says', async () => {
      for (const query of ['', '?from=2026-04-01', '?from=2026-03-10&to=2026-04-01']) {
        const json = await statement(client, query);
        const { rows, text } = await csvOf(
          `/v1/client/${client}/statement?${query.slice(1)}${query ? '&' : ''}format=csv`,
        );
        expect(rows).toEqual(statementCsv(json));
        // A negative amount stays plain decimal text.
        expect(text).toMatch(/,-(30|200)\.00,/);
        expect(text).not.toContain("'-");
      }
    });

    it('as PDF: the client, the invoice numbers and the closing balance', async () => {
      const response = await test.http
        .get(`/v1/client/${client}/statement/pdf`)
        .responseType('blob');
      expect({ status: response.status, type: response.headers['content-type'] }).toEqual({
        status: 200,
        type: 'application/pdf',
      });
      const bytes = response.body as Buffer;
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = flattened((await pdfText(bytes)).text);
      for (const part of ['Statement Client', 'INV-ST-1', 'INV-ST-2', 'INV-ST-3', 'CN-ST-1']) {
        expect(text).toContain(part);
      }
      expect(text).toContain('570.00');
      expect(text).not.toContain('INV-ST-VOID');
      expect(text).not.toContain('INV-ST-GONE');
    });
  });

  describe('as CSV (format=csv)', () => {
    const HOSTILE = ['=HYPERLINK("http://evil.test","x")', '+SUM(1,2)', '-2+3', '@SUM(1)'];
    const QUOTED = 'Smith, "Junior"\nTrading';
    const names: Record<string, string> = {};
    let formulaClient: string;
    let formulaInvoice: string;

    beforeAll(async () => {
      for (const name of [...HOSTILE, QUOTED, 'Plain = Name']) {
        const id = await createClient(test.http, { names: name });
        await invoiceOf(id, 'CAD', '12.50', { issue_date: TODAY });
        names[id] = name;
      }
      // A statement whose invoice and credit note numbers look like formulas.
      formulaClient = await createClient(test.http, { names: 'Formula Statement' });
      const invoice = await invoiceOf(formulaClient, 'USD', '100.00', {
        invoice_no: '=1+1',
        issue_date: '2026-03-01',
      });
      formulaInvoice = invoice.id;
      await payInvoice(test.http, invoice.id, '25.00', { payment_date: '2026-03-02' });
      await creditNote(invoice.id, '10.00', '2026-03-03', '-CN-1');
    });

    it.each([
      ['aging', '/v1/report/aging', agingCsv],
      ['aging as of a past date', '/v1/report/aging?as_of=2026-10-31', agingCsv],
      ['profit-and-loss, accrual', '/v1/report/profit-and-loss', profitAndLossCsv],
      [
        'profit-and-loss, cash',
        '/v1/report/profit-and-loss?basis=cash&from=2026-02-01&to=2026-06-30',
        profitAndLossCsv,
      ],
      ['tax summary', '/v1/report/tax-summary', taxSummaryCsv],
      [
        'tax summary of April',
        '/v1/report/tax-summary?from=2026-04-01&to=2026-04-30',
        taxSummaryCsv,
      ],
    ] as Array<[string, string, (report: never) => string[][]]>)(
      '%s: text/csv, one row per line of the JSON report',
      async (_, path, expected) => {
        const json = await getReport<never>(path);
        const { rows } = await csvOf(`${path}${path.includes('?') ? '&' : '?'}format=csv`);
        expect(rows.length).toBeGreaterThan(1);
        expect(rows).toEqual(expected(json));
      },
    );

    it('prefixes a name that begins with =, +, - or @ with a quote; amounts stay plain', async () => {
      const report = await aging();
      const { rows, text } = await csvOf('/v1/report/aging?format=csv');
      for (const [id, name] of Object.entries(names)) {
        const json = currencySection(report, 'CAD')?.clients.find((row) => row.client_id === id);
        expect(json?.client).toBe(name);
        const row = rows.find((cells) => cells[2] === id);
        const client = HOSTILE.includes(name) ? `'${name}` : name;
        expect(row).toEqual([
          'CAD',
          'client',
          id,
          client,
          '1',
          '12.50',
          '0.00',
          '0.00',
          '0.00',
          '0.00',
          '12.50',
        ]);
      }
      expect(text).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
      expect(text).toContain(`"'+SUM(1,2)"`);
      expect(text).toContain(`,'-2+3,`);
      expect(text).toContain(`,'@SUM(1),`);
    });

    it('quotes a name holding a comma, a quote and a line break (RFC 4180), which round-trips', async () => {
      const { rows, text } = await csvOf('/v1/report/aging?format=csv');
      expect(text).toContain('"Smith, ""Junior""\nTrading"');
      const id = Object.keys(names).find((key) => names[key] === QUOTED);
      expect(rows.find((cells) => cells[2] === id)?.[3]).toBe(QUOTED);
    });

    it('in a statement: formula-like numbers prefixed, negative amounts plain', async () => {
      const json = await statement(formulaClient);
      expect(json.currencies[0].lines.map((entry) => entry.invoice_no)).toEqual([
        '=1+1',
        '=1+1',
        '=1+1',
      ]);
      const { rows, text } = await csvOf(`/v1/client/${formulaClient}/statement?format=csv`);
      expect(rows).toEqual(statementCsv(json));
      const [payment] = await ledger(formulaInvoice);
      expect(rows.slice(1)).toEqual([
        ['USD', '', 'opening', '', '', '', '0.00'],
        ['USD', '2026-03-01', 'invoice', "'=1+1", "'=1+1", '100.00', '100.00'],
        ['USD', '2026-03-02', 'payment', payment.reference, "'=1+1", '-25.00', '75.00'],
        ['USD', '2026-03-03', 'credit_note', "'-CN-1", "'=1+1", '-10.00', '65.00'],
        ['USD', TODAY, 'closing', '', '', '', '65.00'],
      ]);
      expect(text).toContain(',-25.00,75.00\r\n');
      expect(text).not.toContain("'-25.00");
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Report shapes (docs/receivables.md) and the CSV each must come out as.

type Bucket = 'current' | '1-30' | '31-60' | '61-90' | 'over_90';
const BUCKETS: Bucket[] = ['current', '1-30', '31-60', '61-90', 'over_90'];

type AgingFigures = Record<Bucket | 'total', string>;

interface AgingClient extends AgingFigures {
  client_id: string;
  client: string;
  invoices: number;
}

interface AgingReport {
  as_of: string;
  currencies: Array<{
    currency: string;
    clients: AgingClient[];
    totals: AgingFigures & { invoices: number };
  }>;
}

interface Figures {
  income: string;
  expenses: Record<string, string>;
  expenses_total: string;
  profit: string;
}

interface ProfitAndLossReport {
  basis: string;
  from: string;
  to: string;
  currencies: Array<{
    currency: string;
    months: Array<Figures & { month: string }>;
    totals: Figures;
  }>;
}

interface TaxCounts {
  invoices: number;
  credit_notes: number;
  taxable: string;
  tax: string;
}

interface TaxSummaryReport {
  from: string;
  to: string;
  currencies: Array<{
    currency: string;
    rates: Array<TaxCounts & { tax_rate: number; name: string; category: string }>;
    totals: TaxCounts;
  }>;
}

interface StatementLine {
  date: string;
  type: 'invoice' | 'payment' | 'refund' | 'credit_note';
  reference: string;
  invoice_no: string;
  amount: string;
  balance: string;
}

interface StatementCurrency {
  currency: string;
  opening_balance: string;
  lines: StatementLine[];
  closing_balance: string;
}

interface Statement {
  client: { id: string; names: string; email: string };
  from: string;
  to: string;
  currencies: StatementCurrency[];
}

/** A report's section for one currency, or undefined. */
function currencySection<T extends { currency: string }>(
  report: { currencies: T[] },
  currency: string,
): T | undefined {
  return report.currencies.find((section) => section.currency === currency);
}

/** Aging figures: the given buckets, every other one zero, and the total. */
function buckets(figures: Partial<Record<Bucket, string>>, total: string, zero = '0.00') {
  const all = Object.fromEntries(BUCKETS.map((bucket) => [bucket, zero])) as AgingFigures;
  return { ...all, ...figures, total };
}

/** The one bucket of a row that is not zero. */
function bucketOf(row: AgingFigures): Bucket | undefined {
  const held = BUCKETS.filter((bucket) => Number(row[bucket]) !== 0);
  return held.length === 1 ? held[0] : undefined;
}

function figures(
  income: string,
  expenses: Record<string, string>,
  expenses_total: string,
  profit: string,
): Figures {
  return { income, expenses, expenses_total, profit };
}

function month(
  name: string,
  income: string,
  expenses: Record<string, string>,
  expenses_total: string,
  profit: string,
): Figures & { month: string } {
  return { month: name, ...figures(income, expenses, expenses_total, profit) };
}

function line(
  date: string,
  type: StatementLine['type'],
  reference: string,
  invoice_no: string,
  amount: string,
  balance: string,
): StatementLine {
  return { date, type, reference, invoice_no, amount, balance };
}

function sortedByCurrency<T extends { currency: string }>(sections: T[]): T[] {
  return [...sections].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** `YYYY-MM-DD` moved by `days` (UTC calendar days). */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A CSV answer: text/csv in UTF-8, CRLF after every record (a bare line break outside quotes
 * would not end a record and would break the column count), parsed by RFC 4180.
 */
function csvAnswer(response: Response): { text: string; rows: string[][] } {
  expect({ status: response.status, type: response.headers['content-type'] }).toEqual({
    status: 200,
    type: 'text/csv; charset=utf-8',
  });
  const text = response.text;
  expect(text.endsWith('\r\n')).toBe(true);
  const rows = parse(text, { record_delimiter: '\r\n' }) as string[][];
  return { text, rows };
}

/** A text cell as the CSV must write it: a leading `'` before what a spreadsheet would run. */
function textCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function agingCsv(report: AgingReport): string[][] {
  const amounts = (row: AgingFigures) => [...BUCKETS.map((bucket) => row[bucket]), row.total];
  return [
    ['currency', 'line', 'client_id', 'client', 'invoices', ...BUCKETS, 'total'],
    ...report.currencies.flatMap(({ currency, clients, totals }) => [
      ...clients.map((row) => [
        currency,
        'client',
        row.client_id,
        textCell(row.client),
        String(row.invoices),
        ...amounts(row),
      ]),
      [currency, 'total', '', '', String(totals.invoices), ...amounts(totals)],
    ]),
  ];
}

function profitAndLossCsv(report: ProfitAndLossReport): string[][] {
  const rows = (currency: string, month: string, figures: Figures) => [
    [currency, month, 'income', '', figures.income],
    ...Object.entries(figures.expenses).map(([category, amount]) => [
      currency,
      month,
      'expense',
      textCell(category),
      amount,
    ]),
    [currency, month, 'expenses_total', '', figures.expenses_total],
    [currency, month, 'profit', '', figures.profit],
  ];
  return [
    ['currency', 'month', 'line', 'category', 'amount'],
    ...report.currencies.flatMap(({ currency, months, totals }) => [
      ...months.flatMap((entry) => rows(currency, entry.month, entry)),
      ...rows(currency, 'total', totals),
    ]),
  ];
}

function taxSummaryCsv(report: TaxSummaryReport): string[][] {
  const counts = (row: TaxCounts) => [
    String(row.invoices),
    String(row.credit_notes),
    row.taxable,
    row.tax,
  ];
  return [
    [
      'currency',
      'line',
      'tax_rate',
      'invoices',
      'credit_notes',
      'taxable',
      'tax',
      'tax_name',
      'category',
    ],
    ...report.currencies.flatMap(({ currency, rates, totals }) => [
      ...rates.map((row) => [
        currency,
        'rate',
        String(row.tax_rate),
        ...counts(row),
        textCell(row.name),
        row.category,
      ]),
      [currency, 'total', '', ...counts(totals), '', ''],
    ]),
  ];
}

function statementCsv(report: Statement): string[][] {
  return [
    ['currency', 'date', 'type', 'reference', 'invoice_no', 'amount', 'balance'],
    ...report.currencies.flatMap((section) => [
      [section.currency, report.from, 'opening', '', '', '', section.opening_balance],
      ...section.lines.map((entry) => [
        section.currency,
        entry.date,
        entry.type,
        textCell(entry.reference),
        textCell(entry.invoice_no),
        entry.amount,
        entry.balance,
      ]),
      [section.currency, report.to, 'closing', '', '', '', section.closing_balance],
    ]),
  ];
}
