import { setTimeout as delay } from 'node:timers/promises';
import { addClient, ClientInput } from './factories/clients';
import { addCreditNote, readCreditNote } from './factories/credit-notes';
import { createEstimate, readEstimate, sendEstimate } from './factories/estimates';
import {
  createInvoice,
  invoiceNumber,
  LineItemInput,
  payInvoice,
  readInvoice,
  sendInvoice,
  SendLogEntry,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { describeOutsideSlowRun, SLOW_RUN } from './setup/test-run';
import { invariantViolations, openSql } from './setup/invariants';
import { eventually } from './setup/eventually';
import { flattened, pdfText } from './setup/pdf-text';
import { ReceivedMail, SmtpSink } from './setup/smtp-sink';
import { TestClock } from './setup/test-clock';
import { testDialect } from './setup/test-database';

/*
 * docs/receivables.md, Reminders: with REMINDER_DAYS set, an
 * instance looks every REMINDER_SCAN_MS for invoices whose latest passed step (due date + step
 * ≤ today) has no reminder yet, and sends it once: a send-log entry of kind "reminder" to the
 * client's e-mail, the e-mail with the PDF (days overdue or until due, the balance still owed)
 * and the event invoice.reminder_sent by system. Steps passed over by a later one are never
 * sent; a paid, void or archived invoice, or one whose client has no e-mail or is archived,
 * gets none.
 *
 * The clock is a TestClock moved day by day. Its dates stay before the real today: the outbox
 * takes a message when its time (the clock's) has passed by the real clock.
 */

// "Unset" below means unset, whatever the developer's shell holds.
delete process.env.REMINDER_DAYS;
delete process.env.REMINDER_SCAN_MS;

const STEPS = [-3, 1, 7];
const SCAN_MS = 50;
/** Long enough for several scans of every instance, and for a message written meanwhile to be seen. */
const SETTLE_MS = 6 * SCAN_MS + 100;
/** The outbox polls fast; retries are short. */
const DELIVERING = { OUTBOX_POLL_MS: '20', MAIL_RETRY_BASE_MS: '20', COMPANY_NAME: 'Acme Ltd' };
const REMINDERS_ON = { REMINDER_DAYS: STEPS.join(','), REMINDER_SCAN_MS: String(SCAN_MS) };

const DAY_MS = 86_400_000;
/** `date` (YYYY-MM-DD) moved by `days`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
/** Where each file's clock starts: far enough back that every date it reaches is past. */
const START = addDays(new Date().toISOString().slice(0, 10), -60);

interface LogEntry extends SendLogEntry {
  kind: string;
}

interface EventRow {
  id: string;
  type: string;
  actor: string;
  object: string;
  object_id: string;
  created_at: string;
}

/** An invoice under watch: its client's own e-mail tells its reminders from every other mail. */
interface Tracked {
  id: string;
  no: string;
  client: string;
  email: string;
  currency: string;
  due: string;
}

interface TrackedInput {
  due: string;
  /** The client's e-mail; a unique one unless given ('' for none). */
  email?: string;
  currency?: string;
  tax_rate?: string;
  items?: LineItemInput[];
}

/** A client of its own and an invoice of 100.00 (unless told otherwise) due on `due`. */
async function trackedInvoice(test: TestApp, input: TrackedInput): Promise<Tracked> {
  const clientInput: ClientInput = input.email === undefined ? {} : { email: input.email };
  const client = await addClient(test.http, clientInput);
  const invoice = await createInvoice(test.http, {
    client: client.id,
    invoice_no: invoiceNumber('REM'),
    currency: input.currency ?? 'USD',
    tax_rate: input.tax_rate ?? '0',
    issue_date: addDays(input.due, -30),
    due_date: input.due,
    ...(input.items ? { items: input.items } : {}),
  });
  return {
    id: invoice.id,
    no: invoice.invoice_no,
    client: client.id,
    email: client.email,
    currency: invoice.currency,
    due: input.due,
  };
}

/** The invoice's send log; null once it is archived (its read answers 404). */
async function sendLogOf(test: TestApp, id: string): Promise<LogEntry[] | null> {
  const response = await test.http.get(`/v1/invoice/${id}`);
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return (response.body as { send_log: LogEntry[] }).send_log;
}

async function reminderEvents(test: TestApp, id?: string): Promise<EventRow[]> {
  const query = id === undefined ? '' : `&object=invoice&object_id=${id}`;
  const response = await test.http
    .get(`/v1/event/all?type=invoice.reminder_sent${query}`)
    .expect(200);
  return (response.body as { data: EventRow[] }).data;
}

/** The mails the sink got for the invoice's client. */
function mailsTo(sink: SmtpSink, invoice: Tracked): ReceivedMail[] {
  return sink.received.filter((received) => received.recipients.includes(invoice.email));
}

/** How many reminders each view shows: the send log (null when archived), events, e-mails. */
interface Counts {
  log: number | null;
  /** Of those in the log, how many the server has accepted (delivery sent). */
  delivered: number | null;
  events: number;
  mails: number;
}

async function countsOf(
  test: TestApp,
  sink: SmtpSink,
  invoices: Tracked[],
): Promise<Record<string, Counts>> {
  const events = await reminderEvents(test);
  const counts: Record<string, Counts> = {};
  for (const invoice of invoices) {
    const log = await sendLogOf(test, invoice.id);
    const reminders = log?.filter((entry) => entry.kind === 'reminder') ?? null;
    counts[invoice.no] = {
      log: reminders?.length ?? null,
      delivered: reminders?.filter((entry) => entry.delivery === 'sent').length ?? null,
      events: events.filter((event) => event.object_id === invoice.id).length,
      mails: mailsTo(sink, invoice).length,
    };
  }
  return counts;
}

/** What countsOf shows when each invoice has had exactly `n` reminders, all delivered. */
function exactly(invoices: Tracked[], n: number, archived: Tracked[] = []) {
  return Object.fromEntries(
    invoices.map((invoice) => {
      const log = archived.includes(invoice) ? null : n;
      return [invoice.no, { log, delivered: log, events: n, mails: n }];
    }),
  );
}

/**
 * Waits until each invoice has had `n` reminders delivered, then a few scans more, and checks
 * that it has exactly `n`: one step sent once, not again.
 */
async function expectRemindersSettleAt(
  test: TestApp,
  sink: SmtpSink,
  invoices: Tracked[],
  n: number,
  timeoutMs = 15_000,
): Promise<void> {
  await eventually(
    () => countsOf(test, sink, invoices),
    (counts) => Object.values(counts).every((count) => count.mails >= n && count.events >= n),
    timeoutMs,
  );
  await delay(SETTLE_MS);
  expect(await countsOf(test, sink, invoices)).toEqual(exactly(invoices, n));
}

/** Money as the mails show it: the amount with the currency's minor digits, then its code. */
function moneyPattern(amount: string, currency: string): RegExp {
  const escaped = amount.replace(/\./g, '\\.');
  return new RegExp(`(^|[^\\d.,])${escaped} ${currency}\\b|\\b${currency} ${escaped}(?![\\d.,])`);
}

/** The text says how many days overdue (days > 0) or until due (days < 0). */
function daysPattern(days: number): RegExp {
  const n = Math.abs(days);
  const unit = `${n} days?`;
  return days > 0
    ? new RegExp(`\\b${unit} (overdue|past (the )?due)|\\boverdue (by|for) ${unit}\\b`, 'i')
    : new RegExp(
        `\\bdue in ${unit}\\b|\\b${unit} (until|before)( it is| the| its)? due|\\b${unit} (left|remain)`,
        'i',
      );
}

/** A reminder e-mail: to the client, naming the invoice, with the days, the balance and the PDF. */
function expectReminderMail(
  received: ReceivedMail,
  invoice: Tracked,
  days: number,
  balance: string,
): void {
  expect(received.recipients).toEqual([invoice.email]);
  const { headers, text } = received.mail;
  expect(headers.to).toBe(invoice.email);
  expect(`${headers.subject}\n${text}`).toContain(invoice.no);
  expect(text).toMatch(daysPattern(days));
  expect(text).toMatch(moneyPattern(balance, invoice.currency));
  expect(received.mail.attachments).toHaveLength(1);
  const [attachment] = received.mail.attachments;
  expect(attachment.contentType).toBe('application/pdf');
  expect(attachment.filename).toBe(`${invoice.no}.pdf`);
  expect(attachment.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

/** The invoice's reminder entries: kind reminder, to the client, delivered, on these dates. */
async function expectReminderLog(test: TestApp, invoice: Tracked, dates: string[]) {
  const log = (await readInvoice(test.http, invoice.id)).send_log as LogEntry[];
  const reminders = log.filter((entry) => entry.kind === 'reminder');
  expect(reminders.map((entry) => entry.date.slice(0, 10))).toEqual(dates);
  for (const entry of reminders) {
    expect(entry).toMatchObject({ email: invoice.email, kind: 'reminder', delivery: 'sent' });
  }
}

/** The invoice's reminder events: `n`, each by system about this invoice. */
async function expectReminderEvents(test: TestApp, invoice: Tracked, n: number) {
  const events = await reminderEvents(test, invoice.id);
  expect(events).toHaveLength(n);
  for (const event of events) {
    expect(event).toMatchObject({
      type: 'invoice.reminder_sent',
      actor: 'system',
      object: 'invoice',
      object_id: invoice.id,
    });
  }
}

describeOutsideSlowRun(
  'Reminders: off unless REMINDER_DAYS is set; once on, only the latest passed step',
  () => {
    const sink = new SmtpSink();
    const clock = new TestClock();
    // Serves the API only: no delivery worker, no reminders (REMINDER_DAYS unset).
    let owner: TestApp;
    let invoices: { late: Tracked; recent: Tracked; soon: Tracked };

    beforeAll(async () => {
      await sink.start();
      clock.setToday(START);
      owner = await createTestApp({ clock });
      const today = clock.today();
      invoices = {
        late: await trackedInvoice(owner, { due: addDays(today, -10) }),
        recent: await trackedInvoice(owner, { due: addDays(today, -2) }),
        soon: await trackedInvoice(owner, { due: addDays(today, 1) }),
      };
    });

    afterAll(async () => {
      await owner.close();
      await sink.stop();
    });

    it('sends no reminder with REMINDER_DAYS unset or empty, however overdue an invoice is', async () => {
      for (const days of [undefined, '']) {
        const instance = await createTestApp({
          env: {
            ...DELIVERING,
            SMTP_URL: sink.url,
            REMINDER_SCAN_MS: String(SCAN_MS),
            ...(days === undefined ? {} : { REMINDER_DAYS: days }),
          },
          clock,
          sharedDatabase: true,
        });
        await delay(2 * SETTLE_MS);
        await instance.close();
      }
      const all = Object.values(invoices);
      expect(await countsOf(owner, sink, all)).toEqual(exactly(all, 0));
      for (const invoice of all) expect(await sendLogOf(owner, invoice.id)).toEqual([]);
      expect(sink.received).toEqual([]);
      expect(await reminderEvents(owner)).toEqual([]);
    });

    it('turned on, sends each invoice only its latest passed step, once: 10 days overdue gets 7, not -3 and 1', async () => {
      const instance = await createTestApp({
        env: { ...DELIVERING, ...REMINDERS_ON, SMTP_URL: sink.url },
        clock,
        sharedDatabase: true,
      });
      try {
        const all = Object.values(invoices);
        await expectRemindersSettleAt(owner, sink, all, 1);
        const today = clock.today();
        for (const invoice of all) {
          await expectReminderLog(owner, invoice, [today]);
          await expectReminderEvents(owner, invoice, 1);
        }
        const [late] = mailsTo(sink, invoices.late);
        expectReminderMail(late, invoices.late, 10, '100.00');
        expect(late.mail.text).not.toMatch(/\b7 days?\b/);
        expectReminderMail(mailsTo(sink, invoices.recent)[0], invoices.recent, 2, '100.00');
        expectReminderMail(mailsTo(sink, invoices.soon)[0], invoices.soon, -1, '100.00');
        expect(sink.received).toHaveLength(3);
      } finally {
        await instance.close();
      }
    });
  },
);

describeOutsideSlowRun('Reminders: one instance, the clock moved day by day', () => {
  const sink = new SmtpSink();
  const clock = new TestClock();
  let test: TestApp;

  beforeAll(async () => {
    await sink.start();
    clock.setToday(START);
    test = await createTestApp({
      env: { ...DELIVERING, ...REMINDERS_ON, SMTP_URL: sink.url },
      clock,
    });
  });

  afterAll(async () => {
    await test.close();
    await sink.stop();
  });

  it('sends each step once per invoice, saying the days and the balance in its currency, the PDF attached', async () => {
    const due = addDays(clock.today(), 5);
    // 2 × 10.50 + 5.25 = 26.25, 10 % tax 2.63, total 28.88; 8.88 paid: 20.00 owed.
    const usd = await trackedInvoice(test, {
      due,
      tax_rate: '10',
      items: [
        { description: 'Design', quantity: 2, rate: '10.50' },
        { description: 'Hosting', quantity: 1, rate: '5.25' },
      ],
    });
    await payInvoice(test.http, usd.id, '8.88', { payment_date: addDays(due, -20) });
    // Three minor digits: 12.345 less 2.100 paid.
    const kwd = await trackedInvoice(test, {
      due,
      currency: 'KWD',
      items: [{ description: 'Survey', quantity: 1, rate: '12.345' }],
    });
    await payInvoice(test.http, kwd.id, '2.100', { payment_date: addDays(due, -20) });
    // None: 900 less 150 paid.
    const jpy = await trackedInvoice(test, {
      due,
      currency: 'JPY',
      items: [{ description: 'Translation', quantity: 1, rate: '900' }],
    });
    await payInvoice(test.http, jpy.id, '150', { payment_date: addDays(due, -20) });
    const invoices = [usd, kwd, jpy];

    const sentOn: string[] = [];
    for (let offset = -5; offset <= 9; offset++) {
      const today = addDays(due, offset);
      clock.setToday(today);
      const expected = STEPS.filter((step) => step <= offset).length;
      if (STEPS.includes(offset)) {
        sentOn.push(today);
        await expectRemindersSettleAt(test, sink, invoices, expected);
      } else {
        // Every day is seen by several scans: a day without a step sends nothing.
        await delay(SETTLE_MS);
        expect(await countsOf(test, sink, invoices)).toEqual(exactly(invoices, expected));
      }
      // Paid in part after the first reminder: the later ones ask for what is left, 12.45.
      if (offset === -3) {
        await payInvoice(test.http, usd.id, '7.55', { payment_date: today });
      }
    }

    const balances: Record<string, string[]> = {
      [usd.no]: ['20.00', '12.45', '12.45'],
      [kwd.no]: ['10.245', '10.245', '10.245'],
      [jpy.no]: ['750', '750', '750'],
    };
    for (const invoice of invoices) {
      await expectReminderLog(test, invoice, sentOn);
      await expectReminderEvents(test, invoice, STEPS.length);
      const mails = mailsTo(sink, invoice);
      expect(mails).toHaveLength(STEPS.length);
      STEPS.forEach((step, index) => {
        expectReminderMail(mails[index], invoice, step, balances[invoice.no][index]);
      });
    }
    // The JPY balance has no minor digits, the KWD one three.
    for (const { mail } of mailsTo(sink, jpy)) expect(mail.text).not.toContain('750.00');
    for (const { mail } of mailsTo(sink, kwd)) expect(mail.text).not.toMatch(/10\.25\b/);
    // The first reminder still asked for 20.00, the later ones no longer do.
    expect(mailsTo(sink, usd)[0].mail.text).not.toMatch(moneyPattern('12.45', 'USD'));
    for (const { mail } of mailsTo(sink, usd).slice(1)) {
      expect(mail.text).not.toMatch(moneyPattern('20.00', 'USD'));
    }

    const pdf = flattened((await pdfText(mailsTo(sink, usd)[2].mail.attachments[0].content)).text);
    expect(pdf).toContain(usd.no);
    expect(pdf).toContain('28.88');
  }, 90_000);

  it('stops once an invoice is paid, credited to nothing, void, archived or marked paid; none for a client without e-mail or archived, nor for a draft', async () => {
    const due = addDays(clock.today(), 5);
    const paymentDate = addDays(due, -20);
    const control = await trackedInvoice(test, { due });
    const partial = await trackedInvoice(test, { due });
    await payInvoice(test.http, partial.id, '30.00', { payment_date: paymentDate });
    const stopped = {
      paid: await trackedInvoice(test, { due }),
      credited: await trackedInvoice(test, { due }),
      voided: await trackedInvoice(test, { due }),
      archived: await trackedInvoice(test, { due }),
      markedPaid: await trackedInvoice(test, { due }),
      emailRemoved: await trackedInvoice(test, { due }),
    };
    const noEmail = await trackedInvoice(test, { due, email: '' });
    expect(noEmail.email).toBe('');
    const clientArchived = await trackedInvoice(test, { due });
    await test.http.delete(`/v1/client/${clientArchived.client}`).expect(200);
    // A draft (docs/numbering.md), due like the others, of a client with an e-mail: never.
    const draftClient = await addClient(test.http);
    const added = await test.http
      .post('/v1/invoice/add')
      .send({
        client: draftClient.id,
        draft: true,
        payment_status: 'Not Paid',
        tax_rate: '0',
        issue_date: addDays(due, -30),
        due_date: due,
        items: [{ description: 'Draft', quantity: 1, rate: '100.00' }],
      })
      .expect(200);
    const draft: Tracked = {
      id: (added.body as { invoice: Array<{ id: string }> }).invoice[0].id,
      no: 'the draft',
      client: draftClient.id,
      email: draftClient.email,
      currency: 'USD',
      due,
    };

    // Step -3: every live invoice of a live client with an e-mail is reminded.
    clock.setToday(addDays(due, -3));
    const reminded = [control, partial, ...Object.values(stopped)];
    await expectRemindersSettleAt(test, sink, reminded, 1);
    expect(await countsOf(test, sink, [clientArchived, draft])).toEqual(
      exactly([clientArchived, draft], 0),
    );
    // No address: nothing in its log, no event (no mail can be told apart, so none is counted).
    expect(await sendLogOf(test, noEmail.id)).toEqual([]);
    expect(await reminderEvents(test, noEmail.id)).toEqual([]);

    // Then each stops its own way.
    await payInvoice(test.http, stopped.paid.id, '100.00', { payment_date: paymentDate });
    await addCreditNote(test.http, stopped.credited.id, {
      items: [{ description: 'Waived', quantity: 1, rate: '100.00' }],
      issue_date: addDays(due, -3),
    });
    expect((await readInvoice(test.http, stopped.credited.id)).invoice[0].outstanding_balance).toBe(
      '0.00',
    );
    await test.http.post(`/v1/invoice/${stopped.voided.id}/void`).send({}).expect(200);
    await test.http.delete(`/v1/invoice/${stopped.archived.id}`).expect(200);
    await test.http.get(`/v1/invoice/paid/${stopped.markedPaid.id}`).expect(200);
    await test.http
      .put(`/v1/client/${stopped.emailRemoved.client}`)
      .send({ names: 'No Longer Mailed', email: '' })
      .expect(200);

    for (const [step, n] of [
      [1, 2],
      [7, 3],
    ]) {
      clock.setToday(addDays(due, step));
      await expectRemindersSettleAt(test, sink, [control, partial], n);
      expect(await countsOf(test, sink, Object.values(stopped))).toEqual(
        exactly(Object.values(stopped), 1, [stopped.archived]),
      );
      expect(await countsOf(test, sink, [clientArchived, draft])).toEqual(
        exactly([clientArchived, draft], 0),
      );
      expect(await sendLogOf(test, noEmail.id)).toEqual([]);
      expect(await reminderEvents(test, noEmail.id)).toEqual([]);
    }
    // Paid in part: still reminded, for what is left.
    mailsTo(sink, partial).forEach((received, index) => {
      expectReminderMail(received, partial, STEPS[index], '70.00');
    });
  }, 60_000);

  it('marks sends through the API "document" and reminders "reminder" in the send log', async () => {
    const due = addDays(clock.today(), 5);
    const invoice = await trackedInvoice(test, { due });
    await sendInvoice(test.http, invoice.id, 'manual@example.com');
    const sent = await eventually(
      async () => (await sendLogOf(test, invoice.id)) ?? [],
      (log) => log[0]?.delivery === 'sent',
    );
    expect(sent).toEqual([
      expect.objectContaining({ email: 'manual@example.com', kind: 'document', delivery: 'sent' }),
    ]);

    const estimate = await createEstimate(test.http, {
      issue_date: clock.today(),
      due_date: due,
    });
    await sendEstimate(test.http, estimate.id, 'estimate@example.com');
    expect((await readEstimate(test.http, estimate.id)).send_log).toEqual([
      expect.objectContaining({ email: 'estimate@example.com', kind: 'document' }),
    ]);
    const written = await addCreditNote(test.http, invoice.id, {
      items: [{ description: 'Discount', quantity: 1, rate: '10.00' }],
      issue_date: clock.today(),
    });
    const creditNote = written.credit_note[0];
    await test.http
      .post('/v1/credit-note/send')
      .send({ id: creditNote.id, email: 'credit@example.com' })
      .expect(200);
    expect((await readCreditNote(test.http, creditNote.id)).send_log).toEqual([
      expect.objectContaining({ email: 'credit@example.com', kind: 'document' }),
    ]);

    clock.setToday(addDays(due, -3));
    await expectRemindersSettleAt(test, sink, [invoice], 1);
    const log = (await sendLogOf(test, invoice.id)) ?? [];
    expect(log.map(({ email, kind }) => ({ email, kind }))).toEqual([
      { email: 'manual@example.com', kind: 'document' },
      { email: invoice.email, kind: 'reminder' },
    ]);
    // The reminder asks for what the credit note left: 90.00.
    expectReminderMail(mailsTo(sink, invoice)[0], invoice, -3, '90.00');
  });
});

/*
 * Several instances on one database send each step once in total: two on MariaDB, in `npm run
 * test:slow`. SQLite serves one instance only (docs/deployment.md: its write queue is in the
 * process), and `npm test` runs one on both databases, beside the owner that serves the API;
 * the restart holds in every run.
 */
const INSTANCES = SLOW_RUN && testDialect() === 'mysql' ? 2 : 1;
const INVOICES = 20;

describe(`Reminders: ${INSTANCES} instance(s) on one database, and a restart`, () => {
  const sink = new SmtpSink();
  const clock = new TestClock();
  // Serves the API only: no delivery worker, no reminders.
  let owner: TestApp;
  const instances: TestApp[] = [];
  const invoices: Tracked[] = [];
  let due: string;

  const startInstances = async () => {
    while (instances.length < INSTANCES) {
      instances.push(
        await createTestApp({
          env: { ...DELIVERING, ...REMINDERS_ON, SMTP_URL: sink.url },
          clock,
          sharedDatabase: true,
        }),
      );
    }
  };
  const stopInstances = async () => {
    for (const instance of instances.splice(0)) await instance.close();
  };

  /** Every invoice has had exactly `n` reminders, and nobody else had one. */
  const expectTotals = async (n: number) => {
    expect(sink.received).toHaveLength(INVOICES * n);
    expect(await reminderEvents(owner)).toHaveLength(INVOICES * n);
    const perMessageId = new Set(sink.received.map(({ mail }) => mail.headers['message-id']));
    expect(perMessageId.size).toBe(INVOICES * n);
  };

  beforeAll(async () => {
    await sink.start();
    clock.setToday(START);
    owner = await createTestApp({ clock });
    due = addDays(clock.today(), 4);
    for (let index = 0; index < INVOICES; index++) {
      invoices.push(await trackedInvoice(owner, { due }));
    }
  });

  afterAll(async () => {
    await stopInstances();
    await owner.close();
    await sink.stop();
  });

  it(`sends each step of ${INVOICES} invoices exactly once in total`, async () => {
    await startInstances();
    // No step has passed yet.
    await delay(SETTLE_MS);
    expect(await countsOf(owner, sink, invoices)).toEqual(exactly(invoices, 0));

    clock.setToday(addDays(due, -3));
    await expectRemindersSettleAt(owner, sink, invoices, 1, 60_000);
    await expectTotals(1);

    clock.setToday(addDays(due, 1));
    await expectRemindersSettleAt(owner, sink, invoices, 2, 60_000);
    await expectTotals(2);
  }, 150_000);

  it('sends nothing again after a restart; a step passed while none ran is sent once, on its own', async () => {
    await stopInstances();
    await startInstances();
    await delay(2 * SETTLE_MS);
    expect(await countsOf(owner, sink, invoices)).toEqual(exactly(invoices, 2));

    // Down over step 7: the next start sends it (8 days overdue by then), and nothing else.
    await stopInstances();
    clock.setToday(addDays(due, 8));
    await delay(SETTLE_MS);
    expect(await countsOf(owner, sink, invoices)).toEqual(exactly(invoices, 2));
    await startInstances();
    await expectRemindersSettleAt(owner, sink, invoices, 3, 60_000);
    await expectTotals(3);

    for (const invoice of invoices) {
      await expectReminderLog(owner, invoice, [addDays(due, -3), addDays(due, 1), addDays(due, 8)]);
    }
    const [first] = invoices;
    await expectReminderEvents(owner, first, 3);
    const mails = mailsTo(sink, first);
    expectReminderMail(mails[0], first, -3, '100.00');
    expectReminderMail(mails[1], first, 1, '100.00');
    expectReminderMail(mails[2], first, 8, '100.00');

    // From the database alone: each reminder one step of one invoice, with its entry and e-mail.
    const sql = await openSql(process.env.DATABASE_URL ?? '');
    try {
      expect(await invariantViolations(sql)).toEqual([]);
      const [{ reminders }] = await sql.query(
        'SELECT COUNT(*) AS reminders FROM invoice_reminders',
      );
      expect(Number(reminders)).toBe(INVOICES * 3);
    } finally {
      await sql.close();
    }
  }, 150_000);
});
