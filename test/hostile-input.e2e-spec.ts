import { stringify as formEncode } from 'qs';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { Test } from 'supertest';
import { createClient } from './factories/clients';
import { addExpense } from './factories/expenses';
import { createEstimate, estimateNumber } from './factories/estimates';
import { createInvoice, invoiceNumber, payInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import { SLOW_RUN } from './setup/test-run';

/*
 * A deterministic sweep of hostile input (docs/rules.md, Errors: no input, however malformed,
 * answers 500; a refused request changes nothing).
 *
 * Every write endpoint starts from a valid body against existing records; each parameter in
 * turn is replaced by every value of a fixed corpus, or removed, as JSON and as a form (in
 * `npm test`, every third value, a different third for each parameter in turn, so every value
 * still reaches a third of the parameters; `npm run test:slow`, which CI runs, sends them all
 * to every parameter). Every
 * answer must be 200 or a 4xx in the error envelope, and each 200 must be one the contract
 * allows: the sweep works out from the parameter's rules which values are legitimately valid,
 * expects 200 for exactly those (and reads back what was stored), and sends them to scratch
 * records. Everything else goes to pristine records, which are compared field for field,
 * timestamps, payments and send logs included, before and after. Raw bodies, path ids and
 * list queries get the same treatment.
 *
 * HOSTILE_REPORT=1 prints every accepted request; HOSTILE_SHOW=<text> prints the answers to
 * the requests whose label contains the text.
 */

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

/**
 * A JSON number a double cannot hold as written (exponent, 400 digits): still a number, so a
 * text parameter refuses it as it refuses 0, and a numeric one reads its digits.
 */
const INEXACT_NUMBER = Symbol('inexact JSON number');
/** A string that is not Unicode text (an unpaired surrogate escape): the body is malformed. */
const NOT_UNICODE = Symbol('not Unicode text');

/** One hostile value of a parameter, in one encoding. */
interface Variant {
  name: string;
  /** The value as the parameter receives it, to work out whether the contract accepts it. */
  value: unknown;
  /** Sends `body` with the parameter at `path` replaced by this value (or removed). */
  send(request: Test, body: object, path: Path): Test;
}

type Path = Array<string | number>;

const NINES = '9'.repeat(400);
const LONG_FRACTION = `0.${'1'.repeat(400)}`;
const HUGE_TEXT = 'x'.repeat(100_000);

/** A value sent as this JSON text; undefined removes the parameter. */
function json(name: string, jsonText: string | undefined, value: unknown): Variant {
  return {
    name,
    value,
    send: (request, body, path) =>
      request.set('Content-Type', 'application/json').send(hostileJson(body, path, jsonText)),
  };
}

function jsonText(name: string, value: string): Variant {
  return json(name, JSON.stringify(value), value);
}

const JSON_CORPUS: Variant[] = [
  json('null', 'null', null),
  json('true', 'true', true),
  json('false', 'false', false),
  json('0', '0', 0),
  json('-0', '-0', -0),
  json('-1', '-1', -1),
  json('1.5', '1.5', 1.5),
  json('1e308', '1e308', INEXACT_NUMBER),
  json('400 nines as a JSON number', NINES, INEXACT_NUMBER),
  jsonText('"1e3"', '1e3'),
  jsonText('" 12 "', ' 12 '),
  jsonText('"+5"', '+5'),
  // Leading zeros, and not an id: digits alone would name a record the sweep made.
  jsonText('"0012.5"', '0012.5'),
  jsonText('"1.50000"', '1.50000'),
  jsonText('" True "', ' True '),
  jsonText('""', ''),
  jsonText('"   "', '   '),
  jsonText('"NaN"', 'NaN'),
  jsonText('"Infinity"', 'Infinity'),
  jsonText('"0x10"', '0x10'),
  jsonText('"1,5"', '1,5'),
  jsonText('400 nines as text', NINES),
  jsonText('"0." and 400 ones', LONG_FRACTION),
  jsonText('100k characters', HUGE_TEXT),
  jsonText('accents and CJK', 'Zoë Ærøskøbing — 日本語 ✓'),
  jsonText('emoji', '🧾💸👩🏽‍💻'),
  jsonText('right-to-left', '\u202Eשלום مرحبا\u202C'),
  jsonText('NUL inside', 'a\u0000b'),
  json('lone surrogate', '"\\ud800"', NOT_UNICODE),
  jsonText('SQL comment', "' OR 1=1 --"),
  jsonText('backslash', '\\'),
  jsonText('percent', '%'),
  jsonText('underscore', '_'),
  json('[]', '[]', []),
  json('[1]', '[1]', [1]),
  json('{}', '{}', {}),
  json('{"a":1}', '{"a":1}', { a: 1 }),
  json('arrays 3 deep', '[[[]]]', [[[]]]),
  json('arrays 50 deep', `${'['.repeat(50)}${']'.repeat(50)}`, [[]]),
  json('{"__proto__":…}', '{"__proto__":{"x":1}}', {}),
  json('{"constructor":…}', '{"constructor":{"prototype":{}}}', {}),
  json('removed', undefined, undefined),
];

/** A value sent as this URL-encoded fragment, `key` being the parameter's bracketed name. */
function form(name: string, fragment: (key: string) => string, value: unknown): Variant {
  return {
    name: `form ${name}`,
    value,
    send: (request, body, path) =>
      request.type('form').send(hostileForm(body, path, fragment(formKey(path)))),
  };
}

const FORM_CORPUS: Variant[] = [
  form('empty', (key) => `${key}=`, ''),
  form('a key without "="', (key) => key, ''),
  form('spaces', (key) => `${key}=%20%20%20`, '   '),
  form('NaN', (key) => `${key}=NaN`, 'NaN'),
  form('1e3', (key) => `${key}=1e3`, '1e3'),
  form('"null"', (key) => `${key}=null`, 'null'),
  form('"true"', (key) => `${key}=true`, 'true'),
  form('"true "', (key) => `${key}=true%20`, 'true '),
  form('"+5"', (key) => `${key}=%2B5`, '+5'),
  form('%00', (key) => `${key}=%00`, '\u0000'),
  form('an invalid escape', (key) => `${key}=%FF%FE`, '%FF%FE'),
  form('key[]', (key) => `${key}[]=1`, ['1']),
  form('key[a]', (key) => `${key}[a]=1`, { a: '1' }),
  form('repeated', (key) => `${key}=1&${key}=2`, ['1', '2']),
];

// ---------------------------------------------------------------------------------------------
// What the contract accepts, parameter by parameter
// ---------------------------------------------------------------------------------------------

type Numbered = 'invoice' | 'estimate';

type Kind =
  /** Text, trimmed unless `raw`, of min..max characters; `unique` numbers clash with 409. */
  | { type: 'text'; required: boolean; min: number; max: number; raw?: boolean; unique?: Numbered }
  /**
   * A document's number (docs/numbering.md): 1 to 64 characters after trimming, clashing with
   * 409; left out, the series gives one (add) or the stored one stays (update); null refused.
   */
  | { type: 'number'; unique: Numbered }
  | { type: 'email'; required: boolean; emptyAllowed: boolean }
  /** A real date, a currency code, one of a listed set: no corpus value is one. */
  | { type: 'date' | 'currency' | 'one-of'; required: boolean }
  /** `nullable`: null is the default (false), not "as it was", even on update. */
  | { type: 'true-false'; nullable?: boolean }
  /** An id of digits naming a record: no corpus value names one. */
  | { type: 'id' }
  | {
      type: 'decimal';
      required: boolean;
      min: number;
      exclusiveMin: boolean;
      max: number;
      inclusiveMax: boolean;
      places: number;
    }
  | { type: 'items'; required: boolean }
  /** One item of a list; `removable` where the list may be left empty (a line's taxes). */
  | { type: 'item'; removable?: boolean }
  /** A line's taxes: left out, null or empty, the document's tax. */
  | { type: 'taxes' };

interface Parameter {
  path: Path;
  kind: Kind;
  /**
   * Left out or null, it reads back as none rather than as the base's: a line's (the lines are
   * replaced whole) and a discount's, whose other form the base sends as null.
   */
  fresh?: boolean;
  /** A parameter beside it sent as null: the other form of a discount, never given with it. */
  aside?: string;
}

/** The one spelling of a number: JSON's number literal without exponent, nothing trimmed. */
const DECIMAL_LITERAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const NEGATIVE_ZERO = /^-0(\.0+)?$/;

/**
 * The value's decimal text when it is a number in the contract's sense, else null. A negative
 * zero is refused as text and as a JSON number.
 */
function decimalText(value: unknown): string | null {
  if (typeof value === 'number') {
    return Number.isFinite(value) && !Object.is(value, -0) ? String(value) : null;
  }
  if (typeof value !== 'string') return null;
  return DECIMAL_LITERAL.test(value) && !NEGATIVE_ZERO.test(value) ? value : null;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** Whether docs/rules.md makes this value valid for a parameter of this kind. */
function accepts(kind: Kind, value: unknown): boolean {
  const absent = isAbsent(value);
  switch (kind.type) {
    case 'text': {
      if (absent) return !kind.required;
      if (typeof value !== 'string') return false;
      const length = [...(kind.raw ? value : value.trim())].length;
      return length >= kind.min && length <= kind.max;
    }
    case 'number': {
      if (value === undefined) return true;
      if (typeof value !== 'string') return false;
      const length = [...value.trim()].length;
      return length >= 1 && length <= 64;
    }
    case 'email':
      if (absent) return !kind.required;
      return kind.emptyAllowed && typeof value === 'string' && value.trim() === '';
    case 'date':
    case 'currency':
    case 'one-of':
      return absent && !kind.required;
    case 'true-false':
      if (absent || typeof value === 'boolean') return true;
      // Any case, never trimmed: a listed value with white space is outside the set.
      return typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase());
    case 'id':
      return false;
    case 'decimal': {
      if (absent) return !kind.required;
      const digits = decimalText(value);
      if (digits === null) return false;
      const number = Number(digits);
      const places = digits.includes('.') ? digits.split('.')[1].length : 0;
      return (
        (kind.exclusiveMin ? number > kind.min : number >= kind.min) &&
        (kind.inclusiveMax ? number <= kind.max : number < kind.max) &&
        places <= kind.places
      );
    }
    case 'items':
      return absent && !kind.required;
    case 'item':
      return value === undefined && kind.removable === true;
    case 'taxes':
      return absent || (Array.isArray(value) && value.length === 0);
  }
}

/**
 * What an accepted value should read back as, or undefined where the sweep does not check
 * (dates, lines, ids). `base` is the value the request started from.
 */
function expectedStored(kind: Kind, value: unknown, base: unknown, update: boolean): unknown {
  switch (kind.type) {
    case 'text':
    case 'email':
      if (isAbsent(value)) return update ? base : '';
      return kind.type === 'text' && kind.raw ? value : (value as string).trim();
    case 'number':
      // Left out on add: the series' next number, whatever it is by then.
      if (value === undefined) return update ? base : undefined;
      return (value as string).trim();
    case 'decimal':
      if (isAbsent(value)) return update ? Number(base) : 0;
      return Number(decimalText(value));
    case 'true-false':
      if (isAbsent(value)) return update && !(kind.nullable && value === null) ? base : 'False';
      return String(value).toLowerCase() === 'true' ? 'True' : 'False';
    default:
      return undefined;
  }
}

const MONEY_LIMIT = 1e13;
const QUANTITY: Kind = {
  type: 'decimal',
  required: true,
  min: 0,
  exclusiveMin: true,
  max: MONEY_LIMIT,
  inclusiveMax: false,
  places: 4,
};
const RATE: Kind = { ...QUANTITY, exclusiveMin: false };
const TAX_RATE: Kind = {
  type: 'decimal',
  required: false,
  min: 0,
  exclusiveMin: false,
  max: 100,
  inclusiveMax: true,
  places: 4,
};
/** An amount in USD: > 0, below 10^13, two decimals. */
const USD_AMOUNT: Kind = { ...QUANTITY, places: 2 };
/** A line's tax: its rate as the document's, given. */
const LINE_TAX_RATE: Kind = {
  type: 'decimal',
  required: true,
  min: 0,
  exclusiveMin: false,
  max: 100,
  inclusiveMax: true,
  places: 4,
};
/** A discount in percent: above 0, at most 100, four decimals. */
const DISCOUNT_PERCENT: Kind = { ...LINE_TAX_RATE, required: false, exclusiveMin: true };
/**
 * An amount off in USD, at most what it comes off: the base line's 2 × 100.00, the base
 * document's sub-total of one such line.
 */
const DISCOUNT_AMOUNT: Kind = { ...DISCOUNT_PERCENT, max: 200, places: 2 };

function optionalText(max: number, raw = false): Kind {
  return { type: 'text', required: false, min: 0, max, raw };
}

function requiredText(max: number, unique?: Numbered): Kind {
  return { type: 'text', required: true, min: 1, max, unique };
}

const CLIENT_PARAMETERS: Parameter[] = [
  { path: ['names'], kind: requiredText(255) },
  { path: ['email'], kind: { type: 'email', required: false, emptyAllowed: true } },
  { path: ['phone'], kind: optionalText(32) },
  { path: ['address'], kind: optionalText(1000) },
  { path: ['tax_id'], kind: optionalText(32) },
];

const EXPENSE_PARAMETERS: Parameter[] = [
  { path: ['description'], kind: requiredText(1000) },
  { path: ['issue_date'], kind: { type: 'date', required: true } },
  { path: ['amount'], kind: USD_AMOUNT },
  { path: ['currency'], kind: { type: 'currency', required: true } },
  { path: ['vendor'], kind: optionalText(255) },
];

function documentParameters(numbered: Numbered, update: boolean): Parameter[] {
  const identity: Parameter[] =
    numbered === 'invoice'
      ? [
          { path: ['invoice_no'], kind: { type: 'number', unique: 'invoice' } },
          { path: ['payment_status'], kind: { type: 'one-of', required: true } },
        ]
      : [
          { path: ['estimate_no'], kind: { type: 'number', unique: 'estimate' } },
          { path: ['accepted'], kind: { type: 'true-false' } },
        ];
  return [
    { path: ['client'], kind: { type: 'id' } },
    ...identity,
    { path: ['description'], kind: optionalText(1000) },
    { path: ['currency'], kind: { type: 'currency', required: false } },
    { path: ['tax_rate'], kind: TAX_RATE },
    // The terms (docs/rules.md, taxes): before the lines, whose changes could leave an amount
    // off more than what it comes off.
    {
      path: ['discount_percent'],
      kind: DISCOUNT_PERCENT,
      fresh: true,
      aside: 'discount_amount',
    },
    {
      path: ['discount_amount'],
      kind: DISCOUNT_AMOUNT,
      fresh: true,
      aside: 'discount_percent',
    },
    { path: ['prices_include_tax'], kind: { type: 'true-false', nullable: true } },
    { path: ['supply_date'], kind: { type: 'date', required: false } },
    { path: ['period_start'], kind: { type: 'date', required: false } },
    { path: ['period_end'], kind: { type: 'date', required: false } },
    { path: ['issue_date'], kind: { type: 'date', required: false } },
    { path: ['due_date'], kind: { type: 'date', required: false } },
    { path: ['note'], kind: optionalText(10_000, true) },
    { path: ['items'], kind: { type: 'items', required: !update } },
    { path: ['items', 0], kind: { type: 'item' } },
    { path: ['items', 0, 'description'], kind: requiredText(1000) },
    { path: ['items', 0, 'unit'], kind: { type: 'one-of', required: false } },
    {
      path: ['items', 0, 'discount_percent'],
      kind: DISCOUNT_PERCENT,
      fresh: true,
      aside: 'discount_amount',
    },
    {
      path: ['items', 0, 'discount_amount'],
      kind: DISCOUNT_AMOUNT,
      fresh: true,
      aside: 'discount_percent',
    },
    { path: ['items', 0, 'taxes'], kind: { type: 'taxes' } },
    { path: ['items', 0, 'taxes', 0], kind: { type: 'item', removable: true } },
    { path: ['items', 0, 'taxes', 0, 'rate'], kind: LINE_TAX_RATE },
    {
      path: ['items', 0, 'taxes', 0, 'category'],
      kind: { type: 'one-of', required: false },
    },
    { path: ['items', 0, 'quantity'], kind: QUANTITY },
    { path: ['items', 0, 'rate'], kind: RATE },
  ];
}

const SEND_PARAMETERS: Parameter[] = [
  { path: ['id'], kind: { type: 'id' } },
  { path: ['email'], kind: { type: 'email', required: true, emptyAllowed: false } },
  { path: ['phone'], kind: optionalText(32) },
];

const PAYMENT_PARAMETERS: Parameter[] = [
  { path: ['id'], kind: { type: 'id' } },
  { path: ['payment_date'], kind: { type: 'date', required: true } },
  { path: ['amount_paid'], kind: USD_AMOUNT },
  { path: ['payment_method'], kind: { type: 'one-of', required: false } },
];

const CONVERT_PARAMETERS: Parameter[] = [
  { path: ['invoice_no'], kind: { type: 'number', unique: 'invoice' } },
  { path: ['issue_date'], kind: { type: 'date', required: false } },
  { path: ['due_date'], kind: { type: 'date', required: false } },
];

// ---------------------------------------------------------------------------------------------
// Building bodies
// ---------------------------------------------------------------------------------------------

type Holder = Record<string | number, unknown>;

/** A copy of the body without the parameter at `path`, and the holder it was taken from. */
function without(body: object, path: Path): { copy: Holder; holder: Holder } {
  const copy = structuredClone(body) as Holder;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Holder;
  const last = path[path.length - 1];
  if (Array.isArray(holder)) holder.splice(last as number, 1);
  else delete holder[last];
  return { copy, holder };
}

/** A copy of the body with `name`, beside the parameter at `path`, set to null. */
function besideNull(body: object, path: Path, name: string): object {
  const copy = structuredClone(body) as Holder;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Holder;
  holder[name] = null;
  return copy;
}

function valueAt(body: object, path: Path): unknown {
  return path.reduce<unknown>((holder, key) => (holder as Holder)[key], body);
}

const SLOT = '@@hostile-slot@@';

/** The body as JSON text, with the parameter at `path` replaced by raw JSON, or removed. */
function hostileJson(body: object, path: Path, raw: string | undefined): string {
  if (raw === undefined) return JSON.stringify(without(body, path).copy);
  const copy = structuredClone(body) as Holder;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Holder;
  holder[path[path.length - 1]] = SLOT;
  return JSON.stringify(copy).replace(JSON.stringify(SLOT), () => raw);
}

/** `items[0][rate]` for ['items', 0, 'rate']. */
function formKey(path: Path): string {
  return path.map((key, index) => (index === 0 ? String(key) : `[${key}]`)).join('');
}

/**
 * The body URL-encoded without the parameter at `path`, then the hostile fragment. A form has
 * no null: a parameter the base sends as null is left out.
 */
function hostileForm(body: object, path: Path, fragment: string): string {
  const rest = formEncode(without(body, path).copy, { skipNulls: true });
  return rest === '' ? fragment : `${rest}&${fragment}`;
}

// ---------------------------------------------------------------------------------------------
// Checking answers
// ---------------------------------------------------------------------------------------------

/** Why an answer breaks the rules of the sweep, or null when it keeps them. */
function envelopeProblem(response: Response): string | null {
  const { status } = response;
  if (status === 200) {
    const body = response.body as { status?: unknown } | undefined;
    return body?.status === 'success' ? null : `200 without status "success": ${clip(response)}`;
  }
  if (status < 400 || status >= 500) return `answered ${status}: ${clip(response)}`;
  if (!/^application\/json/.test(String(response.headers['content-type'] ?? ''))) {
    return `${status} is not JSON: ${clip(response)}`;
  }
  const body = response.body as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null) return `${status} without a body`;
  if (body.status !== 'error') return `${status} without status "error": ${clip(response)}`;
  if (typeof body.message !== 'string' || body.message === '') {
    return `${status} without a message: ${clip(response)}`;
  }
  const extra = Object.keys(body).filter((key) => !['status', 'message', 'errors'].includes(key));
  if (extra.length > 0) return `${status} with extra keys ${extra.join(', ')}`;
  if (body.errors !== undefined) {
    const errors = body.errors as Record<string, unknown>;
    const wellFormed =
      typeof errors === 'object' &&
      errors !== null &&
      !Array.isArray(errors) &&
      Object.keys(errors).length > 0 &&
      Object.values(errors).every(
        (messages) =>
          Array.isArray(messages) &&
          messages.length > 0 &&
          messages.every((message) => typeof message === 'string' && message !== ''),
      );
    if (!wellFormed) return `${status} with malformed errors: ${clip(response)}`;
  }
  return null;
}

