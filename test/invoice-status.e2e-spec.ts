import { createClient } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import {
  createInvoice,
  InvoiceInput,
  InvoiceOutput,
  payInvoice,
  readInvoice,
  refundInvoice,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectValidationError } from './setup/expectations';
import { TestClock } from './setup/test-clock';

/*
 * docs/rules.md: status is `void`; else `paid` when payment_status is Paid; else `overdue` when
 * due_date is before today (UTC) and a balance is outstanding; else `open`. Today is the
 * test's: the service runs on a TestClock.
 */
describe('Invoices: status', () => {
  let test: TestApp;
  const clock = new TestClock();

  beforeAll(async () => {
    clock.setToday('2026-06-15');
    test = await createTestApp({ clock });
  });

  afterAll(async () => {
    await test.close();
  });

  /** Due on `due_date`, total 100.00, for the client. */
  const invoiceDue = (client: string, due_date: string, input: InvoiceInput = {}) =>
    createInvoice(test.http, {
      client,
      issue_date: '2026-04-01',
      due_date,
      items: [{ description: 'Work', quantity: 1, rate: '100.00' }],
      ...input,
    });

  const statusOf = async (id: string) => (await readInvoice(test.http, id)).invoice[0].status;

  describe('of one invoice', () => {
    let client: string;

    beforeAll(async () => {
      client = await createClient(test.http);
    });

    it('is open until the due date, overdue from the next day (UTC), by the clock', async () => {
      const invoice = await invoiceDue(client, '2026-06-20');
      expect(invoice.status).toBe('open');
      clock.setToday('2026-06-20');
      expect(await statusOf(invoice.id)).toBe('open');
      clock.setToday('2026-06-21');
      expect(await statusOf(invoice.id)).toBe('overdue');
      clock.setToday('2026-06-15');
      expect(await statusOf(invoice.id)).toBe('open');
    });

    it('stays overdue while any balance is outstanding', async () => {
      const invoice = await invoiceDue(client, '2026-06-10');
      await payInvoice(test.http, invoice.id, '99.99');
      expect(await statusOf(invoice.id)).toBe('overdue');
      await addCreditNote(test.http, invoice.id, {
        items: [{ description: 'Rounding', quantity: 1, rate: '0.01' }],
      });
      expect(await statusOf(invoice.id)).toBe('paid');
    });

    it('is paid when payment_status is Paid, by payment or by hand, whatever the date', async () => {
      const settled = await invoiceDue(client, '2026-06-01');
      await payInvoice(test.http, settled.id, '100.00');
      expect(await statusOf(settled.id)).toBe('paid');
      const byHand = await invoiceDue(client, '2026-06-01');
      await test.http.get(`/v1/invoice/paid/${byHand.id}`).expect(200);
      expect(await statusOf(byHand.id)).toBe('paid');
      const addedPaid = await invoiceDue(client, '2026-06-01', { payment_status: 'Paid' });
      expect(addedPaid.status).toBe('paid');
    });

    it('is open past its due date when nothing is outstanding but it is marked Not Paid', async () => {
      const invoice = await invoiceDue(client, '2026-06-01');
      await payInvoice(test.http, invoice.id, '100.00');
      await test.http.get(`/v1/invoice/not-paid/${invoice.id}`).expect(200);
      expect(await statusOf(invoice.id)).toBe('open');
    });

    it('turns overdue again when a refund reopens a past-due balance', async () => {
      const invoice = await invoiceDue(client, '2026-06-01');
      await payInvoice(test.http, invoice.id, '100.00');
      const after = await refundInvoice(test.http, invoice.id, '10.00');
      expect(after.status).toBe('overdue');
    });

    it('is void once voided, whatever else holds', async () => {
      const invoice = await invoiceDue(client, '2026-06-01');
      await test.http.get(`/v1/invoice/paid/${invoice.id}`).expect(200);
      await test.http.post(`/v1/invoice/${invoice.id}/void`).send({}).expect(200);
      expect(await statusOf(invoice.id)).toBe('void');
    });
  });

  describe('GET /invoice/all?status=', () => {
    let client: string;
    let expected: Record<'open' | 'overdue' | 'paid' | 'void', string[]>;

    beforeAll(async () => {
      clock.setToday('2026-06-15');
      client = await createClient(test.http);
      const open = [
        (await invoiceDue(client, '2026-06-15')).id,
        (await invoiceDue(client, '2026-07-01')).id,
      ];
      const settledNotPaid = await invoiceDue(client, '2026-06-01');
      await payInvoice(test.http, settledNotPaid.id, '100.00');
      await test.http.get(`/v1/invoice/not-paid/${settledNotPaid.id}`).expect(200);
      open.push(settledNotPaid.id);
      const overdue = [(await invoiceDue(client, '2026-06-14')).id];
      const partly = await invoiceDue(client, '2026-05-01');
      await payInvoice(test.http, partly.id, '50.00');
      overdue.push(partly.id);
      const paid = await invoiceDue(client, '2026-05-01');
      await payInvoice(test.http, paid.id, '100.00');
      const voided = await invoiceDue(client, '2026-05-01');
      await test.http.post(`/v1/invoice/${voided.id}/void`).send({}).expect(200);
      expected = {
        open: open.sort((a, b) => Number(a) - Number(b)),
        overdue,
        paid: [paid.id],
        void: [voided.id],
      };
    });

    const ids = async (query: string) => {
      const response = await test.http.get(`/v1/invoice/all?client=${client}&${query}`).expect(200);
      return (response.body as { data: InvoiceOutput[] }).data.map((invoice) => invoice.id);
    };

    it.each(['open', 'overdue', 'paid', 'void'] as const)(
      'status=%s answers exactly those invoices, oldest first',
      async (status) => {
        expect(await ids(`status=${status}`)).toEqual(expected[status]);
      },
    );

    it('moves invoices between open and overdue as the date passes', async () => {
      clock.setToday('2026-07-02');
      try {
        expect(await ids('status=open')).toEqual([expected.open[2]]);
        expect((await ids('status=overdue')).sort()).toEqual(
          [...expected.overdue, expected.open[0], expected.open[1]].sort(),
        );
      } finally {
        clock.setToday('2026-06-15');
      }
    });

    it('matches the status in any case, pages and combines with the other filters', async () => {
      expect(await ids('status=OVERDUE')).toEqual(expected.overdue);
      const page = await test.http
        .get(`/v1/invoice/all?client=${client}&status=open&page=2&per_page=2`)
        .expect(200);
      expect(page.body).toMatchObject({
        data: [{ id: expected.open[2] }],
        meta: { page: 2, per_page: 2, total: 3 },
      });
      expect(await ids(`status=open&after=${expected.open[0]}&per_page=1`)).toEqual([
        expected.open[1],
      ]);
      // The settled invoice marked Not Paid is open, and Not Paid.
      expect(await ids('status=open&payment_status=Paid')).toEqual([]);
      expect(await ids('status=paid&payment_status=paid')).toEqual(expected.paid);
      expect(await ids('status=overdue&from=2026-04-02')).toEqual([]);
    });

    it('refuses a status outside the list', async () => {
      for (const status of ['late', 'open ', '', 'Paid,void']) {
        expectValidationError(
          await test.http.get(`/v1/invoice/all?status=${encodeURIComponent(status)}`),
          ['status'],
        );
      }
    });
  });
});
