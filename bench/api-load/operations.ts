import { BUSY_CLIENT_ID, SeedPlan, SeedStatus } from '../seed';
import { LoadRequest } from './load-run';

/*
 * The requests of each measured operation. Every generator is called once per request, so ids,
 * pages and invoice numbers vary request by request.
 */

export const PER_PAGE = 50;

export interface Operation {
  name: string;
  /** How the report names the request. */
  request: string;
  /** Measured service, baseline, service, baseline (the baseline serves it too). */
  againstBaseline: boolean;
  writes: boolean;
  next: () => LoadRequest;
}

function between(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

function get(path: string): LoadRequest {
  return { method: 'GET', path };
}

export function lastPage(plan: SeedPlan): number {
  return Math.ceil(plan.invoices / PER_PAGE);
}

export function readOperations(plan: SeedPlan, keyset: boolean): Operation[] {
  const n = plan.invoices;
  const pages = lastPage(plan);
  const read = (
    name: string,
    request: string,
    againstBaseline: boolean,
    next: () => LoadRequest,
  ): Operation => ({ name, request, againstBaseline, writes: false, next });
  const operations = [
    read('invoice read', 'GET /v1/invoice/{random id}', true, () =>
      get(`/v1/invoice/${between(1, n)}`),
    ),
    read('client read', `GET /v1/client/${BUSY_CLIENT_ID} (50 invoices)`, false, () =>
      get(`/v1/client/${BUSY_CLIENT_ID}`),
    ),
    read('list, first page', 'GET /v1/invoice/all?page=1&per_page=50', true, () =>
      get(`/v1/invoice/all?page=1&per_page=${PER_PAGE}`),
    ),
    read('list, random page', 'GET /v1/invoice/all?page={random}&per_page=50', true, () =>
      get(`/v1/invoice/all?page=${between(1, pages)}&per_page=${PER_PAGE}`),
    ),
    read('list, last page', `GET /v1/invoice/all?page=${pages}&per_page=50`, false, () =>
      get(`/v1/invoice/all?page=${pages}&per_page=${PER_PAGE}`),
    ),
  ];
  if (keyset) {
    operations.push(
      read('keyset, random', 'GET /v1/invoice/all?after={random id}&per_page=50', false, () =>
        get(`/v1/invoice/all?after=${between(0, n - PER_PAGE)}&per_page=${PER_PAGE}`),
      ),
      read('keyset, tail', `GET /v1/invoice/all?after=${n - PER_PAGE}&per_page=50`, false, () =>
        get(`/v1/invoice/all?after=${n - PER_PAGE}&per_page=${PER_PAGE}`),
      ),
    );
  }
  operations.push(...statusOperations(plan, keyset));
  return operations;
}

/**
 * Lists filtered by status (`overdue` and `open` by today's date): a numbered first page (its
 * rows and its count) and a keyset page after a random id, for every status.
 */
export const STATUS_OPERATIONS: Array<{ status: SeedStatus; page: boolean }> = [
  { status: 'overdue', page: true },
  { status: 'open', page: true },
  { status: 'paid', page: false },
  { status: 'void', page: false },
];

export function statusOperations(plan: SeedPlan, keyset: boolean): Operation[] {
  const n = plan.invoices;
  const operations: Operation[] = [];
  for (const { status, page } of STATUS_OPERATIONS) {
    const path = `/v1/invoice/all?status=${status}`;
    if (page) {
      operations.push({
        name: `status ${status}, first page`,
        request: `GET ${path}&page=1&per_page=50`,
        againstBaseline: false,
        writes: false,
        next: () => get(`${path}&page=1&per_page=${PER_PAGE}`),
      });
    }
    if (keyset) {
      operations.push({
        name: `status ${status}, keyset random`,
        request: `GET ${path}&after={random id}&per_page=50`,
        againstBaseline: false,
        writes: false,
        next: () => get(`${path}&after=${between(0, n - PER_PAGE)}&per_page=${PER_PAGE}`),
      });
    }
  }
  return operations;
}

/** Five lines of an added invoice. */
const NEW_LINES = [
  { description: 'Design workshop', quantity: '1', rate: '1200.00' },
  { description: 'Implementation days', quantity: '4.5', rate: '850.00' },
  { description: 'Hosting, monthly', quantity: '12', rate: '49.99' },
  { description: 'Travel expenses', quantity: '1', rate: '312.40' },
  { description: 'Discounted support hours', quantity: '10', rate: '65.0000' },
];

/**
 * Twenty lines of an invoice at one rate: the document's tax_rate (19 %) on every line, no
 * discounts, as every invoice was before taxes per line.
 */
const TWENTY_LINES = Array.from({ length: 20 }, (_, index) => ({
  description: `Line ${index + 1}: ${['Consulting', 'Licence', 'Hosting', 'Support', 'Travel'][index % 5]}`,
  quantity: ['1', '2', '3.5', '10', '0.25'][index % 5],
  rate: ['120.00', '49.99', '850.00', '12.50', '1999.00'][(index * 3) % 5],
}));

/**
 * The same twenty lines with taxes of their own: 7 % and 19 % in turn, and the last three with
 * GST 5 % and PST 7 % together; line 4 with 15 % off. The document takes 10 % off. Its
 * breakdown has 4 groups (Tax 7, Tax 19, GST 5, PST 7) over 3 tax sets.
 */
const TWENTY_LINES_MIXED = TWENTY_LINES.map((line, index) => ({
  ...line,
  taxes:
    index >= 17
      ? [
          { name: 'GST', rate: '5' },
          { name: 'PST', rate: '7' },
        ]
      : [{ rate: index % 2 === 0 ? '7' : '19' }],
  ...(index === 3 ? { discount_percent: '15' } : {}),
}));

export type TwentyLineKind = 'one rate' | 'mixed rates';
export const TWENTY_LINE_KINDS: TwentyLineKind[] = ['one rate', 'mixed rates'];

/** The add body of a 20-line invoice of either kind, numbered `number`. */
export function twentyLineInvoice(
  plan: SeedPlan,
  kind: TwentyLineKind,
  number: string,
): Record<string, unknown> {
  // Never the busy client: its read stays at 50 invoices.
  return twentyLineBody(kind, number, between(BUSY_CLIENT_ID + 1, plan.clients));
}

/** The add body of a 20-line invoice of either kind for a client. */
export function twentyLineBody(
  kind: TwentyLineKind,
  number: string,
  client: number | string,
): Record<string, unknown> {
  return {
    client: String(client),
    invoice_no: number,
    payment_status: 'Not Paid',
    description: 'Twenty lines',
    currency: 'EUR',
    tax_rate: '19',
    issue_date: '2026-11-01',
    due_date: '2026-12-01',
    note: 'Payable within 30 days.',
    ...(kind === 'mixed rates' ? { discount_percent: '10' } : {}),
    items: kind === 'mixed rates' ? TWENTY_LINES_MIXED : TWENTY_LINES,
  };
}

/** The name of the read of 20-line invoices of a kind (`--only '20 lines'` selects them all). */
export function twentyLineReadName(kind: TwentyLineKind): string {
  return `invoice read, 20 lines, ${kind}`;
}

/**
 * Reads of 20-line invoices added before the load (bench/api-load.ts), a random one of the
 * kind each time: the one-rate ones against the mixed-rate ones. The baseline serves them too.
 */
export function twentyLineReadOperations(ids: Record<TwentyLineKind, number[]>): Operation[] {
  return TWENTY_LINE_KINDS.map((kind) => ({
    name: twentyLineReadName(kind),
    request: `GET /v1/invoice/{random 20-line invoice, ${kind}}`,
    againstBaseline: true,
    writes: false,
    next: () => get(`/v1/invoice/${ids[kind][between(0, ids[kind].length - 1)]}`),
  }));
}

/** An update keeps the seed's number, client, dates and money (total 1000.00). */
const UPDATED_LINES = [
  { description: 'Consulting hours', quantity: '2', rate: '150.00' },
  { description: 'Software licence', quantity: '1', rate: '250.00' },
  { description: 'Support tickets', quantity: '5', rate: '50.00' },
];

export function writeOperations(plan: SeedPlan, runId: string): Operation[] {
  const n = plan.invoices;
  let added = 0;
  return [
    {
      name: 'record payment',
      // A random unpaid invoice (77 % of the seed): a void one answers 409 and a settled or
      // paid one 422, so those are skipped over; the figure stays comparable with earlier runs.
      request: 'POST /v1/invoice/record-payment (0.01 on a random unpaid invoice)',
      againstBaseline: true,
      writes: true,
      next: () => ({
        method: 'POST',
        path: '/v1/invoice/record-payment',
        body: JSON.stringify({
          id: String(plan.payableFrom(between(1, n))),
          amount_paid: '0.01',
          payment_date: '2026-11-01',
        }),
      }),
    },
    {
      name: 'invoice add',
      request: 'POST /v1/invoice/add (5 lines)',
      againstBaseline: false,
      writes: true,
      next: () => ({
        method: 'POST',
        path: '/v1/invoice/add',
        body: JSON.stringify({
          // Never the busy client: its read stays at 50 invoices.
          client: String(between(BUSY_CLIENT_ID + 1, plan.clients)),
          invoice_no: `BENCH-${runId}-${++added}`,
          payment_status: 'Not Paid',
          description: 'Quarterly services',
          currency: 'USD',
          tax_rate: '8.25',
          issue_date: '2026-11-01',
          due_date: '2026-12-01',
          note: 'Payable within 30 days.',
          items: NEW_LINES,
        }),
      }),
    },
    ...TWENTY_LINE_KINDS.map((kind): Operation => ({
      name: `invoice add, 20 lines, ${kind}`,
      request: `POST /v1/invoice/add (20 lines, ${kind === 'one rate' ? 'the document rate' : '7 % / 19 % / GST + PST, line and document discounts'})`,
      againstBaseline: false,
      writes: true,
      next: () => ({
        method: 'POST',
        path: '/v1/invoice/add',
        body: JSON.stringify(
          twentyLineInvoice(
            plan,
            kind,
            `B20${kind === 'one rate' ? 'S' : 'M'}-${runId}-${++added}`,
          ),
        ),
      }),
    })),
    {
      name: 'invoice update',
      // An unpaid one, so that the body (Not Paid, the seed's dates and total) changes no status.
      request: 'PUT /v1/invoice/{random unpaid id} (full body, 3 lines)',
      againstBaseline: false,
      writes: true,
      next: () => {
        const id = plan.payableFrom(between(1, n));
        return {
          method: 'PUT',
          path: `/v1/invoice/${id}`,
          body: JSON.stringify({
            client: String(plan.clientOf(id)),
            invoice_no: `INV-${id}`,
            payment_status: 'Not Paid',
            description: `Seeded invoice ${id}`,
            currency: 'USD',
            tax_rate: '25',
            issue_date: plan.issueDate(id),
            due_date: plan.dueDate(id),
            note: 'Thank you for your business.',
            items: UPDATED_LINES,
          }),
        };
      },
    },
  ];
}
