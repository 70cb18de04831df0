import { eventually } from './setup/eventually';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { Database } from '../src/database/database';
import { OutboxMessage } from '../src/delivery/entities/outbox-message.entity';
import { createClient } from './factories/clients';
import { addCreditNote, readCreditNote } from './factories/credit-notes';
import { createEstimate, readEstimate } from './factories/estimates';
import {
  createInvoice,
  payInvoice,
  readInvoice,
  sendInvoice,
  SendLogEntry,
} from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError } from './setup/expectations';
import { expectInOrder, flattened, pdfText } from './setup/pdf-text';
import {
  closedPort,
  ParsedMail,
  parseMail,
  ReceivedMail,
  silentServer,
  SmtpSink,
} from './setup/smtp-sink';

/*
 * Send really sends: the e-mail with its PDF, through the outbox, to a real SMTP server started
 * here (or as .eml files), with retries, backoff and give-up; the send log shows it.
 */

const COMPANY = 'Acme Ltd';
/** Polls and retries in milliseconds, so every wait below is short and bounded. */
const FAST = {
  COMPANY_NAME: COMPANY,
  MAIL_FROM: 'billing@acme.example',
  OUTBOX_POLL_MS: '20',
  MAIL_RETRY_BASE_MS: '20',
};

/** A send-log entry: invoices and estimates answer the same keys. */
type Entry = SendLogEntry;

/** An invoice with two lines, 10 % tax and a payment: every total the e-mail shows differs. */
async function invoiceToSend(test: TestApp, names: string) {
  const client = await createClient(test.http, { names });
  const invoice = await createInvoice(test.http, {
    client,
    tax_rate: '10',
    issue_date: '2026-04-01',
    due_date: '2026-04-30',
    items: [
      { description: 'Design', quantity: 2, rate: '10.50' },
      { description: 'Hosting', quantity: 1, rate: '5.25' },
    ],
  });
  await payInvoice(test.http, invoice.id, '8.88');
  return invoice;
}

/** The entries of an invoice's send log, as the read shows them. */
const invoiceLog = (test: TestApp, id: string) => async () =>
  (await readInvoice(test.http, id)).send_log;

const lastEntry = (log: Entry[]) => log[log.length - 1];

