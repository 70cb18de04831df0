import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anyCasePattern } from '../src/openapi/any-case-pattern';
import { takesExample } from '../src/openapi/examples';
import { serializeOpenApiDocument } from '../src/openapi/openapi-document';
import { createTestApp, TestApp } from './setup/create-app';
import { DocumentChecker, OpenApiDocument, Recorded } from './setup/response-recorder';

/*
 * The OpenAPI document: served without a key, complete for every /v1 route the app registers,
 * the same as the committed docs/openapi.json, and strict enough that the answer check run on
 * every e2e file (test/setup/response-recorder.ts) fails when an answer leaves it.
 */

const API_KEY = 'openapi-spec-key-0123456789';
const ENVELOPE = '#/components/schemas/SuccessEnvelopeDto';
const ERROR_ENVELOPE = '#/components/schemas/ErrorEnvelopeDto';
/** What any /v1 operation may fail with, whatever it does. */
const COMMON_ERRORS = ['400', '401', '408', '413', '415', '429', '431', '500', '503'];
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
const COMMITTED = join(__dirname, '..', 'docs', 'openapi.json');
/** The only writes that take no parameter but the path id: they declare no request body. */
const BODILESS_WRITES = [
  'POST /v1/webhook/{id}/rotate-secret',
  'POST /v1/webhook/delivery/{id}/retry',
  'POST /v1/recurring-invoice/{id}/pause',
  'POST /v1/recurring-invoice/{id}/resume',
];
/** The only operations whose success is not JSON in the envelope. */
const PDF_OPERATIONS = [
  'GET /v1/invoice/{id}/pdf',
  'GET /v1/estimate/{id}/pdf',
  'GET /v1/credit-note/{id}/pdf',
  'GET /v1/client/{id}/statement/pdf',
];

/** The e-invoices: XML, or with format=facturx a PDF, outside the envelope. */
const EINVOICE_OPERATIONS = ['GET /v1/invoice/{id}/einvoice', 'GET /v1/credit-note/{id}/einvoice'];
/** The file an imported expense came from: XML or PDF, as received. */
const SOURCE_OPERATION = 'GET /v1/expense/{id}/source';
/** The only write whose body is a file: raw in its media type, or a multipart file field. */
const UPLOAD_OPERATION = 'POST /v1/expense/import';
const UPLOAD_TYPES = ['application/xml', 'text/xml', 'application/pdf', 'multipart/form-data'];

/** The reports: JSON in the envelope, or CSV with `format=csv`. */
const CSV_OPERATIONS = [
  'GET /v1/report/aging',
  'GET /v1/report/profit-and-loss',
  'GET /v1/report/tax-summary',
  'GET /v1/client/{id}/statement',
];

// The document is JSON walked by path in assertions; each step is checked by the assertion itself.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface Document {
  openapi: string;
  info: Json;
  tags: Array<{ name: string }>;
  servers: Array<{ url: string; description?: string }>;
  paths: Record<string, Record<string, Json>>;
  components: {
    schemas: Record<string, Json>;
    securitySchemes: Record<string, Json>;
    headers: Record<string, Json>;
  };
}

interface RegisteredRoute {
  method: string;
  path: string;
}

/** The routes Express holds (Nest registered them there), `:id` written as `{id}`. */
function registeredRoutes(test: TestApp): RegisteredRoute[] {
  const express = test.app.getHttpAdapter().getInstance() as unknown as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  return express.router.stack.flatMap(({ route }) =>
    route
      ? Object.keys(route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method, path: route.path.replace(/:(\w+)/g, '{$1}') }))
      : [],
  );
}

