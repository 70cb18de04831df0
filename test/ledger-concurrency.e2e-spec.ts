import type { Response } from 'supertest';
import { createClient } from './factories/clients';
import { creditNoteNumber } from './factories/credit-notes';
import { createInvoice, payInvoice, readInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { invariantViolations, openSql, Sql } from './setup/invariants';
import { toScaled } from './setup/workload';

/*
 * Payments, refunds and credit notes racing on one invoice inside one app: every ledger write
 * locks the invoice's row first (on SQLite: waits in the write queue), so each must see the
 * ledger the previous one left. The amounts are chosen so that many writes would break a limit
 * (the outstanding balance, the cash held, the total less earlier credit notes) if two ran on
 * the same state. Afterwards the ledger is read back from the database and through the API:
 * every accepted write is there exactly once, every refused one wrote nothing and was refused
 * for a limit it really broke, and every state the ledger passed through was within bounds.
 */

type Kind = 'payment' | 'refund' | 'credit' | 'credit-refund';

/** One write of a burst; sent `copies` times at once with one Idempotency-Key when keyed. */
interface Write {
  kind: Kind;
  /** Decimal text: the payment, the refund, or the credit note's one line (no tax). */
  amount: string;
  /** A credit note's number: fresh unless a test races one number on purpose. */
  number?: string;
  key?: string;
}

interface Outcome {
  write: Write;
  responses: Response[];
}

interface Entry {
  id: string;
  reference: string;
  status: 'Completed' | 'Refunded' | 'Credited';
  amount: bigint;
  creditNoteId: string | null;
}

/** The ledger's sums, scaled by 10^4 (toScaled). */
interface LedgerState {
  paid: bigint;
  held: bigint;
  credited: bigint;
}

interface InvoiceUnderTest {
  id: string;
  total: bigint;
}

const PATHS: Record<Kind, string> = {
  payment: '/v1/invoice/record-payment',
  refund: '/v1/invoice/refund',
  credit: '/v1/credit-note/add',
  'credit-refund': '/v1/credit-note/add',
};

/** The field a 422 of each kind names. */
const REFUSED_FIELD: Record<Kind, string> = {
  payment: 'amount_paid',
  refund: 'amount',
  credit: 'items',
  'credit-refund': 'items',
};

const isCredit = (kind: Kind) => kind === 'credit' || kind === 'credit-refund';
const replayed = (response: Response) => response.headers['idempotent-replayed'] === 'true';
const accepted = (outcome: Outcome) =>
  outcome.responses.filter((response) => response.status === 200 && !replayed(response));
/** Database values as text (ids come as numbers from SQLite, decimals as text from both). */
const text = (value: unknown) => String(value);
const min = (a: bigint, b: bigint) => (b < a ? b : a);
const nameOf = (outcome: Outcome) =>
  `${outcome.write.kind} ${outcome.write.amount}${outcome.write.key ? ` key ${outcome.write.key}` : ''}`;

/** Amounts `base` + 0.01, + 0.02, …: distinct, so each entry names its write. */
const amounts = (base: number, count: number) =>
  Array.from({ length: count }, (_, index) => (base + (index + 1) / 100).toFixed(2));

/** A fixed shuffle (a stride through the list), so the kinds arrive mixed, alike every run. */
function interleave<T>(values: T[]): T[] {
  const stride = 7;
  const order = Array.from({ length: values.length }, (_, index) => index).sort(
    (a, b) => ((a * stride) % values.length) - ((b * stride) % values.length) || a - b,
  );
  return order.map((index) => values[index]);
}

describe('Ledger: payments, refunds and credit notes racing on one invoice', () => {
  let test: TestApp;
  let sql: Sql;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
    // After the app: on SQLite the file exists once the migrations ran.
    sql = await openSql(process.env.DATABASE_URL ?? '');
  });

  afterAll(async () => {
    await sql?.close();
    await test?.close();
  });

  /** A Not Paid invoice of exactly `total` (one line, no tax), paid `prepaid` beforehand. */
  async function invoiceOf(total: string, prepaid?: string): Promise<InvoiceUnderTest> {
    const invoice = await createInvoice(test.http, {
      client,
      tax_rate: 0,
      items: [{ description: 'Work', quantity: 1, rate: total }],
    });
    if (prepaid !== undefined) await payInvoice(test.http, invoice.id, prepaid);
    return { id: invoice.id, total: toScaled(total) };
  }

  function bodyOf(invoiceId: string, write: Write): Record<string, unknown> {
    switch (write.kind) {
      case 'payment':
        return { id: invoiceId, amount_paid: write.amount, payment_date: '2026-03-10' };
      case 'refund':
        return {
          id: invoiceId,
          amount: write.amount,
          refund_date: '2026-03-12',
          reason: 'Goods returned',
        };
      case 'credit':
      case 'credit-refund':
        return {
          invoice: invoiceId,
          credit_note_no: write.number ?? creditNoteNumber('RACE'),
          items: [{ description: 'Correction', quantity: 1, rate: write.amount }],
          refund: write.kind === 'credit-refund',
        };
    }
  }

  /** Sends every write (a keyed one twice) at once; answers each write with its responses. */
  async function burst(invoiceId: string, writes: Write[], copies = 2): Promise<Outcome[]> {
    const requests = writes.flatMap((write, index) => {
      // The body is drawn once, so that a keyed write's copies are the same request.
      const body = bodyOf(invoiceId, write);
      return Array.from({ length: write.key === undefined ? 1 : copies }, () => ({
        index,
        send: () => {
          const request = test.http.post(PATHS[write.kind]);
          if (write.key !== undefined) void request.set('Idempotency-Key', write.key);
          return request.send(body);
        },
      }));
    });
    const sent = interleave(requests);
    const responses = await Promise.all(sent.map(({ send }) => send()));
    return writes.map((write, index) => ({
      write,
      responses: responses.filter((_, position) => sent[position].index === index),
    }));
  }

  async function ledgerOf(invoiceId: string): Promise<Entry[]> {
    const rows = await sql.query(
      `SELECT id, reference, status, amount, credit_note_id FROM invoice_payments WHERE invoice_id = ${Number(invoiceId)} ORDER BY id`,
    );
    return rows.map((row) => ({
      id: String(row.id),
      reference: String(row.reference),
      status: row.status as Entry['status'],
      amount: toScaled(String(row.amount)),
      creditNoteId: row.credit_note_id === null ? null : text(row.credit_note_id),
    }));
  }

  /**
   * Judges a burst from the database and the answers: the problems found (none expected) and
   * what was accepted and refused. `before`: the ledger's entries before the burst.
   */
  async function judge(invoice: InvoiceUnderTest, outcomes: Outcome[], before: Entry[]) {
    const problems: string[] = [];
    const entries = await ledgerOf(invoice.id);
    const added = entries.slice(before.length);
    if (
      entries
        .slice(0, before.length)
        .map((entry) => entry.id)
        .join() !== before.map((entry) => entry.id).join()
    ) {
      problems.push('entries from before the burst changed');
    }

    // Every state the ledger passed through (a credit note's refund and credit are one write):
    // the state the burst began from, then the one after each write.
    const apply = (state: LedgerState, entry: Entry): LedgerState => ({
      paid: state.paid + (entry.status === 'Refunded' ? -entry.amount : entry.amount),
      held:
        state.held +
        (entry.status === 'Completed'
          ? entry.amount
          : entry.status === 'Refunded'
            ? -entry.amount
            : 0n),
      credited: state.credited + (entry.status === 'Credited' ? entry.amount : 0n),
    });
    let state = before.reduce(apply, { paid: 0n, held: 0n, credited: 0n });
    const states = [state];
    const after = new Map<string, LedgerState>();
    for (const entry of added) {
      state = apply(state, entry);
      after.set(entry.reference, state);
      if (entry.status === 'Credited') after.set(`note ${entry.creditNoteId}`, state);
      const midCredit = entry.status === 'Refunded' && entry.creditNoteId !== null;
      if (!midCredit) states.push(state);
      if (
        state.held < 0n ||
        state.paid < 0n ||
        state.paid > invoice.total ||
        state.credited > invoice.total
      ) {
        problems.push(
          `entry ${entry.id} ${entry.status} ${entry.amount}: out of bounds ${JSON.stringify(state, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
        );
      }
    }
    const final = state;
    const least = (of: (state: LedgerState) => bigint) => states.map(of).reduce(min);

    const notes = new Map(
      (
        await sql.query(
          `SELECT id, credit_note_no, total, refunded FROM credit_notes WHERE invoice_id = ${Number(invoice.id)}`,
        )
      ).map((row) => [String(row.id), row]),
    );
    const claimed = new Set<string>();
    const claim = (entry: Entry | undefined, by: string) => {
      if (!entry) return problems.push(`${by}: no entry`);
      if (claimed.has(entry.id)) problems.push(`${by}: entry ${entry.id} claimed twice`);
      claimed.add(entry.id);
    };
    const count = { accepted: new Map<Kind, number>(), refused: new Map<Kind, number>() };
    const tally = (map: Map<Kind, number>, kind: Kind) => map.set(kind, (map.get(kind) ?? 0) + 1);

    for (const outcome of outcomes) {
      const { write, responses } = outcome;
      const name = nameOf(outcome);
      const runs = accepted(outcome);
      if (runs.length > 1) problems.push(`${name}: accepted ${runs.length} times`);
      for (const response of responses) {
        const conflict = (response.body as { message?: string }).message ?? '';
        if (response.status === 200) {
          if (replayed(response) && runs[0]?.text !== response.text)
            problems.push(`${name}: a replay of no answer given`);
        } else if (response.status === 422) {
          const errors = (response.body as { errors?: Record<string, unknown> }).errors ?? {};
          if (!(REFUSED_FIELD[write.kind] in errors))
            problems.push(`${name}: 422 naming ${Object.keys(errors).join()}`);
        } else if (response.status === 409) {
          const keyed = write.key !== undefined && /Idempotency-Key/.test(conflict);
          const taken = write.number !== undefined && / is already in use$/.test(conflict);
          if (!keyed && !taken) problems.push(`${name}: 409 ${conflict}`);
        } else {
          problems.push(`${name}: ${response.status} ${response.text.slice(0, 200)}`);
        }
      }
      if (runs.length === 0) {
        if (responses.some((response) => response.status === 422)) tally(count.refused, write.kind);
        // Refused for a limit it broke in some state the ledger was in while it ran.
        const amount = toScaled(write.amount);
        const limit =
          write.kind === 'payment'
            ? least((s) => invoice.total - s.paid)
            : write.kind === 'refund'
              ? least((s) => s.held)
              : write.kind === 'credit'
                ? least((s) => min(invoice.total - s.paid, invoice.total - s.credited))
                : least((s) => invoice.total - s.credited);
        if (responses.some((response) => response.status === 422) && amount <= limit) {
          problems.push(`${name}: refused, yet within ${limit} in every state it could meet`);
        }
        continue;
      }
      tally(count.accepted, write.kind);
      const [response] = runs;
      if (write.kind === 'refund') {
        const body = response.body as {
          entry: { reference: string; status: string };
          invoice: Array<{ amount_paid: string }>;
        };
        const entry = added.find((candidate) => candidate.reference === body.entry.reference);
        claim(entry, name);
        if (
          entry &&
          (entry.status !== 'Refunded' ||
            entry.amount !== toScaled(write.amount) ||
            entry.creditNoteId !== null)
        )
          problems.push(`${name}: stored as ${entry.status} ${entry.amount}`);
        if (after.get(body.entry.reference)?.paid !== toScaled(body.invoice[0].amount_paid))
          problems.push(
            `${name}: answered amount_paid ${body.invoice[0].amount_paid}, not the ledger after it`,
          );
      }
      if (isCredit(write.kind)) {
        const body = response.body as {
          credit_note: Array<{
            id: string;
            credit_note_no: string;
            total: number;
            refunded: string;
          }>;
          invoice: Array<{ amount_paid: string }>;
        };
        const [note] = body.credit_note;
        const stored = notes.get(note.id);
        if (!stored || String(stored.credit_note_no) !== note.credit_note_no)
          problems.push(`${name}: credit note ${note.id} not stored as answered`);
        if (toScaled(note.total) !== toScaled(write.amount))
          problems.push(`${name}: total ${note.total}`);
        const own = added.filter((entry) => entry.creditNoteId === note.id);
        const credited = own.filter((entry) => entry.status === 'Credited');
        const refunds = own.filter((entry) => entry.status === 'Refunded');
        if (credited.length !== 1 || credited[0].amount !== toScaled(write.amount))
          problems.push(`${name}: ${credited.length} Credited entries`);
        const refunded = refunds.reduce((sum, entry) => sum + entry.amount, 0n);
        if (refunded !== toScaled(note.refunded) || (write.kind === 'credit' && refunded !== 0n))
          problems.push(`${name}: refunded ${note.refunded}, entries ${refunded}`);
        for (const entry of own) claim(entry, name);
        if (after.get(`note ${note.id}`)?.paid !== toScaled(body.invoice[0].amount_paid))
          problems.push(
            `${name}: answered amount_paid ${body.invoice[0].amount_paid}, not the ledger after it`,
          );
      }
    }
    // Payments answer a message only: as many Completed entries of each amount as payments of
    // that amount were accepted.
    for (const amount of new Set(
      outcomes.filter((o) => o.write.kind === 'payment').map((o) => o.write.amount),
    )) {
      const payments = outcomes.filter(
        (o) => o.write.kind === 'payment' && o.write.amount === amount,
      );
      const want = payments.filter((o) => accepted(o).length > 0).length;
      const have = added.filter(
        (entry) => entry.status === 'Completed' && entry.amount === toScaled(amount),
      );
      if (have.length !== want)
        problems.push(`payments of ${amount}: ${want} accepted, ${have.length} stored`);
      for (const entry of have) claim(entry, `payment ${amount}`);
    }
    for (const entry of added) {
      if (!claimed.has(entry.id))
        problems.push(`entry ${entry.id} ${entry.status} ${entry.amount}: no write accepted it`);
    }

    // The invoice as stored and as read through the API: the last state.
    const [row] = await sql.query(
      `SELECT total, amount_paid, amount_credited, payment_status FROM invoices WHERE id = ${Number(invoice.id)}`,
    );
    if (
      toScaled(String(row.amount_paid)) !== final.paid ||
      toScaled(String(row.amount_credited)) !== final.credited
    )
      problems.push(
        `stored amount_paid ${String(row.amount_paid)}, credited ${String(row.amount_credited)}: not the ledger`,
      );
    const noteTotal = [...notes.values()].reduce(
      (sum, note) => sum + toScaled(String(note.total)),
      0n,
    );
    if (noteTotal !== final.credited || noteTotal > invoice.total)
      problems.push(
        `credit notes total ${noteTotal}, credited ${final.credited}, of ${invoice.total}`,
      );
    const read = await readInvoice(test.http, invoice.id);
    const [output] = read.invoice;
    const readPaid = read.payments.reduce(
      (sum, entry) => sum + (entry.status === 'Refunded' ? -1n : 1n) * toScaled(entry.amount),
      0n,
    );
    if (
      read.payments.length !== entries.length ||
      readPaid !== final.paid ||
      toScaled(output.amount_paid) !== final.paid ||
      toScaled(output.outstanding_balance) !== invoice.total - final.paid
    ) {
      problems.push(
        `read: ${output.amount_paid} paid, ${output.outstanding_balance} outstanding, ${read.payments.length} entries`,
      );
    }
    // Not Paid to begin with, moved by the ledger alone: Paid exactly when settled.
    if ((output.payment_status === 'Paid') !== (final.paid === invoice.total))
      problems.push(
        `read: ${output.payment_status} with ${output.outstanding_balance} outstanding`,
      );
    problems.push(...(await invariantViolations(sql)));

    const sum = (map: Map<Kind, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    return {
      problems,
      final,
      accepted: Object.fromEntries(count.accepted) as Partial<Record<Kind, number>>,
      refused: Object.fromEntries(count.refused) as Partial<Record<Kind, number>>,
      acceptedCount: sum(count.accepted),
      refusedCount: sum(count.refused),
    };
  }

  it('mixes 51 payments, refunds and credit notes at once: serialised, each once, each refusal earned', async () => {
    const invoice = await invoiceOf('1000.00', '400.00');
    const before = await ledgerOf(invoice.id);
    const number = creditNoteNumber('RACE-ONE');
    const writes: Write[] = [
      ...amounts(150, 14).map((amount): Write => ({ kind: 'payment', amount })),
      ...amounts(90, 10).map((amount): Write => ({ kind: 'refund', amount })),
      ...amounts(60, 8).map((amount): Write => ({ kind: 'credit', amount })),
      ...amounts(110, 8).map((amount): Write => ({ kind: 'credit-refund', amount })),
      // Keyed, each sent twice at once: one runs, the other waits its turn (409) or replays.
      { kind: 'payment', amount: '151.01', key: `race-pay-${invoice.id}` },
      { kind: 'refund', amount: '91.01', key: `race-refund-${invoice.id}` },
      { kind: 'credit', amount: '61.01', key: `race-credit-${invoice.id}` },
      { kind: 'credit-refund', amount: '111.01', key: `race-credit-refund-${invoice.id}` },
      // One number three times: one credit note at most, the others 409 (or 422 first).
      { kind: 'credit', amount: '62.01', number },
      { kind: 'credit', amount: '62.02', number },
      { kind: 'credit-refund', amount: '112.01', number },
    ];

    const outcomes = await burst(invoice.id, writes);
    const verdict = await judge(invoice, outcomes, before);

    expect(outcomes.flatMap((outcome) => outcome.responses)).toHaveLength(51);
    expect(verdict.problems).toEqual([]);
    // Both outcomes happened. The amounts guarantee some: payments asked (2,251.00) exceed
    // what 600.00 outstanding and every refund asked could make room for, credit notes asked
    // (1,532.00 beside the racing number) exceed the total; the first write in line fits.
    expect(verdict.acceptedCount).toBeGreaterThan(0);
    expect(verdict.refused.payment ?? 0).toBeGreaterThan(0);
    expect((verdict.refused.credit ?? 0) + (verdict.refused['credit-refund'] ?? 0)).toBeGreaterThan(
      0,
    );
    const raced = outcomes.filter((outcome) => outcome.write.number === number);
    expect(raced.flatMap(accepted).length).toBeLessThanOrEqual(1);
    expect(
      await sql.query(`SELECT id FROM credit_notes WHERE credit_note_no = '${number}'`),
    ).toHaveLength(raced.flatMap(accepted).length);
    for (const outcome of outcomes.filter((candidate) => candidate.write.key !== undefined)) {
      expect(outcome.responses).toHaveLength(2);
    }
  });

  describe('one kind at a time: exactly as many as the limit holds', () => {
    const cases: Array<{
      name: string;
      prepaid?: string;
      kind: Kind;
      amount: string;
      accepted: number;
      final: { paid: string; held: string; credited: string };
    }> = [
      {
        name: '30 payments of 70.00 on 1,000.00 outstanding: 14 accepted',
        kind: 'payment',
        amount: '70.00',
        accepted: 14,
        final: { paid: '980', held: '980', credited: '0' },
      },
      {
        name: '30 refunds of 40.00 on 500.00 held: 12 accepted',
        prepaid: '500.00',
        kind: 'refund',
        amount: '40.00',
        accepted: 12,
        final: { paid: '20', held: '20', credited: '0' },
      },
      {
        name: '30 credit notes of 90.00 on 1,000.00 outstanding: 11 accepted',
        kind: 'credit',
        amount: '90.00',
        accepted: 11,
        final: { paid: '990', held: '0', credited: '990' },
      },
      {
        name: '30 refunding credit notes of 90.00 on a paid 1,000.00: 11 accepted, each refunding',
        prepaid: '1000.00',
        kind: 'credit-refund',
        amount: '90.00',
        accepted: 11,
        final: { paid: '1000', held: '10', credited: '990' },
      },
    ];

    it.each(cases)('$name', async ({ prepaid, kind, amount, accepted: expected, final }) => {
      const invoice = await invoiceOf('1000.00', prepaid);
      const before = await ledgerOf(invoice.id);
      const writes = Array.from({ length: 30 }, (): Write => ({ kind, amount }));

      const verdict = await judge(invoice, await burst(invoice.id, writes), before);

      expect(verdict.problems).toEqual([]);
      expect({ accepted: verdict.acceptedCount, refused: verdict.refusedCount }).toEqual({
        accepted: expected,
        refused: 30 - expected,
      });
      expect(verdict.final).toEqual({
        paid: toScaled(final.paid),
        held: toScaled(final.held),
        credited: toScaled(final.credited),
      });
    });
  });

  it('issues one credit note of one number raced on three invoices; the others answer 409', async () => {
    const invoices = [
      await invoiceOf('500.00'),
      await invoiceOf('500.00'),
      await invoiceOf('500.00'),
    ];
    const number = creditNoteNumber('RACE-NO');
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        test.http.post('/v1/credit-note/add').send({
          invoice: invoices[index % 3].id,
          credit_note_no: number,
          items: [{ description: 'Correction', quantity: 1, rate: `${10 + index}.00` }],
        }),
      ),
    );

    expect(responses.map((response) => response.status).sort()).toEqual([
      200,
      ...Array<number>(11).fill(409),
    ]);
    const rows = await sql.query(
      `SELECT invoice_id FROM credit_notes WHERE credit_note_no = '${number}'`,
    );
    expect(rows).toHaveLength(1);
    // Only the winner's invoice was credited.
    const credited = await sql.query(
      `SELECT invoice_id FROM invoice_payments WHERE status = 'Credited' AND invoice_id IN (${invoices.map((invoice) => Number(invoice.id)).join()})`,
    );
    expect(credited.map((row) => String(row.invoice_id))).toEqual([String(rows[0].invoice_id)]);
    expect(await invariantViolations(sql)).toEqual([]);
  });

  // Sent first, the void mostly wins; in the middle, mostly a payment does: both are right.
  it.each([
    ['first', 0],
    ['in the middle', 5],
  ])(
    'voids an invoice only before any payment of a race (void sent %s): then every payment answers 409',
    async (_, position) => {
      const invoice = await invoiceOf('1000.00');
      const payments = amounts(50, 10).map((amount) =>
        test.http
          .post('/v1/invoice/record-payment')
          .send({ id: invoice.id, amount_paid: amount, payment_date: '2026-03-10' }),
      );
      const voiding = test.http
        .post(`/v1/invoice/${invoice.id}/void`)
        .send({ reason: 'Voided in a race' });
      // Supertest sends a request when it is awaited: in this order.
      const answers = await Promise.all([
        ...payments.slice(0, position),
        voiding,
        ...payments.slice(position),
      ]);
      const voided = answers[position];
      const paid = answers.filter((__, index) => index !== position);

      const entries = await ledgerOf(invoice.id);
      const statuses = paid.map((response) => response.status);
      // Either the void came first and no payment after it was taken, or a payment came first
      // and the void was refused for the cash held, so no later payment met a void invoice.
      if (voided.status === 200) {
        expect(statuses).toEqual(Array<number>(10).fill(409));
        expect(entries).toEqual([]);
        for (const response of paid)
          expect(response.body).toMatchObject({ message: expect.stringMatching(/ is void$/) });
      } else {
        expect(voided.status).toBe(409);
        expect(voided.body).toMatchObject({
          message: expect.stringMatching(/refund it before voiding$/),
        });
        expect(statuses).toEqual(Array<number>(10).fill(200));
        expect(entries).toHaveLength(10);
      }
      expect(await invariantViolations(sql)).toEqual([]);
    },
  );
});