function pdfOf(mail: ParsedMail) {
  expect(mail.attachments).toHaveLength(1);
  const [attachment] = mail.attachments;
  expect(attachment.contentType).toBe('application/pdf');
  expect(attachment.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return attachment;
}

/** The warning of a give-up, once logged: it follows the commit that marks the row failed. */
function giveUpWarning(test: TestApp): Promise<Record<string, unknown> | undefined> {
  return eventually(
    () =>
      test.logs
        .entries()
        .find((line) => line.level === 'warn' && String(line.msg).includes('failed for good')),
    (line) => line !== undefined,
  );
}

async function outboxRows(test: TestApp): Promise<OutboxMessage[]> {
  return test.app
    .get(DataSource)
    .getRepository(OutboxMessage)
    .find({ order: { id: 'ASC' } });
}

describe('Delivery over SMTP', () => {
  const sink = new SmtpSink({
    refuse: (recipient) => (recipient.startsWith('nobody@') ? 550 : undefined),
  });
  let test: TestApp;

  beforeAll(async () => {
    await sink.start();
    test = await createTestApp({
      env: { ...FAST, SMTP_URL: sink.url, MAIL_MAX_ATTEMPTS: '50' },
    });
  });

  afterAll(async () => {
    await test.close();
    await sink.stop();
  });

  /** The messages the sink got for one document number (in the subject). */
  const messagesFor = (number: string): ReceivedMail[] =>
    sink.received.filter((received) => received.mail.headers.subject?.includes(number));

  it('e-mails the invoice: recipient, subject, totals and due date in both bodies, the PDF attached', async () => {
    const invoice = await invoiceToSend(test, 'Zoë <b>Ström</b> & Co');
    await sendInvoice(test.http, invoice.id, 'ada@example.com');

    const [entry] = await eventually(
      invoiceLog(test, invoice.id),
      (log) => log[0]?.delivery === 'sent',
    );
    expect(entry).toMatchObject({ email: 'ada@example.com', delivery: 'sent', attempts: 1 });
    const [received] = messagesFor(invoice.invoice_no);
    expect(messagesFor(invoice.invoice_no)).toHaveLength(1);

    expect(received.recipients).toEqual(['ada@example.com']);
    const { headers, text, html } = received.mail;
    expect(headers.to).toBe('ada@example.com');
    expect(headers.from).toBe('Acme Ltd <billing@acme.example>');
    expect(headers.subject).toBe(`Invoice ${invoice.invoice_no} from ${COMPANY}`);
    expect(headers['message-id']).toMatch(/^<outbox\.\d+\.\d+@acme\.example>$/);
    // 2 × 10.50 + 5.25 = 26.25; 10 % tax 2.625 → 2.63; total 28.88; paid 8.88; due 20.00.
    for (const body of [text, html]) {
      for (const shown of ['26.25 USD', '2.63 USD', '28.88 USD', '8.88 USD', '20.00 USD']) {
        expect(body).toContain(shown);
      }
      // The due date as the document's locale writes it (en: the client has no language).
      expect(body).toContain('April 30, 2026');
      expect(body).toContain(invoice.invoice_no);
    }
    expect(text).toContain('Dear Zoë <b>Ström</b> & Co,');
    expect(html).toContain('Dear <bdi>Zoë &lt;b&gt;Ström&lt;/b&gt; &amp; Co</bdi>,');
    expect(html).not.toContain('<b>');

    const attachment = pdfOf(received.mail);
    expect(attachment.filename).toBe(`${invoice.invoice_no}.pdf`);
    const pdf = flattened((await pdfText(attachment.content)).text);
    expect(pdf).toContain(invoice.invoice_no);
    expect(pdf).toContain('Zoë <b>Ström</b> & Co');
    expect(pdf).toContain('28.88');
  });

  it('e-mails an estimate as an estimate', async () => {
    const estimate = await createEstimate(test.http, {
      due_date: '2026-05-31',
      issue_date: '2026-05-01',
    });
    await test.http
      .post('/v1/estimate/send')
      .send({ id: estimate.id, email: 'buyer@example.com' })
      .expect(200);

    const log = await eventually(
      async () => (await readEstimate(test.http, estimate.id)).send_log,
      (entries) => entries[0]?.delivery === 'sent',
    );
    expect(log).toEqual([
      expect.objectContaining({ email: 'buyer@example.com', delivery: 'sent', attempts: 1 }),
    ]);
    const received = messagesFor(estimate.estimate_no);
    expect(received).toHaveLength(1);
    const { headers, text, html } = received[0].mail;
    expect(received[0].recipients).toEqual(['buyer@example.com']);
    expect(headers.subject).toBe(`Estimate ${estimate.estimate_no} from ${COMPANY}`);
    for (const body of [text, html]) {
      expect(body).toContain('100.00 USD');
      expect(body).toContain('May 31, 2026');
      expect(body).not.toContain('Balance due');
    }
    const attachment = pdfOf(received[0].mail);
    expect(attachment.filename).toBe(`${estimate.estimate_no}.pdf`);
    const pdf = flattened((await pdfText(attachment.content)).text);
    expect(pdf).toContain(estimate.estimate_no);
    expect(pdf).toContain(estimate.customer_name);
    expect(pdf).toContain('100.00');
  });

  it('e-mails a credit note as a credit note, naming the invoice it corrects', async () => {
    const invoice = await createInvoice(test.http, { invoice_no: 'INV-CREDITED-1' });
    const written = await addCreditNote(test.http, invoice.id, {
      credit_note_no: 'CN-MAILED-1',
      items: [{ description: 'Discount', quantity: 1, rate: '12.50' }],
      issue_date: invoice.issue_date,
    });
    const creditNote = written.credit_note[0];
    await test.http
      .post('/v1/credit-note/send')
      .send({ id: creditNote.id, email: 'ap@example.com' })
      .expect(200);

    const log = await eventually(
      async () => (await readCreditNote(test.http, creditNote.id)).send_log,
      (entries) => entries[0]?.delivery === 'sent',
    );
    expect(log).toEqual([
      expect.objectContaining({ email: 'ap@example.com', delivery: 'sent', attempts: 1 }),
    ]);
    const received = messagesFor('CN-MAILED-1');
    expect(received).toHaveLength(1);
    const { headers, text, html } = received[0].mail;
    expect(headers.subject).toBe(`Credit note CN-MAILED-1 from ${COMPANY}`);
    for (const body of [text, html]) {
      expect(body).toContain('Please find attached credit note CN-MAILED-1');
      expect(body).toContain('INV-CREDITED-1');
      expect(body).toContain('12.50 USD');
      expect(body).not.toContain('Due date');
    }
    const attachment = pdfOf(received[0].mail);
    expect(attachment.filename).toBe('CN-MAILED-1.pdf');
    const pdf = flattened((await pdfText(attachment.content)).text);
    expectInOrder(pdf, ['CREDIT NOTE', 'CN-MAILED-1', 'Corrects invoice', 'INV-CREDITED-1']);
  });

  it('answers at once while SMTP is down, retries, and delivers exactly once when it is back', async () => {
    const invoice = await invoiceToSend(test, 'Outage Client');
    await sink.stop();
    try {
      const started = Date.now();
      await sendInvoice(test.http, invoice.id, 'patient@example.com');
      expect(Date.now() - started).toBeLessThan(2_000);

      const failing = await eventually(
        invoiceLog(test, invoice.id),
        (log) => log[0]?.attempts >= 3,
      );
      expect(failing[0].delivery).toBe('queued');
      const [row] = (await outboxRows(test)).filter(
        (message) => message.recipient === 'patient@example.com',
      );
      expect(row.lastError).not.toBe('');
      expect(row.lastError).not.toContain('@');
    } finally {
      await sink.start();
    }

    const [entry] = await eventually(
      invoiceLog(test, invoice.id),
      (log) => log[0]?.delivery === 'sent',
    );
    expect(entry.attempts).toBeGreaterThanOrEqual(3);
    // A few more polls find nothing left to send.
    await delay(150);
    const received = messagesFor(invoice.invoice_no);
    expect(received).toHaveLength(1);
    expect(received[0].recipients).toEqual(['patient@example.com']);
    expect(sink.withMessageId(received[0].mail.headers['message-id'])).toHaveLength(1);
  });

  it('fails at once, keeps the message and logs it without the address when the server refuses the recipient for good', async () => {
    const invoice = await invoiceToSend(test, 'Refused Client');
    await sendInvoice(test.http, invoice.id, 'nobody@example.com');

    const [entry] = await eventually(
      invoiceLog(test, invoice.id),
      (log) => log[0]?.delivery === 'failed',
    );
    expect(entry).toMatchObject({ email: 'nobody@example.com', delivery: 'failed', attempts: 1 });
    expect(messagesFor(invoice.invoice_no)).toEqual([]);
    const [row] = (await outboxRows(test)).filter(
      (message) => message.recipient === 'nobody@example.com',
    );
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: 'EENVELOPE 550' });
    const warning = await giveUpWarning(test);
    expect(warning).toMatchObject({
      outbox: row.id,
      kind: 'invoice',
      documentId: Number(invoice.id),
      attempts: 1,
      reason: 'EENVELOPE 550',
    });
    expect(JSON.stringify(warning)).not.toContain('nobody');
  });

  it('takes a crashed instance’s claim again once its lease ends, and delivers it once', async () => {
    const invoice = await invoiceToSend(test, 'Crash Client');
    await sink.stop();
    let row: OutboxMessage | undefined;
    try {
      await sendInvoice(test.http, invoice.id, 'crash@example.com');
      await eventually(invoiceLog(test, invoice.id), (log) => log[0]?.attempts >= 1);
      [row] = (await outboxRows(test)).filter(
        (message) => message.recipient === 'crash@example.com',
      );
      // As another instance would leave it: claimed, its lease an hour long (through the app's
      // own write queue, so on SQLite this joins no transaction of the worker's).
      await setClaim(test, row.id, new Date(Date.now() + 3_600_000));
      // An attempt this worker began before that fails against the stopped server within a
      // few milliseconds; a few polls later none can be under way.
      await delay(300);
    } finally {
      await sink.start();
    }
    const leased = await readInvoice(test.http, invoice.id);
    expect(leased.send_log[0].delivery).toBe('queued');
    await delay(150);
    expect(messagesFor(invoice.invoice_no)).toEqual([]);

    // That instance died: its lease runs out.
    await setClaim(test, row.id, new Date(Date.now() - 1_000));
    const [entry] = await eventually(
      invoiceLog(test, invoice.id),
      (log) => log[0]?.delivery === 'sent',
    );
    expect(entry.attempts).toBeGreaterThanOrEqual(2);
    expect(messagesFor(invoice.invoice_no)).toHaveLength(1);
  });

  it('writes nothing for a refused send', async () => {
    const archived = await createInvoice(test.http);
    await test.http.delete(`/v1/invoice/${archived.id}`).expect(200);
    const rows = async () => {
      const dataSource = test.app.get(DataSource);
      const counts = await Promise.all(
        ['document_outbox', 'invoice_send_log', 'estimate_send_log', 'credit_note_send_log'].map(
          async (table) => {
            const [row] = await dataSource.query<Array<{ n: unknown }>>(
              `SELECT COUNT(*) AS n FROM ${table}`,
            );
            return Number(row.n);
          },
        ),
      );
      return counts;
    };
    const before = await rows();

    for (const kind of ['invoice', 'estimate', 'credit-note']) {
      for (const id of ['999999', kind === 'credit-note' ? '0' : archived.id]) {
        const response = await test.http
          .post(`/v1/${kind}/send`)
          .send({ id, email: 'x@example.com' });
        expectError(response, 404);
      }
    }
    expectError(
      await test.http.post('/v1/invoice/send').send({ id: 'x', email: 'x@example.com' }),
      422,
    );

    expect(await rows()).toEqual(before);
  });
});

