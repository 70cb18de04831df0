/*
 * A seeded, repeatable random workload against several running instances of the service, for
 * test/two-instances.e2e-spec.ts: payments, refunds, credit notes and voids (the ledger), and
 * bursts of them on one invoice at once from every instance, beside updates, marks, sends,
 * conversions, archives and keyed retries. Operation i is drawn from a generator of its own
 * seeded from the run's seed, so a seed replays the same operations whichever virtual client
 * runs them; only the interleaving, and with it some outcomes, differ between runs. Every
 * answer is recorded, and the checks read the records and the database afterwards.
 */

import { recordAnswer } from './process-answers';
import { prng } from './seeded-random';

export class Random {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = prng(seed);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(values: readonly T[]): T {
    return values[this.int(0, values.length - 1)];
  }

  /** A key of `weights`, chosen in proportion to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let roll = this.next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1][0];
  }
}

/** The seed of this run: WORKLOAD_SEED replays one. */
export function workloadSeed(): number {
  const given = process.env.WORKLOAD_SEED;
  if (given !== undefined && given !== '') return Number(given) >>> 0;
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Exact money as scaled integers: the DB holds DECIMAL(17,4), the answers decimal text.

const SCALE = 4;

/** A decimal (string or JSON number) as an integer count of 10^-4. */
export function toScaled(value: string | number): bigint {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`Not a plain decimal: ${text}`);
  const fraction = (match[3] ?? '').padEnd(SCALE, '0');
  if (fraction.length > SCALE && /[1-9]/.test(fraction.slice(SCALE))) {
    throw new Error(`More than ${SCALE} decimals: ${text}`);
  }
  const scaled = BigInt(match[2]) * 10n ** BigInt(SCALE) + BigInt(fraction.slice(0, SCALE) || '0');
  return match[1] === '-' ? -scaled : scaled;
}

function numberText(value: number): string {
  // JSON numbers in the answers have at most 4 decimals; toFixed avoids the 1e-7 notation.
  return Number.isInteger(value) ? String(value) : value.toFixed(SCALE);
}

/** Minor digits of the currencies the workload uses (ISO 4217). */
export const MINOR_DIGITS: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, KWD: 3 };

