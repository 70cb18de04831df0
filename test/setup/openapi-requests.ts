import * as currencyCodes from 'currency-codes';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as formEncode } from 'qs';
import { listedValues } from '../../src/openapi/any-case-pattern';
import { embeddedIPv4Urls } from './address-forms';

/*
 * Requests that are certainly invalid, derived from the committed OpenAPI document
 * (docs/openapi.json) and docs/rules.md: for every operation under /v1, a valid request on the
 * pristine records (path ids, references and unique numbers that exist or are free) is broken
 * by at least one defect the document's own constraints forbid (type, required, enum, pattern,
 * format, maxLength, minItems/maxItems, the bounds and decimals each numeric parameter's
 * description states, the http(s) URL a webhook's description asks for), then roughened with
 * noise the contract ignores (unknown fields, odd Unicode in free text, dropped optional
 * fields), and sent in one of the encodings the service reads, or as a malformed body.
 */

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

export interface Schema {
  $ref?: string;
  type?: string;
  oneOf?: Schema[];
  enum?: string[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  example?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export function readOpenApiDocument(): OpenApiDocument {
  const text = readFileSync(join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8');
  return JSON.parse(text) as OpenApiDocument;
}

// ---------------------------------------------------------------------------------------------
// What a generated request is
// ---------------------------------------------------------------------------------------------

/** A JSON token sent as written: a lone surrogate escape, an exponent, 400 digits. */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON(): string {
    return `<raw ${this.text.slice(0, 40)}>`;
  }
}

/** A form parameter given more than once (`names=a&names=b`): a list where one value belongs. */
export class Repeated {
  constructor(readonly values: string[]) {}
}

/** A parameter the request leaves out. */
export const REMOVED = Symbol('removed');

/** Where a rule puts another record's id in the path, in place of the base's. */
const PATH_ID = '{id}';

type Value = unknown;
type Path = Array<string | number>;
export type Encoding = 'json' | 'form' | 'multipart' | 'query';

/** One reason the request is invalid, or one change the contract ignores. */
interface Change {
  at: Path;
  label: string;
  value: Value;
}

export interface HostileRequest {
  /** `POST /v1/invoice/add`: the document's method and path template. */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with the id put in (percent-encoded), and the query string if any. */
  url: string;
  /** Raw body bytes and the Content-Type they are sent with; none for GET, DELETE, query. */
  body?: RequestBody;
  /** Why the request is invalid: at least one entry. */
  defects: string[];
  /** The changes the contract ignores. */
  noise: string[];
}

/** The pristine records the requests name: live ones and archived ones, by resource. */
export interface SeedRecords {
  live: Record<Resource, string[]>;
  archived: Record<Resource, string[]>;
  /** Void invoices: readable and listed, but every change to one is a 409. */
  void: string[];
  /**
   * Numbers of invoices and estimates other than the first live one, and of every credit note
   * (void and archived invoices' included): a duplicate is a 409.
   */
  taken: { invoice_no: string[]; estimate_no: string[]; credit_note_no: string[] };
  /** What the first live invoice still owes, in its currency (USD). */
  outstanding: string;
  /** Every live invoice's ledger: what refunds, voids and credit notes are checked against. */
  ledgers: SeededLedger[];
  /**
   * The live invoices the valid requests of two corrections name instead of the first: a
   * credit note's base needs room below the balance and a known issue date; a void's base
   * holds no cash, and the valid request leaves it void.
   */
  bases: {
    credit_note: string;
    void: string;
    /** Drafts the issue operations name: the valid request issues each. */
    issue: { invoice: string; estimate: string };
    /** Recurring invoices the valid pause and resume name: an active one, a paused one. */
    pause: string;
    resume: string;
  };
}

/** An invoice's ledger, in USD (two minor digits), as docs/corrections.md defines it. */
export interface SeededLedger {
  id: string;
  issue_date: string;
  total: string;
  /** Σ Completed + Σ Credited − Σ Refunded. */
  amount_paid: string;
  /** Σ Completed − Σ Refunded: what a refund may give back; above 0, a void is refused. */
  cash_held: string;
  /** total − amount_paid: what a credit note without refund may credit. */
  outstanding: string;
  /** total − Σ Credited: what credit notes may still credit, whatever refund says. */
  creditable: string;
}

export type Resource =
  | 'client'
  | 'invoice'
  | 'estimate'
  | 'expense'
  | 'credit-note'
  | 'event'
  | 'webhook'
  /** `/v1/webhook/delivery/{id}/…`: a delivery, named by its own id. */
  | 'webhook-delivery'
  | 'recurring-invoice';

// ---------------------------------------------------------------------------------------------
// Corpora
// ---------------------------------------------------------------------------------------------

/** Valid Unicode that trips careless code: no whitespace at either end, none is a space. */
const ODD_UNITS = [
  'x',
  'é',
  '日本',
  '🧾',
  '👩🏽‍💻',
  '\u202Eשלום',
  'مرحبا\u200F',
  'a\u0000b',
  '\u0301e',
  "'; DROP TABLE clients; --",
  '%00',
  '\\',
  '\uFFFF',
  '\u{10FFFF}',
];

/** Odd but valid free text, for fields whose value the defect does not depend on. */
const ODD_TEXT = ['🧾💸', '\u202Eשלום مرحبا\u202C', 'Zoë Ærøskøbing 日本語', 'a\u0000b', '\u200F'];

const BLANK = ['', ' ', '   ', ' \t\n ', '\u3000'];

const NOT_DECIMAL = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e3',
  '1E-2',
  '0x10',
  '1,5',
  '12abc',
  '1..2',
  '--1',
  '١٢',
  '１２',
  '1 2',
  'null',
  'true',
];

/** Numbers in no plain decimal notation docs/rules.md allows, or with places counted as written. */
const NOT_PLAIN_DECIMALS = [' 5 ', '+5', '.5', '5.', '00012', '1.50000'];

const MALFORMED_EMAILS = [
  'plainaddress',
  'a@',
  '@example.com',
  'a b@example.com',
  'a@b@example.com',
  'a@example..com',
  '<a@example.com>',
  'a@example.com\u0000',
];

const MALFORMED_DATES = [
  '2026-02-30',
  '2026-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '2026-01-00',
  '2026-01-32',
  '2026-1-5',
  '26-01-05',
  '20260105',
  '2026/01/05',
  '05-01-2026',
  '2026-01-05x',
  '2026-01-05T00:00:00Z',
  '+02026-01-05',
  '2026-０1-05',
  'yesterday',
  '',
];

const NON_DIGIT_IDS = [
  'abc',
  '1.0',
  '-1',
  '+1',
  '1e3',
  '0x1',
  '١',
  '１',
  '1 ',
  ' 1',
  '1%00',
  'NaN',
  '∞',
  '🧾',
  '1;DROP',
];

/** Path segments that are routes of their own: `/v1/invoice/all` is the list. */
const ROUTE_WORDS = new Set([
  'all',
  'add',
  'send',
  'record-payment',
  'refund',
  'paid',
  'not-paid',
  'pdf',
  'void',
]);

/**
 * Not an absolute http(s) URL naming a host, or one carrying credentials (docs/events.md, Safe
 * by default).
 */
const MALFORMED_URLS = [
  'hooks.example.com/invoicing',
  '/hook',
  '127.0.0.1:9/hook',
  '//127.0.0.1:9/hook',
  'http://',
  'https://',
  'http:',
  'http://[::1/hook',
  'http://exa mple.com/hook',
  'http://127.0.0.1:99999/hook',
  'ftp://127.0.0.1/hook',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'data:text/plain,hook',
  'ws://127.0.0.1:9/hook',
  'gopher://127.0.0.1:9/_hook',
  'http://user:secret@127.0.0.1:9/hook',
  'https://user@127.0.0.1:9/hook',
  'http://:secret@127.0.0.1:9/hook',
];

/**
 * Well-formed URLs whose host is not a public address: loopback, private, link-local, metadata
 * and unspecified, as IPv4, as names, and in every IPv6 form that carries an IPv4 address.
 */
const NON_PUBLIC_URLS = [
  'http://127.0.0.1:9/hook',
  'http://localhost:9/hook',
  'http://[::1]/hook',
  'http://10.1.2.3/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://0.0.0.0/hook',
  'http://2130706433/hook',
  'http://0x7f.1/hook',
  'https://[fd00:ec2::254]/hook',
  ...embeddedIPv4Urls().map(([, url]) => url),
];

const KNOWN_CURRENCIES = new Set(currencyCodes.codes().map((code) => code.toUpperCase()));

const UNKNOWN_CURRENCY = fc
  .string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'),
    minLength: 3,
    maxLength: 3,
  })
  .filter(
    (code) => !KNOWN_CURRENCIES.has(code.toUpperCase()) && !code.toUpperCase().startsWith('X'),
  );

const MALFORMED_CURRENCIES = ['US', 'USDD', 'U$D', '123', 'U S', 'ÜSD', '€', ''];

// ---------------------------------------------------------------------------------------------
// Parameter kinds, read from the schema
// ---------------------------------------------------------------------------------------------

type Kind =
  | { type: 'text'; schema: Schema }
  | {
      type: 'decimal';
      min: number;
      minExclusive: boolean;
      max: number;
      maxExclusive: boolean;
      places: number;
      /** What numeric text the document allows. */
      pattern: RegExp;
    }
  | { type: 'integer'; min: number; max: number }
  | { type: 'true-false'; values: string[] }
  /** `type: boolean`: true or false in any case, or a JSON boolean. */
  | { type: 'boolean' }
  | { type: 'array'; schema: Schema; item: Schema };

/**
 * The values of a listed set: an enum (answers, and the webhook event types, matched exactly),
 * or the values of a pattern that matches them in any letter case (every other input).
 */
function listedOf(schema: Schema): string[] | undefined {
  return schema.enum ?? (schema.pattern ? (listedValues(schema.pattern) ?? undefined) : undefined);
}

function resolve(document: OpenApiDocument, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return resolve(document, document.components.schemas[name]);
}

/**
 * The minor digits of the currency every generated money value is in: the base requests and
 * the seeded invoices use USD.
 */
const BASE_MINOR_DIGITS = 2;

/** The bounds and decimals a numeric parameter's description states. */
function decimalKind(name: string, schema: Schema, pattern: string): Kind {
  const text = schema.description ?? '';
  const range = /(\d+) to (\d+)/.exec(text);
  const greater = /(?:Greater than|above) (\d+)/.exec(text);
  const atLeast = /at least (\d+)/.exec(text);
  const below = /below (\d+)/.exec(text);
  // `at most 100`, not `at most 4 decimals`.
  const atMost = /at most (\d+)(?![\d.]| decimals)/.exec(text);
  const places = /at most (\d+) decimals/.exec(text);
  const minor = /minor digits/.test(text);
  const kind = {
    type: 'decimal' as const,
    min: Number(range?.[1] ?? greater?.[1] ?? atLeast?.[1] ?? NaN),
    minExclusive: range === null && greater !== null,
    // Money stays below 10^13 (docs/rules.md, money) where the description states no maximum.
    max: Number(range?.[2] ?? below?.[1] ?? atMost?.[1] ?? 1e13),
    maxExclusive: range === null && (below !== null || atMost === null),
    places: places ? Number(places[1]) : minor ? BASE_MINOR_DIGITS : NaN,
    pattern: new RegExp(pattern, 'u'),
  };
  if (Number.isNaN(kind.min) || Number.isNaN(kind.places)) {
    throw new Error(`The document states no bounds or decimals for ${name}: "${text}"`);
  }
  return kind;
}

