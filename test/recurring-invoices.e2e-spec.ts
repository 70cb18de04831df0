import { RecurringInvoiceJob } from '../src/recurring-invoices/recurring-invoice-job';
import { addClient, createClient } from './factories/clients';
import {
  RECURRING_INVOICE_KEYS,
  RecurringInvoiceOutput,
  recurringInvoiceInput,
} from './factories/recurring-invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  expectError,
  expectSuccess,
  expectValidationError,
  ID,
  TIMESTAMP,
  UNKNOWN_IDS,
} from './setup/expectations';
import { SmtpSink } from './setup/smtp-sink';
import { eventually } from './setup/eventually';
import { TestClock } from './setup/test-clock';

/*
 * docs/recurring.md: a schedule makes one invoice per period, on the period's date (months
 * anchored on the start day, clamped to the month's end), with its number from the invoice
 * series; missed periods are made with their own dates, periods that fall while paused are
 * skipped, changes apply from the next period. Scans are run by hand (RecurringInvoiceJob.run)
 * with the clock set, so no test waits for a period.
 */

interface InvoiceRead {
  id: string;
  invoice_no: string;
  issue_date: string;
  due_date: string;
  status: string;
  period_start: string;
  period_end: string;
  recurring_invoice_id: string;
  buyer_reference: string;
  order_reference: string;
  total: number;
  tax_amount: number;
  discount_amount: string;
  description: string;
}

interface EventRow {
  data: unknown;
  changes: Record<string, unknown>;
  type: string;
  actor: string;
  object: string;
  object_id: string;
}

const DAY_MS = 86_400_000;
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
/** Clock dates stay before the real today: the outbox takes a message once its time has passed. */
const REAL_TODAY = new Date().toISOString().slice(0, 10);