/** `minor` units of the currency as decimal text with its minor digits: 1234 USD → "12.34". */
export function money(minor: number | bigint, currency: string): string {
  const digits = MINOR_DIGITS[currency];
  if (digits === 0) return String(minor);
  const text = String(minor).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** A scaled amount (see toScaled) as decimal text with the currency's minor digits. */
export function scaledMoney(scaled: bigint, currency: string): string {
  return money(scaled / 10n ** BigInt(SCALE - MINOR_DIGITS[currency]), currency);
}

// ---------------------------------------------------------------------------------------------
// Requests and their records.

export interface Instance {
  name: string;
  url: string;
}

export type OpKind =
  | 'seed'
  | 'pay'
  | 'pay-keyed'
  | 'pay-twice'
  | 'pay-rest'
  | 'settled-read'
  | 'key-reuse'
  | 'update'
  | 'mark'
  | 'send-invoice'
  | 'send-estimate'
  | 'convert'
  | 'read'
  | 'archive-invoice'
  | 'archive-estimate'
  | 'refund'
  | 'refund-keyed'
  | 'credit-note'
  | 'credit-note-keyed'
  | 'credit-note-dup'
  | 'void'
  | 'refund-void'
  | 'burst';

/** What a request does, whichever operation sent it: from its method and path. */
export type RequestType =
  | 'seed'
  | 'read'
  | 'payment'
  | 'refund'
  | 'credit-note'
  | 'void'
  | 'update'
  | 'mark'
  | 'send-invoice'
  | 'send-estimate'
  | 'convert'
  | 'archive-invoice'
  | 'archive-estimate';

const REQUEST_TYPES: Array<[string, RegExp, RequestType]> = [
  ['GET', /^\/v1\/invoice\/\d+$/, 'read'],
  ['POST', /^\/v1\/invoice\/record-payment$/, 'payment'],
  ['POST', /^\/v1\/invoice\/refund$/, 'refund'],
  ['POST', /^\/v1\/credit-note\/add$/, 'credit-note'],
  ['POST', /^\/v1\/invoice\/\d+\/void$/, 'void'],
  ['PUT', /^\/v1\/invoice\/\d+$/, 'update'],
  ['GET', /^\/v1\/invoice\/(paid|not-paid)\/\d+$/, 'mark'],
  ['POST', /^\/v1\/invoice\/send$/, 'send-invoice'],
  ['POST', /^\/v1\/estimate\/send$/, 'send-estimate'],
  ['POST', /^\/v1\/estimate\/\d+\/convert$/, 'convert'],
  ['DELETE', /^\/v1\/invoice\/\d+$/, 'archive-invoice'],
  ['DELETE', /^\/v1\/estimate\/\d+$/, 'archive-estimate'],
];

export function requestTypeOf(answer: Pick<Answer, 'kind' | 'method' | 'path'>): RequestType {
  if (answer.kind === 'seed') return 'seed';
  const found = REQUEST_TYPES.find(
    ([method, path]) => answer.method === method && path.test(answer.path),
  );
  if (!found)
    throw new Error(`The workload sent an unknown request ${answer.method} ${answer.path}`);
  return found[2];
}

/** How a keyed request is sent again. */
export type RetryMode = 'concurrent' | 'after';

export interface Answer {
  /** The operation that sent it; its requests share the number. */
  op: number;
  kind: OpKind;
  instance: string;
  method: string;
  path: string;
  requestBody: string | undefined;
  idempotencyKey: string | undefined;
  retryMode: RetryMode | undefined;
  /** 0: no HTTP answer (connection error or no answer within the timeout). */
  status: number;
  replayed: boolean;
  text: string;
  error: string | undefined;
  /** When it was sent and answered (ms, one clock for the run): orders keyed retries. */
  sentAt: number;
  answeredAt: number;
  invoiceId: string | undefined;
  estimateId: string | undefined;
}

const REQUEST_TIMEOUT_MS = 30_000;

export class Recorder {
  readonly answers: Answer[] = [];

  constructor(private readonly apiKey: string) {}

  async send(
    instance: Instance,
    request: {
      op: number;
      kind: OpKind;
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      path: string;
      body?: unknown;
      idempotencyKey?: string;
      retryMode?: RetryMode;
      invoiceId?: string;
      estimateId?: string;
    },
  ): Promise<Answer> {
    const requestBody = request.body === undefined ? undefined : JSON.stringify(request.body);
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    if (requestBody !== undefined) headers['content-type'] = 'application/json';
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    const answer: Answer = {
      op: request.op,
      kind: request.kind,
      instance: instance.name,
      method: request.method,
      path: request.path,
      requestBody,
      idempotencyKey: request.idempotencyKey,
      retryMode: request.retryMode,
      status: 0,
      replayed: false,
      text: '',
      error: undefined,
      sentAt: performance.now(),
      answeredAt: 0,
      invoiceId: request.invoiceId,
      estimateId: request.estimateId,
    };
    try {
      const response = await fetch(`${instance.url}${request.path}`, {
        method: request.method,
        headers,
        body: requestBody,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      answer.status = response.status;
      answer.replayed = response.headers.get('idempotent-replayed') === 'true';
      answer.text = await response.text();
      recordAnswer(request.method, response.url, {
        status: response.status,
        contentType: response.headers.get('content-type'),
        text: answer.text,
      });
    } catch (error) {
      answer.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    answer.answeredAt = performance.now();
    this.answers.push(answer);
    return answer;
  }
}

/** The answer's JSON body. */
export function bodyOf<T>(answer: Answer): T {
  return JSON.parse(answer.text) as T;
}

// ---------------------------------------------------------------------------------------------
// The documents the workload works on.

export interface SeededInvoice {
  id: string;
  clientId: string;
  invoiceNo: string;
  currency: string;
  /** Its total as added, in minor units: payments, refunds and credits are drawn against it. */
  totalMinor: number;
  /**
   * Payment-only invoices are never updated or marked, so their status moves by the ledger
   * alone (payments, refunds, credit notes): Paid exactly when they are settled.
   */
  paymentOnly: boolean;
  /** Only these are voided, so that most invoices stay open to the ledger all run long. */
  voidable: boolean;
}

export interface SeededEstimate {
  id: string;
}

export interface Seeded {
  invoices: SeededInvoice[];
  estimates: SeededEstimate[];
}

export interface SeedSize {
  clients: number;
  invoices: number;
  estimates: number;
}

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'KWD'] as const;
const TAX_RATES = ['0', '5', '7.5', '20'] as const;
const PAYMENT_METHODS = ['Cash', 'Bank Transfer', 'Cheque', 'Credit Card', 'Others'] as const;

/** 1–3 lines in the currency's minor digits, and a tax rate. */
function randomLines(random: Random, currency: string, maxRateMinor: number) {
  const items = Array.from({ length: random.int(1, 3) }, (_, index) => ({
    description: `Work ${index + 1}`,
    quantity: random.pick(['1', '2', '3', '1.5', '0.25']),
    rate: money(random.int(1, maxRateMinor), currency),
  }));
  return { items, tax_rate: random.pick(TAX_RATES) };
}

/** Clients, invoices and estimates through the first instance, in an order the seed fixes. */
export async function seedDocuments(
  recorder: Recorder,
  instance: Instance,
  seed: number,
  size: SeedSize,
): Promise<Seeded> {
  const random = new Random(seed ^ 0x5eed);
  const expectOk = (answer: Answer) => {
    if (answer.status !== 200) {
      throw new Error(`Seeding ${answer.path} answered ${answer.status}: ${answer.text}`);
    }
    return answer;
  };
  const clients: string[] = [];
  for (let index = 0; index < size.clients; index++) {
    const answer = expectOk(
      await recorder.send(instance, {
        op: -1,
        kind: 'seed',
        method: 'POST',
        path: '/v1/client/add',
        body: { names: `Workload client ${index}`, email: `client${index}@example.com` },
      }),
    );
    clients.push(bodyOf<{ data: Array<{ id: string }> }>(answer).data[0].id);
  }
  // Inputs drawn in order from the seed, then sent a few at a time.
  const invoiceInputs = Array.from({ length: size.invoices }, (_, index) => {
    const currency = random.pick(CURRENCIES);
    const clientId = random.pick(clients);
    const scale = 10 ** MINOR_DIGITS[currency];
    const lines = randomLines(random, currency, random.pick([50, 500, 5000]) * scale);
    return { index, currency, clientId, scale, invoiceNo: `W-${index}`, lines };
  });
  const invoices = await inBatches(invoiceInputs, async (input) => {
    const answer = expectOk(
      await recorder.send(instance, {
        op: -1,
        kind: 'seed',
        method: 'POST',
        path: '/v1/invoice/add',
        body: {
          client: input.clientId,
          invoice_no: input.invoiceNo,
          payment_status: 'Not Paid',
          currency: input.currency,
          ...input.lines,
        },
      }),
    );
    const invoice = bodyOf<{ invoice: Array<{ id: string; total: number }> }>(answer).invoice[0];
    return {
      id: invoice.id,
      clientId: input.clientId,
      invoiceNo: input.invoiceNo,
      currency: input.currency,
      totalMinor: Math.round(invoice.total * input.scale),
      paymentOnly: input.index % 2 === 0,
      voidable: input.index % 5 === 1,
    };
  });
  const estimateInputs = Array.from({ length: size.estimates }, (_, index) => {
    const currency = random.pick(CURRENCIES);
    return {
      client: random.pick(clients),
      estimate_no: `WE-${index}`,
      currency,
      ...randomLines(random, currency, 1000 * 10 ** MINOR_DIGITS[currency]),
    };
  });
  const estimates = await inBatches(estimateInputs, async (body) => {
    const answer = expectOk(
      await recorder.send(instance, {
        op: -1,
        kind: 'seed',
        method: 'POST',
        path: '/v1/estimate/add',
        body,
      }),
    );
    return { id: bodyOf<{ estimate: Array<{ id: string }> }>(answer).estimate[0].id };
  });
  return { invoices, estimates };
}

/** `work` on each value, 8 at a time; the results in the values' order. */
async function inBatches<T, R>(values: T[], work: (value: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < values.length; start += 8) {
    results.push(...(await Promise.all(values.slice(start, start + 8).map(work))));
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// The workload.

export interface WorkloadOptions {
  seed: number;
  operations: number;
  virtualClients: number;
  instances: Instance[];
}

const WEIGHTS: Record<Exclude<OpKind, 'seed' | 'settled-read'>, number> = {
  pay: 20,
  'pay-keyed': 9,
  'pay-twice': 3,
  'pay-rest': 5,
  'key-reuse': 2,
  update: 7,
  mark: 5,
  'send-invoice': 6,
  'send-estimate': 4,
  convert: 4,
  read: 6,
  'archive-invoice': 0.4,
  'archive-estimate': 1,
  refund: 9,
  'refund-keyed': 4,
  'credit-note': 8,
  'credit-note-keyed': 3,
  'credit-note-dup': 2,
  void: 1,
  'refund-void': 1.2,
  burst: 3,
};

/** How many requests one burst sends at one invoice at once, keyed retries not counted. */
export const BURST_SIZE = { min: 6, max: 10 };

/**
 * Runs `operations` operations, `virtualClients` at a time; each picks its instance(s) at
 * random. Op i is drawn from its own generator, so it is the same whichever client runs it.
 */
export async function runWorkload(
  recorder: Recorder,
  seeded: Seeded,
  options: WorkloadOptions,
): Promise<void> {
  let nextOp = 0;
  const virtualClient = async () => {
    for (let op = nextOp++; op < options.operations; op = nextOp++) {
      await runOperation(recorder, seeded, options, op);
    }
  };
  await Promise.all(Array.from({ length: options.virtualClients }, virtualClient));
}

async function runOperation(
  recorder: Recorder,
  seeded: Seeded,
  options: WorkloadOptions,
  op: number,
): Promise<void> {
  const random = new Random((options.seed ^ Math.imul(op + 1, 0x9e3779b1)) >>> 0);
  const instance = () => random.pick(options.instances);
  const kind = random.weighted(WEIGHTS);
  const invoice = random.pick(seeded.invoices);
  const mixed = seeded.invoices.filter((candidate) => !candidate.paymentOnly);
  const estimate = random.pick(seeded.estimates);
  const key = `wl-${options.seed}-${op}`;
  const payment = () => ({
    id: invoice.id,
    amount_paid: paymentAmount(random, invoice),
    payment_date: '2026-03-10',
    payment_method: random.pick(PAYMENT_METHODS),
  });
  const keyedTwice = async (
    request: Omit<Parameters<Recorder['send']>[1], 'op' | 'kind' | 'idempotencyKey'>,
  ) => {
    const mode: RetryMode = random.pick(['concurrent', 'after'] as const);
    const [first, second] = [instance(), instance()];
    const send = (target: Instance) =>
      recorder.send(target, { ...request, op, kind, idempotencyKey: key, retryMode: mode });
    if (mode === 'concurrent') {
      await Promise.all([send(first), send(second)]);
    } else {
      await send(first);
      await send(second);
    }
  };
  const paymentPath = '/v1/invoice/record-payment';
  const refundPath = '/v1/invoice/refund';
  const creditNotePath = '/v1/credit-note/add';
  const voidable = seeded.invoices.filter((candidate) => candidate.voidable);
  const steady = seeded.invoices.filter((candidate) => !candidate.voidable);
  const refundBody = (target: SeededInvoice, amount: string) => ({
    id: target.id,
    amount,
    refund_date: '2026-03-12',
    payment_method: random.pick(PAYMENT_METHODS),
    reason: 'Workload refund',
  });
  const creditNoteBody = (
    target: SeededInvoice,
    number: string,
    minor: number,
    refund: boolean,
  ) => ({
    invoice: target.id,
    credit_note_no: number,
    items: creditLines(random, target.currency, minor),
    reason: 'Workload correction',
    refund,
  });

  switch (kind) {
    case 'pay':
      await recorder.send(instance(), {
        op,
        kind,
        method: 'POST',
        path: paymentPath,
        body: payment(),
        invoiceId: invoice.id,
      });
      return;
    case 'pay-keyed':
      await keyedTwice({
        method: 'POST',
        path: paymentPath,
        body: payment(),
        invoiceId: invoice.id,
      });
      return;
    case 'pay-twice': {
      // A retry without a key is a second, independent payment.
      const body = payment();
      const send = (target: Instance) =>
        recorder.send(target, {
          op,
          kind,
          method: 'POST',
          path: paymentPath,
          body,
          invoiceId: invoice.id,
        });
      await Promise.all([send(instance()), send(instance())]);
      return;
    }
    case 'pay-rest': {
      // Pays exactly what the read says is left, which settles it unless a payment slips in.
      const read = await recorder.send(instance(), {
        op,
        kind: 'read',
        method: 'GET',
        path: `/v1/invoice/${invoice.id}`,
        invoiceId: invoice.id,
      });
      if (read.status !== 200) return;
      const outstanding = bodyOf<{ invoice: Array<{ outstanding_balance: string }> }>(read)
        .invoice[0].outstanding_balance;
      if (toScaled(outstanding) <= 0n) return;
      const paid = await recorder.send(instance(), {
        op,
        kind,
        method: 'POST',
        path: paymentPath,
        body: { id: invoice.id, amount_paid: outstanding, payment_date: '2026-03-11' },
        idempotencyKey: random.chance(0.5) ? key : undefined,
        invoiceId: invoice.id,
      });
      if (paid.status !== 200) return;
      // Read back from either instance: the settling payment is committed, so it shows.
      await recorder.send(instance(), {
        op,
        kind: 'settled-read',
        method: 'GET',
        path: `/v1/invoice/${invoice.id}`,
        invoiceId: invoice.id,
      });
      return;
    }
    case 'key-reuse': {
      // The same key with a different request: 409 once the first was kept.
      const body = payment();
      await recorder.send(instance(), {
        op,
        kind,
        method: 'POST',
        path: paymentPath,
        body,
        idempotencyKey: key,
        retryMode: 'after',
        invoiceId: invoice.id,
      });
      await recorder.send(instance(), {
        op,
        kind,
        method: 'POST',
        path: paymentPath,
        body: { ...body, payment_date: '2026-03-12' },
        idempotencyKey: key,
        retryMode: 'after',
        invoiceId: invoice.id,
      });
      return;
    }
    case 'update': {
      const target = random.pick(mixed);
      // One in five cuts the lines to a few units, mostly below what was paid; the others
      // stay near the total as added.
      const maxRate = random.chance(0.2)
        ? 10 ** MINOR_DIGITS[target.currency]
        : Math.max(1, target.totalMinor);
      const request = {
        method: 'PUT' as const,
        path: `/v1/invoice/${target.id}`,
        body: {
          client: target.clientId,
          invoice_no: target.invoiceNo,
          payment_status: random.pick(['Paid', 'Not Paid']),
          ...randomLines(random, target.currency, maxRate),
        },
        invoiceId: target.id,
      };
      if (random.chance(0.3)) await keyedTwice(request);
      else await recorder.send(instance(), { ...request, op, kind });
      return;
    }
    case 'mark': {
      const target = random.pick(mixed);
      const path = `/v1/invoice/${random.pick(['paid', 'not-paid'])}/${target.id}`;
      await recorder.send(instance(), { op, kind, method: 'GET', path, invoiceId: target.id });
      return;
    }
    case 'send-invoice':
    case 'send-estimate': {
      const isInvoice = kind === 'send-invoice';
      const id = isInvoice ? invoice.id : estimate.id;
      const email = random.chance(0.1) ? 'not-an-address' : `to${random.int(1, 50)}@example.com`;
      const request = {
        method: 'POST' as const,
        path: isInvoice ? '/v1/invoice/send' : '/v1/estimate/send',
        body: { id, email },
        invoiceId: isInvoice ? id : undefined,
        estimateId: isInvoice ? undefined : id,
      };
      if (random.chance(0.3)) await keyedTwice(request);
      else await recorder.send(instance(), { ...request, op, kind });
      return;
    }
    case 'convert': {
      // The same estimate from every instance at once: one conversion, the others 409.
      await Promise.all(
        options.instances.map((target) =>
          recorder.send(target, {
            op,
            kind,
            method: 'POST',
            path: `/v1/estimate/${estimate.id}/convert`,
            body: { invoice_no: `C-${op}-${target.name}` },
            estimateId: estimate.id,
          }),
        ),
      );
      return;
    }
    case 'read':
      await recorder.send(instance(), {
        op,
        kind,
        method: 'GET',
        path: `/v1/invoice/${invoice.id}`,
        invoiceId: invoice.id,
      });
      return;
    case 'archive-invoice':
      await recorder.send(instance(), {
        op,
        kind,
        method: 'DELETE',
        path: `/v1/invoice/${invoice.id}`,
        invoiceId: invoice.id,
      });
      return;
    case 'archive-estimate':
      await recorder.send(instance(), {
        op,
        kind,
        method: 'DELETE',
        path: `/v1/estimate/${estimate.id}`,
        estimateId: estimate.id,
      });
      return;
    case 'refund':
    case 'refund-keyed': {
      const request = {
        method: 'POST' as const,
        path: refundPath,
        body: refundBody(invoice, refundAmount(random, invoice)),
        invoiceId: invoice.id,
      };
      if (kind === 'refund-keyed') await keyedTwice(request);
      else await recorder.send(instance(), { ...request, op, kind });
      return;
    }
    case 'credit-note':
    case 'credit-note-keyed': {
      const request = {
        method: 'POST' as const,
        path: creditNotePath,
        body: creditNoteBody(
          invoice,
          `WCN-${op}`,
          creditAmount(random, invoice),
          random.chance(0.4),
        ),
        invoiceId: invoice.id,
      };
      if (kind === 'credit-note-keyed') await keyedTwice(request);
      else await recorder.send(instance(), { ...request, op, kind });
      return;
    }
    case 'credit-note-dup': {
      // One number on two credit notes at once from every instance, then once more after:
      // at most one is issued, the others answer 409 (or 422 when over a limit).
      const number = `WCD-${op}`;
      const send = (target: Instance, on: SeededInvoice) =>
        recorder.send(target, {
          op,
          kind,
          method: 'POST',
          path: creditNotePath,
          body: creditNoteBody(on, number, creditAmount(random, on), random.chance(0.4)),
          invoiceId: on.id,
        });
      const others = [invoice, random.pick(seeded.invoices)];
      await Promise.all(options.instances.map((target, index) => send(target, others[index % 2])));
      await send(instance(), random.pick(seeded.invoices));
      return;
    }
    case 'void': {
      const target = random.pick(voidable);
      await recorder.send(instance(), {
        op,
        kind,
        method: 'POST',
        path: `/v1/invoice/${target.id}/void`,
        body: { reason: 'Workload void' },
        invoiceId: target.id,
      });
      return;
    }
    case 'refund-void': {
      // Refunds the cash the read shows held, then voids: 200 unless a payment slipped in.
      const target = random.pick(voidable);
      const read = await recorder.send(instance(), {
        op,
        kind,
        method: 'GET',
        path: `/v1/invoice/${target.id}`,
        invoiceId: target.id,
      });
      if (read.status !== 200) return;
      const held = cashHeld(bodyOf<{ payments: LedgerEntryAnswer[] }>(read).payments);
      if (held > 0n) {
        const refunded = await recorder.send(instance(), {
          op,
          kind,
          method: 'POST',
          path: refundPath,
          body: refundBody(target, scaledMoney(held, target.currency)),
          idempotencyKey: random.chance(0.5) ? key : undefined,
          invoiceId: target.id,
        });
        if (refunded.status !== 200) return;
      }
      await recorder.send(instance(), {
        op,
        kind,
        method: 'POST',
        path: `/v1/invoice/${target.id}/void`,
        body: { reason: 'Refunded, then void' },
        invoiceId: target.id,
      });
      return;
    }
    case 'burst': {
      // Payments, refunds and credit notes on one invoice all at once, from every instance in
      // turn, sized so that many could not all be accepted: the invoice's row lock decides.
      const target = random.chance(0.8) ? random.pick(steady) : invoice;
      const share = (from: number, to: number) =>
        random.int(
          Math.max(1, Math.floor(target.totalMinor * from)),
          Math.max(1, Math.floor(target.totalMinor * to)),
        );
      const size = random.int(BURST_SIZE.min, BURST_SIZE.max);
      const requests = Array.from({ length: size }, (_, index): Request => {
        const what = random.weighted({ pay: 4, refund: 3, credit: 2, 'credit-refund': 1.5 });
        const common = { op, kind, method: 'POST' as const, invoiceId: target.id };
        const request: Request =
          what === 'pay'
            ? {
                ...common,
                path: paymentPath,
                body: {
                  id: target.id,
                  amount_paid: money(share(0.1, 0.35), target.currency),
                  payment_date: '2026-03-13',
                  payment_method: random.pick(PAYMENT_METHODS),
                },
              }
            : what === 'refund'
              ? {
                  ...common,
                  path: refundPath,
                  body: refundBody(target, money(share(0.05, 0.25), target.currency)),
                }
              : {
                  ...common,
                  path: creditNotePath,
                  body: creditNoteBody(
                    target,
                    `WCB-${op}-${index}`,
                    share(0.05, 0.2),
                    what === 'credit-refund',
                  ),
                };
        return random.chance(0.2)
          ? { ...request, idempotencyKey: `${key}-${index}`, retryMode: 'concurrent' }
          : request;
      });
      const instances = options.instances;
      await Promise.all(
        requests.flatMap((request, index) =>
          request.idempotencyKey === undefined
            ? [recorder.send(instances[index % instances.length], request)]
            : instances.map((each) => recorder.send(each, request)),
        ),
      );
      await recorder.send(instance(), {
        op,
        kind,
        method: 'GET',
        path: `/v1/invoice/${target.id}`,
        invoiceId: target.id,
      });
      return;
    }
  }
}

type Request = Parameters<Recorder['send']>[1];

/** A ledger entry as the invoice read answers it. */
export interface LedgerEntryAnswer {
  status: 'Completed' | 'Refunded' | 'Credited';
  reference: string;
  amount: number;
  credit_note_id: string;
}

/** Σ Completed − Σ Refunded of the entries, scaled: the cash a refund may give back. */
export function cashHeld(entries: LedgerEntryAnswer[]): bigint {
  return entries.reduce(
    (sum, entry) =>
      sum +
      (entry.status === 'Completed'
        ? toScaled(entry.amount)
        : entry.status === 'Refunded'
          ? -toScaled(entry.amount)
          : 0n),
    0n,
  );
}

/** Σ Completed + Σ Credited − Σ Refunded of the entries, scaled: the amount paid. */
export function ledgerPaid(entries: LedgerEntryAnswer[]): bigint {
  return entries.reduce(
    (sum, entry) => sum + (entry.status === 'Refunded' ? -1n : 1n) * toScaled(entry.amount),
    0n,
  );
}

/** Mostly up to 15% of the total as added; one in seven more than all of it (422). */
function refundAmount(random: Random, invoice: SeededInvoice): string {
  const minor = random.chance(0.15)
    ? invoice.totalMinor + random.int(1, invoice.totalMinor)
    : random.int(1, Math.max(1, Math.floor(invoice.totalMinor * 0.15)));
  return money(minor, invoice.currency);
}

/** Before tax: mostly up to 10% of the total as added; one in ten more than all of it. */
function creditAmount(random: Random, invoice: SeededInvoice): number {
  return random.chance(0.1)
    ? invoice.totalMinor + random.int(1, invoice.totalMinor)
    : random.int(1, Math.max(1, Math.floor(invoice.totalMinor * 0.1)));
}

/** One or two lines worth about `minor` before tax. */
function creditLines(random: Random, currency: string, minor: number) {
  if (minor < 2 || random.chance(0.5)) {
    return [{ description: 'Credit', quantity: '1', rate: money(minor, currency) }];
  }
  const first = random.int(1, minor - 1);
  return [
    { description: 'Credit A', quantity: '1', rate: money(first, currency) },
    // Two units of half the rest (rounded up): the line amount is still exact.
    {
      description: 'Credit B',
      quantity: '2',
      rate: money(Math.ceil((minor - first) / 2), currency),
    },
  ];
}

/** Mostly up to 15% of the total as added; one in ten more than all of it (422). */
function paymentAmount(random: Random, invoice: SeededInvoice): string {
  const minor = random.chance(0.1)
    ? invoice.totalMinor + random.int(1, invoice.totalMinor)
    : random.int(1, Math.max(1, Math.floor(invoice.totalMinor * 0.15)));
  return money(minor, invoice.currency);
}