function kindOf(document: OpenApiDocument, name: string, raw: Schema): Kind {
  const schema = resolve(document, raw);
  if (schema.oneOf) {
    const types = schema.oneOf.map((option) => option.type);
    if (types.includes('number')) {
      const text = schema.oneOf.find((option) => option.type === 'string');
      if (!text?.pattern) throw new Error(`Numeric text of ${name} has no pattern`);
      return decimalKind(name, schema, text.pattern);
    }
    if (types.includes('boolean')) {
      const text = schema.oneOf.find((option) => option.type === 'string') ?? {};
      const values = listedOf(text) ?? [];
      return { type: 'true-false', values };
    }
    throw new Error(`Unexpected oneOf for ${name}`);
  }
  if (schema.type === 'integer') {
    return { type: 'integer', min: schema.minimum ?? 0, max: schema.maximum ?? 2 ** 31 };
  }
  if (schema.type === 'boolean') return { type: 'boolean' };
  if (schema.type === 'array') {
    if (!schema.items) throw new Error(`Array ${name} without items`);
    return { type: 'array', schema, item: resolve(document, schema.items) };
  }
  if (schema.type === 'string') return { type: 'text', schema };
  throw new Error(`Unexpected schema for ${name}: ${JSON.stringify(schema)}`);
}

// ---------------------------------------------------------------------------------------------
// Invalid values of one parameter
// ---------------------------------------------------------------------------------------------

interface FieldContext {
  name: string;
  required: boolean;
  encoding: Encoding;
  /** Body and query parameters: anything the form encodings cannot carry is JSON only. */
  json: boolean;
  seed: SeedRecords;
  /** What a `^[0-9]+$` field names, for unknown and archived references. */
  names?: Resource;
  /** The request changes the record it names: a void invoice refuses it (409). */
  changes?: boolean;
  /**
   * A list filter: an unknown client or currency filters down to nothing, a valid answer, so
   * only malformed values are defects there.
   */
  list?: boolean;
  /** Builds a valid line, for defects inside an array. */
  document: OpenApiDocument;
}

type Labeled = { label: string; value: Value };

const labeled = (label: string, value: Value): Labeled => ({ label, value });

function constants(label: string, values: Value[]): fc.Arbitrary<Labeled> {
  return fc.constantFrom(...values).map((value) => labeled(`${label} ${show(value)}`, value));
}