describe('Recurring invoices', () => {
  const clock = new TestClock();
  const sink = new SmtpSink();
  let test: TestApp;
  let client: string;

  beforeAll(async () => {
    await sink.start();
    clock.setToday('2026-01-01');
    test = await createTestApp({
      clock,
      env: {
        // Scans are run by the tests; the one at start-up finds nothing.
        RECURRING_SCAN_MS: '86400000',
        OUTBOX_POLL_MS: '20',
        MAIL_RETRY_BASE_MS: '20',
        SMTP_URL: sink.url,
      },
    });
    client = await createClient(test.http, { email: 'billing@example.com' });
  });

  afterAll(async () => {
    await test.close();
    await sink.stop();
  });

  /** One scan, as an instance runs it every RECURRING_SCAN_MS. */
  async function scan(): Promise<void> {
    await test.app.get(RecurringInvoiceJob).run(new AbortController().signal);
  }

  async function add(input: Record<string, unknown>): Promise<RecurringInvoiceOutput> {
    const response = await test.http
      .post('/v1/recurring-invoice/add')
      .send(recurringInvoiceInput(client, input));
    const body = expectSuccess(response) as { recurring_invoice: RecurringInvoiceOutput[] };
    return body.recurring_invoice[0];
  }

  async function read(id: string): Promise<RecurringInvoiceOutput> {
    const body = expectSuccess(await test.http.get(`/v1/recurring-invoice/${id}`)) as {
      recurring_invoice: RecurringInvoiceOutput[];
    };
    return body.recurring_invoice[0];
  }

  async function invoice(id: string): Promise<InvoiceRead> {
    const body = expectSuccess(await test.http.get(`/v1/invoice/${id}`)) as {
      invoice: InvoiceRead[];
    };
    return body.invoice[0];
  }

  async function invoicesOf(schedule: RecurringInvoiceOutput): Promise<InvoiceRead[]> {
    const made = (await read(schedule.id)).invoices;
    return Promise.all(made.map((entry) => invoice(entry.id)));
  }

  /** Every invoice the schedule made, by issue date, from the invoice list's filter. */
  async function allMadeBy(schedule: RecurringInvoiceOutput): Promise<InvoiceRead[]> {
    const body = expectSuccess(
      await test.http.get(`/v1/invoice/all?recurring_invoice=${schedule.id}`),
    ) as { data: InvoiceRead[] };
    return body.data.sort((a, b) => a.issue_date.localeCompare(b.issue_date));
  }

  describe('add, read, list, validation', () => {
    it('answers the schedule with its next date, its priced lines and no invoice yet', async () => {
      clock.setToday('2026-01-01');
      const schedule = await add({
        start_date: '2026-02-01',
        tax_rate: '20',
        discount_percent: '10',
        items: [
          { description: 'Retainer', quantity: 1, rate: '1000.00' },
          { description: 'Hosting', quantity: 2, rate: '25.00', unit: 'MON' },
        ],
      });
      expect(Object.keys(schedule).sort()).toEqual([...RECURRING_INVOICE_KEYS].sort());
      expect(schedule).toMatchObject({
        customer_id: client,
        interval: 'month',
        interval_count: 1,
        start_date: '2026-02-01',
        end_date: '',
        count: null,
        due_days: 30,
        auto_send: false,
        email: '',
        draft: false,
        status: 'active',
        next_date: '2026-02-01',
        invoices_made: 0,
        invoices: [],
        currency: 'USD',
        sub_total: 1050,
        discount_amount: '105.00',
        tax_amount: 189,
        total: 1134,
      });
      expect(schedule.id).toMatch(ID);
      expect(schedule.created_at).toMatch(TIMESTAMP);
      expect(schedule.items.map((item) => [item.description, item.amount, item.unit])).toEqual([
        ['Retainer', '1000.00', 'C62'],
        ['Hosting', '50.00', 'MON'],
      ]);
      expect(await read(schedule.id)).toEqual(schedule);
      const list = expectSuccess(await test.http.get('/v1/recurring-invoice/all')) as {
        data: RecurringInvoiceOutput[];
      };
      expect(list.data.map((entry) => entry.id)).toContain(schedule.id);
    });

    it('refuses malformed schedules with 422 naming each field, and writes nothing', async () => {
      const before = expectSuccess(await test.http.get('/v1/recurring-invoice/all')) as {
        data: unknown[];
      };
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ interval: 'fortnight' }, ['interval']],
        [{ interval: undefined }, ['interval']],
        [{ start_date: undefined }, ['start_date']],
        [{ start_date: '2026-02-30' }, ['start_date']],
        [{ interval_count: 0 }, ['interval_count']],
        [{ interval_count: 367 }, ['interval_count']],
        [{ interval_count: 1.5 }, ['interval_count']],
        [{ end_date: '2026-01-31', start_date: '2026-02-01' }, ['end_date']],
        [{ end_date: '2026-12-31', count: 3 }, ['end_date']],
        [{ count: 0 }, ['count']],
        [{ due_days: -1 }, ['due_days']],
        [{ auto_send: 'yes' }, ['auto_send']],
        [{ email: 'not an address' }, ['email']],
        [{ items: [] }, ['items']],
        [{ client: '999999' }, ['client']],
      ];
      for (const [change, fields] of cases) {
        const response = await test.http
          .post('/v1/recurring-invoice/add')
          .send(recurringInvoiceInput(client, { start_date: '2026-02-01', ...change }));
        expectValidationError(response, fields);
      }
      const after = expectSuccess(await test.http.get('/v1/recurring-invoice/all')) as {
        data: unknown[];
      };
      expect(after.data).toHaveLength(before.data.length);
    });

    it('answers 404 for an unknown schedule on every operation', async () => {
      for (const id of UNKNOWN_IDS) {
        expectError(await test.http.get(`/v1/recurring-invoice/${id}`), 404);
        expectError(await test.http.put(`/v1/recurring-invoice/${id}`).send({ note: 'x' }), 404);
        expectError(await test.http.post(`/v1/recurring-invoice/${id}/pause`), 404);
        expectError(await test.http.post(`/v1/recurring-invoice/${id}/resume`), 404);
        expectError(await test.http.delete(`/v1/recurring-invoice/${id}`), 404);
      }
    });
  });

  describe('references', () => {
    it('gives each invoice it makes its client’s buyer reference (BT-10), as it is then', async () => {
      clock.setToday('2029-01-01');
      const referenced = await createClient(test.http, { buyer_reference: '991-12345-67' });
      const response = await test.http
        .post('/v1/recurring-invoice/add')
        .send(recurringInvoiceInput(referenced, { start_date: '2029-01-01' }));
      const schedule = (expectSuccess(response) as { recurring_invoice: RecurringInvoiceOutput[] })
        .recurring_invoice[0];
      await scan();
      await test.http
        .put(`/v1/client/${referenced}`)
        .send({ names: 'Referenced', buyer_reference: '991-76543-21' })
        .expect(200);
      clock.setToday('2029-02-01');
      await scan();

      const made = await invoicesOf(schedule);
      expect(made.map((entry) => [entry.issue_date, entry.buyer_reference])).toEqual([
        ['2029-01-01', '991-12345-67'],
        ['2029-02-01', '991-76543-21'],
      ]);
      expect(made.map((entry) => entry.order_reference)).toEqual(['', '']);
    });
  });

  describe('periods', () => {
    it('bills monthly from 31 January on the month’s last day in a leap year, never drifting', async () => {
      clock.setToday('2028-01-01');
      const schedule = await add({
        start_date: '2028-01-31',
        due_days: 14,
        items: [{ description: 'Licence', quantity: 1, rate: '99.00' }],
      });
      clock.setToday('2028-05-30');
      await scan();
      const made = await invoicesOf(schedule);
      expect(made.map((entry) => entry.issue_date)).toEqual([
        '2028-01-31',
        '2028-02-29',
        '2028-03-31',
        '2028-04-30',
      ]);
      expect(made.map((entry) => entry.due_date)).toEqual([
        '2028-02-14',
        '2028-03-14',
        '2028-04-14',
        '2028-05-14',
      ]);
      expect(made.map((entry) => [entry.period_start, entry.period_end])).toEqual([
        ['2028-01-31', '2028-02-28'],
        ['2028-02-29', '2028-03-30'],
        ['2028-03-31', '2028-04-29'],
        ['2028-04-30', '2028-05-30'],
      ]);
      for (const entry of made) {
        expect(entry.recurring_invoice_id).toBe(schedule.id);
        expect(entry.total).toBe(99);
        expect(entry.invoice_no).toMatch(/^INV-2028-\d{4}$/);
      }
      const numbers = made.map((entry) => Number(entry.invoice_no.slice(-4)));
      expect(numbers).toEqual(numbers.map((_, index) => numbers[0] + index));
      expect(await read(schedule.id)).toMatchObject({ next_date: '2028-05-31', invoices_made: 4 });
    });

    it('gives 28 February in a common year, and 29 February again in the next leap year', async () => {
      clock.setToday('2027-01-01');
      const monthly = await add({ start_date: '2027-01-31' });
      const yearly = await add({ start_date: '2024-02-29', interval: 'year', count: 5 });
      clock.setToday('2028-03-01');
      await scan();
      const months = (await allMadeBy(monthly)).map((entry) => entry.issue_date);
      expect(months.slice(0, 3)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31']);
      expect(months).toContain('2028-02-29');
      expect(months).toHaveLength(14);
      // The answer lists the latest 12, oldest first; invoices_made counts them all.
      const shown = await read(monthly.id);
      expect(shown.invoices.map((entry) => entry.issue_date)).toEqual(months.slice(2));
      expect(shown.invoices_made).toBe(14);
      expect((await read(yearly.id)).invoices.map((entry) => entry.issue_date)).toEqual([
        '2024-02-29',
        '2025-02-28',
        '2026-02-28',
        '2027-02-28',
        '2028-02-29',
      ]);
      expect(await read(yearly.id)).toMatchObject({ status: 'ended', next_date: '' });
    });

    it('catches up a schedule started months ago, each period once with its own dates', async () => {
      clock.setToday('2026-03-01');
      const schedule = await add({
        start_date: '2025-09-01',
        interval: 'week',
        interval_count: 2,
      });
      await Promise.all([scan(), scan()]);
      await scan();
      const made = await allMadeBy(schedule);
      const expected: string[] = [];
      for (let date = '2025-09-01'; date <= '2026-03-01'; date = addDays(date, 14)) {
        expected.push(date);
      }
      expect(made.map((entry) => entry.issue_date)).toEqual(expected);
      expect(new Set(made.map((entry) => entry.invoice_no)).size).toBe(made.length);
    });

    it('stops after count invoices, or after end_date, and says it ended', async () => {
      clock.setToday('2026-01-01');
      const counted = await add({ start_date: '2026-01-05', interval: 'day', count: 3 });
      const dated = await add({
        start_date: '2026-01-05',
        interval: 'day',
        end_date: '2026-01-06',
      });
      clock.setToday('2026-01-20');
      await scan();
      expect(await read(counted.id)).toMatchObject({
        status: 'ended',
        next_date: '',
        invoices_made: 3,
      });
      expect((await read(dated.id)).invoices.map((entry) => entry.issue_date)).toEqual([
        '2026-01-05',
        '2026-01-06',
      ]);
    });
  });

  describe('pause, resume, changes, end', () => {
    it('skips the periods that fall while paused, and bills those after the resume', async () => {
      clock.setToday('2026-01-01');
      const schedule = await add({ start_date: '2026-01-10' });
      clock.setToday('2026-02-15');
      await scan();
      const pausedNow = expectSuccess(
        await test.http.post(`/v1/recurring-invoice/${schedule.id}/pause`),
      ) as { recurring_invoice: RecurringInvoiceOutput[] };
      expect(pausedNow.recurring_invoice[0]).toMatchObject({ status: 'paused' });
      expectError(await test.http.post(`/v1/recurring-invoice/${schedule.id}/pause`), 409);
      clock.setToday('2026-04-20');
      await scan();
      expect((await read(schedule.id)).invoices_made).toBe(2);
      const resumedNow = expectSuccess(
        await test.http.post(`/v1/recurring-invoice/${schedule.id}/resume`),
      ) as { recurring_invoice: RecurringInvoiceOutput[] };
      expect(resumedNow.recurring_invoice[0]).toMatchObject({
        status: 'active',
        next_date: '2026-05-10',
      });
      expectError(await test.http.post(`/v1/recurring-invoice/${schedule.id}/resume`), 409);
      await scan();
      clock.setToday('2026-05-10');
      await scan();
      expect((await read(schedule.id)).invoices.map((entry) => entry.issue_date)).toEqual([
        '2026-01-10',
        '2026-02-10',
        '2026-05-10',
      ]);
    });

    it('applies a change from the next period; invoices already made stay as they were', async () => {
      clock.setToday('2026-01-01');
      const schedule = await add({
        start_date: '2026-01-15',
        items: [{ description: 'Support', quantity: 1, rate: '100.00' }],
      });
      clock.setToday('2026-01-20');
      await scan();
      const changed = expectSuccess(
        await test.http.put(`/v1/recurring-invoice/${schedule.id}`).send({
          items: [{ description: 'Support plus', quantity: 1, rate: '150.00' }],
          tax_rate: '10',
        }),
      ) as { recurring_invoice: RecurringInvoiceOutput[] };
      expect(changed.recurring_invoice[0]).toMatchObject({
        total: 165,
        next_date: '2026-02-15',
        invoices_made: 1,
      });
      clock.setToday('2026-02-15');
      await scan();
      const made = await invoicesOf(schedule);
      expect(made.map((entry) => entry.total)).toEqual([100, 165]);
    });

    it('makes drafts to review when asked, with no number and no send', async () => {
      clock.setToday('2026-01-01');
      const schedule = await add({ start_date: '2026-01-03', draft: true, auto_send: true });
      clock.setToday('2026-01-03');
      await scan();
      const [made] = await invoicesOf(schedule);
      expect(made).toMatchObject({ status: 'draft', invoice_no: '' });
      const issued = expectSuccess(
        await test.http.post(`/v1/invoice/${made.id}/issue`).send({}),
      ) as { invoice: InvoiceRead[] };
      expect(issued.invoice[0].invoice_no).toMatch(/^INV-2026-\d{4}$/);
    });

    it('sends each invoice through the outbox when auto_send is on', async () => {
      const sendsFrom = addDays(REAL_TODAY, -40);
      clock.setToday(sendsFrom);
      const schedule = await add({ start_date: addDays(sendsFrom, 1), auto_send: true, count: 1 });
      clock.setToday(addDays(sendsFrom, 2));
      await scan();
      const [made] = await invoicesOf(schedule);
      const [mail] = await sink.waitForCount(1);
      expect(mail.recipients).toEqual(['billing@example.com']);
      expect(mail.mail.headers.subject).toContain(made.invoice_no);
      expect(mail.mail.attachments.map((file) => file.filename)).toEqual([
        `${made.invoice_no}.pdf`,
      ]);
    });

    it('retries an auto-sent invoice’s e-mail through the outbox while the mail server is down', async () => {
      const sendsFrom = addDays(REAL_TODAY, -30);
      clock.setToday(sendsFrom);
      const schedule = await add({ start_date: sendsFrom, auto_send: true, count: 1 });
      const already = sink.received.length;
      await sink.stop();
      try {
        await scan();
        const [made] = await invoicesOf(schedule);
        const log = (
          expectSuccess(await test.http.get(`/v1/invoice/${made.id}`)) as {
            send_log: Array<{ email: string; delivery: string }>;
          }
        ).send_log;
        expect(log).toEqual([expect.objectContaining({ email: 'billing@example.com' })]);
        expect(log[0].delivery).not.toBe('sent');
      } finally {
        await sink.start();
      }
      const received = await sink.waitForCount(already + 1);
      const [made] = (await read(schedule.id)).invoices;
      expect(received.at(-1)?.mail.headers.subject).toContain(made.invoice_no);
    });

    it('keeps every value an update leaves out or gives as null', async () => {
      clock.setToday('2026-01-01');
      const schedule = await add({
        start_date: '2026-02-01',
        due_days: 10,
        auto_send: true,
        email: 'ap@example.com',
        draft: true,
        count: 4,
      });
      const nulls = Object.fromEntries(
        [
          'client',
          'items',
          'interval',
          'interval_count',
          'start_date',
          'due_days',
          'auto_send',
          'email',
          'draft',
          'description',
          'currency',
          'tax_rate',
          'note',
        ].map((name) => [name, null]),
      );
      const response = await test.http.put(`/v1/recurring-invoice/${schedule.id}`).send(nulls);
      const { updated_at: _before, ...kept } = schedule;
      const { updated_at: _after, ...after } = (
        expectSuccess(response) as { recurring_invoice: RecurringInvoiceOutput[] }
      ).recurring_invoice[0];
      expect(after).toEqual(kept);
    });

    it('replays an add sent again with its Idempotency-Key, making one schedule', async () => {
      const body = recurringInvoiceInput(client, { start_date: '2026-03-01' });
      const first = await test.http
        .post('/v1/recurring-invoice/add')
        .set('Idempotency-Key', 'recurring-once')
        .send(body);
      const again = await test.http
        .post('/v1/recurring-invoice/add')
        .set('Idempotency-Key', 'recurring-once')
        .send(body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    });

    it('ends on DELETE: 404 from then on, its invoices stay and no more are made', async () => {
      clock.setToday('2026-01-01');
      const schedule = await add({ start_date: '2026-01-02', interval: 'day' });
      clock.setToday('2026-01-02');
      await scan();
      const [made] = (await read(schedule.id)).invoices;
      expect(
        expectSuccess(await test.http.delete(`/v1/recurring-invoice/${schedule.id}`)),
      ).toMatchObject({ id: schedule.id });
      expectError(await test.http.get(`/v1/recurring-invoice/${schedule.id}`), 404);
      expectError(await test.http.delete(`/v1/recurring-invoice/${schedule.id}`), 404);
      clock.setToday('2026-01-10');
      await scan();
      expect((await invoice(made.id)).recurring_invoice_id).toBe(schedule.id);
    });

    it('ends a schedule whose client was archived, making nothing for it', async () => {
      clock.setToday('2026-01-01');
      const other = await addClient(test.http);
      const response = await test.http
        .post('/v1/recurring-invoice/add')
        .send(recurringInvoiceInput(other.id, { start_date: '2026-01-05' }));
      const schedule = (expectSuccess(response) as { recurring_invoice: RecurringInvoiceOutput[] })
        .recurring_invoice[0];
      expectSuccess(await test.http.delete(`/v1/client/${other.id}`));
      clock.setToday('2026-01-06');
      await scan();
      expect(await read(schedule.id)).toMatchObject({ status: 'ended', invoices_made: 0 });
    });
  });

  it('records every change of a schedule and each invoice made, by system', async () => {
    clock.setToday('2026-01-01');
    const schedule = await add({ start_date: '2026-01-02', interval: 'day', count: 1 });
    clock.setToday('2026-01-02');
    await scan();
    const afterScan = await read(schedule.id);
    await test.http.put(`/v1/recurring-invoice/${schedule.id}`).send({ note: 'Thanks' });
    const events = expectSuccess(
      await test.http.get(`/v1/event/all?object=recurring_invoice&object_id=${schedule.id}`),
    ) as { data: EventRow[] };
    expect(events.data.map((event) => [event.type, event.actor])).toEqual([
      ['recurring_invoice.created', 'open'],
      ['recurring_invoice.invoiced', 'system'],
      ['recurring_invoice.updated', 'open'],
    ]);
    // Every event holds the schedule as its read answers it, and `changes` field by field: the
    // invoiced event its state and its new invoice.
    expect(events.data[1].data).toEqual({ recurring_invoice: [afterScan] });
    expect(events.data[2].data).toEqual({ recurring_invoice: [await read(schedule.id)] });
    expect(events.data[2].changes).toMatchObject({ note: ['', 'Thanks'] });
    expect(events.data[2].changes).not.toHaveProperty('recurring_invoice');
    expect(events.data[1].changes).toMatchObject({
      status: ['active', 'ended'],
      invoices_made: [0, 1],
      next_date: ['2026-01-02', ''],
    });
    const [made] = (await read(schedule.id)).invoices;
    const invoiceEvents = expectSuccess(
      await test.http.get(`/v1/event/all?object=invoice&object_id=${made.id}`),
    ) as { data: EventRow[] };
    expect(invoiceEvents.data.map((event) => [event.type, event.actor])).toEqual([
      ['invoice.created', 'system'],
    ]);
  });
});

