import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { IncomingMessage, Server } from 'node:http';
import request from 'supertest';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { PrintedInvoice, printedLedgerProblem } from './printed-ledger';

/*
 * Every e2e file's requests go through the agent this records; when the file closes its app,
 * each JSON answer is checked against the OpenAPI document the app serves: a success against
 * its operation's 200 schema, a /v1 failure against the error envelope. So the document cannot
 * drift from what the service answers, and an operation missing from it fails the file.
 */

const DOCUMENT_PATH = '/docs/openapi.json';
const DOCUMENT_ID = 'openapi.json';
const ERROR_ENVELOPE = `${DOCUMENT_ID}#/components/schemas/ErrorEnvelopeDto`;
const API_PREFIX = /^\/v1(\/|$)/;
/** Enough to read; the rest are counted. */
const MAX_REPORTED = 15;

export interface Recorded {
  method: string;
  path: string;
  /** What the check reads of an answer: a supertest Response has it, and so can a fetch's. */
  response: RecordedAnswer;
}

export interface RecordedAnswer {
  status: number;
  /** The media type, without parameters (`application/json`). */
  type: string;
  body: unknown;
}

/** The parts of an OpenAPI document this check reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  parameters: number;
  operation: Operation;
}

/** The members of a supertest agent that send a request. */
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options']);

/** `GET /v1/invoice/{id}/pdf`: its PDF's ledger is checked (printed-ledger.ts). */
const INVOICE_PDF = /^\/v1\/invoice\/(\d+)\/pdf\/?$/i;

/** The parts of a supertest request that choose how its answer is read. */
interface Parsed {
  buffer(on: boolean): Parsed;
  parse(
    parser: (
      response: IncomingMessage,
      done: (error: Error | null, body?: unknown) => void,
    ) => void,
  ): Parsed;
}

/**
 * Reads an answer as superagent would, but a PDF always as its bytes (whatever the test asks
 * for), so that the ledger check has them: an error answer is still parsed JSON.
 */