/** Every `{path, method, operation}` of the document under /v1. */
function apiOperations(
  document: Document,
): Array<{ name: string; method: string; operation: Json }> {
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${path}`,
        method,
        operation,
      })),
    );
}

describe('OpenAPI document', () => {
  let test: TestApp;
  let document: Document;

  beforeAll(async () => {
    // Keys are configured: the document and its page must still answer without one.
    test = await createTestApp({ env: { API_KEYS: API_KEY } });
    const response = await test.http.get('/docs/openapi.json');
    expect({ status: response.status, type: response.type }).toEqual({
      status: 200,
      type: 'application/json',
    });
    document = response.body as Document;
  });

  afterAll(async () => {
    await test.close();
  });

  it('is an OpenAPI 3.0 document of the service', () => {
    expect(document.openapi).toMatch(/^3\.0\.\d+$/);
    expect(document.info).toMatchObject({ title: 'Invoicing service', version: '1' });
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'clients',
      'invoices',
      'estimates',
      'credit notes',
      'expenses',
      'events',
      'webhooks',
      'number series',
      'recurring invoices',
      'reports',
      'Operations',
    ]);
    // Every tag an operation uses is declared (Spectral's operation-tag-defined).
    const used = new Set(
      Object.values(document.paths).flatMap((path) =>
        Object.values(path as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? []),
      ),
    );
    expect(
      [...used].filter((tag) => !document.tags.some((declared) => declared.name === tag)),
    ).toEqual([]);
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('has no object schema without properties (a generated client would type it as empty)', () => {
    const empty = Object.entries(document.components.schemas)
      .filter(([, schema]) => {
        const object = schema as Record<string, unknown>;
        return (
          object.type === 'object' &&
          Object.keys((object.properties as object | undefined) ?? {}).length === 0 &&
          object.additionalProperties === undefined
        );
      })
      .map(([name]) => name);
    expect(empty).toEqual([]);
  });

  it('documents each answer of /metrics in the type it is sent in', () => {
    const responses = (document.paths['/metrics'].get as { responses: Record<string, Json> })
      .responses;
    expect(Object.keys((responses['200'] as { content: object }).content)).toEqual(['text/plain']);
    expect(Object.keys((responses['401'] as { content: object }).content)).toEqual([
      'application/json',
    ]);
  });

  it('documents every /v1 route the app registers, and no /v1 operation it does not', () => {
    const registered = registeredRoutes(test)
      .filter((route) => route.path.startsWith('/v1/'))
      .map((route) => `${route.method.toUpperCase()} ${route.path}`)
      .sort();
    const documented = apiOperations(document)
      .map((entry) => entry.name)
      .sort();
    // The specification's 25 operations and the conversion of an estimate, at least.
    expect(registered.length).toBeGreaterThanOrEqual(26);
    expect(documented).toEqual(registered);
  });

  it('gives each /v1 operation a tag, a summary and both ways to present an API key', () => {
    const tags = document.tags.map((tag) => tag.name);
    for (const { name, operation } of apiOperations(document)) {
      expect({ name, tags: operation.tags as string[] }).toEqual({
        name,
        tags: [expect.any(String)],
      });
      expect(tags).toContain((operation.tags as string[])[0]);
      expect({ name, summary: operation.summary as string }).toEqual({
        name,
        summary: expect.stringMatching(/\S/),
      });
      expect({ name, security: operation.security as Json[] }).toEqual({
        name,
        security: [{ bearer: [] }, { 'api-key': [] }],
      });
    }
    expect(document.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      'api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
  });

  it('gives each /v1 operation its payload in the success envelope as the 200 schema', () => {
    for (const { name, operation } of apiOperations(document)) {
      if (PDF_OPERATIONS.includes(name) || name === SOURCE_OPERATION) continue;
      const content = (operation.responses as Json)['200']?.content as Json | undefined;
      if (EINVOICE_OPERATIONS.includes(name)) {
        expect({ name, types: Object.keys(content ?? {}) }).toEqual({
          name,
          types: ['application/xml', 'application/pdf'],
        });
        continue;
      }
      expect({ name, types: Object.keys(content ?? {}) }).toEqual({
        name,
        types: CSV_OPERATIONS.includes(name)
          ? ['application/json', 'text/csv']
          : ['application/json'],
      });
      const schema = content?.['application/json']?.schema;
      expect({ name, schema }).toEqual({
        name,
        schema: { allOf: [{ $ref: ENVELOPE }, { $ref: expect.any(String) }] },
      });
      const payload = (schema.allOf[1].$ref as string).split('/').pop() as string;
      expect({ name, payload: document.components.schemas[payload]?.type }).toEqual({
        name,
        payload: 'object',
      });
    }
  });

  it('gives the reports, and only them, a text/csv alternative and a format parameter (the e-invoices their own)', () => {
    for (const { name, operation } of apiOperations(document)) {
      const content = (operation.responses as Json)['200']?.content as Json | undefined;
      const format = ((operation.parameters ?? []) as Json[]).find(
        (parameter) => parameter.name === 'format',
      );
      if (EINVOICE_OPERATIONS.includes(name)) {
        // Its own format: an e-invoice format, required.
        expect({ name, csv: content?.['text/csv'], required: format?.required }).toEqual({
          name,
          required: true,
        });
        continue;
      }
      if (!CSV_OPERATIONS.includes(name)) {
        expect({ name, csv: content?.['text/csv'], format }).toEqual({ name });
        continue;
      }
      expect({ name, csv: content?.['text/csv'] }).toEqual({
        name,
        csv: { schema: { type: 'string' } },
      });
      expect({ name, format: format?.schema }).toEqual({
        name,
        format: expect.objectContaining({
          type: 'string',
          pattern: anyCasePattern(['json', 'csv']),
        }),
      });
    }
  });

  it('gives the PDF operations a binary application/pdf 200 named by Content-Disposition, the source XML or PDF', () => {
    for (const name of PDF_OPERATIONS) {
      const [method, path] = name.split(' ');
      const success = document.paths[path]?.[method.toLowerCase()]?.responses['200'] as Json;
      expect({ name, content: success?.content }).toEqual({
        name,
        content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
      });
      expect({ name, headers: Object.keys(success.headers ?? {}) }).toEqual({
        name,
        headers: [
          'Content-Disposition',
          'X-Request-Id',
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
        ],
      });
      expect(Object.keys(document.paths[path].get.responses)).toContain('404');
    }
    const source = document.paths['/v1/expense/{id}/source'].get.responses as Json;
    expect(source['200'].content).toEqual({
      'application/xml': { schema: { type: 'string', format: 'binary' } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(source['200'].headers as Json)).toContain('Content-Disposition');
    expect(Object.keys(source)).toContain('404');
  });

  it('declares the upload as the file raw in each media type or a multipart file, with an example', () => {
    const body = document.paths['/v1/expense/import'].post.requestBody as Json;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content as Json)).toEqual(UPLOAD_TYPES);
    for (const type of UPLOAD_TYPES.slice(0, 3)) {
      expect(body.content[type].schema).toEqual({ type: 'string', format: 'binary' });
    }
    expect(body.content['application/xml'].example).toMatch(/^<\?xml/);
    expect(body.content['multipart/form-data'].schema).toEqual({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
  });

  it('gives each /v1 operation its failures in the error envelope: the common ones, 403 on writes', () => {
    for (const { name, method, operation } of apiOperations(document)) {
      const responses = operation.responses as Record<string, Json>;
      const statuses = Object.keys(responses);
      expect({
        name,
        missing: COMMON_ERRORS.filter((status) => !statuses.includes(status)),
      }).toEqual({ name, missing: [] });
      if (method !== 'get')
        expect({ name, statuses }).toEqual({ name, statuses: expect.arrayContaining(['403']) });
      for (const status of statuses.filter((code) => code !== '200')) {
        expect({
          name,
          status,
          schema: responses[status].content?.['application/json']?.schema,
        }).toEqual({
          name,
          status,
          schema: { $ref: ERROR_ENVELOPE },
        });
      }
    }
    // A GET that changes state is refused to a read-only key like any write.
    expect(Object.keys(document.paths['/v1/invoice/paid/{id}'].get.responses)).toContain('403');
    expect(Object.keys(document.paths['/v1/invoice/{id}'].get.responses)).not.toContain('403');
  });

  it('declares the parameters of each /v1 operation: path id, query filters, body encodings', () => {
    for (const { name, method, operation } of apiOperations(document)) {
      const parameters = (operation.parameters ?? []) as Json[];
      if (name.includes('{id}')) {
        expect({ name, id: parameters.find((parameter) => parameter.in === 'path') }).toEqual({
          name,
          id: expect.objectContaining({ name: 'id', required: true }),
        });
      }
      if (name.endsWith('/all')) {
        const query = parameters.filter((parameter) => parameter.in === 'query');
        expect({ name, query: query.map((parameter) => parameter.name as string) }).toEqual({
          name,
          query: expect.arrayContaining(['page', 'per_page']),
        });
      }
      // Every POST/PUT that takes parameters declares the three body encodings; the two that
      // take none but the path id declare no body at all (nor any query parameter).
      if ((method === 'post' || method === 'put') && BODILESS_WRITES.includes(name)) {
        expect({ name, body: operation.requestBody as unknown }).toEqual({
          name,
          body: undefined,
        });
        expect({
          name,
          parameters: parameters
            .filter((parameter) => parameter.in !== 'header')
            .map((parameter) => `${parameter.in as string} ${parameter.name as string}`),
        }).toEqual({ name, parameters: ['path id'] });
      } else if (name === UPLOAD_OPERATION) {
        // Its body is a file (the test above).
      } else if (method === 'post' || method === 'put') {
        const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
        expect({ name, types: Object.keys(content ?? {}) }).toEqual({ name, types: BODY_TYPES });
        for (const type of BODY_TYPES) {
          expect(content?.[type].schema).toEqual({
            $ref: expect.stringMatching(/^#\/components\/schemas\//),
          });
        }
      }
    }
    // The exceptions are operations of the document, each a write: a stale name fails here.
    const writes = apiOperations(document)
      .filter(({ method }) => method === 'post' || method === 'put')
      .map(({ name }) => name);
    expect(writes).toEqual(expect.arrayContaining(BODILESS_WRITES));
    const status = document.paths['/v1/invoice/all'].get.parameters.find(
      (parameter: Json) => parameter.name === 'payment_status',
    );
    expect(status.schema).toEqual(
      expect.objectContaining({ type: 'string', pattern: anyCasePattern(['Paid', 'Not Paid']) }),
    );
  });

  it('resolves every $ref it holds', () => {
    const references: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') references.push(value);
          else walk(value);
        }
      }
    };
    walk(document);
    expect(references.length).toBeGreaterThan(0);
    const unresolved = references.filter((reference) => {
      const [, , kind, name] = reference.split('/');
      return !(name in ((document.components as Record<string, Json>)[kind] ?? {}));
    });
    expect(unresolved).toEqual([]);
  });

  it('is committed as docs/openapi.json, exactly as served (npm run build rewrites it)', () => {
    const committed = readFileSync(COMMITTED, 'utf8');
    expect(JSON.parse(committed)).toEqual(document);
    expect(committed === serializeOpenApiDocument(document as unknown as OpenAPIObject)).toBe(true);
  });

  it('answers its page at /docs, whose scripts load, without an API key', async () => {
    const page = await test.http.get('/docs');
    expect({ status: page.status, type: page.type }).toEqual({ status: 200, type: 'text/html' });
    expect(page.text).toContain('swagger-ui');
    // The page's own references, resolved as a browser would against /docs.
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map(
      (match) => new URL(match[1], 'http://service.invalid/docs').pathname,
    );
    expect(scripts).toEqual(expect.arrayContaining(['/docs/swagger-ui-init.js']));
    for (const script of scripts) {
      const response = await test.http.get(script);
      expect({ script, status: response.status }).toEqual({ script, status: 200 });
    }
    // …while the API itself wants the key.
    expect((await test.http.get('/v1/client/all')).status).toBe(401);
  });

  describe('listed values: any case in, the listed spelling out', () => {
    /** The component schemas a request body names, and those they name in turn. */
    function requestSchemas(): string[] {
      const found = new Set<string>();
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(visit);
        else if (typeof node === 'object' && node !== null) {
          for (const [key, value] of Object.entries(node)) {
            if (key === '$ref' && typeof value === 'string') {
              const name = value.split('/').pop() as string;
              if (!found.has(name)) {
                found.add(name);
                visit(document.components.schemas[name]);
              }
            } else visit(value);
          }
        }
      };
      for (const { operation } of apiOperations(document)) visit(operation.requestBody);
      return [...found];
    }

    it('states no enum on input but the webhook event types, which are matched exactly', () => {
      const enums: string[] = [];
      for (const name of requestSchemas()) {
        for (const [key, property] of Object.entries(
          (document.components.schemas[name].properties ?? {}) as Record<string, Json>,
        )) {
          const parts = [property, property.items, ...((property.oneOf ?? []) as Json[])];
          if (parts.some((part) => part?.enum)) enums.push(`${name}.${key}`);
        }
      }
      expect(enums.sort()).toEqual(['CreateWebhookDto.events', 'UpdateWebhookDto.events']);
      for (const { name, operation } of apiOperations(document)) {
        const query = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
        const enums = query.filter((p) => p.schema.enum).map((p) => p.name as string);
        expect({ name, enums }).toEqual({
          name,
          enums: [],
        });
      }
    });

    it('lets a request give payment_method and accepted in any case, and answers them as listed', () => {
      const { schemas } = document.components;
      const method = new RegExp(schemas.RecordPaymentDto.properties.payment_method.pattern, 'u');
      expect(['cash', 'CASH', 'Cash', 'bank transfer'].map((v) => method.test(v))).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(['cash ', ' Cash', 'Bitcoin', ''].map((v) => method.test(v))).toEqual([
        false,
        false,
        false,
        false,
      ]);
      expect(schemas.RefundDto.properties.payment_method.pattern).toBe(method.source);
      expect(schemas.RecordPaymentDto.properties.payment_method.description).toContain(
        'Cash, Bank Transfer, Cheque, Credit Card, Others',
      );
      expect(schemas.PaymentEntryDto.properties.bank.enum).toEqual([
        'Cash',
        'Bank Transfer',
        'Cheque',
        'Credit Card',
        'Others',
      ]);
      const accepted = (schemas.CreateEstimateDto.properties.accepted.oneOf as Json[]).map(
        (part) => part.type as string,
      );
      expect(accepted.sort()).toEqual(['boolean', 'string']);
      expect(schemas.EstimateDto.properties.accepted.enum).toEqual(['True', 'False']);
    });
  });

  describe('response headers', () => {
    const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    const TRACKED = ['X-Request-Id', 'WWW-Authenticate', 'Retry-After', 'Allow', ...RATE_LIMIT];

    function declared(path: string, method: string, status: number): Record<string, Json> {
      const response = document.paths[path][method].responses[String(status)] as Json;
      expect({ path, method, status, documented: response !== undefined }).toEqual({
        path,
        method,
        status,
        documented: true,
      });
      return Object.fromEntries(
        Object.entries((response.headers ?? {}) as Record<string, Json>).map(([name, header]) => [
          name,
          header.$ref
            ? document.components.headers[(header.$ref as string).split('/').pop() as string]
            : header,
        ]),
      );
    }

    /** The tracked headers an answer carries are those its documented response declares. */
    function expectDeclared(
      response: { status: number; headers: Record<string, string> },
      path: string,
      method: string,
    ): void {
      const headers = declared(path, method, response.status);
      const sent = TRACKED.filter((name) => response.headers[name.toLowerCase()] !== undefined);
      const required = Object.keys(headers).filter((name) => headers[name].required === true);
      const where = `${method.toUpperCase()} ${path} → ${response.status}`;
      expect({ where, undeclared: sent.filter((name) => !(name in headers)) }).toEqual({
        where,
        undeclared: [],
      });
      expect({ where, missing: required.filter((name) => !sent.includes(name)) }).toEqual({
        where,
        missing: [],
      });
    }

    it('declares X-Request-Id on every answer, WWW-Authenticate on 401, Retry-After on 429', () => {
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const [status, response] of Object.entries(operation.responses as Json)) {
            const names = Object.keys((response as Json).headers ?? {});
            const name = `${method.toUpperCase()} ${path} ${status}`;
            expect({ name, names }).toEqual({
              name,
              names: expect.arrayContaining([
                'X-Request-Id',
                ...(status === '401' ? ['WWW-Authenticate'] : []),
                ...(status === '429' ? ['Retry-After'] : []),
                ...(status === '405' ? ['Allow'] : []),
                ...(status === '200' && path.startsWith('/v1/') ? RATE_LIMIT : []),
              ]),
            });
          }
        }
      }
      expect(document.components.headers['WWW-Authenticate'].schema).toEqual({
        type: 'string',
        enum: ['Bearer'],
      });
    });

    it('declares exactly the headers the service sends: success, 401, 404, 405 and 429', async () => {
      const keyed = (request: ReturnType<TestApp['http']['get']>) =>
        request.set('X-API-Key', API_KEY);
      expectDeclared(await keyed(test.http.get('/v1/client/all')), '/v1/client/all', 'get');
      expectDeclared(await test.http.get('/v1/client/all'), '/v1/client/all', 'get');
      expectDeclared(await keyed(test.http.get('/v1/client/999999')), '/v1/client/{id}', 'get');
      const wrongMethod = await keyed(test.http.delete('/v1/client/all'));
      expect(wrongMethod.status).toBe(405);
      expectDeclared(wrongMethod, '/v1/client/{id}', 'delete');
      expectDeclared(await test.http.get('/health'), '/health', 'get');

      const limited = await createTestApp({
        env: { API_KEYS: API_KEY, RATE_LIMIT_PER_MINUTE: '1' },
        sharedDatabase: true,
      });
      try {
        const first = await limited.http.get('/v1/invoice/all').set('X-API-Key', API_KEY);
        const second = await limited.http.get('/v1/invoice/all').set('X-API-Key', API_KEY);
        expect([first.status, second.status]).toEqual([200, 429]);
        expectDeclared(first, '/v1/invoice/all', 'get');
        expectDeclared(second, '/v1/invoice/all', 'get');
      } finally {
        await limited.close();
      }
    });
  });

  it('states the bracket names of form bodies as deepObject in their encoding', () => {
    for (const { name, operation } of apiOperations(document)) {
      const body = operation.requestBody as Json | undefined;
      const form = body?.content['application/x-www-form-urlencoded'];
      if (!form) continue;
      const schema = document.components.schemas[(form.schema.$ref as string).split('/').pop()!];
      const nested = Object.entries((schema.properties ?? {}) as Record<string, Json>)
        .filter(([, property]) => property.type === 'array')
        .map(([key]) => key);
      expect({ name, encoding: form.encoding ?? {} }).toEqual({
        name,
        encoding: Object.fromEntries(
          nested.map((key) => [key, { style: 'deepObject', explode: true }]),
        ),
      });
      expect({ name, description: body?.description }).toEqual({
        name,
        description: expect.stringContaining('items[0][rate]'),
      });
    }
    const invoice = document.paths['/v1/invoice/add'].post.requestBody.content;
    expect(Object.keys(invoice['application/x-www-form-urlencoded'].encoding)).toEqual(['items']);
  });

  describe('examples', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    beforeAll(() => {
      addFormats(ajv);
      ajv.addSchema(structuredClone(document), 'doc');
    });

    /** A whole example of a schema, composed of its properties' examples. */
    function composed(schema: Json): unknown {
      if (schema.$ref) return composed(document.components.schemas[schema.$ref.split('/').pop()]);
      if (schema.allOf) return Object.assign({}, ...(schema.allOf as Json[]).map(composed));
      if ('example' in schema) return schema.example;
      if (schema.oneOf) return composed(schema.oneOf[0]);
      if (schema.type === 'array') return [composed(schema.items)];
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([key, value]) => [
          key,
          composed(value),
        ]),
      );
    }

    it('gives every property that is not a reference an example', () => {
      const missing = Object.entries(document.components.schemas).flatMap(([name, schema]) =>
        Object.entries((schema.properties ?? {}) as Record<string, Json>)
          .filter(([, property]) => takesExample(property) && !('example' in property))
          .map(([key]) => `${name}.${key}`),
      );
      expect(missing).toEqual([]);
    });

    it('has examples valid against their own schemas, whole and per property', () => {
      const invalid: string[] = [];
      for (const [name, schema] of Object.entries(document.components.schemas)) {
        const validate = ajv.compile({ $ref: `doc#/components/schemas/${name}` });
        if (!validate(composed(schema)))
          invalid.push(`${name}: ${ajv.errorsText(validate.errors)}`);
      }
      for (const { name, operation } of apiOperations(document)) {
        for (const parameter of (operation.parameters ?? []) as Json[]) {
          if (!('example' in parameter.schema)) continue;
          const validate = ajv.compile(parameter.schema);
          if (!validate(parameter.schema.example)) invalid.push(`${name} ${parameter.name}`);
        }
      }
      expect(invalid).toEqual([]);
    });

    it('show the one invoice of the story, not one amount for every amount', () => {
      const invoice = composed({ $ref: '#/components/schemas/InvoiceReadResponseDto' }) as Json;
      const [head] = invoice.invoice as Json[];
      const amounts = [head.sub_total, head.tax_amount, head.total, head.amount_paid];
      expect(new Set(amounts.map(String)).size).toBe(amounts.length);
      expect(head.customer_id).toBe(
        document.components.schemas.ClientDto.properties.id.example as string,
      );
      expect(document.paths['/v1/invoice/{id}'].get.parameters[0].schema.example).toBe(head.id);
    });
  });

  describe('the answer check of every e2e file', () => {
    let answers: Record<string, Recorded>;

    beforeAll(async () => {
      const added = await test.http
        .post('/v1/client/add')
        .set('X-API-Key', API_KEY)
        .send({ names: 'Ada Lovelace' });
      const invalid = await test.http
        .post('/v1/client/add')
        .set('X-API-Key', API_KEY)
        .send({ names: '' });
      expect([added.status, invalid.status]).toEqual([200, 422]);
      answers = {
        added: { method: 'POST', path: '/v1/client/add', response: added },
        invalid: { method: 'POST', path: '/v1/client/add', response: invalid },
      };
    });

    /** The served document with one change. */
    function tampered(change: (copy: Document) => void): DocumentChecker {
      const copy = structuredClone(document);
      change(copy);
      return new DocumentChecker(copy as unknown as OpenApiDocument);
    }

    it('passes answers the document describes', () => {
      const checker = new DocumentChecker(structuredClone(document) as unknown as OpenApiDocument);
      expect(checker.check(answers.added)).toBeNull();
      expect(checker.check(answers.invalid)).toBeNull();
    });

    it('fails an answer key the document does not list', () => {
      const checker = tampered((copy) => {
        const client = copy.components.schemas.ClientDto;
        delete client.properties.updated_at;
        client.required = (client.required as string[]).filter((key) => key !== 'updated_at');
      });
      expect(checker.check(answers.added)).toBe(
        'POST /v1/client/add → 200 (POST /v1/client/add): not in the document: body.data[0].updated_at',
      );
    });

    it('fails an answer that lacks a key the document requires', () => {
      const checker = tampered((copy) => {
        copy.components.schemas.ClientDto.required.push('vat_number');
      });
      expect(checker.check(answers.added)).toContain(
        "body/data/0 must have required property 'vat_number'",
      );
    });

    it('fails a value of another type than documented', () => {
      const checker = tampered((copy) => {
        copy.components.schemas.ClientDto.properties.id = { type: 'number' };
      });
      expect(checker.check(answers.added)).toContain('body/data/0/id must be number');
    });

    it('fails a /v1 success whose operation the document lacks', () => {
      const checker = tampered((copy) => {
        delete copy.paths['/v1/client/add'];
      });
      expect(checker.check(answers.added)).toBe(
        'POST /v1/client/add → 200: the document has no operation for it',
      );
    });

    it('fails a /v1 failure whose status the operation does not document, or out of the envelope', () => {
      const undocumented = tampered((copy) => {
        delete copy.paths['/v1/client/add'].post.responses['422'];
      });
      expect(undocumented.check(answers.invalid)).toBe(
        'POST /v1/client/add → 422 (POST /v1/client/add): status 422 is not documented for this operation',
      );
      const envelope = tampered((copy) => {
        copy.components.schemas.ErrorEnvelopeDto.required.push('code');
      });
      expect(envelope.check(answers.invalid)).toContain("must have required property 'code'");
    });
  });
});
