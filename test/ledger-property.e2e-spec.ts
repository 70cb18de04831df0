import fc from 'fast-check';
import { createClient } from './factories/clients';
import { createInvoice, readInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { invariantViolations, openSql, Sql } from './setup/invariants';
import { money, toScaled } from './setup/workload';

/*
 * A property of the ledger (docs/corrections.md): whatever sequence of payments, refunds
 * and credit notes reaches an invoice, 0 ≤ amount_paid ≤ total and amount_paid equals its
 * entries (Σ Completed + Σ Credited − Σ Refunded). fast-check draws the sequences; a model in
 * exact integers of minor units says which requests must be accepted, and each answer must
 * agree with it, so a rule that lets too much through or refuses too much fails too. Every
 * request goes through HTTP to the real database, and the database is read back at the end.
 *
 * LEDGER_SEED=<n> replays a run, LEDGER_RUNS=<n> sets how many sequences (40 by default).
 */

const RUNS = Number(process.env.LEDGER_RUNS ?? 40);
const SEED =
  process.env.LEDGER_SEED === undefined
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.LEDGER_SEED);

type Step =
  | { kind: 'pay'; minor: number }
  | { kind: 'refund'; minor: number }
  | { kind: 'credit'; minor: number; refund: boolean };

interface Model {
  total: number;
  paid: number;
  credited: number;
  paymentStatus: 'Paid' | 'Not Paid';
}

/** Applies a step to the model: true when the service must accept it. */
function apply(model: Model, step: Step): boolean {
  const outstanding = model.total - model.paid;
  const settle = () => {
    if (model.total - model.paid <= 0) model.paymentStatus = 'Paid';
  };
  switch (step.kind) {
    case 'pay':
      if (step.minor > outstanding) return false;
      model.paid += step.minor;
      settle();
      return true;
    case 'refund':
      if (step.minor > model.paid - model.credited) return false;
      model.paid -= step.minor;
      if (model.total - model.paid > 0) model.paymentStatus = 'Not Paid';
      return true;
    case 'credit': {
      if (step.minor > model.total - model.credited) return false;
      const excess = step.minor - outstanding;
      if (excess > 0 && !step.refund) return false;
      if (excess > 0) {
        model.paid -= excess;
        model.paymentStatus = 'Not Paid';
      }
      model.paid += step.minor;
      model.credited += step.minor;
      settle();
      return true;
    }
  }
}

const CURRENCIES = ['USD', 'JPY', 'KWD'] as const;

describe('the ledger under any sequence of payments, refunds and credit notes', () => {
  let test: TestApp;
  let sql: Sql;
  let client: string;

  beforeAll(async () => {
    test = await createTestApp();
    client = await createClient(test.http);
    sql = await openSql(process.env.DATABASE_URL!);
  });

  afterAll(async () => {
    await sql.close();
    await test.close();
  });

  it('keeps 0 ≤ amount_paid ≤ total, equal to its entries, and answers as the rules say', async () => {
    console.info(`ledger-property: LEDGER_SEED=${SEED} LEDGER_RUNS=${RUNS}`);
    let sequence = 0;
    const outcomes = { accepted: 0, refused: 0 };
    // Amounts up to a little more than the total, so that every limit is met and passed.
    const step = (totalMinor: number): fc.Arbitrary<Step> =>
      fc.oneof(
        fc.record({
          kind: fc.constant('pay' as const),
          minor: fc.integer({ min: 1, max: totalMinor + 2 }),
        }),
        fc.record({
          kind: fc.constant('refund' as const),
          minor: fc.integer({ min: 1, max: totalMinor + 2 }),
        }),
        fc.record({
          kind: fc.constant('credit' as const),
          minor: fc.integer({ min: 1, max: totalMinor + 2 }),
          refund: fc.boolean(),
        }),
      );
    const scenario = fc
      .record({
        currency: fc.constantFrom(...CURRENCIES),
        totalMinor: fc.integer({ min: 1, max: 5000 }),
      })
      .chain(({ currency, totalMinor }) =>
        fc.record({
          currency: fc.constant(currency),
          totalMinor: fc.constant(totalMinor),
          steps: fc.array(step(totalMinor), { minLength: 1, maxLength: 14 }),
        }),
      );

    await fc.assert(
      fc.asyncProperty(scenario, async ({ currency, totalMinor, steps }) => {
        sequence += 1;
        const invoice = await createInvoice(test.http, {
          client,
          currency,
          items: [{ description: 'Work', quantity: 1, rate: money(totalMinor, currency) }],
        });
        const model: Model = { total: totalMinor, paid: 0, credited: 0, paymentStatus: 'Not Paid' };
        for (const [index, current] of steps.entries()) {
          const amount = money(current.minor, currency);
          const response =
            current.kind === 'pay'
              ? await test.http
                  .post('/v1/invoice/record-payment')
                  .send({ id: invoice.id, amount_paid: amount, payment_date: '2026-03-10' })
              : current.kind === 'refund'
                ? await test.http
                    .post('/v1/invoice/refund')
                    .send({ id: invoice.id, amount, refund_date: '2026-03-11' })
                : await test.http.post('/v1/credit-note/add').send({
                    invoice: invoice.id,
                    credit_note_no: `P-${SEED}-${sequence}-${index}`,
                    items: [{ description: 'Credit', quantity: 1, rate: amount }],
                    issue_date: invoice.issue_date,
                    refund: current.refund,
                  });
          const accepted = apply(model, current);
          expect({ step: index, ...current, status: response.status }).toEqual({
            step: index,
            ...current,
            status: accepted ? 200 : 422,
          });
          outcomes[accepted ? 'accepted' : 'refused'] += 1;
        }
        const read = await readInvoice(test.http, invoice.id);
        const entries = read.payments.map((entry) => {
          const scaled = toScaled(String(entry.amount));
          return entry.status === 'Refunded' ? -scaled : scaled;
        });
        const amountPaid = toScaled(read.invoice[0].amount_paid);
        const total = toScaled(String(read.invoice[0].total));
        expect(amountPaid).toBe(entries.reduce((sum, value) => sum + value, 0n));
        expect(amountPaid >= 0n && amountPaid <= total).toBe(true);
        expect(read.invoice[0]).toMatchObject({
          amount_paid: money(model.paid, currency),
          outstanding_balance: money(model.total - model.paid, currency),
          payment_status: model.paymentStatus,
        });
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The sequences met both sides of the rules, so the property could have failed.
    expect(outcomes.accepted).toBeGreaterThan(RUNS);
    expect(outcomes.refused).toBeGreaterThan(RUNS / 4);
    expect(await invariantViolations(sql)).toEqual([]);
  });
});