/** The claim of a row as a (possibly dead) instance would hold it, with its lease end. */
async function setClaim(test: TestApp, id: number, leaseEnd: Date): Promise<void> {
  const database = test.app.get(Database);
  await database.transaction(async () => {
    await database.manager.update(OutboxMessage, id, {
      status: 'sending',
      claimedAt: new Date(leaseEnd.getTime() - 3_600_000),
      nextAttemptAt: leaseEnd,
    });
  });
}

describe('Delivery: a message that exhausts its attempts', () => {
  let test: TestApp;

  beforeAll(async () => {
    const port = await closedPort();
    test = await createTestApp({
      env: {
        ...FAST,
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_MAX_ATTEMPTS: '3',
        MAIL_RETRY_BASE_MS: '10',
      },
    });
  });

  afterAll(() => test.close());

  it('is failed after MAIL_MAX_ATTEMPTS, kept, and logged at warn without the address', async () => {
    const invoice = await invoiceToSend(test, 'Unreachable Client');
    await sendInvoice(test.http, invoice.id, 'unreachable@example.com');

    const [entry] = await eventually(
      invoiceLog(test, invoice.id),
      (log) => log[0]?.delivery === 'failed',
    );
    expect(entry).toMatchObject({ delivery: 'failed', attempts: 3 });
    const [row] = await outboxRows(test);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 3,
      recipient: 'unreachable@example.com',
      nextAttemptAt: null,
      sentAt: null,
    });
    expect(row.lastError).toMatch(/^E[A-Z]+$/);
    expect(JSON.parse(row.documentView)).toMatchObject({ number: invoice.invoice_no });
    const warning = await giveUpWarning(test);
    expect(warning).toMatchObject({
      outbox: row.id,
      kind: 'invoice',
      documentId: Number(invoice.id),
      attempts: 3,
      reason: row.lastError,
    });
    // The close of the file checks that no line holds an address; this one names none either.
    expect(JSON.stringify(warning)).not.toMatch(/unreachable|@/);

    // Failed is final: no more attempts.
    await delay(100);
    expect((await readInvoice(test.http, invoice.id)).send_log[0].attempts).toBe(3);
  });
});

