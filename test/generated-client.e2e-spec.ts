import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { createTestApp, TestApp } from './setup/create-app';
import { RecordingProxy } from './setup/recording-proxy';
import { itWithoutDatabase } from './setup/test-database';

/*
 * What a client generated from docs/openapi.json gets: types from openapi-typescript, and a
 * small program on openapi-fetch that runs one whole invoice flow, written the way a user would
 * write it: no casts, `cash` and `true` in lower case. `tsc --strict` must accept it (a
 * description that no longer types the flow fails here), and run against the service its every
 * value must have the type the description gave it (a description that types an answer wrongly
 * fails here too). The generator and the program run as Node processes of their own; the
 * type checks involve no database and run in the SQLite run only.
 */

const ROOT = join(__dirname, '..');
const COMMITTED = join(ROOT, 'docs', 'openapi.json');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** openapi-typescript's command line: its dependencies are ES modules, which Jest does not load. */
const OPENAPI_TYPESCRIPT = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
const run = promisify(execFile);

const FLOW = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const api = createClient<paths>({ baseUrl: process.argv[2] });

/** The value has, at run time, the type the description gave it. */
function text(value: string, what: string): string {
  if (typeof value !== 'string') throw new Error(\`\${what} is \${typeof value}, typed string\`);
  return value;
}
function decimal(value: number, what: string): number {
  if (typeof value !== 'number') throw new Error(\`\${what} is \${typeof value}, typed number\`);
  return value;
}
function same<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected) throw new Error(\`\${what}: \${String(actual)}, not \${String(expected)}\`);
}
function ok<T>(answer: { data?: T; response: Response }, what: string): T {
  if (answer.data === undefined) throw new Error(\`\${what} answered \${answer.response.status}\`);
  return answer.data;
}

async function flow(): Promise<void> {
  const added = ok(
    await api.POST('/v1/client/add', {
      body: { names: 'Northwind Traders Ltd', email: 'accounts@northwind.example', country: 'gb' },
    }),
    'client/add',
  );
  const client = added.data[0];
  same(text(client.country, 'client.country'), 'GB', 'client.country');

  const created = ok(
    await api.POST('/v1/invoice/add', {
      body: {
        client: text(client.id, 'client.id'),
        invoice_no: 'INV-GENERATED-1',
        payment_status: 'not paid',
        currency: 'gbp',
        tax_rate: 20,
        items: [
          { description: 'Brand identity workshop', quantity: 2, rate: '450.00' },
          { description: 'Logo design', quantity: '1', rate: 1185.5 },
        ],
      },
    }),
    'invoice/add',
  );
  const invoice = created.invoice[0];
  const id = text(invoice.id, 'invoice.id');
  same(decimal(invoice.sub_total, 'sub_total'), 2085.5, 'sub_total');
  same(decimal(invoice.tax_amount, 'tax_amount'), 417.1, 'tax_amount');
  same(decimal(invoice.total, 'total'), 2502.6, 'total');
  same(text(invoice.outstanding_balance, 'outstanding_balance'), '2502.60', 'outstanding_balance');
  same(text(created.items[1].rate, 'items.1.rate'), '1185.50', 'items.1.rate');
  same(decimal(created.items[0].quantity, 'items.0.quantity'), 2, 'items.0.quantity');

  const paid = ok(
    await api.POST('/v1/invoice/record-payment', {
      body: { id, payment_date: '2026-03-16', amount_paid: '1000.00', payment_method: 'cash' },
    }),
    'record-payment',
  );
  text(paid.message, 'record-payment message');

  const read = ok(await api.GET('/v1/invoice/{id}', { params: { path: { id } } }), 'invoice/{id}');
  const [head] = read.invoice;
  same(text(head.amount_paid, 'amount_paid'), '1000.00', 'amount_paid');
  same(text(head.outstanding_balance, 'outstanding_balance'), '1502.60', 'outstanding_balance');
  same(head.payment_status, 'Not Paid', 'payment_status');
  same(head.status, 'open', 'status');
  same(text(read.items[0].amount, 'items.0.amount'), '900.00', 'items.0.amount');
  const [payment] = read.payments;
  same(payment.bank, 'Cash', 'payments.0.bank');
  same(decimal(payment.amount, 'payments.0.amount'), 1000, 'payments.0.amount');

  const list = ok(
    await api.GET('/v1/invoice/all', {
      params: { query: { payment_status: 'NOT PAID', status: 'Open', per_page: 10 } },
    }),
    'invoice/all',
  );
  same(list.data.map((row) => row.id).join(), id, 'listed ids');
  const meta = list.meta;
  if (meta === undefined || !('page' in meta)) throw new Error('no page meta');
  same(meta.total, 1, 'meta.total');

  const sent = ok(
    await api.POST('/v1/invoice/send', { body: { id, email: 'accounts@northwind.example' } }),
    'invoice/send',
  );
  text(sent.message, 'send message');
  const pdf = await api.GET('/v1/invoice/{id}/pdf', {
    params: { path: { id } },
    parseAs: 'arrayBuffer',
  });
  same(new TextDecoder().decode(ok(pdf, 'invoice pdf').slice(0, 5)), '%PDF-', 'pdf');

  const estimate = ok(
    await api.POST('/v1/estimate/add', {
      body: {
        client: client.id,
        estimate_no: 'EST-GENERATED-1',
        accepted: 'true',
        items: [{ description: 'Business cards', quantity: 3, rate: '38.65' }],
      },
    }),
    'estimate/add',
  );
  same(estimate.estimate[0].accepted, 'True', 'accepted');

  ok(await api.DELETE('/v1/invoice/{id}', { params: { path: { id } } }), 'invoice delete');
  const gone = await api.GET('/v1/invoice/{id}', { params: { path: { id } } });
  same(gone.response.status, 404, 'read after delete');
  if (gone.error === undefined) throw new Error('no error envelope');
  same(gone.error.status, 'error', 'error status');
  text(gone.error.message, 'error message');
}

flow().then(
  () => console.log('flow completed'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
`;

/** Writes the types generated from `description` and the flow program into `directory`. */
async function writeClient(directory: string, description: unknown): Promise<void> {
  writeFileSync(join(directory, 'openapi.json'), JSON.stringify(description));
  await run(process.execPath, [OPENAPI_TYPESCRIPT, 'openapi.json', '--output', 'api.ts'], {
    cwd: directory,
  });
  writeFileSync(join(directory, 'flow.mts'), FLOW);
}

/** `tsc --strict --noEmit` on the program: its diagnostics, or '' when it compiles. */
async function typeCheck(directory: string): Promise<string> {
  const options = [
    '--strict',
    '--noEmit',
    '--skipLibCheck',
    '--module',
    'nodenext',
    '--target',
    'es2022',
  ];
  try {
    await run(process.execPath, [TSC, ...options, '--types', 'node', 'flow.mts'], {
      cwd: directory,
    });
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout || String(error);
  }
}

describe('a client generated from docs/openapi.json', () => {
  let test: TestApp;
  let directory: string;
  const description = JSON.parse(readFileSync(COMMITTED, 'utf8')) as Record<string, unknown>;

  beforeAll(async () => {
    test = await createTestApp();
    directory = mkdtempSync(join(tmpdir(), 'invoicing-generated-client-'));
    // The program resolves openapi-fetch and @types/node as if it lived in the project.
    symlinkSync(join(ROOT, 'node_modules'), join(directory, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await test.close();
  });

  itWithoutDatabase(
    'types the whole invoice flow without a cast',
    async () => {
      await writeClient(directory, description);
      expect(await typeCheck(directory)).toBe('');
    },
    120_000,
  );

  it('runs the flow with every value as typed', async () => {
    // Its types are only imported (`import type`): the program runs without the generated file.
    const program = ts.transpileModule(FLOW, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(directory, 'flow.mjs'), program.outputText);
    const { port } = test.app.getHttpServer().address() as AddressInfo;
    // The flow's answers pass through a proxy that records them for the document check.
    const proxy = await RecordingProxy.start(`http://127.0.0.1:${port}`);
    try {
      const { stdout } = await run(process.execPath, ['flow.mjs', proxy.url], { cwd: directory });
      expect(stdout.trim()).toBe('flow completed');
    } finally {
      await proxy.close();
    }
  }, 120_000);

  itWithoutDatabase(
    'fails to compile the flow against a description that types an input or answer otherwise',
    async () => {
      const wrong = structuredClone(description) as {
        components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      };
      const { schemas } = wrong.components;
      // An exact-case enum, as the description had it: `cash` no longer types.
      schemas.RecordPaymentDto.properties.payment_method = {
        type: 'string',
        enum: ['Cash', 'Bank Transfer', 'Cheque', 'Credit Card', 'Others'],
      };
      // Money as a JSON number where the service answers numeric text.
      schemas.InvoiceWithTimestampsDto.properties.outstanding_balance = { type: 'number' };
      await writeClient(directory, wrong);
      const diagnostics = await typeCheck(directory);
      expect(diagnostics).toContain(`Type '"cash"' is not assignable`);
      expect(diagnostics).toMatch(
        /Argument of type 'number' is not assignable to parameter of type 'string'/,
      );
    },
    120_000,
  );
});