function pdfAsBytes(
  response: IncomingMessage & { text?: string },
  done: (error: Error | null, body?: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('error', (error: Error) => done(error));
  response.on('end', () => {
    const bytes = Buffer.concat(chunks);
    const type = String(response.headers['content-type'] ?? '');
    if (type.startsWith('application/pdf')) return done(null, bytes);
    response.text = bytes.toString('utf8');
    try {
      done(null, /json/.test(type) && response.text !== '' ? JSON.parse(response.text) : {});
    } catch (error) {
      done(error as Error);
    }
  });
}

/** What the recorder wraps of a supertest request: its promise, and its headers. */
interface Thenable {
  then: (
    onFulfilled?: (value: Response) => unknown,
    onRejected?: (error: unknown) => unknown,
  ) => Promise<unknown>;
  header?: Record<string, string>;
}

export class ResponseRecorder {
  private readonly recorded: Recorded[] = [];
  /** Each invoice PDF a test fetched, with the invoice as read at that moment. */
  private readonly printed: PrintedInvoice[] = [];
  /** The agent the tests use: supertest's, with every answer recorded. */
  readonly http: TestAgent;

  constructor(private readonly server: Server) {
    this.http = this.recording(request(server));
  }

  /**
   * An agent that sends `headers` with every request (a key, say), its answers recorded and
   * checked like those of `http`.
   */
  agent(headers: Record<string, string> = {}): TestAgent {
    const agent = request.agent(this.server);
    for (const [name, value] of Object.entries(headers)) agent.set(name, value);
    return this.recording(agent);
  }

  /** `agent` with each request it makes recorded (its other members as they are). */
  private recording<Agent extends TestAgent>(agent: Agent): Agent {
    return new Proxy(agent, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        if (!HTTP_METHODS.has(property)) return value.bind(target) as unknown;
        const method = property === 'del' ? 'DELETE' : property.toUpperCase();
        return (url: string, ...rest: unknown[]) => {
          const test = (value as (...args: unknown[]) => NodeJS.EventEmitter).call(
            target,
            url,
            ...rest,
          );
          const path = new URL(url, 'http://recorder.invalid').pathname;
          test.on('response', (response: Response) =>
            this.recorded.push({ method, path, response }),
          );
          const invoicePdf = method === 'GET' ? INVOICE_PDF.exec(path) : null;
          if (invoicePdf) {
            (test as unknown as Parsed).buffer(true).parse(pdfAsBytes);
            this.readPrintedWith(test as unknown as Thenable, invoicePdf[1]);
          }
          return test;
        };
      },
    });
  }

  /**
   * Once the test has an invoice's PDF, and before it goes on, reads the invoice with the same
   * headers: the PDF and the invoice as they were at that moment, for the ledger check.
   */
  private readPrintedWith(test: Thenable, id: string): void {
    const then = test.then.bind(test);
    test.then = (onFulfilled, onRejected) =>
      then(async (response: Response) => {
        if (response.status === 200 && Buffer.isBuffer(response.body)) {
          await this.readPrinted(id, response.body, test.header ?? {});
        }
        return response;
      }).then(onFulfilled as (value: unknown) => unknown, onRejected);
  }

  private async readPrinted(
    id: string,
    pdf: Buffer,
    headers: Record<string, string>,
  ): Promise<void> {
    const auth = Object.fromEntries(
      Object.entries(headers).filter(([name]) => /^(authorization|x-api-key)$/i.test(name)),
    );
    const read = await request(this.server).get(`/v1/invoice/${id}`).set(auth);
    if (read.status !== 200) return;
    const body = read.body as {
      invoice: Array<Omit<PrintedInvoice['invoice'], 'payments'>>;
      payments: unknown[];
    };
    const invoice = { ...body.invoice[0], payments: body.payments };
    this.printed.push({ id, pdf, invoice });
  }

  /**
   * An Error naming each answer that disagrees with the served document, and each invoice PDF
   * whose printed ledger disagrees with itself or the API, or null. It never throws, so the
   * caller can close the app before failing.
   */
  async check(): Promise<Error | null> {
    // Each answer is checked once: a later check reads only what came since.
    const printed = this.printed.splice(0);
    const recorded = this.recorded.splice(0);
    if (printed.length === 0 && recorded.length === 0) return null;
    try {
      const printedProblems = (
        await Promise.all(printed.map((one) => printedLedgerProblem(one)))
      ).filter((problem): problem is string => problem !== null);
      if (printedProblems.length > 0) {
        return new Error(`Printed invoices that disagree:\n- ${printedProblems.join('\n- ')}`);
      }
      const served = await request(this.server).get(DOCUMENT_PATH);
      if (served.status !== 200) {
        return new Error(`${DOCUMENT_PATH} answered ${served.status}, not the OpenAPI document`);
      }
      return disagreements(checkerFor(served.text), recorded);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}

/**
 * The checker of a served document, compiled once for every app of a test file that serves the
 * same text (a group's members share a module registry, so once per group): ajv's compiling of
 * the schemas was about a third of the checks' time in a profile of one group.
 */
const checkers = new Map<string, DocumentChecker>();

function checkerFor(text: string): DocumentChecker {
  let checker = checkers.get(text);
  if (!checker) {
    checker = new DocumentChecker(JSON.parse(text) as OpenApiDocument);
    checkers.set(text, checker);
  }
  return checker;
}

/** An Error naming each recorded answer that disagrees with `document`, or null. */
export function disagreements(
  document: OpenApiDocument | DocumentChecker,
  recorded: Recorded[],
): Error | null {
  const checker = document instanceof DocumentChecker ? document : new DocumentChecker(document);
  const problems = new Map<string, number>();
  for (const entry of recorded) {
    const problem = checker.check(entry);
    if (problem !== null) problems.set(problem, (problems.get(problem) ?? 0) + 1);
  }
  return problems.size === 0 ? null : new Error(describe(problems));
}

function describe(problems: Map<string, number>): string {
  const lines = [...problems].map(([text, count]) => (count > 1 ? `${text} (×${count})` : text));
  const shown = lines.slice(0, MAX_REPORTED).map((line) => `- ${line}`);
  if (lines.length > MAX_REPORTED) shown.push(`… and ${lines.length - MAX_REPORTED} more`);
  return `Answers that disagree with the OpenAPI document (${DOCUMENT_PATH}):\n${shown.join('\n')}`;
}

/** Checks answers against one OpenAPI document. */
export class DocumentChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly routes: Route[];
  private readonly matched = new Map<string, Route | undefined>();
  private readonly validators = new Map<string, { validate: ValidateFunction; schema: Schema }>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    // OpenAPI 3.0 schemas are JSON Schema enough for ajv once unknown keywords are allowed;
    // the whole document is one schema so that each `#/components/schemas/…` resolves.
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.routes = Object.entries(document.paths)
      .flatMap(([template, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          pattern: templatePattern(template),
          parameters: (template.match(/\{/g) ?? []).length,
          operation,
        })),
      )
      // A literal segment wins over a parameter, as in the router (`/invoice/all`, `/{id}`).
      .sort((a, b) => a.parameters - b.parameters);
  }

  /** What is wrong with one answer, or null. */
  check({ method, path, response }: Recorded): string | null {
    if (method === 'HEAD' || method === 'OPTIONS') return null;
    if (response.type !== 'application/json') return null;
    const underApi = API_PREFIX.test(path);
    const route = this.route(method, path);
    const answer = `${method} ${path} → ${response.status}`;
    const where = route ? `${answer} (${route.method} ${route.template})` : answer;
    if (response.status >= 200 && response.status < 300) {
      if (!route) return underApi ? `${answer}: the document has no operation for it` : null;
      const pointer = schemaPointer(route, response.status);
      if (!pointer) {
        return underApi ? `${where}: the operation documents no JSON ${response.status}` : null;
      }
      return this.validate(pointer, response.body, where);
    }
    if (!underApi) return null;
    if (route && !(String(response.status) in route.operation.responses)) {
      return `${where}: status ${response.status} is not documented for this operation`;
    }
    return this.validate(ERROR_ENVELOPE, response.body, where);
  }

  /** The documented operation a request went to; the same paths come back again and again. */
  private route(method: string, path: string): Route | undefined {
    const key = `${method} ${path}`;
    if (!this.matched.has(key)) {
      const found = this.routes.find(
        (candidate) => candidate.method === method && candidate.pattern.test(path),
      );
      this.matched.set(key, found);
    }
    return this.matched.get(key);
  }

  private validate(pointer: string, body: unknown, where: string): string | null {
    let compiled = this.validators.get(pointer);
    if (!compiled) {
      compiled = { validate: this.ajv.compile({ $ref: pointer }), schema: this.schemaAt(pointer) };
      this.validators.set(pointer, compiled);
    }
    const { validate, schema } = compiled;
    if (!validate(body)) {
      return `${where}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`;
    }
    const extra = this.undocumentedKeys(schema, body, 'body');
    return extra.length > 0 ? `${where}: not in the document: ${extra.join(', ')}` : null;
  }

  /**
   * Keys the answer has that its schema does not list (JSON Schema lets them through unless
   * told otherwise): the document must name every key an answer carries.
   */
  private undocumentedKeys(schema: Schema, value: unknown, at: string): string[] {
    const resolved = this.resolve(schema);
    if (Array.isArray(value)) {
      const items = this.merged(resolved).items;
      if (!items) return [];
      return value.flatMap((item, index) => this.undocumentedKeys(items, item, `${at}[${index}]`));
    }
    if (typeof value !== 'object' || value === null) return [];
    const properties = this.merged(resolved).properties;
    // A map such as `errors` lists no properties: any key is documented.
    if (!properties) return [];
    return Object.entries(value).flatMap(([key, child]) =>
      key in properties
        ? this.undocumentedKeys(properties[key], child, `${at}.${key}`)
        : [`${at}.${key}`],
    );
  }

  /** A schema's properties and items, its `allOf` parts' included. */
  private merged(schema: Schema): Pick<Schema, 'properties' | 'items'> {
    const parts = [schema, ...(schema.allOf ?? []).map((part) => this.resolve(part))];
    const properties = parts.reduce<Record<string, Schema> | undefined>(
      (all, part) => (part.properties ? { ...all, ...part.properties } : all),
      undefined,
    );
    return { properties, items: parts.find((part) => part.items)?.items };
  }

  private resolve(schema: Schema): Schema {
    return schema.$ref ? this.resolve(this.schemaAt(schema.$ref)) : schema;
  }

  /** The schema a `openapi.json#/…` or `#/…` pointer names. */
  private schemaAt(pointer: string): Schema {
    const fragment = pointer.slice(pointer.indexOf('#') + 1);
    return fragment
      .split('/')
      .slice(1)
      .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>(
        (node, segment) => (node as Record<string, unknown>)[segment],
        this.document,
      ) as Schema;
  }
}

/** `/v1/client/{id}` → a pattern for request paths; the router ignores case and a final slash. */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/?$`, 'i');
}

/** The JSON pointer of the schema documented for this status, or null. */
function schemaPointer(route: Route, status: number): string | null {
  const schema = route.operation.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return null;
  const { template, method } = route;
  const path = ['paths', template, method.toLowerCase(), 'responses', String(status)];
  const segments = [...path, 'content', 'application/json', 'schema'].map((segment) =>
    encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')),
  );
  return `${DOCUMENT_ID}#/${segments.join('/')}`;
}
