import { setTimeout as delay } from 'node:timers/promises';
import { createInvoice, readInvoice, sendInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { testDialect } from './setup/test-database';
import { SmtpSink } from './setup/smtp-sink';
import { SLOW_RUN } from './setup/test-run';

/*
 * Several instances on one database deliver each message once: in `npm run test:slow`, two app
 * instances share a MariaDB database, each with its own worker claiming with SKIP LOCKED. In
 * `npm test` one worker does the same on each database, on fewer messages (SQLite is for one
 * instance only: its write queue is in the process).
 */

const competing = SLOW_RUN && testDialect() === 'mysql';
const instancesOnThisDatabase = competing ? 2 : 1;
/** 200 where instances compete; fewer where one worker has the queue to itself. */
const MESSAGES = competing ? 200 : 40;
const INVOICES = 4;
/** Sends in flight at once, spread over the instances. */
const PARALLEL_SENDS = 10;

describe(`Delivery: ${instancesOnThisDatabase} instance(s) on one database`, () => {
  const sink = new SmtpSink();
  const instances: TestApp[] = [];

  beforeAll(async () => {
    await sink.start();
    const env = { SMTP_URL: sink.url, OUTBOX_POLL_MS: '20', MAIL_RETRY_BASE_MS: '20' };
    instances.push(await createTestApp({ env }));
    while (instances.length < instancesOnThisDatabase) {
      instances.push(await createTestApp({ env, sharedDatabase: true }));
    }
  });

  afterAll(async () => {
    // The first instance created the database and drops it: it closes last.
    for (const instance of [...instances].reverse()) await instance.close();
    await sink.stop();
  });

  it(`delivers each of ${MESSAGES} messages exactly once, and every one shows sent`, async () => {
    const [first] = instances;
    const invoices: string[] = [];
    for (let index = 0; index < INVOICES; index++) {
      invoices.push((await createInvoice(first.http)).id);
    }
    const recipients = Array.from({ length: MESSAGES }, (_, index) => `to${index}@example.com`);

    // Each send through one instance after the other, a few at a time.
    const pending = recipients.map((email, index) => ({ email, index }));
    const sendNext = async (): Promise<void> => {
      for (let send = pending.shift(); send; send = pending.shift()) {
        const instance = instances[send.index % instances.length];
        const id = invoices[send.index % INVOICES];
        await sendInvoice(instance.http, id, send.email);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_SENDS }, sendNext));

    // Bounded generously: this checks that each message goes once, not how fast (that is
    // npm run bench:delivery's); a loaded 2-core machine takes 30 s and more.
    await sink.waitForCount(MESSAGES, 60_000);
    // A few more polls of every worker find nothing left to send a second time.
    await delay(150);
    expect(sink.received).toHaveLength(MESSAGES);

    const perMessageId = new Map<string, number>();
    for (const { mail } of sink.received) {
      const id = mail.headers['message-id'];
      perMessageId.set(id, (perMessageId.get(id) ?? 0) + 1);
    }
    expect(perMessageId.size).toBe(MESSAGES);
    expect([...perMessageId.values()].every((count) => count === 1)).toBe(true);
    const delivered = sink.received.flatMap((received) => received.recipients).sort();
    expect(delivered).toEqual([...recipients].sort());

    for (const id of invoices) {
      const { send_log: log } = await readInvoice(first.http, id);
      expect(log).toHaveLength(MESSAGES / INVOICES);
      // One attempt each: no row was claimed by two workers.
      expect(log.filter((entry) => entry.delivery === 'sent' && entry.attempts === 1)).toHaveLength(
        MESSAGES / INVOICES,
      );
    }
  }, 90_000);
});