describe('Recurring invoices: the scan every RECURRING_SCAN_MS', () => {
  const clock = new TestClock();
  let test: TestApp;

  beforeAll(async () => {
    clock.setToday('2026-04-01');
    test = await createTestApp({ clock, env: { RECURRING_SCAN_MS: '50', OUTBOX_POLL_MS: '20' } });
  });

  afterAll(async () => {
    await test.close();
  });

  it('makes a due period by itself, with no request asking', async () => {
    const client = await createClient(test.http);
    const added = expectSuccess(
      await test.http
        .post('/v1/recurring-invoice/add')
        .send(recurringInvoiceInput(client, { start_date: '2026-03-31', interval: 'day' })),
    ) as { recurring_invoice: RecurringInvoiceOutput[] };
    const id = added.recurring_invoice[0].id;
    const read = async () =>
      (
        expectSuccess(await test.http.get(`/v1/recurring-invoice/${id}`)) as {
          recurring_invoice: RecurringInvoiceOutput[];
        }
      ).recurring_invoice[0];
    const caughtUp = await eventually(read, (schedule) => schedule.next_date === '2026-04-02');
    expect(caughtUp.invoices.map((invoice) => invoice.issue_date)).toEqual([
      '2026-03-31',
      '2026-04-01',
    ]);
  });
});