describe('Delivery: shutdown', () => {
  // The owner serves the API and has no worker (OUTBOX_POLL_MS=0, as in every test app); the
  // instances that deliver share its database and are closed while sending.
  let owner: TestApp;
  let hung: Awaited<ReturnType<typeof silentServer>>;
  const slow = new SmtpSink({ answerAfterMs: 400 });

  beforeAll(async () => {
    hung = await silentServer();
    await slow.start();
    owner = await createTestApp();
  });

  afterAll(async () => {
    await owner.close();
    await hung.close();
    await slow.stop();
  });

  const rowWith = (recipient: string) => async () =>
    (await outboxRows(owner)).find((message) => message.recipient === recipient);

  it('returns a message still being sent after the bound to the queue, its attempt not counted', async () => {
    const worker = await createTestApp({
      env: { ...FAST, SMTP_URL: hung.url, SHUTDOWN_TIMEOUT_MS: '1000' },
      sharedDatabase: true,
    });
    const invoice = await invoiceToSend(owner, 'Hung Client');
    await sendInvoice(owner.http, invoice.id, 'hung@example.com');
    await eventually(rowWith('hung@example.com'), (row) => row?.status === 'sending');

    const closing = Date.now();
    await worker.close();
    // The wait is a fifth of SHUTDOWN_TIMEOUT_MS here: 200 ms, then the send is cut off.
    expect(Date.now() - closing).toBeLessThan(1_000);
    expect(await rowWith('hung@example.com')()).toMatchObject({
      status: 'queued',
      attempts: 0,
      claimedAt: null,
      sentAt: null,
    });
    expect((await readInvoice(owner.http, invoice.id)).send_log[0]).toMatchObject({
      delivery: 'queued',
      attempts: 0,
    });
  });

  it('lets a message being sent finish on close; a returned one is delivered by the next instance', async () => {
    const worker = await createTestApp({
      env: { ...FAST, SMTP_URL: slow.url },
      sharedDatabase: true,
    });
    // The message the hung server held, now with a server that answers after 400 ms.
    await eventually(rowWith('hung@example.com'), (row) => row?.status === 'sending');
    await worker.close();

    expect(await rowWith('hung@example.com')()).toMatchObject({ status: 'sent', attempts: 1 });
    expect(slow.received.map((received) => received.recipients)).toEqual([['hung@example.com']]);
  });
});