function show(value: Value): string {
  if (value instanceof RawJson)
    return value.text.length > 30 ? `${value.text.slice(0, 30)}…` : value.text;
  if (typeof value === 'string') {
    const text = JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}…` : value);
    return value.length > 30 ? `${text} (${value.length} chars)` : text;
  }
  return JSON.stringify(value) ?? String(value);
}

/** A value nested `depth` levels deep where a scalar belongs: deeper than 32 is a 400. */
function deepNesting(json: boolean): fc.Arbitrary<Labeled> {
  return fc.tuple(fc.integer({ min: 1, max: 60 }), fc.boolean()).map(([depth, arrays]) => {
    let value: Value = 'x';
    for (let level = 0; level < depth; level += 1) {
      value = arrays && json ? [value] : { a: value };
    }
    return labeled(`nested ${depth} deep (${arrays && json ? 'arrays' : 'objects'})`, value);
  });
}

/** Wrong JSON types for a parameter of this kind; form encodings carry only strings. */
function wrongTypes(kind: Kind, context: FieldContext): Array<fc.Arbitrary<Labeled>> {
  const found: Array<fc.Arbitrary<Labeled>> = [
    deepNesting(context.json),
    fc.constant(labeled('an object', { a: '1' })),
  ];
  if (kind.type !== 'array') found.push(fc.constant(labeled('an array', ['1'])));
  if (!context.json) {
    if (kind.type !== 'array') {
      found.push(
        fc
          .constantFrom(['1', '2'], ['2026-03-01', '2026-03-01'], ['USD', 'EUR'], ['True', 'x'])
          .map((values) => labeled(`given twice ${values.join(', ')}`, new Repeated([...values]))),
      );
    }
    return found;
  }
  if (kind.type !== 'true-false' && kind.type !== 'boolean') {
    found.push(fc.constantFrom(true, false).map((value) => labeled(`boolean ${value}`, value)));
  }
  if (kind.type === 'text' || kind.type === 'array') {
    // An id is a numeric input (docs/rules.md, Transport): a whole JSON number of 0 or more
    // reads as its digits, so only negative and fractional numbers are wrong for it.
    const isId = kind.type === 'text' && kind.schema.pattern === '^[0-9]+$';
    found.push(
      fc
        .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
        .filter((value) => !isId || !(Number.isSafeInteger(value) && value >= 0))
        .map((value) => labeled(`number ${value}`, value)),
      fc
        .constantFrom('1e400', '9'.repeat(400))
        .map((text) => labeled(`number ${text.slice(0, 12)}`, new RawJson(text))),
    );
  }
  if (kind.type === 'true-false' || kind.type === 'boolean') {
    found.push(fc.constantFrom(0, 1, 2).map((value) => labeled(`number ${value}`, value)));
  }
  if (kind.type === 'boolean') {
    // An empty list is no boolean either; a form cannot carry one.
    found.push(fc.constant(labeled('an empty array', [])));
  }
  if (kind.type === 'decimal' || kind.type === 'integer') {
    // Exponent notation and NaN-like tokens are not plain decimal notation (docs/rules.md).
    found.push(
      constants(
        'JSON token',
        ['1e3', '1E2', '-0e0', '1e400'].map((text) => new RawJson(text)),
      ),
    );
  }
  if (context.required) found.push(fc.constant(labeled('null', null)));
  // Not Unicode text: the JSON body is malformed (400).
  found.push(
    fc
      .constantFrom('\\ud800', 'a\\udfff', '\\udc00\\ud800')
      .map((text) => labeled(`lone surrogate "${text}"`, new RawJson(`"${text}"`))),
  );
  return found;
}

/** A string of at least `length` characters, no blank at either end. */
function longText(minimum: number, encoding: Encoding): fc.Arbitrary<Labeled> {
  return fc
    .tuple(
      fc.constantFrom(...ODD_UNITS),
      fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 40 }) }, fc.constant(10_000)),
    )
    .map(([unit, extra]) => {
      const length = Math.max(minimum, extra === 10_000 ? 10_000 : minimum + extra);
      // A long query string of multi-byte units would pass Node's header limit first (431).
      const chosen = encoding === 'query' && length > 1000 ? 'x' : unit;
      const repeated = chosen.repeat(Math.ceil(length / [...chosen].length));
      return labeled(`${[...repeated].length} characters of ${JSON.stringify(chosen)}`, repeated);
    });
}

function notCaseInsensitivelyIn(values: string[]) {
  const listed = new Set(values.map((value) => value.toLowerCase()));
  return (text: string): boolean => !listed.has(text.toLowerCase());
}

function textDefects(schema: Schema, context: FieldContext): Array<fc.Arbitrary<Labeled>> {
  const found: Array<fc.Arbitrary<Labeled>> = [];
  if (schema.maxLength !== undefined && schema.format !== 'date') {
    found.push(longText(schema.maxLength + 1, context.encoding));
  }
  if ((schema.minLength ?? 0) >= 1) found.push(constants('blank', BLANK));
  if (schema.format === 'email') {
    found.push(constants('malformed e-mail', MALFORMED_EMAILS));
    if (context.required) found.push(constants('blank e-mail', BLANK));
  }
  if (schema.format === 'date') found.push(constants('impossible date', MALFORMED_DATES));
  if (isHttpUrl(schema)) {
    found.push(constants('not an http(s) URL', MALFORMED_URLS));
    found.push(constants('not a public address', NON_PUBLIC_URLS));
    // Blank, required or not: no URL at all.
    if ((schema.minLength ?? 0) < 1) found.push(constants('blank URL', BLANK));
  }
  const listed = listedOf(schema);
  if (listed) {
    const outside = fc
      .oneof(
        fc.constantFrom('Pending', 'Unpaid', 'Paid!', 'Bitcoin', 'Food', 'yes', '', 'null'),
        fc.string({ maxLength: 12 }),
        fc.constantFrom(...listed).map((value) => `${value}s`),
      )
      .filter(notCaseInsensitivelyIn(listed));
    found.push(outside.map((value) => labeled(`outside the enum ${show(value)}`, value)));
    found.push(
      fc
        .constantFrom(...listed)
        .map((value) => labeled(`padded ${show(` ${value} `)}`, `${value} `)),
    );
  }
  if (schema.pattern === '^[0-9]+$') {
    found.push(...(context.list ? idDefects(context).slice(0, 2) : idDefects(context)));
  }
  if (schema.pattern === '^[A-Za-z]{3}$') {
    found.push(constants('malformed currency', MALFORMED_CURRENCIES));
    if (!context.list)
      found.push(UNKNOWN_CURRENCY.map((code) => labeled(`unknown currency ${code}`, code)));
  }
  return found;
}

/** Ids that name no live record: not digits, unknown, archived. */
function idDefects(context: FieldContext): Array<fc.Arbitrary<Labeled>> {
  const found: Array<fc.Arbitrary<Labeled>> = [
    constants('non-digit id', NON_DIGIT_IDS),
    fc
      .string({ minLength: 1, maxLength: 20 })
      .filter((text) => !/^[0-9]+$/.test(text) && !ROUTE_WORDS.has(text) && !/^\.+$/.test(text))
      .map((text) => labeled(`non-digit id ${show(text)}`, text)),
    fc
      .oneof(
        fc.bigInt({ min: 1_000_000n, max: 10n ** 30n }).map(String),
        fc.constantFrom('0', '4294967296', '9223372036854775808', '9'.repeat(40)),
      )
      .map((text) => labeled(`unknown id ${text.slice(0, 20)}`, text)),
  ];
  const archived = context.names ? context.seed.archived[context.names] : [];
  if (archived.length > 0) {
    found.push(fc.constantFrom(...archived).map((id) => labeled(`archived id ${id}`, id)));
  }
  if (context.names === 'invoice' && context.changes && context.seed.void.length > 0) {
    found.push(
      fc.constantFrom(...context.seed.void).map((id) => labeled(`void invoice ${id}`, id)),
    );
  }
  return found;
}

function decimalDefects(
  kind: Extract<Kind, { type: 'decimal' }>,
  context: FieldContext,
): Array<fc.Arbitrary<Labeled>> {
  const step = 10 ** -kind.places;
  const below = kind.minExclusive ? [kind.min, kind.min - step] : [kind.min - step, kind.min - 1];
  const above = kind.maxExclusive ? [kind.max, kind.max + 0.5] : [kind.max + step, kind.max + 1];
  const outside = [...below, ...above, -kind.max, '9'.repeat(400)].map((value) =>
    typeof value === 'number' ? value.toFixed(kind.places) : value,
  );
  const found: Array<fc.Arbitrary<Labeled>> = [
    fc
      .tuple(fc.constantFrom(...outside), fc.boolean())
      .map(([text, asNumber]) =>
        context.json && asNumber
          ? labeled(`out of bounds ${text.slice(0, 20)}`, new RawJson(text))
          : labeled(`out of bounds "${text.slice(0, 20)}"`, text),
      ),
    // In range, with one to six decimals too many (the last one never 0).
    fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 9 }), fc.boolean())
      .map(([extra, last, asNumber]) => {
        const whole = Math.max(1, Math.ceil(kind.min));
        const text = `${whole}.${'0'.repeat(kind.places + extra - 1)}${last}`;
        return context.json && asNumber
          ? labeled(`too many decimals ${text}`, new RawJson(text))
          : labeled(`too many decimals "${text}"`, text);
      }),
    constants('not a decimal', NOT_DECIMAL),
    constants('not plain decimal notation', NOT_PLAIN_DECIMALS),
  ];
  return found;
}

function integerDefects(kind: Extract<Kind, { type: 'integer' }>): Array<fc.Arbitrary<Labeled>> {
  return [
    constants('out of bounds', [String(kind.min - 1), String(kind.max + 1), '-1', '9'.repeat(30)]),
    constants('not a whole number', ['1.5', '1.0', 'abc', '1e3', '0x10', '', '１', 'NaN']),
  ];
}

function trueFalseDefects(kind: Extract<Kind, { type: 'true-false' }>) {
  const outside = fc
    .oneof(
      fc.constantFrom('yes', 'no', '1', '0', 'T', 'F', 'Truee', 'on', ''),
      fc.string({ maxLength: 8 }),
    )
    .filter(notCaseInsensitivelyIn(kind.values));
  return [outside.map((value) => labeled(`not true or false ${show(value)}`, value))];
}

/** Text other than true or false: the field takes a JSON boolean or either word, in any case. */
function booleanDefects(): Array<fc.Arbitrary<Labeled>> {
  const words = ['true', 'false'];
  const outside = fc
    .oneof(
      fc.constantFrom('maybe', 'yes', 'no', '1', '0', 't', 'f', 'on', 'off', 'Truee', 'null', ''),
      fc.constantFrom(...words).map((word) => ` ${word} `),
      fc.string({ maxLength: 8 }),
    )
    .filter(notCaseInsensitivelyIn(words));
  return [outside.map((value) => labeled(`not a boolean ${show(value)}`, value))];
}

/** Invalid values of one parameter, in this encoding. */
function parameterDefects(
  name: string,
  raw: Schema,
  context: FieldContext,
): Array<fc.Arbitrary<Labeled>> {
  const kind = kindOf(context.document, name, raw);
  // The wrong types share one slot: the parameter's own rules are where the bugs hide.
  const found = [fc.oneof(...wrongTypes(kind, context))];
  if (context.required) found.push(fc.constant(labeled('missing', REMOVED)));
  switch (kind.type) {
    case 'text':
      found.push(...textDefects(resolve(context.document, raw), context));
      break;
    case 'decimal':
      found.push(...decimalDefects(kind, context));
      break;
    case 'integer':
      found.push(...integerDefects(kind));
      break;
    case 'true-false':
      found.push(...trueFalseDefects(kind));
      break;
    case 'boolean':
      found.push(...booleanDefects());
      break;
    case 'array':
      found.push(...arrayDefects(kind, context));
      break;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Valid values, for the base a defect breaks
// ---------------------------------------------------------------------------------------------

interface BaseContext {
  document: OpenApiDocument;
  seed: SeedRecords;
  /** The resource a body `id` names. */
  resource: Resource;
  /** The unique numbers are new ones. */
  tag: string;
  /**
   * Which of the two valid forms of the terms (validTerms): net prices, a percent off and a
   * date of supply (the base the defects break), or gross prices, an amount off and a period.
   */
  gross?: boolean;
}

function validValue(name: string, raw: Schema, context: BaseContext): Value {
  const kind = kindOf(context.document, name, raw);
  const schema = resolve(context.document, raw);
  switch (kind.type) {
    case 'decimal':
      return kind.places >= 2 ? '12.50' : '12';
    case 'integer':
      // Its documented example where it has one (a series' next number: not below one taken).
      return typeof schema.example === 'number' ? String(schema.example) : String(kind.min);
    case 'true-false':
      // A draft takes no number, and the valid bodies give one: an ordinary document.
      if (name === 'draft') return 'False';
      return kind.values[0] ?? 'False';
    case 'boolean':
      // A JSON boolean; the form encodings carry it as the word.
      return true;
    case 'array':
      if (!isObjectSchema(kind.item)) return validScalars(kind.item, context);
      return validItems(name, kind.item, context);
    case 'text':
      if (isHttpUrl(schema)) return `${VALID_URL}/${context.tag}-${name}`;
      if (listedOf(schema)) return (listedOf(schema) as string[]).at(-1);
      if (schema.format === 'date') return '2026-03-01';
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.pattern === '^[A-Za-z]{3}$') return 'USD';
      if (schema.pattern === '^[0-9]+$') return namedRecord(name, context);
      // A grammar a pattern only outlines (a number series' format): its documented example.
      if (schema.pattern && typeof schema.example === 'string') return schema.example;
      return `GEN-${context.tag}-${name}`.slice(0, schema.maxLength ?? 64);
  }
}

/** Lists of scalars (a webhook's event types): two valid items, distinct. */
function validScalars(item: Schema, context: BaseContext): Value[] {
  if (item.enum) {
    const named = item.enum.filter((value) => value !== '*');
    return [named[named.length - 1], named[0]];
  }
  return [validValue('item', item, context)];
}

/** Whether a body carries a document's terms: its discount, its date of supply. */
function hasTerms(body: Schema): boolean {
  return body.properties?.discount_percent !== undefined && body.properties.items !== undefined;
}

function isObjectSchema(schema: Schema): boolean {
  return schema.type === 'object' || schema.properties !== undefined;
}

/** The schema's description says it is an http(s) URL: a webhook's destination. */
function isHttpUrl(schema: Schema): boolean {
  return schema.type === 'string' && /\bhttp or https URL\b/.test(schema.description ?? '');
}

/**
 * Where valid webhook URLs point: a public address, written as one (no lookup), on the discard
 * port; the app under test keeps the address rule, and makes no delivery during the run.
 */
export const VALID_URL = 'http://93.184.215.14:9/hook';

/** The live record a valid body's reference names. */
function namedRecord(name: string, context: BaseContext): string {
  if (name === 'client') return context.seed.live.client[0];
  // Only a credit note names an invoice by `invoice`.
  if (name === 'invoice') return context.seed.bases.credit_note;
  return context.seed.live[context.resource][0];
}

function validObject(schema: Schema, context: BaseContext): Record<string, Value> {
  const object = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      validValue(name, property, context),
    ]),
  );
  return validTerms(object, context);
}

// ---------------------------------------------------------------------------------------------
// The rules between parameters that a valid body keeps (docs/rules.md, taxes)
// ---------------------------------------------------------------------------------------------

/*
 * Each parameter's own value is valid on its own; together they may not be. A discount is a
 * percent or an amount, never both, and an amount is at most what it comes off (a line's
 * quantity × rate, the document's sub-total) in the currency's minor digits; the date of
 * supply and a service period exclude each other, and a period runs forward; a line's taxes
 * each suit their category (S above 0; all but S, L and M at 0; E and O with an exemption, S,
 * Z, L and M without), none twice, one alone when prices include tax, and the lines of one
 * tax group (name, category, rate) give one exemption. The values below are the two forms the
 * valid requests take: net, the base the defects break, and gross.
 */

/**
 * A document's terms in one of the two forms: a percent off, net prices (`fAlse`: any case is
 * read) and a date of supply; or an amount off (12.50, well within the two lines' sub-total of
 * 280.47), gross prices (a JSON boolean) and a period. Other objects (a client, a payment)
 * carry none of these and pass as they are.
 */
function validTerms(object: Record<string, Value>, context: BaseContext): Record<string, Value> {
  const kept = { ...object };
  const gross = context.gross === true;
  if ('discount_percent' in kept && 'discount_amount' in kept && 'items' in kept) {
    delete kept[gross ? 'discount_percent' : 'discount_amount'];
  }
  if ('prices_include_tax' in kept) kept.prices_include_tax = gross ? true : 'fAlse';
  // A recurring invoice ends on a date or after a count, not both (docs/recurring.md).
  if ('end_date' in kept && 'count' in kept && 'interval' in kept) {
    delete kept[gross ? 'end_date' : 'count'];
  }
  // A client's e-invoice format makes every send of its documents need a whole e-invoice
  // (docs/einvoices.md), which the seeded documents are not made for: the valid client has none.
  if ('einvoice_format' in kept && 'names' in kept) kept.einvoice_format = '';
  if ('supply_date' in kept && 'period_start' in kept && 'period_end' in kept) {
    if (gross) {
      delete kept.supply_date;
      kept.period_start = '2026-03-01';
      kept.period_end = '2026-03-31';
    } else {
      delete kept.period_start;
      delete kept.period_end;
    }
  }
  return kept;
}

/**
 * Two valid items of a list of objects: a document's two lines, or the two taxes of a line
 * (validTaxes). The second line differs from the first in its description, its discount and
 * its taxes (validLine).
 */
function validItems(name: string, item: Schema, context: BaseContext): Value[] {
  if (name === 'taxes') return validTaxes(0, context);
  const line = validObject(item, context);
  return [
    validLine(line, 0, context),
    validLine({ ...line, description: 'Second line' }, 1, context),
  ];
}

/**
 * A line that keeps the rules: the first a percent off, the second an amount off (12.50 of its
 * 12.50 × 12.50); the second's unit in lower case (any case is read); each its own taxes.
 */
function validLine(
  line: Record<string, Value>,
  index: number,
  context: BaseContext,
): Record<string, Value> {
  const kept = { ...line };
  if ('discount_percent' in kept && 'discount_amount' in kept) {
    delete kept[index === 0 ? 'discount_amount' : 'discount_percent'];
  }
  if (index === 1 && typeof kept.unit === 'string') kept.unit = kept.unit.toLowerCase();
  if ('taxes' in kept) kept.taxes = validTaxes(index, context);
  return kept;
}

/**
 * A line's valid taxes. Net: two standard-rated taxes on the first line (GST of the default
 * category, PST's given in lower case), an exempt one with its reason and VATEX code on the
 * second. Gross (one tax a line): a standard rate, then a reverse charge that takes
 * the standard wording.
 */
function validTaxes(index: number, context: BaseContext): Array<Record<string, Value>> {
  if (context.gross) {
    return index === 0
      ? [{ rate: '19', category: 'S', name: 'VAT' }]
      : [{ rate: '0', category: 'ae' }];
  }
  return index === 0
    ? [
        { rate: '5', name: 'GST' },
        { rate: '7.25', category: 's', name: 'PST' },
      ]
    : [
        {
          rate: '0',
          category: 'E',
          exemption_reason: 'Exempt: medical care',
          exemption_code: 'vatex-eu-132-1c',
        },
      ];
}

// ---------------------------------------------------------------------------------------------
// Arrays of objects: lines
// ---------------------------------------------------------------------------------------------

function arrayDefects(
  kind: Extract<Kind, { type: 'array' }>,
  context: FieldContext,
): Array<fc.Arbitrary<Labeled>> {
  if (!isObjectSchema(kind.item)) return scalarArrayDefects(kind, context);
  const base: BaseContext = {
    document: context.document,
    seed: context.seed,
    resource: 'invoice',
    tag: 'L',
  };
  // Two valid lines (or two valid taxes of a line), each broken in its turn.
  const items = validItems(context.name, kind.item, base) as Array<Record<string, Value>>;
  const [what, whats] = context.name === 'taxes' ? ['tax', 'taxes'] : ['line', 'lines'];
  const found: Array<fc.Arbitrary<Labeled>> = [];
  // A form carries no empty array: there, no lines is no parameter, which only add refuses.
  if ((kind.schema.minItems ?? 0) >= 1 && (context.json || context.required)) {
    found.push(fc.constant(labeled(`no ${whats}`, [])));
  }
  if (kind.schema.maxItems !== undefined) {
    const count = kind.schema.maxItems + 1;
    found.push(
      fc.constant(
        labeled(
          `${count} ${whats}`,
          Array.from({ length: count }, (_, index) => items[index % items.length]),
        ),
      ),
    );
  }
  found.push(
    constants(`a ${what} that is not an object`, [
      'x',
      '',
      ...(context.json ? [1, null, true] : []),
    ]).map(({ label, value }) => labeled(label, [items[0], value])),
  );
  // One item broken by a defect of one of its fields.
  const required = new Set(kind.item.required ?? []);
  const fields = Object.entries(kind.item.properties ?? {}).map(([name, schema]) =>
    fc
      .oneof(...parameterDefects(name, schema, { ...context, name, required: required.has(name) }))
      .map(({ label, value }) => ({ name, label, value })),
  );
  const itemDefect = fc
    .tuple(fc.integer({ min: 0, max: items.length - 1 }), fc.oneof(...fields))
    .map(([index, defect]) => {
      const copies = items.map((item) => ({ ...item }));
      if (defect.value === REMOVED) delete copies[index][defect.name];
      else copies[index][defect.name] = defect.value;
      return labeled(`${what} ${index} ${defect.name}: ${defect.label}`, copies);
    });
  // A line's quantity, rate, discounts and taxes carry the rules: a broken item gets three slots.
  found.push(itemDefect, itemDefect, itemDefect);
  return found;
}

/** Lists of scalars (a webhook's event types): too few, too many, one item broken. */
function scalarArrayDefects(
  kind: Extract<Kind, { type: 'array' }>,
  context: FieldContext,
): Array<fc.Arbitrary<Labeled>> {
  const base: BaseContext = {
    document: context.document,
    seed: context.seed,
    resource: 'invoice',
    tag: 'L',
  };
  const items = validScalars(kind.item, base);
  const found: Array<fc.Arbitrary<Labeled>> = [];
  // A form carries no empty array: there, an empty list is no parameter at all.
  if ((kind.schema.minItems ?? 0) >= 1 && (context.json || context.required)) {
    found.push(fc.constant(labeled('an empty list', [])));
  }
  if (kind.schema.maxItems !== undefined) {
    const count = kind.schema.maxItems + 1;
    found.push(
      fc.constant(
        labeled(
          `${count} items`,
          Array.from({ length: count }, (_, index) => items[index % items.length]),
        ),
      ),
    );
  }
  found.push(
    constants('an item that is not a string', [
      { a: 'b' },
      ...(context.json ? [1, null, true, []] : []),
    ]).map(({ label, value }) => labeled(label, [items[0], value])),
  );
  // One item broken by a defect of the item's own schema (outside the enum, padded, a type).
  const itemDefect = fc
    .tuple(
      fc.integer({ min: 0, max: 1 }),
      fc.oneof(
        ...parameterDefects(`${context.name}[]`, kind.item, { ...context, required: false }),
      ),
    )
    .map(([index, defect]) => {
      const list = [...items];
      list[index] = defect.value;
      return labeled(`item ${index}: ${defect.label}`, list);
    });
  found.push(itemDefect, itemDefect);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Encodings
// ---------------------------------------------------------------------------------------------

function toJson(value: Value): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value as Record<string, Value>)
      .filter(([, member]) => member !== REMOVED && member !== undefined)
      .map(([key, member]) => `${JSON.stringify(key)}:${toJson(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `items[0][description]`-style pairs, as forms and multipart carry them. */
function formPairs(value: Value, prefix = ''): Array<[string, string]> {
  if (value === REMOVED || value === undefined) return [];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => formPairs(item, `${prefix}[${index}]`));
  }
  // Before objects: a Repeated is one.
  if (value instanceof Repeated) return value.values.map((member) => [prefix, member]);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, Value>).flatMap(([key, member]) =>
      formPairs(member, prefix === '' ? key : `${prefix}[${key}]`),
    );
  }
  return [[prefix, typeof value === 'string' ? value : JSON.stringify(value)]];
}