function clip(response: Response): string {
  const text = response.text ?? '';
  const limit = Number(process.env.HOSTILE_CLIP ?? 300);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

type Expected = number | 'refused';

/** Every request accepted with 200, over the whole file, for HOSTILE_REPORT. */
const acceptedRequests: string[] = [];
let requestCount = 0;

/** Collects the problems of one test, to fail once with all of them listed. */
class Findings {
  readonly problems: string[] = [];

  /** 200 or an enveloped 4xx; and `expected` exactly, or any 4xx when 'refused'. */
  expect(label: string, response: Response, expected: Expected): void {
    requestCount += 1;
    if (process.env.HOSTILE_SHOW && label.includes(process.env.HOSTILE_SHOW)) {
      process.stdout.write(`${label}: ${response.status} ${clip(response)}\n`);
    }
    const problem = envelopeProblem(response);
    if (problem) {
      this.problems.push(`${label}: ${problem}`);
      return;
    }
    if (response.status === 200) acceptedRequests.push(label);
    const ok =
      expected === 'refused'
        ? response.status >= 400 && response.status < 500
        : response.status === expected;
    if (!ok) {
      const wanted = expected === 'refused' ? 'a 4xx' : String(expected);
      this.problems.push(
        `${label}: expected ${wanted}, answered ${response.status}: ${clip(response)}`,
      );
    }
  }

  note(problem: string): void {
    this.problems.push(problem);
  }
}

/** A sweep sends over a thousand requests one after another: room for a loaded machine. */
const SWEEP_TIMEOUT = 120_000;

/** Each parameter gets every `VARIANT_STRIDE`-th value of a corpus (see the header). */
const VARIANT_STRIDE = SLOW_RUN ? 1 : 3;

type Resource = 'client' | 'expense' | 'invoice' | 'estimate';
const RESOURCES: Resource[] = ['client', 'expense', 'invoice', 'estimate'];

// ---------------------------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------------------------

describe('Hostile input', () => {
  let test: TestApp;
  let http: TestAgent;

  /** The records refused requests aim at; they must not change. */
  const pristine: Record<Resource, string> = { client: '', expense: '', invoice: '', estimate: '' };
  /** The records accepted requests aim at. */
  const scratch = {
    client: '',
    documentClient: '',
    expense: '',
    invoice: '',
    paidInvoice: '',
    estimate: '',
  };
  /** Ids that accepted requests created, per resource. */
  const created: Record<Resource, string[]> = {
    client: [],
    expense: [],
    invoice: [],
    estimate: [],
  };
  /** Live numbers and the id holding each: reusing one is a legitimate 409. */
  const numbers: Record<Numbered, Map<string, string>> = {
    invoice: new Map(),
    estimate: new Map(),
  };
  let before: Snapshot;

  beforeAll(async () => {
    test = await createTestApp();
    http = test.http;
    pristine.client = await createClient(http, {
      names: 'Pristine Client',
      email: 'pristine@example.com',
      phone: '+1 555 0100',
      address: '1 Main Street',
      tax_id: 'US 12-3456789',
    });
    scratch.client = await createClient(http, { names: 'Scratch Client' });
    scratch.documentClient = await createClient(http, { names: 'Document Client' });
    pristine.expense = (await addExpense(http, { vendor: 'Acme' })).id;
    scratch.expense = (await addExpense(http, { vendor: 'Acme' })).id;
    pristine.invoice = (await createInvoice(http, invoiceBody(pristine.client))).id;
    await payInvoice(http, pristine.invoice, '10.00');
    await http
      .post('/v1/invoice/send')
      .send({ id: pristine.invoice, email: 'first@example.com' })
      .expect(200);
    scratch.invoice = (await createInvoice(http, invoiceBody(scratch.documentClient))).id;
    scratch.paidInvoice = (
      await createInvoice(http, {
        ...invoiceBody(scratch.documentClient),
        items: [{ description: 'Large', quantity: 1, rate: '1000000.00' }],
      })
    ).id;
    pristine.estimate = (await createEstimate(http, estimateBody(pristine.client))).id;
    scratch.estimate = (await createEstimate(http, estimateBody(scratch.documentClient))).id;
    for (const numbered of ['invoice', 'estimate'] as const) {
      const response = await http.get(`/v1/${numbered}/all`).expect(200);
      for (const row of (response.body as { data: Array<Record<string, string>> }).data) {
        numbers[numbered].set(numbered === 'invoice' ? row.invoice_no : row.reference_no, row.id);
      }
    }
    before = await snapshot();
  });

  afterAll(async () => {
    if (process.env.HOSTILE_REPORT) {
      process.stdout.write(
        `\n${requestCount} requests, ${acceptedRequests.length} answered 200:\n  ${acceptedRequests.join('\n  ')}\n`,
      );
    }
    await test?.close();
  });

  function invoiceBody(client: string) {
    return {
      client,
      invoice_no: invoiceNumber('HOSTILE'),
      payment_status: 'Not Paid',
      description: 'Hostile sweep',
      currency: 'USD',
      tax_rate: '5',
      issue_date: '2026-03-01',
      due_date: '2099-12-31',
      note: 'Thank you',
      items: [{ description: 'Consulting', quantity: 2, rate: '100.00', taxes: [{ rate: '5' }] }],
    };
  }

  function estimateBody(client: string) {
    return {
      client,
      estimate_no: estimateNumber('HOSTILE'),
      accepted: 'False',
      description: 'Hostile sweep',
      currency: 'USD',
      tax_rate: '5',
      issue_date: '2026-03-01',
      due_date: '2099-12-31',
      note: 'Valid for 30 days',
      items: [{ description: 'Design', quantity: 2, rate: '100.00', taxes: [{ rate: '5' }] }],
    };
  }

  /** What a record reads back as, by parameter path: the inputs of a write that keeps it. */
  async function stored(resource: Resource, id: string): Promise<Record<string, unknown>> {
    const response = await http.get(`/v1/${resource}/${id}`).expect(200);
    const body = response.body as Record<string, Array<Record<string, unknown>>>;
    switch (resource) {
      case 'client': {
        const { names, email, phone, address, tax_id } = body.data[0];
        return { names, email, phone, address, tax_id };
      }
      case 'expense': {
        const [expense] = body.expense;
        return {
          description: expense.description,
          issue_date: expense.issued_date,
          amount: expense.amount,
          currency: expense.currency,
          vendor: expense.vendor,
        };
      }
      default: {
        const [document] = body[resource];
        // A discount is given one way: the amount a percent works out to is no input.
        const amountOff = (percent: unknown, amount: unknown) =>
          percent === null && Number(amount) !== 0 ? amount : null;
        const fields: Record<string, unknown> = {
          client: document.customer_id,
          description: document.description,
          currency: document.currency,
          tax_rate: document.tax_rate,
          discount_percent: document.discount_percent,
          discount_amount: amountOff(document.discount_percent, document.discount_amount),
          prices_include_tax: document.prices_include_tax ? 'True' : 'False',
          issue_date: document.issue_date,
          due_date: document.due_date,
          note: document.note,
          items: body.items.map((line) => ({
            description: line.description,
            quantity: line.quantity,
            rate: line.rate,
            discount_percent: line.discount_percent,
            discount_amount: amountOff(line.discount_percent, line.discount_amount),
            // The category follows from the rate: the sweep gives none.
            taxes: (line.taxes as Array<{ rate: unknown }>).map(({ rate }) => ({ rate })),
          })),
        };
        if (resource === 'invoice') {
          fields.invoice_no = document.invoice_no;
          fields.payment_status = document.payment_status;
        } else {
          fields.estimate_no = document.reference_no;
          fields.accepted = document.accepted;
        }
        return fields;
      }
    }
  }

  /** The record an answer wrote, if it names one. */
  function writtenRecord(response: Response): { resource: Resource; id: string } | null {
    const body = response.body as Record<string, unknown>;
    for (const [key, resource] of [
      ['data', 'client'],
      ['expense', 'expense'],
      ['invoice', 'invoice'],
      ['estimate', 'estimate'],
    ] as const) {
      const rows = body[key];
      if (Array.isArray(rows) && rows.length === 1) {
        return { resource, id: String((rows[0] as { id: unknown }).id) };
      }
    }
    return null;
  }

  /** Keeps track of what a 200 created or renumbered. */
  function noteSuccess(response: Response, creates: boolean): void {
    const record = writtenRecord(response);
    if (!record) return;
    if (creates) created[record.resource].push(record.id);
    if (record.resource === 'invoice' || record.resource === 'estimate') {
      const row = (response.body as Record<string, Array<Record<string, string>>>)[
        record.resource
      ][0];
      const map = numbers[record.resource];
      for (const [number, id] of map) if (id === record.id) map.delete(number);
      map.set(record.resource === 'invoice' ? row.invoice_no : row.estimate_no, record.id);
    }
  }

  /**
   * Makes a valid number free to take where the sweep itself took it before (an archived
   * number may be reused): 200. Held by a pristine or scratch record, it stays taken: 409.
   */
  async function freeNumber(
    resource: Numbered,
    number: string,
    taker?: string,
  ): Promise<200 | 409> {
    const owner = numbers[resource].get(number);
    if (owner === undefined || owner === taker) return 200;
    if (!created[resource].includes(owner)) return 409;
    await http.delete(`/v1/${resource}/${owner}`).expect(200);
    created[resource].splice(created[resource].indexOf(owner), 1);
    numbers[resource].delete(number);
    return 200;
  }

  interface Target {
    path: string;
    body: object;
    /** The record a number parameter would be written to, for the 409 check. */
    numberOwner?: string;
  }

  interface Endpoint {
    name: string;
    method: 'post' | 'put';
    parameters: Parameter[];
    /** An add (or a conversion): a 200 creates a record. */
    creates: boolean;
    /** Where a request goes: `valid` says whether the contract accepts it. */
    target(valid: boolean): Target | Promise<Target>;
  }

  /** Sends every variant to every parameter of an endpoint, one request at a time. */
  async function sweep(endpoint: Endpoint, corpus: Variant[], findings: Findings) {
    for (const [parameterIndex, parameter] of endpoint.parameters.entries()) {
      const { kind } = parameter;
      for (const [variantIndex, variant] of corpus.entries()) {
        if ((variantIndex + parameterIndex) % VARIANT_STRIDE !== 0) continue;
        const valid = accepts(kind, variant.value);
        const target = await endpoint.target(valid);
        const body = parameter.aside
          ? besideNull(target.body, parameter.path, parameter.aside)
          : target.body;
        const label = `${endpoint.name} ${parameter.path.join('.')} = ${variant.name}`;
        let expected: Expected = valid ? 200 : 'refused';
        const numbered = kind.type === 'text' || kind.type === 'number' ? kind.unique : undefined;
        if (valid && numbered && typeof variant.value === 'string') {
          expected = await freeNumber(numbered, variant.value.trim(), target.numberOwner);
        }
        const request = http[endpoint.method](target.path);
        const response = await variant.send(request, body, parameter.path);
        findings.expect(label, response, expected);
        if (response.status !== 200) continue;
        noteSuccess(response, endpoint.creates);
        // An accepted value must be stored as the contract reads it, whatever the database.
        const record = writtenRecord(response);
        const base = valueAt(body, parameter.path);
        const update = !endpoint.creates && parameter.fresh !== true;
        const wanted = expectedStored(kind, variant.value, base, update);
        if (!record || wanted === undefined) continue;
        const read = valueAt(await stored(record.resource, record.id), parameter.path);
        const same = kind.type === 'decimal' ? Number(read) === wanted : read === wanted;
        if (!same) {
          findings.note(
            `${label}: stored ${JSON.stringify(read)?.slice(0, 80)}, expected ${JSON.stringify(wanted)?.slice(0, 80)}`,
          );
        }
      }
    }
  }

  /**
   * A PUT starts from the record's own values: applied field by field, a refused request
   * would change nothing at all, so any change to a pristine record is the request's doing.
   * The pristine values are read once (they must not change); the scratch ones every time.
   */
  function pristineOrScratch(resource: Resource) {
    let pristineBody: Record<string, unknown> | undefined;
    return async (valid: boolean): Promise<Target> => {
      const id = valid ? scratch[resource] : pristine[resource];
      const body = valid
        ? await stored(resource, id)
        : (pristineBody ??= await stored(resource, id));
      return { path: `/v1/${resource}/${id}`, body: withoutAmountsOff(body), numberOwner: id };
    };
  }

  /**
   * The base of an update gives no amount off: a line or a sub-total the sweep changed could be
   * less than it. On an invoice or an estimate, null (a percent, if any, is given).
   */
  function withoutAmountsOff(body: Record<string, unknown>): Record<string, unknown> {
    if (!('discount_amount' in body)) return body;
    const lines = body.items as Array<Record<string, unknown>>;
    return {
      ...body,
      discount_amount: null,
      items: lines.map((line) => ({ ...line, discount_amount: null })),
    };
  }

  /** The twelve write endpoints, each from a valid body against existing records. */
  function endpoints(): Endpoint[] {
    return [
      {
        name: 'POST /v1/client/add',
        method: 'post',
        creates: true,
        parameters: CLIENT_PARAMETERS,
        target: () => ({
          path: '/v1/client/add',
          body: {
            names: 'Hostile Add',
            email: 'add@example.com',
            phone: '+1 555 0199',
            address: '2 Side Street',
            tax_id: 'GB 987 6543 21',
          },
        }),
      },
      {
        name: 'PUT /v1/client/{id}',
        method: 'put',
        creates: false,
        parameters: CLIENT_PARAMETERS,
        target: pristineOrScratch('client'),
      },
      {
        name: 'POST /v1/expense/add',
        method: 'post',
        creates: true,
        parameters: EXPENSE_PARAMETERS,
        target: async () => ({
          path: '/v1/expense/add',
          body: await stored('expense', pristine.expense),
        }),
      },
      {
        name: 'PUT /v1/expense/{id}',
        method: 'put',
        creates: false,
        parameters: EXPENSE_PARAMETERS,
        target: pristineOrScratch('expense'),
      },
      {
        name: 'POST /v1/invoice/add',
        method: 'post',
        creates: true,
        parameters: documentParameters('invoice', false),
        target: () => ({
          path: '/v1/invoice/add',
          body: invoiceBody(scratch.documentClient),
        }),
      },
      {
        name: 'PUT /v1/invoice/{id}',
        method: 'put',
        creates: false,
        parameters: documentParameters('invoice', true),
        target: pristineOrScratch('invoice'),
      },
      {
        name: 'POST /v1/invoice/send',
        method: 'post',
        creates: false,
        parameters: SEND_PARAMETERS,
        target: (valid) => ({
          path: '/v1/invoice/send',
          body: {
            id: valid ? scratch.invoice : pristine.invoice,
            email: 'billing@example.com',
            phone: '+1 555 0100',
          },
        }),
      },
      {
        name: 'POST /v1/invoice/record-payment',
        method: 'post',
        creates: false,
        parameters: PAYMENT_PARAMETERS,
        target: (valid) => ({
          path: '/v1/invoice/record-payment',
          body: {
            id: valid ? scratch.paidInvoice : pristine.invoice,
            payment_date: '2026-03-10',
            amount_paid: '1.00',
            payment_method: 'Cash',
          },
        }),
      },
      {
        name: 'POST /v1/estimate/add',
        method: 'post',
        creates: true,
        parameters: documentParameters('estimate', false),
        target: () => ({
          path: '/v1/estimate/add',
          body: estimateBody(scratch.documentClient),
        }),
      },
      {
        name: 'PUT /v1/estimate/{id}',
        method: 'put',
        creates: false,
        parameters: documentParameters('estimate', true),
        target: pristineOrScratch('estimate'),
      },
      {
        name: 'POST /v1/estimate/send',
        method: 'post',
        creates: false,
        parameters: SEND_PARAMETERS,
        target: (valid) => ({
          path: '/v1/estimate/send',
          body: {
            id: valid ? scratch.estimate : pristine.estimate,
            email: 'quotes@example.com',
            phone: '+1 555 0100',
          },
        }),
      },
      {
        name: 'POST /v1/estimate/{id}/convert',
        method: 'post',
        creates: true,
        parameters: CONVERT_PARAMETERS,
        target: async (valid) => {
          // A conversion uses its estimate up: each accepted one gets a fresh estimate.
          let id = pristine.estimate;
          if (valid) {
            id = (await createEstimate(http, estimateBody(scratch.documentClient))).id;
            created.estimate.push(id);
          }
          return {
            path: `/v1/estimate/${id}/convert`,
            body: {
              invoice_no: invoiceNumber('CONVERTED'),
              issue_date: '2026-03-01',
              due_date: '2099-12-31',
            },
          };
        },
      },
    ];
  }

  describe.each([
    ['client', ['POST /v1/client/add', 'PUT /v1/client/{id}']],
    ['expense', ['POST /v1/expense/add', 'PUT /v1/expense/{id}']],
    [
      'invoice',
      [
        'POST /v1/invoice/add',
        'PUT /v1/invoice/{id}',
        'POST /v1/invoice/send',
        'POST /v1/invoice/record-payment',
      ],
    ],
    [
      'estimate',
      [
        'POST /v1/estimate/add',
        'PUT /v1/estimate/{id}',
        'POST /v1/estimate/send',
        'POST /v1/estimate/{id}/convert',
      ],
    ],
  ])('the %s endpoints', (_, names) => {
    it.each([
      ['JSON', JSON_CORPUS],
      ['form', FORM_CORPUS],
    ])(
      'answer every hostile %s parameter with 200 (exactly where the contract allows it) or an enveloped 4xx',
      async (__, corpus) => {
        const findings = new Findings();
        for (const endpoint of endpoints().filter((each) => names.includes(each.name))) {
          await sweep(endpoint, corpus, findings);
        }
        expect(findings.problems).toEqual([]);
      },
      SWEEP_TIMEOUT,
    );
  });

  it('answers raw hostile bodies with an enveloped 4xx', async () => {
    const findings = new Findings();
    const check = async (label: string, request: Test, expected: Expected) => {
      const response = await request;
      findings.expect(label, response, expected);
      if (response.status === 200) noteSuccess(response, request.method === 'POST');
      return response;
    };
    // Bytes go out as they are: superagent would otherwise serialise a Buffer as JSON.
    const rawJson = (path: string, body: string | Buffer, type = 'application/json') =>
      http
        .post(path)
        .set('Content-Type', type)
        .serialize((data: unknown) => data as string)
        .send(body);
    const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const invoiceForm = formEncode(invoiceBody(scratch.documentClient));

    await check('truncated JSON', rawJson('/v1/client/add', '{"names": "Trunc'), 400);
    await check(
      'JSON with duplicate keys',
      rawJson('/v1/client/add', '{"names": "First", "names": "Second"}'),
      400,
    );
    for (const [name, body] of [
      ['an array', '[{"names": "Ada"}]'],
      ['a number', '42'],
      ['a string', '"Ada"'],
      ['null', 'null'],
      ['true', 'true'],
    ]) {
      await check(`a top-level JSON ${name}`, rawJson('/v1/client/add', body), 400);
    }
    await check(
      'JSON with invalid UTF-8 bytes',
      rawJson(
        '/v1/client/add',
        Buffer.concat([
          Buffer.from('{"names": "Bad '),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from('"}'),
        ]),
      ),
      400,
    );
    await check(
      'a form with invalid UTF-8 bytes',
      rawJson(
        '/v1/client/add',
        Buffer.concat([Buffer.from('names=Bad%20'), Buffer.from([0xff, 0xfe])]),
        'application/x-www-form-urlencoded',
      ),
      400,
    );
    const latin1 = await check(
      'JSON in charset=latin1',
      rawJson(
        '/v1/client/add',
        Buffer.from('{"names": "Zoë Latin"}', 'latin1'),
        'application/json; charset=latin1',
      ),
      200,
    );
    const latin1Names = (latin1.body as { data?: Array<{ names: string }> }).data?.[0].names;
    if (latin1Names !== 'Zoë Latin') findings.note(`latin1 JSON read as ${latin1Names}`);
    await check(
      'JSON in charset=unknown-xyz',
      rawJson('/v1/client/add', '{"names": "Ada"}', 'application/json; charset=unknown-xyz'),
      415,
    );
    await check(
      'a form in charset=utf-16',
      rawJson('/v1/client/add', 'names=Ada', 'application/x-www-form-urlencoded; charset=utf-16'),
      415,
    );
    await check(
      'an empty body typed JSON',
      http.post('/v1/client/add').set('Content-Type', 'application/json'),
      422,
    );
    await check(
      'form-typed JSON text',
      rawJson('/v1/client/add', '{"names": "Ada"}', 'application/x-www-form-urlencoded'),
      422,
    );
    await check('JSON-typed form text', rawJson('/v1/client/add', 'names=Ada'), 400);
    await check(
      'a form with items[999999][rate]=1',
      http.post('/v1/invoice/add').type('form').send(`${invoiceForm}&items[999999][rate]=1`),
      422,
    );
    const deepKey = `a${Array.from({ length: 40 }, (__, index) => `[k${index}]`).join('')}`;
    await check(
      'a form key 40 levels deep',
      http.post('/v1/client/add').type('form').send(`names=Deep&${deepKey}=1`),
      400,
    );
    await check(
      'a form names 40 levels deep',
      http
        .post('/v1/client/add')
        .type('form')
        .send(`names${deepKey.slice(1)}=1`),
      400,
    );
    await check(
      'a multipart body with a file part',
      http
        .post('/v1/client/add')
        .field('names', 'With A File')
        .attach('names', Buffer.from('%PDF-1.4'), 'names.pdf'),
      400,
    );
    await check(
      'a truncated multipart body',
      rawJson(
        '/v1/client/add',
        '--XYZ\r\nContent-Disposition: form-data; name="names"\r\n\r\nAda',
        'multipart/form-data; boundary=XYZ',
      ),
      400,
    );
    await check(
      'a multipart body without a boundary',
      rawJson('/v1/client/add', 'names=Ada', 'multipart/form-data'),
      400,
    );
    for (const encoding of ['gzip', 'deflate', 'br']) {
      await check(
        `Content-Encoding: ${encoding} with bytes that are not`,
        http
          .post('/v1/client/add')
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send('{"names": "Not compressed"}'),
        400,
      );
    }
    await check(
      'Content-Encoding: x-unknown',
      http
        .post('/v1/client/add')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'x-unknown')
        .send('{"names": "Ada"}'),
      415,
    );
    // Unknown fields are ignored, however they nest, up to the parser's depth limit (32 with
    // the body's own object); past it, each recursive step after parsing would risk the stack.
    await check(
      'an unknown field of objects 30 deep',
      rawJson('/v1/client/add', `{"names": "Nested", "x": ${deepObjects(30)}}`),
      200,
    );
    for (const depth of [32, 1_000, 3_000, 6_000, 10_000, 100_000]) {
      await check(
        `names as arrays ${depth} deep`,
        rawJson('/v1/client/add', `{"names": ${deepArrays(depth)}}`),
        400,
      );
      await check(
        `an unknown field of objects ${depth} deep`,
        rawJson('/v1/client/add', `{"names": "Deep", "x": ${deepObjects(depth)}}`),
        400,
      );
      await check(
        `items of arrays ${depth} deep`,
        rawJson(
          '/v1/invoice/add',
          JSON.stringify(invoiceBody(scratch.documentClient)).replace(
            /"items":\[.*\]/,
            `"items": ${deepArrays(depth)}`,
          ),
        ),
        400,
      );
    }
    await check(
      'brackets inside strings do not count as nesting',
      rawJson('/v1/client/add', JSON.stringify({ names: `${'['.repeat(100)}\\"{` })),
      200,
    );
    for (const [name, query] of [
      ['names[$ne]', 'names[$ne]=x'],
      ['names[]', 'names[]=x'],
      ['names twice', 'names=A&names=B'],
      ['names over 255 characters', `names=${'a'.repeat(300)}`],
      ['__proto__[names]', '__proto__[names]=Smuggled'],
      ['constructor[prototype][names]', 'constructor[prototype][names]=Smuggled'],
    ]) {
      await check(`a query string with ${name}`, http.post(`/v1/client/add?${query}`), 422);
    }

    // The same kinds of body against the pristine records: refused, and nothing changes.
    const puts = [
      `/v1/client/${pristine.client}`,
      `/v1/expense/${pristine.expense}`,
      `/v1/invoice/${pristine.invoice}`,
      `/v1/estimate/${pristine.estimate}`,
    ];
    for (const path of puts) {
      for (const [name, body, type] of [
        ['truncated JSON', '{"names": "Trunc', 'application/json'],
        ['a top-level array', '[]', 'application/json'],
        ['deep arrays', `{"items": ${deepArrays(6_000)}}`, 'application/json'],
        ['an unknown charset', '{}', 'application/json; charset=unknown-xyz'],
        [
          'a truncated multipart body',
          '--XYZ\r\nContent-Disposition: form-data; name="a"',
          'multipart/form-data; boundary=XYZ',
        ],
        ['text/plain', 'names=Ada', 'text/plain'],
      ]) {
        await check(
          `PUT ${path} with ${name}`,
          http.put(path).set('Content-Type', type).send(body),
          'refused',
        );
      }
      await check(
        `PUT ${path} with gzip that is not`,
        http
          .put(path)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'gzip')
          .send('{}'),
        400,
      );
    }
    expect(findings.problems).toEqual([]);
  });

  it('answers hostile path ids with 404 and changes nothing', async () => {
    const findings = new Findings();
    const ids = [
      'abc',
      '-1',
      '1.0',
      '99999999999999999999',
      '%00',
      '..%2f',
      'null',
      '0x1',
      '1%20',
      '0',
      '4294967296',
      '%',
      '%ZZ',
    ];
    const bodies: Record<Resource, object> = {
      client: { names: 'Changed By Path' },
      expense: { description: 'Changed', issue_date: '2026-03-01', amount: '1', currency: 'USD' },
      invoice: { ...invoiceBody(pristine.client), invoice_no: 'CHANGED-BY-PATH' },
      estimate: { ...estimateBody(pristine.client), estimate_no: 'CHANGED-BY-PATH' },
    };
    for (const id of ids) {
      for (const resource of RESOURCES) {
        const path = `/v1/${resource}/${id}`;
        findings.expect(`PUT ${path}`, await http.put(path).send(bodies[resource]), 404);
        findings.expect(`GET ${path}`, await http.get(path), 404);
        findings.expect(`DELETE ${path}`, await http.delete(path), 404);
      }
      const convert = `/v1/estimate/${id}/convert`;
      findings.expect(
        `POST ${convert}`,
        await http.post(convert).send({ invoice_no: 'BY-PATH' }),
        404,
      );
      for (const action of ['paid', 'not-paid']) {
        const path = `/v1/invoice/${action}/${id}`;
        findings.expect(`GET ${path}`, await http.get(path), 404);
      }
    }
    expect(findings.problems).toEqual([]);
  });

  it('answers hostile list queries with 422, or 200 with only what matches', async () => {
    const findings = new Findings();
    const refused: Array<[Resource, string]> = [];
    for (const resource of RESOURCES) {
      for (const query of [
        'page=-1',
        'page=0',
        'page=1.5',
        'page=abc',
        'page=',
        'page[]=1',
        'page[$gt]=0',
        'page=99999999999',
        'per_page=1e9',
        'per_page=0',
        'per_page=501',
        'per_page=1000',
        'per_page=-5',
        'per_page=5x',
        'page=01',
        'page=%201',
        'page=1%20',
        'page=%2B1',
        'page=1.0',
        'per_page=050',
      ]) {
        refused.push([resource, query]);
      }
    }
    refused.push(
      ['client', 'q[$ne]=x'],
      ['client', 'q[]=a&q[]=b'],
      ['client', `q=${'q'.repeat(300)}`],
      ['invoice', 'client=abc'],
      ['invoice', 'client=-1'],
      ['invoice', 'client[$gt]=0'],
      ['invoice', 'payment_status=Unknown'],
      ['invoice', 'payment_status=Paid%20'],
      ['invoice', 'from=%202026-01-01'],
      ['estimate', 'accepted=True%20'],
      ['expense', 'category=Travel%20'],
      ['expense', 'currency=USD%20'],
      ['invoice', 'payment_status[]=Paid'],
      ['invoice', 'from=2026-13-45'],
      ['invoice', 'to=2026-02-30'],
      ['invoice', 'from[]=2026-01-01'],
      ['estimate', 'client=1.5'],
      ['estimate', 'accepted=maybe'],
      ['estimate', 'accepted[]=True'],
      ['expense', 'category=Nope'],
      ['expense', 'category[$ne]=x'],
      ['expense', 'currency=ZZZ'],
      ['expense', 'currency[]=USD'],
      ['expense', 'from=2026-13-45'],
      ['expense', 'to=yesterday'],
      ['expense', 'from=2026-02-01&to=2026-01-31'],
      // A key naming a property of Object.prototype must not make the parameter vanish.
      ['invoice', 'payment_status[__proto__]=Paid'],
      ['invoice', 'status[toString]=paid'],
      ['estimate', 'accepted[constructor]=True'],
      ['expense', 'category[hasOwnProperty]=Travel'],
    );
    for (const [resource, query] of refused) {
      findings.expect(
        `GET /v1/${resource}/all?${query}`,
        await http.get(`/v1/${resource}/all?${query}`),
        422,
      );
    }

    // Text that SQL would read as a pattern, a quote or an escape matches only itself.
    for (const q of ['%', '_', "' OR 1=1 --", '\\', '"', '!']) {
      const response = await http.get('/v1/client/all').query({ q });
      findings.expect(`GET /v1/client/all?q=${JSON.stringify(q)}`, response, 200);
      const rows = (response.body as { data?: Array<{ names: string; email: string }> }).data ?? [];
      const strays = rows.filter(
        (row) => !`${row.names}\n${row.email}`.toLowerCase().includes(q.toLowerCase()),
      );
      if (strays.length > 0) {
        const names = strays.slice(0, 3).map((row) => JSON.stringify(row.names).slice(0, 40));
        findings.note(
          `q=${JSON.stringify(q)} matched ${strays.length} rows without it: ${names.join(', ')}`,
        );
      }
    }
    // A NUL in the search is refused: SQLite's LIKE would stop at it and match every client.
    findings.expect('GET /v1/client/all?q=%00', await http.get('/v1/client/all?q=%00'), 422);
    findings.expect('GET /v1/client/all?q=a%00b', await http.get('/v1/client/all?q=a%00b'), 422);
    // A range that ends before it begins is refused, as the reports refuse it.
    findings.expect(
      'GET /v1/invoice/all?from=2026-03-02&to=2026-03-01',
      await http.get('/v1/invoice/all?from=2026-03-02&to=2026-03-01'),
      422,
    );
    // A list reads its parameters from a body too.
    findings.expect(
      'GET /v1/client/all with {"page": -1}',
      await http.get('/v1/client/all').send({ page: -1 }),
      422,
    );
    findings.expect(
      'GET /v1/client/all with truncated JSON',
      await http.get('/v1/client/all').set('Content-Type', 'application/json').send('{"page": '),
      400,
    );
    expect(findings.problems).toEqual([]);
  });

  it('changed nothing a refused request aimed at', async () => {
    const after = await snapshot();
    expect(after.records).toEqual(before.records);
    for (const resource of RESOURCES) {
      const expected = [...before.ids[resource], ...created[resource]].sort(byNumber);
      expect({ resource, ids: after.ids[resource] }).toEqual({ resource, ids: expected });
    }
  });

  interface Snapshot {
    /** Every read and list entry of the pristine records. */
    records: Record<string, unknown>;
    /** The ids of every list. */
    ids: Record<Resource, string[]>;
  }

  async function snapshot(): Promise<Snapshot> {
    const records: Record<string, unknown> = {};
    const ids: Record<Resource, string[]> = { client: [], expense: [], invoice: [], estimate: [] };
    for (const resource of RESOURCES) {
      const id = pristine[resource];
      records[`${resource} ${id}`] = (await http.get(`/v1/${resource}/${id}`).expect(200)).body;
      const list = (await http.get(`/v1/${resource}/all`).expect(200)).body as {
        data: Array<{ id: string }>;
      };
      records[`${resource} ${id} in the list`] = list.data.find((row) => row.id === id);
      ids[resource] = list.data.map((row) => row.id).sort(byNumber);
    }
    return { records, ids };
  }
});

function byNumber(a: string, b: string): number {
  return Number(a) - Number(b);
}