describe('Delivery: the outbox keeps the document as it was sent', () => {
  // No worker here (OUTBOX_POLL_MS=0, as in every test app): the rows stay as send wrote them.
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp({ env: { BODY_LIMIT: '5mb' } });
  });

  afterAll(() => test.close());

  it('holds the document of the send, not a later version', async () => {
    const invoice = await invoiceToSend(test, 'Snapshot Client');
    await sendInvoice(test.http, invoice.id, 'snapshot@example.com');
    await test.http
      .put(`/v1/invoice/${invoice.id}`)
      .send({
        client: invoice.customer_id,
        invoice_no: invoice.invoice_no,
        payment_status: 'Not Paid',
        issue_date: '2026-04-01',
        due_date: '2026-06-30',
        tax_rate: '10',
        items: [{ description: 'Changed', quantity: 1, rate: '500.00' }],
      })
      .expect(200);
    expect((await readInvoice(test.http, invoice.id)).invoice[0].total).toBe(550);

    const [row] = await outboxRows(test);
    expect(row).toMatchObject({
      kind: 'invoice',
      documentId: Number(invoice.id),
      status: 'queued',
    });
    expect(JSON.parse(row.documentView)).toMatchObject({
      kind: 'invoice',
      number: invoice.invoice_no,
      dueDate: '2026-04-30',
      customer: { name: 'Snapshot Client' },
      lines: [
        { description: 'Design', quantity: '2', rate: '10.50', amount: '21.00' },
        { description: 'Hosting', quantity: '1', rate: '5.25', amount: '5.25' },
      ],
      subTotal: '26.25',
      taxRate: '10',
      taxAmount: '2.63',
      total: '28.88',
      amountPaid: '8.88',
      balanceDue: '20.00',
    });
  });

  it('holds the largest document whole: 500 lines of 1000 three-byte characters', async () => {
    const description = '€'.repeat(1000);
    const invoice = await createInvoice(test.http, {
      items: Array.from({ length: 500 }, () => ({ description, quantity: 1, rate: '1.00' })),
    });
    await sendInvoice(test.http, invoice.id, 'large@example.com');

    const row = (await outboxRows(test)).find(
      (message) => message.recipient === 'large@example.com',
    );
    const view = JSON.parse(row!.documentView) as { lines: Array<{ description: string }> };
    expect(view.lines).toHaveLength(500);
    expect(view.lines.every((line) => line.description === description)).toBe(true);
  });
});

describe('Delivery without SMTP_URL: .eml files', () => {
  let test: TestApp;
  let mailDir: string;

  beforeAll(async () => {
    mailDir = await mkdtemp(join(tmpdir(), 'invoicing-eml-'));
    test = await createTestApp({ env: { ...FAST, MAIL_DIR: join(mailDir, 'outbox') } });
  });

  afterAll(async () => {
    await test.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  it('writes each message as an .eml file under MAIL_DIR, with its recipient, subject and PDF', async () => {
    const invoice = await invoiceToSend(test, 'File Client');
    await sendInvoice(test.http, invoice.id, 'file@example.com');
    await eventually(invoiceLog(test, invoice.id), (log) => lastEntry(log)?.delivery === 'sent');

    const files = await readdir(join(mailDir, 'outbox'));
    expect(files).toEqual([
      expect.stringMatching(
        new RegExp(`^\\d{8}T\\d{6}Z-invoice-${invoice.invoice_no}-\\d+\\.eml$`),
      ),
    ]);
    const mail = parseMail(await readFile(join(mailDir, 'outbox', files[0])));
    expect(mail.headers.to).toBe('file@example.com');
    expect(mail.headers.subject).toBe(`Invoice ${invoice.invoice_no} from ${COMPANY}`);
    expect(mail.text).toContain('28.88 USD');
    const attachment = pdfOf(mail);
    expect(attachment.filename).toBe(`${invoice.invoice_no}.pdf`);
    expect(flattened((await pdfText(attachment.content)).text)).toContain(invoice.invoice_no);
  });
});