function formText(value: Record<string, Value>): string {
  return formPairs(value)
    .map(([key, member]) => formEncode({ [key]: member }, { encodeValuesOnly: false }))
    .join('&');
}

const BOUNDARY = '----generated-input-boundary';

function multipartBody(value: Record<string, Value>): Buffer {
  const parts = formPairs(value).map(
    ([key, member]) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${member}\r\n`,
  );
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`, 'utf8');
}

// ---------------------------------------------------------------------------------------------
// Malformed bodies: invalid whatever they hold
// ---------------------------------------------------------------------------------------------

export interface RequestBody {
  contentType: string;
  data: string | Buffer;
  /** Content-Encoding, when the body claims one. */
  encoding?: string;
}

interface BodyDefect {
  label: string;
  body: (valid: Record<string, Value>) => RequestBody;
}

const MALFORMED_BODIES: BodyDefect[] = [
  // A body that says it is compressed and is not, or in a coding no parser knows.
  ...(['gzip', 'deflate', 'br', 'x-unknown', 'gzip, identity'] as const).flatMap((coding) =>
    (['application/json', 'application/x-www-form-urlencoded'] as const).map(
      (type): BodyDefect => ({
        label: `${type} claiming Content-Encoding ${coding}`,
        body: (valid) => ({
          contentType: type,
          data: type === 'application/json' ? toJson(valid) : formText(valid),
          encoding: coding,
        }),
      }),
    ),
  ),
  {
    label: 'a form in charset klingon',
    body: (valid) => ({
      contentType: 'application/x-www-form-urlencoded; charset=klingon',
      data: formText(valid),
    }),
  },
  {
    label: 'JSON over the 1 MB body limit',
    body: (valid) => ({
      contentType: 'application/json',
      data: `${toJson(valid).slice(0, -1)},"padding":"${'x'.repeat(1_100_000)}"}`,
    }),
  },
  {
    label: 'a form over the 1 MB body limit',
    body: (valid) => ({
      contentType: 'application/x-www-form-urlencoded',
      data: `${formText(valid)}&padding=${'x'.repeat(1_100_000)}`,
    }),
  },
  {
    // Whichever of the two a parser keeps, the body is wrong: the last is not a scalar, and
    // a parser that refuses duplicates refuses the body.
    label: 'JSON naming a parameter twice, the second time as an object',
    body: (valid) => {
      const first = Object.keys(valid)[0];
      return {
        contentType: 'application/json',
        data: `${toJson(valid).slice(0, -1)},${JSON.stringify(first)}:{"a":[1]}}`,
      };
    },
  },
  ...[
    'text/plain',
    'application/xml',
    'text/csv',
    'application/octet-stream',
    'application/jsonx',
    'image/png',
  ].map((type): BodyDefect => ({
    label: `content type ${type}`,
    body: (valid) => ({ contentType: type, data: toJson(valid) }),
  })),
  ...['klingon', 'utf-7x', 'ebcdic'].map((charset): BodyDefect => ({
    label: `JSON in charset ${charset}`,
    body: (valid) => ({ contentType: `application/json; charset=${charset}`, data: toJson(valid) }),
  })),
  {
    label: 'JSON declared UTF-8 with invalid bytes',
    body: (valid) => {
      const text = toJson(valid);
      const cut = text.indexOf('"', 2) + 1;
      return {
        contentType: 'application/json; charset=utf-8',
        data: Buffer.concat([
          Buffer.from(text.slice(0, cut)),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(text.slice(cut)),
        ]),
      };
    },
  },
  ...(
    [
      ['truncated JSON', (text: string) => text.slice(0, Math.max(1, text.length - 3))],
      ['JSON with a trailing comma', (text: string) => `${text.slice(0, -1)},}`],
      ['JSON with single quotes', (text: string) => text.replace(/"/g, "'")],
      ['JSON with a comment', (text: string) => `/* c */${text}`],
      ['JSON with NaN', (text: string) => `${text.slice(0, -1)},"x":NaN}`],
      ['two JSON objects', (text: string) => `${text}${text}`],
      ['a JSON array', (text: string) => `[${text}]`],
      ['a JSON string', (text: string) => JSON.stringify(text)],
      ['JSON null', () => 'null'],
      ['an unterminated string', (text: string) => `${text.slice(0, -1)},"x":"abc}`],
    ] as Array<[string, (text: string) => string]>
  ).map(([label, mangle]): BodyDefect => ({
    label,
    body: (valid) => ({ contentType: 'application/json', data: mangle(toJson(valid)) }),
  })),
  {
    label: 'multipart without a boundary',
    body: (valid) => ({ contentType: 'multipart/form-data', data: multipartBody(valid) }),
  },
  {
    label: 'multipart with another boundary',
    body: (valid) => ({
      contentType: 'multipart/form-data; boundary=other',
      data: multipartBody(valid),
    }),
  },
  {
    label: 'multipart cut short',
    body: (valid) => {
      const data = multipartBody(valid);
      return {
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        data: data.subarray(0, data.length - 40),
      };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Noise the contract ignores
// ---------------------------------------------------------------------------------------------

const EXTRA_NAMES = [
  'extra',
  'Names',
  'CLIENT',
  'items_',
  'id_',
  'toString',
  'constructor',
  'hasOwnProperty',
  'x'.repeat(300),
  '日本',
  '🧾',
];

function extraValue(json: boolean): fc.Arbitrary<Value> {
  return json
    ? fc.jsonValue({ maxDepth: 3 })
    : fc.oneof(fc.constantFrom(...ODD_TEXT), fc.string({ maxLength: 20 }), fc.constant({ a: 'b' }));
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

interface OperationPlan {
  document: OpenApiDocument;
  operation: string;
  method: HostileRequest['method'];
  template: string;
  resource: Resource;
  pathId: boolean;
  body?: Schema;
  /** A body that is a file (POST /v1/expense/import): its media types and the example file. */
  upload?: UploadPlan;
  query: Parameter[];
}

interface UploadPlan {
  /** The raw media types, then multipart/form-data with the file field. */
  types: string[];
  field: string;
  /** The example file of the first raw type: the document's own valid request. */
  example: string;
}

/** An operation whose body is a file: raw in a binary type, or a multipart file field. */
function uploadOf(operation: Operation): UploadPlan | undefined {
  const content = operation.requestBody?.content;
  if (!content || content['application/json']) return undefined;
  const types = Object.keys(content).filter((type) => type !== 'multipart/form-data');
  const form = content['multipart/form-data']?.schema;
  const field = form?.required?.[0];
  const example = types.map((type) => content[type].example).find((each) => each !== undefined);
  if (!field || typeof example !== 'string') {
    throw new Error('An upload operation declares its file field and an example file');
  }
  return { types, field, example };
}

/** What a template's path id (or body `id`) names: `/v1/webhook/delivery/{id}/retry` a delivery. */
function resourceOf(template: string): Resource {
  const [, , resource, next] = template.split('/');
  return (next === 'delivery' ? `${resource}-delivery` : resource) as Resource;
}

/**
 * A path segment that names one of a few values (`/number-series/{kind}`) takes the first: the
 * requests break the body, not the path (a value outside the list answers 404, tested beside).
 */
function withListedPathValues(template: string, parameters: Parameter[]): string {
  let path = template;
  for (const parameter of parameters) {
    const listed = parameter.in === 'path' ? parameter.schema?.enum : undefined;
    if (listed?.length) path = path.replace(`{${parameter.name}}`, String(listed[0]));
  }
  return path;
}

function plans(document: OpenApiDocument): OperationPlan[] {
  const found: OperationPlan[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    if (!template.startsWith('/v1/')) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const content = operation.requestBody?.content;
      const body = content?.['application/json']?.schema;
      found.push({
        document,
        operation: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase() as HostileRequest['method'],
        template: withListedPathValues(template, operation.parameters ?? []),
        resource: resourceOf(template),
        pathId: template.includes('{id}'),
        body: body ? resolve(document, body) : undefined,
        upload: uploadOf(operation),
        query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query'),
      });
    }
  }
  return found;
}

/** The URL and body of a request carrying `value` in this encoding. */
function encode(
  plan: OperationPlan,
  id: string | undefined,
  value: Record<string, Value>,
  encoding: Encoding,
  contentType: string,
): Pick<HostileRequest, 'url' | 'body'> {
  switch (encoding) {
    case 'json':
      return { url: url(plan, id, ''), body: { contentType, data: toJson(value) } };
    case 'form':
      return { url: url(plan, id, ''), body: { contentType, data: formText(value) } };
    case 'multipart':
      return {
        url: url(plan, id, ''),
        body: {
          contentType: `multipart/form-data; boundary=${BOUNDARY}`,
          data: multipartBody(value),
        },
      };
    case 'query':
      return { url: url(plan, id, formText(value)) };
  }
}

const CONTENT_TYPES: Record<Encoding, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  query: '',
};

/**
 * The valid request each broken one starts from, for every operation with a body, the
 * encodings taken in turn: what the service must accept, so that a refusal of a generated
 * request is the defect's doing. Unique numbers differ per request; each names a live record.
 */
export function validRequests(document: OpenApiDocument, seed: SeedRecords): HostileRequest[] {
  const encodings: Encoding[] = ['json', 'form', 'multipart', 'query'];
  const all = plans(document);
  // The writes that take nothing but the path id (a rotation, a retry): the live record alone.
  const bodiless = all
    .filter((plan) => plan.body === undefined && plan.pathId && /^(POST|PUT)$/.test(plan.method))
    .map((plan): HostileRequest => ({
      operation: plan.operation,
      method: plan.method,
      url: url(plan, pathRecord(plan, seed), ''),
      defects: [],
      noise: ['no body'],
    }));
  const withBody = all
    .filter((plan) => plan.body !== undefined)
    .flatMap((plan, index) => {
      const encoding = encodings[index % encodings.length];
      const context = { document, seed, resource: plan.resource, tag: `V${index}` };
      const value = validObject(plan.body as Schema, context);
      const id = pathRecord(plan, seed);
      const request = (form: Record<string, Value>, sent: Encoding, noise: string[]) => ({
        operation: plan.operation,
        method: plan.method,
        defects: [],
        noise: [sent, ...noise],
        ...encode(plan, id, form, sent, CONTENT_TYPES[sent]),
      });
      const net = request(value, encoding, []);
      // The documents' terms in their other form too, as JSON; an update sends the discount
      // and the date it leaves out as null, which removes them (docs/rules.md, taxes).
      if (!hasTerms(plan.body as Schema)) return [net];
      const gross = validObject(plan.body as Schema, { ...context, tag: `G${index}`, gross: true });
      if (plan.method === 'PUT') {
        for (const name of ['discount_percent', 'supply_date']) {
          if (plan.body?.properties?.[name] && !(name in gross)) gross[name] = null;
        }
      }
      return [net, request(gross, 'json', ['gross prices, an amount off, a period'])];
    });
  // The example file, once: a second import of it is a duplicate (409).
  const uploads = all.flatMap((plan) =>
    plan.upload
      ? [
          {
            operation: plan.operation,
            method: plan.method,
            url: plan.template,
            body: { contentType: plan.upload.types[0], data: Buffer.from(plan.upload.example) },
            defects: [],
            noise: ['the example file'],
          },
        ]
      : [],
  );
  return [...withBody, ...bodiless, ...uploads];
}

// ---------------------------------------------------------------------------------------------
// Files: the example e-invoice broken (docs/einvoices.md, Import)
// ---------------------------------------------------------------------------------------------

/** The EN 16931 terms the import needs, as CII (the example's syntax) writes them. */
const CII_TERMS: Array<[string, RegExp]> = [
  ['BT-1 invoice number', /<ram:ID>[^<]*<\/ram:ID>(?=\s*<ram:TypeCode>)/],
  ['BT-2 issue date', /<udt:DateTimeString[^>]*>[^<]*<\/udt:DateTimeString>/],
  ['BT-5 currency', /<ram:InvoiceCurrencyCode>[^<]*<\/ram:InvoiceCurrencyCode>/],
  ['BT-27 seller name', /(<ram:SellerTradeParty>\s*)<ram:Name>[^<]*<\/ram:Name>/],
  ['BT-115 amount due', /<ram:DuePayableAmount>[^<]*<\/ram:DuePayableAmount>/],
];

/** Totals the calculation rules tie together: any one changed breaks a rule. */
const CII_TOTALS = [
  'DuePayableAmount',
  'GrandTotalAmount',
  'TaxBasisTotalAmount',
  'CalculatedAmount',
  'LineTotalAmount',
];

/**
 * Files the import must refuse, each made from the example (itself accepted: validRequests):
 * hostile XML (a DTD, an external entity, an entity bomb, nesting), XML that is not well-formed,
 * not UTF-8, or of another kind, a missing term, totals that disagree, a value that is no
 * decimal, no file at all or under another field, a PDF without its XML, another media type.
 * Each is sent raw in one of the types or as the multipart file, where that is the defect.
 */
function uploadRequests(plan: OperationPlan, upload: UploadPlan): fc.Arbitrary<HostileRequest> {
  const xml = upload.example;
  const rootEnd = xml.lastIndexOf('</');
  const declarationEnd = xml.indexOf('?>') + 2;
  const afterDeclaration = (insert: string) =>
    `${xml.slice(0, declarationEnd)}\n${insert}${xml.slice(declarationEnd)}`;
  const files: Array<fc.Arbitrary<{ label: string; file: Buffer | string }>> = [
    fc.constantFrom(
      {
        label: 'an external entity naming /etc/passwd',
        file: afterDeclaration('<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'),
      },
      {
        label: 'an entity bomb',
        file: afterDeclaration(
          `<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">${Array.from(
            { length: 8 },
            (_, level) =>
              `<!ENTITY ${'b'.repeat(level + 1)} "${`&${level === 0 ? 'a' : 'b'.repeat(level)};`.repeat(10)}">`,
          ).join('')}]>`,
        ),
      },
      {
        label: 'an external DTD',
        file: afterDeclaration('<!DOCTYPE x SYSTEM "http://127.0.0.1:9/x.dtd">'),
      },
      { label: 'an ENTITY without a DOCTYPE', file: afterDeclaration('<!ENTITY x "y">') },
      {
        label: 'nested 100 deep',
        file: xml.replace('<ram:Name>', `${'<n>'.repeat(100)}${'</n>'.repeat(100)}<ram:Name>`),
      },
      {
        label: 'declared ISO-8859-1',
        file: xml.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'),
      },
      {
        label: 'not UTF-8',
        file: Buffer.concat([
          Buffer.from(xml.slice(0, rootEnd)),
          Buffer.from([0xff, 0xfe]),
          Buffer.from(xml.slice(rootEnd)),
        ]),
      },
      {
        label: 'another kind of XML',
        file: '<?xml version="1.0"?><Order xmlns="urn:example"><ID>1</ID></Order>',
      },
      {
        label: 'a PDF without an e-invoice',
        file: '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF',
      },
      { label: 'an empty file', file: '' },
      {
        label: 'an unknown currency',
        file: xml
          .replace(/(<ram:InvoiceCurrencyCode>)[^<]*/, '$1XQZ')
          .replace(/currencyID="[^"]*"/g, 'currencyID="XQZ"'),
      },
    ),
    fc
      .integer({ min: 0, max: rootEnd - 1 })
      .map((cut) => ({ label: `cut at character ${cut}`, file: xml.slice(0, cut) })),
    fc.constantFrom(...CII_TERMS).map(([label, pattern]) => ({
      label: `no ${label}`,
      file: xml.replace(pattern, (match, keep?: string) =>
        typeof keep === 'string' && match.startsWith(keep) ? keep : '',
      ),
    })),
    fc
      .tuple(fc.constantFrom(...CII_TOTALS), fc.constantFrom('0.01', '1', '-0.01', '100'))
      .map(([element, change]) => ({
        label: `${element} off by ${change}`,
        file: xml.replace(
          new RegExp(`(<ram:${element}[^>]*>)([^<]*)`),
          (_, open: string, value: string) =>
            `${open}${(Number(value) + Number(change)).toFixed(2)}`,
        ),
      })),
    fc
      .tuple(
        fc.constantFrom(...CII_TOTALS),
        fc.constantFrom('1e3', 'NaN', '12,50', '', 'twelve', '0x10'),
      )
      .map(([element, value]) => ({
        label: `${element} "${value}"`,
        file: xml.replace(new RegExp(`(<ram:${element}[^>]*>)[^<]*`), `$1${value}`),
      })),
    fc
      .string({ maxLength: 200 })
      .filter((text) => !text.includes('<'))
      .map((text) => ({ label: `text ${JSON.stringify(text.slice(0, 20))}`, file: text })),
  ];
  const raw = fc
    .tuple(fc.oneof(...files), fc.constantFrom(...upload.types))
    .map(([{ label, file }, type]): HostileRequest => ({
      operation: plan.operation,
      method: plan.method,
      url: plan.template,
      body: { contentType: type, data: Buffer.from(file) },
      defects: [`file: ${label}`],
      noise: [type],
    }));
  const form = (field: string, label: string, file: Buffer | string): HostileRequest => ({
    operation: plan.operation,
    method: plan.method,
    url: plan.template,
    body: {
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      data: Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="invoice.xml"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(file),
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    },
    defects: [label],
    noise: ['multipart'],
  });
  const multipart = fc.oneof(
    fc.oneof(...files).map(({ label, file }) => form(upload.field, `file: ${label}`, file)),
    fc
      .constantFrom('document', 'files', 'File', 'invoice')
      .map((field) =>
        form(field, `the example under the field ${field}, not ${upload.field}`, xml),
      ),
  );
  const elsewhere = fc.constantFrom<HostileRequest>(
    {
      operation: plan.operation,
      method: plan.method,
      url: plan.template,
      defects: ['no body'],
      noise: [],
    },
    ...[
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
    ].map((type): HostileRequest => ({
      operation: plan.operation,
      method: plan.method,
      url: plan.template,
      body: {
        contentType: type,
        data: type === 'application/json' ? JSON.stringify({ file: xml }) : xml,
      },
      defects: [`the example as ${type}`],
      noise: [],
    })),
  );
  return fc.oneof(
    { weight: 4, arbitrary: raw },
    { weight: 2, arbitrary: multipart },
    { weight: 1, arbitrary: elsewhere },
  );
}

/**
 * Defects of several parameters together that docs/rules.md makes invalid: due before issue,
 * money at or above 10^13 once multiplied, summed or taxed, decimals finer than the currency's
 * minor units, a payment above what is owed, an update below what is paid, a taken number,
 * and the corrections' rules (correctionDefects).
 */
function ruleDefects(
  plan: OperationPlan,
  body: Schema,
  seed: SeedRecords,
): Array<fc.Arbitrary<Change[]>> {
  const has = (name: string): boolean => body.properties?.[name] !== undefined;
  const rule = (label: string, values: Record<string, Value>): Change[] =>
    Object.entries(values).map(([name, value]) => ({ at: [name], label: `rule: ${label}`, value }));
  const found: Array<fc.Arbitrary<Change[]>> = [];
  if (has('issue_date') && has('due_date')) {
    found.push(
      fc
        .constantFrom(
          ['2026-03-10', '2026-03-09'],
          ['2026-01-01', '2025-12-31'],
          ['2024-02-29', '2024-02-28'],
        )
        .map(([issue, due]) =>
          rule(`due ${due} before issue ${issue}`, { issue_date: issue, due_date: due }),
        ),
    );
  }
  if (has('start_date') && has('end_date') && has('count')) {
    found.push(
      fc.constantFrom(
        rule('end_date 2026-02-28 before start_date 2026-03-01', {
          start_date: '2026-03-01',
          end_date: '2026-02-28',
          count: REMOVED,
        }),
        rule('end_date with count', { end_date: '2026-12-31', count: 3 }),
      ),
    );
  }
  if (has('items')) {
    const line = (quantity: string, rate: string) => ({ description: 'Overflow', quantity, rate });
    const overflowing: Array<[string, Record<string, Value>]> = [
      ['a line amount of 10^13', { items: [line('2', '5000000000000')] }],
      ['a line amount above 10^13', { items: [line('9999999999999.9999', '9999999999999.9999')] }],
      ['a line amount rounding up to 10^13', { items: [line('1', '9999999999999.9999')] }],
      [
        'lines summing to 10^13',
        { items: [line('1', '5000000000000'), line('1', '5000000000000')] },
      ],
      [
        '500 lines summing above 10^13',
        { items: Array.from({ length: 500 }, () => line('9999', '99999999')) },
      ],
    ];
    if (has('tax_rate')) {
      overflowing.push([
        'tax raising the total to 10^13',
        { items: [line('1', '9999999999999.99')], tax_rate: '100' },
      ]);
    }
    found.push(fc.constantFrom(...overflowing).map(([label, values]) => rule(label, values)));
  }
  if (plan.operation === 'PUT /v1/invoice/{id}') {
    found.push(
      fc.constant(
        rule('total below amount_paid', {
          items: [{ description: 'Less', quantity: '1', rate: '1.00' }],
          tax_rate: '0',
        }),
      ),
    );
  }
  if (has('amount_paid')) {
    const owed = Number(seed.outstanding);
    found.push(
      fc
        .constantFrom((owed + 0.01).toFixed(2), (owed * 2).toFixed(2), '9999999999999.99')
        .map((amount) =>
          rule(`${amount} above the ${seed.outstanding} owed`, { amount_paid: amount }),
        ),
    );
  }
  if (has('amount') && has('currency')) {
    found.push(
      fc
        .constantFrom(
          ['JPY', '12.5'],
          ['JPY', '1.0'],
          ['KWD', '1.0001'],
          ['USD', '0.001'],
          ['BHD', '0.0005'],
        )
        .map(([currency, amount]) => rule(`${amount} in ${currency}`, { currency, amount })),
    );
  }
  // A required parameter left out but offered on the prototype: a lookup that walks the
  // prototype chain would find it.
  const context: BaseContext = { document: plan.document, seed, resource: plan.resource, tag: 'P' };
  const required = body.required ?? [];
  if (required.length > 0) {
    found.push(
      fc
        .tuple(fc.constantFrom(...required), fc.constantFrom('__proto__', 'constructor'))
        .map(([name, holder]) => {
          const offered = validValue(name, body.properties?.[name] ?? {}, context);
          const value =
            holder === '__proto__' ? { [name]: offered } : { prototype: { [name]: offered } };
          return [
            { at: [name], label: `rule: ${name} missing, offered in ${holder}`, value: REMOVED },
            { at: [holder], label: `rule: ${name} missing, offered in ${holder}`, value },
          ];
        }),
    );
  }
  found.push(...termsDefects(plan, body, has));
  found.push(...correctionDefects(plan, has, seed));
  for (const name of ['invoice_no', 'estimate_no', 'credit_note_no'] as const) {
    if (!has(name) || seed.taken[name].length === 0) continue;
    found.push(
      fc
        .tuple(fc.constantFrom(...seed.taken[name]), fc.constantFrom('', ' ', '  \t'))
        .map(([taken, padding]) =>
          rule(`${name} ${taken} taken`, { [name]: `${padding}${taken}${padding}` }),
        ),
    );
  }
  return found;
}

/**
 * The rules between the terms' parameters that validTerms keeps (docs/rules.md, taxes): both
 * discounts, an amount above what it comes off or finer than the currency's minor digits, a
 * date of supply with a period, half a period or one running backwards; a tax at a rate its
 * category refuses, an exemption missing or where none is taken, one tax twice on a line, two
 * on a line with gross prices, one tax group given two exemptions. Each sets aside what of the
 * base would clash with it, so that it is refused for its own reason (the lines total 20.00 or
 * more: a credit note credits something, within the balance).
 */
function termsDefects(
  plan: OperationPlan,
  body: Schema,
  has: (name: string) => boolean,
): Array<fc.Arbitrary<Change[]>> {
  const found: Array<fc.Arbitrary<Change[]>> = [];
  const rule = (label: string, values: Record<string, Value>): Change[] =>
    Object.entries(values).map(([name, value]) => ({ at: [name], label: `rule: ${label}`, value }));
  const rules = (cases: Array<[string, Record<string, Value>]>) =>
    fc.constantFrom(...cases).map(([label, values]) => rule(label, values));
  const line = (extra: Record<string, Value> = {}): Record<string, Value> => ({
    description: 'Terms',
    quantity: '2',
    rate: '10.00',
    ...extra,
  });
  if (has('discount_percent') && has('discount_amount') && has('items')) {
    const amount = (value: string, rest: Record<string, Value> = {}) => ({
      discount_percent: REMOVED,
      discount_amount: value,
      ...rest,
    });
    const cases: Array<[string, Record<string, Value>]> = [
      ['discount_percent and discount_amount', { discount_percent: '10', discount_amount: '1.00' }],
      [
        'discount_percent 100 and discount_amount 0.01',
        { discount_percent: '100', discount_amount: '0.01' },
      ],
      ['discount_amount 20.01 above the sub-total 20.00', amount('20.01', { items: [line()] })],
      [
        'discount_amount 40.01 above the sub-total of two lines, 40.00',
        amount('40.01', { items: [line(), line({ description: 'Other' })] }),
      ],
      ['discount_amount 1.005, finer than USD', amount('1.005')],
    ];
    if (has('currency')) {
      cases.push(
        ['discount_amount 1.5 in JPY', amount('1.5', { currency: 'jpy', items: [line()] })],
        ['discount_amount 1.0005 in KWD', amount('1.0005', { currency: 'KWD', items: [line()] })],
      );
    }
    found.push(rules(cases));
  }
  if (has('supply_date') && has('period_start') && has('period_end')) {
    const period = (start: Value, end: Value) => ({
      supply_date: REMOVED,
      period_start: start,
      period_end: end,
    });
    found.push(
      rules([
        [
          'supply_date with a period',
          { supply_date: '2026-03-01', period_start: '2026-03-01', period_end: '2026-03-31' },
        ],
        [
          'supply_date with period_start alone',
          { supply_date: '2026-03-01', period_start: '2026-03-01', period_end: REMOVED },
        ],
        ['period_start without period_end', period('2026-03-01', REMOVED)],
        ['period_end without period_start', period(REMOVED, '2026-03-31')],
        [
          'period_end 2026-03-01 before period_start 2026-03-02',
          period('2026-03-02', '2026-03-01'),
        ],
        [
          'period_end 2025-12-31 before period_start 2026-01-01',
          period('2026-01-01', '2025-12-31'),
        ],
        [
          'period_end 2024-02-29 before period_start 2024-03-01',
          period('2024-03-01', '2024-02-29'),
        ],
      ]),
    );
  }
  const items = body.properties?.items;
  const lineSchema = items?.items ? resolve(plan.document, items.items) : undefined;
  const lineHas = (name: string): boolean => lineSchema?.properties?.[name] !== undefined;
  if (lineHas('discount_percent') && lineHas('discount_amount')) {
    found.push(
      rules([
        [
          'a line with discount_percent and discount_amount',
          { items: [line({ discount_percent: '10', discount_amount: '1.00' })] },
        ],
        [
          'a line discount_amount 20.01 above its 2 × 10.00',
          { items: [line({ discount_amount: '20.01' })] },
        ],
        [
          'a line discount_amount 0.12 above its 0.3333 × 0.3333',
          {
            items: [line(), line({ quantity: '0.3333', rate: '0.3333', discount_amount: '0.12' })],
          },
        ],
        [
          'a line discount_amount 0.01 above its 3 × 0',
          { items: [line(), line({ quantity: '3', rate: '0', discount_amount: '0.01' })] },
        ],
        [
          'a line discount_amount 1.005, finer than USD',
          { items: [line({ discount_amount: '1.005' })] },
        ],
      ]),
    );
  }
  if (lineHas('taxes')) {
    const taxed = (...taxes: Array<Record<string, Value>>) => ({ items: [line({ taxes })] });
    const exempt = { exemption_reason: 'Exempt' };
    const cases: Array<[string, Record<string, Value>]> = [
      ['category S at rate 0', taxed({ rate: '0', category: 'S' })],
      ['category s at rate 0.0000', taxed({ rate: '0.0000', category: 's', name: 'VAT' })],
      ['category Z at rate 5', taxed({ rate: '5', category: 'Z' })],
      ...['E', 'ae', 'K', 'G', 'o'].map((category): [string, Record<string, Value>] => [
        `category ${category} at rate 0.0001`,
        taxed({ rate: '0.0001', category, ...exempt }),
      ]),
      ['category E without an exemption', taxed({ rate: '0', category: 'E' })],
      ['category o without an exemption', taxed({ rate: '0', category: 'o', name: 'VAT' })],
      ['category S with an exemption_reason', taxed({ rate: '5', category: 'S', ...exempt })],
      ['rate 0 (category Z) with an exemption_reason', taxed({ rate: '0', ...exempt })],
      [
        'category Z with an exemption_code',
        taxed({ rate: '0', category: 'Z', exemption_code: 'VATEX-EU-132' }),
      ],
      ['category L with an exemption_reason', taxed({ rate: '7', category: 'L', ...exempt })],
      [
        'category m with an exemption_code',
        taxed({ rate: '4', category: 'm', exemption_code: 'vatex-eu-o' }),
      ],
      [
        'one tax twice on a line (5 and 5.00, " GST " trimmed)',
        taxed({ rate: '5', name: 'GST' }, { rate: '5.00', category: 's', name: ' GST ' }),
      ],
      [
        'one tax twice on a line (the default name, category Z)',
        taxed({ rate: '0' }, { rate: '0.0', category: 'z' }),
      ],
      [
        'one tax twice among three on a line',
        taxed({ rate: '5', name: 'GST' }, { rate: '7', name: 'PST' }, { rate: '5', name: 'GST' }),
      ],
    ];
    // Two lines of one tax group (name, category, rate) giving two exemptions.
    const group = (
      first: Record<string, Value>,
      second: Record<string, Value>,
    ): Record<string, Value> => ({
      items: [line({ taxes: [first] }), line({ description: 'Other', taxes: [second] })],
    });
    cases.push(
      [
        'one tax group with two exemption_reasons',
        group(
          { rate: '0', category: 'E', exemption_reason: 'Article 132' },
          { rate: '0', category: 'E', exemption_reason: 'Article 135' },
        ),
      ],
      [
        'one tax group with and without an exemption_code',
        group(
          { rate: '0', category: 'E', exemption_reason: 'Article 132' },
          {
            rate: '0',
            category: 'e',
            exemption_reason: 'Article 132',
            exemption_code: 'VATEX-EU-132',
          },
        ),
      ],
      [
        'one tax group with the standard wording and its own',
        group({ rate: '0', category: 'K' }, { rate: '0', category: 'K', exemption_reason: 'Own' }),
      ],
    );
    if (has('prices_include_tax')) {
      cases.push(
        [
          'gross prices with two taxes on a line',
          {
            prices_include_tax: 'True',
            ...taxed({ rate: '5', name: 'GST' }, { rate: '7', name: 'PST' }),
          },
        ],
        [
          'gross prices with two taxes on the second line',
          {
            prices_include_tax: 'tRUE',
            items: [
              line({ taxes: [{ rate: '19' }] }),
              line({
                taxes: [
                  { rate: '0', category: 'AE' },
                  { rate: '5', name: 'Levy' },
                ],
              }),
            ],
          },
        ],
      );
    }
    found.push(rules(cases));
  }
  return found;
}

/** Exact USD amounts, in cents, for the corrections' arithmetic. */
function cents(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

function dollars(amount: bigint): string {
  return `${amount / 100n}.${String(amount % 100n).padStart(2, '0')}`;
}

function dayBefore(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

/**
 * docs/corrections.md: a refund above the cash held (however much was paid or credited),
 * a void of an invoice holding cash, a credit note for nothing, above the outstanding balance
 * without refund, above the invoice's total less its earlier credit notes, or issued before the
 * invoice. Void invoices and archived ones are the id defects' (idDefects).
 */
function correctionDefects(
  plan: OperationPlan,
  has: (name: string) => boolean,
  seed: SeedRecords,
): Array<fc.Arbitrary<Change[]>> {
  const found: Array<fc.Arbitrary<Change[]>> = [];
  const rule = (label: string, values: Record<string, Value>): Change[] =>
    Object.entries(values).map(([name, value]) => ({ at: [name], label: `rule: ${label}`, value }));
  if (has('amount') && has('refund_date')) {
    const over = seed.ledgers.flatMap((ledger) => {
      const held = cents(ledger.cash_held);
      const amounts = new Set([
        held + 1n,
        cents(ledger.amount_paid),
        cents(ledger.total),
        10n ** 15n - 1n,
      ]);
      return [...amounts]
        .filter((amount) => amount > held)
        .map((amount) => ({ ledger, amount: dollars(amount) }));
    });
    found.push(
      fc
        .constantFrom(...over)
        .map(({ ledger, amount }) =>
          rule(
            `refund ${amount} above the ${ledger.cash_held} cash held on invoice ${ledger.id} ` +
              `(paid ${ledger.amount_paid})`,
            { id: ledger.id, amount },
          ),
        ),
    );
  }
  if (plan.template.endsWith('/void')) {
    const holding = seed.ledgers.filter((ledger) => cents(ledger.cash_held) > 0n);
    if (holding.length === 0) throw new Error('No seeded invoice holds cash: void has no rule');
    found.push(
      fc.constantFrom(...holding).map((ledger): Change[] => [
        {
          at: [PATH_ID],
          label: `rule: void of invoice ${ledger.id} holding ${ledger.cash_held} cash`,
          value: ledger.id,
        },
      ]),
    );
  }
  if (has('credit_note_no')) {
    const ledger = seed.ledgers.find((candidate) => candidate.id === seed.bases.credit_note);
    if (!ledger) throw new Error(`No ledger for the credit note base ${seed.bases.credit_note}`);
    const outstanding = cents(ledger.outstanding);
    const creditable = cents(ledger.creditable);
    const line = (rate: string, quantity = '1') => ({ description: 'Credit', quantity, rate });
    // The base's discount would take the totals below what the rules name.
    const undiscounted: Record<string, Value> = has('discount_percent')
      ? { discount_percent: REMOVED, discount_amount: REMOVED }
      : {};
    // One line of the whole total, or two lines making it.
    const totalling = (total: bigint): Array<Array<Record<string, string>>> => [
      [line(dollars(total))],
      [line(dollars(total / 2n)), line(dollars(total - total / 2n))],
    ];
    const aboveBalance = [outstanding + 1n, (outstanding + creditable) / 2n, creditable].filter(
      (total) => total > outstanding && total <= creditable,
    );
    if (aboveBalance.length > 0) {
      found.push(
        fc
          .tuple(
            fc.constantFrom(...aboveBalance),
            fc.integer({ min: 0, max: 1 }),
            fc.constantFrom<Value>(REMOVED, 'False', false, 'fALSE'),
          )
          .map(([total, split, refund]) =>
            rule(
              `a credit of ${dollars(total)} above the ${ledger.outstanding} outstanding, ` +
                `refund ${refund === REMOVED ? 'left out' : show(refund)}`,
              { items: totalling(total)[split], refund, ...undiscounted },
            ),
          ),
      );
    }
    const aboveCreditable = [creditable + 1n, cents(ledger.total), creditable * 2n].filter(
      (total) => total > creditable,
    );
    found.push(
      fc
        .tuple(
          fc.constantFrom(...aboveCreditable),
          fc.integer({ min: 0, max: 1 }),
          fc.constantFrom<Value>('True', true, 'tRUE', REMOVED),
        )
        .map(([total, split, refund]) =>
          rule(
            `a credit of ${dollars(total)} above the ${ledger.creditable} the invoice's total ` +
              `less its credit notes leaves, refund ${refund === REMOVED ? 'left out' : show(refund)}`,
            { items: totalling(total)[split], refund, ...undiscounted },
          ),
        ),
    );
    // Each line's amount is rounded on its own: these credit 0.00.
    found.push(
      fc
        .constantFrom<[string, Array<Record<string, string>>]>(
          ['a line of rate 0', [line('0', '3')]],
          ['a line of 0.0049', [line('0.0049')]],
          ['lines each rounding to 0.00', [line('0.0001', '1'), line('1', '0.0049')]],
        )
        .map(([label, items]) => rule(`a credit of 0.00: ${label}`, { items })),
    );
    found.push(
      fc
        .constantFrom(
          ...[dayBefore(ledger.issue_date), '2025-12-31', '2000-01-01'].filter(
            (date) => date < ledger.issue_date,
          ),
        )
        .map((date) =>
          rule(`issued ${date}, before the invoice's ${ledger.issue_date}`, { issue_date: date }),
        ),
    );
  }
  return found;
}

function setAt(target: Record<string, Value>, at: Path, value: Value): void {
  let node = target as Record<string | number, Value>;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, Value>;
  const last = at[at.length - 1];
  if (value === REMOVED) delete node[last];
  // As JSON.parse makes it: `__proto__` an own key, not the object's prototype.
  else
    Object.defineProperty(node, last, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

function clone<T>(value: T): T {
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(clone) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, clone(member)]),
    ) as T;
  }
  return value;
}

/** The live record a valid request names in its path: a void's base holds no cash. */
function pathRecord(plan: OperationPlan, seed: SeedRecords): string | undefined {
  if (!plan.pathId) return undefined;
  if (plan.template.endsWith('/void')) return seed.bases.void;
  if (plan.template.endsWith('/issue')) {
    return seed.bases.issue[plan.resource as 'invoice' | 'estimate'];
  }
  if (plan.template.endsWith('/pause')) return seed.bases.pause;
  if (plan.template.endsWith('/resume')) return seed.bases.resume;
  return seed.live[plan.resource][0];
}

/** Whether the operation changes the record its path names (reads and archiving do not). */
function changesRecord(plan: OperationPlan): boolean {
  return (
    plan.method === 'POST' || plan.method === 'PUT' || /\/(paid|not-paid)\//.test(plan.template)
  );
}

function pathIdArbitrary(plan: OperationPlan, seed: SeedRecords, document: OpenApiDocument) {
  const context: FieldContext = {
    name: 'id',
    required: true,
    encoding: 'query',
    json: false,
    seed,
    names: plan.resource,
    changes: changesRecord(plan),
    document,
  };
  return fc.oneof(...idDefects(context));
}

function url(plan: OperationPlan, id: string | undefined, query: string): string {
  const path =
    id === undefined ? plan.template : plan.template.replace('{id}', encodeURIComponent(id));
  return query === '' ? path : `${path}?${query}`;
}

/**
 * Requests to a list: one to three query parameters broken, unknown ones added. A list of one
 * record's (a webhook endpoint's deliveries) names the live record in its path.
 */
function listRequests(plan: OperationPlan, seed: SeedRecords, document: OpenApiDocument) {
  const id = pathRecord(plan, seed);
  const defects = plan.query.map((parameter) =>
    fc
      .oneof(
        ...parameterDefects(parameter.name, parameter.schema, {
          name: parameter.name,
          // A list's parameters are optional; an e-invoice's format is not.
          required: parameter.required === true,
          encoding: 'query',
          json: false,
          seed,
          list: true,
          document,
        }),
      )
      .map((defect) => ({ at: [parameter.name], ...defect })),
  );
  const oneDefect = fc.oneof(...defects).map((change) => [change]);
  return fc
    .record({
      // Two or three only where there are as many parameters: the unique array of two could
      // never be drawn from one, and fast-check would try for ever.
      defects:
        defects.length < 2
          ? oneDefect
          : fc.oneof(
              { weight: 3, arbitrary: oneDefect },
              {
                weight: 1,
                arbitrary: fc.uniqueArray(fc.oneof(...defects), {
                  minLength: 2,
                  maxLength: Math.min(3, defects.length),
                  selector: (change) => change.at[0],
                }),
              },
            ),
      extra: fc.array(fc.tuple(fc.constantFrom(...EXTRA_NAMES), extraValue(false)), {
        maxLength: 2,
      }),
    })
    .map(({ defects: changes, extra }): HostileRequest => {
      const query: Record<string, Value> = {};
      for (const [name, value] of extra) query[name] = value;
      for (const change of changes) setAt(query, change.at, change.value);
      return {
        operation: plan.operation,
        method: plan.method,
        url: url(plan, id, formText(query)),
        defects: changes.map((change) => `${change.at.join('.')}: ${change.label}`),
        noise: extra.map(([name]) => `extra ${name}`),
      };
    });
}

/** Requests that name a record by path and carry no body: the id is always wrong. */
function pathOnlyRequests(plan: OperationPlan, seed: SeedRecords, document: OpenApiDocument) {
  return fc
    .record({
      id: pathIdArbitrary(plan, seed, document),
      extra: fc.array(fc.tuple(fc.constantFrom(...EXTRA_NAMES), extraValue(false)), {
        maxLength: 2,
      }),
    })
    .map(({ id, extra }): HostileRequest => ({
      operation: plan.operation,
      method: plan.method,
      url: url(plan, String(id.value), formText(Object.fromEntries(extra))),
      defects: [`path id: ${id.label}`],
      noise: extra.map(([name]) => `extra ${name}`),
    }));
}

function bodyRequests(
  plan: OperationPlan,
  body: Schema,
  seed: SeedRecords,
  document: OpenApiDocument,
) {
  const valid = validObject(body, { document, seed, resource: plan.resource, tag: 'NEW' });
  const required = new Set(body.required ?? []);
  // The first live record (the others hold the taken numbers a duplicate names), or the base
  // a correction needs.
  const liveId = fc.constant(pathRecord(plan, seed));
  const badId = plan.pathId ? pathIdArbitrary(plan, seed, document) : undefined;

  const freeText = Object.entries(body.properties ?? {})
    .filter(([name, schema]) => {
      const resolved = resolve(document, schema);
      return (
        resolved.type === 'string' &&
        !resolved.format &&
        !resolved.pattern &&
        !resolved.enum &&
        !isHttpUrl(resolved) &&
        !required.has(name)
      );
    })
    .map(([name]) => name);
  const optional = Object.keys(body.properties ?? {}).filter((name) => !required.has(name));

  const encoded = (encoding: Encoding): fc.Arbitrary<HostileRequest> => {
    const json = encoding === 'json';
    // Numbers and lines hold most of the rules: they are broken three times as often.
    const fieldDefects = Object.entries(body.properties ?? {}).map(([name, schema]) => ({
      weight: ['decimal', 'array'].includes(kindOf(document, name, schema).type) ? 3 : 1,
      arbitrary: fc
        .oneof(
          ...parameterDefects(name, schema, {
            name,
            required: required.has(name),
            encoding,
            json,
            seed,
            names:
              name === 'client' || name === 'invoice'
                ? name
                : name === 'id'
                  ? plan.resource
                  : undefined,
            changes: true,
            document,
          }),
        )
        .map((defect): Change => ({ at: [name], ...defect })),
    }));
    const noise = fc.array(
      fc.oneof(
        fc
          .tuple(fc.constantFrom(...EXTRA_NAMES), extraValue(json))
          .map(([name, value]): Change => ({ at: [name], label: `extra ${name}`, value })),
        ...(freeText.length > 0
          ? [
              fc
                .tuple(fc.constantFrom(...freeText), fc.constantFrom(...ODD_TEXT))
                .map(([name, value]): Change => ({
                  at: [name],
                  label: `odd text in ${name}`,
                  value,
                })),
            ]
          : []),
        ...(optional.length > 0
          ? [
              fc
                .constantFrom(...optional)
                .map((name): Change => ({ at: [name], label: `no ${name}`, value: REMOVED })),
            ]
          : []),
      ),
      { maxLength: 3 },
    );
    // Mostly one defect, so that each is refused on its own merits, not for a louder one.
    const rules = ruleDefects(plan, body, seed);
    const withDefects = (minLength: number) =>
      fc.oneof(
        {
          weight: 5,
          arbitrary: fc.uniqueArray(fc.oneof(...fieldDefects), {
            minLength,
            maxLength: 1,
            selector: (change) => change.at[0],
          }),
        },
        // Two defects need two parameters: a void's body has one.
        ...(fieldDefects.length >= 2
          ? [
              {
                weight: 1,
                arbitrary: fc.uniqueArray(fc.oneof(...fieldDefects), {
                  minLength: 2,
                  maxLength: Math.min(3, fieldDefects.length),
                  selector: (change: Change) => change.at[0],
                }),
              },
            ]
          : []),
        ...(rules.length > 0 ? [{ weight: 2, arbitrary: fc.oneof(...rules) }] : []),
      );
    interface Shape {
      id: string | undefined;
      idDefect: Labeled | undefined;
      defects: Change[];
      noise: Change[];
    }
    const shapes: Array<fc.WeightedArbitrary<Shape>> = [
      {
        weight: 3,
        arbitrary: fc.record({
          id: liveId,
          idDefect: fc.constant(undefined),
          defects: withDefects(1),
          noise,
        }),
      },
    ];
    if (badId) {
      shapes.push({
        weight: 1,
        arbitrary: fc.record({
          id: fc.constant(undefined),
          idDefect: badId,
          defects: withDefects(0),
          noise,
        }),
      });
    }
    const charset = json
      ? fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=UTF-8',
          'application/merge+json',
        )
      : fc.constant('application/x-www-form-urlencoded');
    return fc.tuple(fc.oneof(...shapes), charset).map(([shape, contentType]): HostileRequest => {
      const value = clone(valid);
      // A rule may name another record in the path; a broken path id takes its place.
      const inPath = shape.defects.find((change) => change.at[0] === PATH_ID);
      const inBody = shape.defects.filter((change) => change.at[0] !== PATH_ID);
      const applied = shape.idDefect ? inBody : shape.defects;
      // Noise first: a defect on the same parameter wins.
      const ignored = shape.noise.filter(
        (change) => !inBody.some((defect) => defect.at[0] === change.at[0]),
      );
      for (const change of ignored) setAt(value, change.at, change.value);
      for (const change of inBody) setAt(value, change.at, change.value);
      const id = shape.idDefect
        ? String(shape.idDefect.value)
        : inPath
          ? String(inPath.value)
          : shape.id;
      const defects = [
        ...(shape.idDefect ? [`path id: ${shape.idDefect.label}`] : []),
        ...new Set(
          applied.map((change) =>
            change.label.startsWith('rule: ')
              ? change.label
              : `${change.at.join('.')}: ${change.label}`,
          ),
        ),
      ];
      const request = {
        operation: plan.operation,
        method: plan.method,
        defects,
        noise: [`${encoding}`, ...ignored.map((change) => change.label)],
      };
      return { ...request, ...encode(plan, id, value, encoding, contentType) };
    });
  };

  const malformed = fc
    .tuple(fc.constantFrom(...MALFORMED_BODIES), liveId)
    .map(([defect, id]): HostileRequest => ({
      operation: plan.operation,
      method: plan.method,
      url: url(plan, id, ''),
      body: defect.body(valid),
      defects: [`body: ${defect.label}`],
      noise: [],
    }));

  return fc.oneof(
    { weight: 4, arbitrary: encoded('json') },
    { weight: 2, arbitrary: encoded('form') },
    { weight: 2, arbitrary: encoded('multipart') },
    { weight: 1, arbitrary: encoded('query') },
    { weight: 1, arbitrary: malformed },
  );
}

export interface OperationArbitrary {
  operation: string;
  /** Bodies hold most parameters and most rules: they get most of the requests. */
  weight: number;
  arbitrary: fc.Arbitrary<HostileRequest>;
}

/** For every operation under /v1 in the document, an arbitrary of requests it must refuse. */
export function hostileRequests(
  document: OpenApiDocument,
  seed: SeedRecords,
): OperationArbitrary[] {
  return plans(document).map((plan) => {
    if (plan.upload) {
      return { operation: plan.operation, weight: 2, arbitrary: uploadRequests(plan, plan.upload) };
    }
    if (plan.body) {
      return {
        operation: plan.operation,
        weight: 4,
        arbitrary: bodyRequests(plan, plan.body, seed, document),
      };
    }
    if (plan.pathId && plan.query.length > 0) {
      // A record's list: a wrong record, or the live one with broken paging.
      return {
        operation: plan.operation,
        weight: 2,
        arbitrary: fc.oneof(
          pathOnlyRequests(plan, seed, document),
          listRequests(plan, seed, document),
        ),
      };
    }
    if (plan.pathId) {
      return {
        operation: plan.operation,
        weight: 1,
        arbitrary: pathOnlyRequests(plan, seed, document),
      };
    }
    if (plan.query.length > 0) {
      return {
        operation: plan.operation,
        weight: 2,
        arbitrary: listRequests(plan, seed, document),
      };
    }
    throw new Error(`${plan.operation}: nothing in the document to make it invalid`);
  });
}
