import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SCHEME, BEARER_SCHEME } from './api-endpoint.decorator';
import { withExamples } from './examples';
import { withFormEncoding } from './form-encoding';
import { withResponseHeaders } from './response-headers';

export const OPENAPI_PAGE_PATH = 'docs';
export const OPENAPI_JSON_PATH = 'docs/openapi.json';

const DESCRIPTION = `Clients, invoices, estimates, credit notes, expenses, events, webhooks and receivables reports. Every operation lives under \`/v1\`.

- **Success**: HTTP 200 with \`{"status": "success", …}\`, except the PDF of an invoice, estimate, credit note or client statement, answered as \`application/pdf\`, and a report asked for with \`format=csv\`, answered as \`text/csv\` (RFC 4180; a text cell that could start a spreadsheet formula begins with \`'\`). **Failure**: \`{"status": "error", "message": "…"}\`, plus \`"errors": {"field": ["…"]}\` on validation failures (422), nested item fields named like \`items.0.rate\`.
- **Parameters** come as a JSON body, a URL-encoded form (\`items[0][rate]=…\`, declared as \`deepObject\` in each body's \`encoding\`) or multipart form fields (named the same way), or in the query string; a body value wins over a query value. Unknown parameters are ignored. A numeric parameter is a JSON number or numeric text in plain decimal notation (\`12.5\`, \`"12.5"\`; not \`1e3\`). A listed value (\`payment_method\`, \`payment_status\`, \`accepted\`, a filter, …) is matched in any ASCII letter case (\`cash\` is \`Cash\`; nothing trimmed) and answered in the listed spelling: request schemas state it as a \`pattern\`, answers as an \`enum\`.
- **Headers**: every answer carries \`X-Request-Id\`; a 401 \`WWW-Authenticate: Bearer\`; a 429 \`Retry-After\` (seconds); answers counted by the rate limit \`X-RateLimit-Limit\`, \`-Remaining\` and \`-Reset\`.
- **Methods**: a path the API has, asked with a method it does not take (\`DELETE /v1/invoice/all\`, \`GET /v1/invoice/add\`), answers 405 with \`Allow\` listing the methods it takes, before any key check; an unknown path, or an id that is not digits, answers 404.
- **Numbers out**: \`quantity\`, \`tax_rate\`, \`tax_amount\`, \`sub_total\`, \`total\` and a ledger entry's \`amount\` are JSON numbers holding exact decimals, written digit for digit with the currency's minor digits (\`26.35\`, JPY \`1500\`): read them with a lossless JSON parser to keep every digit. \`amount_paid\`, \`outstanding_balance\`, a line's \`rate\` and \`amount\` and an expense's \`amount\` are numeric text (\`"10.50"\`).
- **Ids** are strings of digits; dates \`YYYY-MM-DD\`; timestamps UTC \`YYYY-MM-DD HH:MM:SS\`. An optional text never given is \`""\`, never null.
- **API key**: \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\`. A read-only key may call the GET operations that change nothing (403 otherwise).
- **Ledger**: an invoice's \`payments\` are its ledger: \`Completed\` (payments), \`Refunded\` and \`Credited\` (credit notes); \`amount_paid\` = Σ Completed + Σ Credited − Σ Refunded, between 0 and \`total\`. Every invoice carries \`status\`: \`void\`, \`paid\`, \`overdue\` or \`open\`.
- **Lists** answer every live record, oldest first, streamed as they are read; \`page\` or \`per_page\` select one numbered page and add \`meta\` with the total; \`after\` (an id, 0 for the start) selects the page after that id and adds \`meta.next_after\` for the next one, as fast at the end of a long list as at its start.`;

/** The tags, in the order the page lists them. */
const TAGS: Array<[string, string]> = [
  ['clients', 'The customers invoices and estimates are issued to'],
  [
    'invoices',
    'Bills with line items, tax, a ledger of payments, refunds and credits, a status and a send log',
  ],
  ['estimates', 'Quotations with line items, tax, an accepted flag and a send log'],
  [
    'credit notes',
    'Corrections of an invoice, priced like it, that settle its balance; never changed',
  ],
  ['expenses', 'Costs incurred, each given a category by the service'],
  ['events', 'Every committed change: the history of each record, and a feed to poll'],
  ['webhooks', 'Endpoints that receive events as signed POSTs, and their delivery logs'],
  [
    'number series',
    'The formats and counters that number invoices, estimates and credit notes without gaps',
  ],
  [
    'recurring invoices',
    'Schedules that make one invoice per period, each period exactly once, numbered from the series',
  ],
  [
    'reports',
    'Receivables aging, profit and loss, tax summary and client statements: per currency, exact, as JSON or CSV',
  ],
  ['Operations', 'Probes and metrics for the operators, outside /v1'],
];

/**
 * The OpenAPI document of the running app's routes, in a stable order (paths and schemas by
 * name, responses by status), so the committed copy changes only when the API does.
 */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  let builder = new DocumentBuilder()
    .setTitle('Invoicing service')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    // Relative: every path is under the origin the document is served from.
    .addServer('/', 'This service, where this document is served')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: 'Authorization: Bearer <API key>',
      },
      BEARER_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key' },
      API_KEY_SCHEME,
    );
  for (const [name, description] of TAGS) builder = builder.addTag(name, description);
  const document = withResponseHeaders(
    withFormEncoding(
      withNullableObjects(withExamples(SwaggerModule.createDocument(app, builder.build()))),
    ),
  );
  return {
    ...document,
    // Not open source (package.json "license"); a license entry tells a reader so.
    info: { ...document.info, license: { name: 'UNLICENSED' } },
    paths: sortByKey(document.paths, (path) =>
      Object.fromEntries(
        Object.entries(path).map(([key, operation]: [string, unknown]) => [
          key,
          sortResponses(operation),
        ]),
      ),
    ),
    components: {
      ...document.components,
      schemas: sortByKey(document.components?.schemas ?? {}),
    },
  };
}

type Schema = Record<string, unknown>;

/**
 * A property that is an object or null (an expense's `source`): Swagger writes it as
 * `nullable` beside `allOf: [$ref]`, which no validator lets null through, since null fails
 * the referenced object schema. The referenced schema's members are written in its place, so
 * `type: object, nullable: true` says both; the class stays the one description of the shape. A component no longer referenced is dropped.
 */
function withNullableObjects(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const inline = (property: Schema): Schema => {
    const refs = property.allOf as Array<{ $ref?: string }> | undefined;
    if (property.nullable !== true || refs?.length !== 1 || !refs[0].$ref) return property;
    const { allOf: _allOf, ...rest } = property;
    const target = schemas[refs[0].$ref.split('/').pop() as string];
    return { ...target, ...rest, type: 'object' };
  };
  const inlined = new Set<string>();
  for (const schema of Object.values(schemas)) {
    const properties = schema.properties as Record<string, Schema> | undefined;
    if (!properties) continue;
    for (const [name, property] of Object.entries(properties)) {
      const written = inline(property);
      if (written !== property) {
        const ref = (property.allOf as Array<{ $ref: string }>)[0].$ref;
        inlined.add(ref.split('/').pop() as string);
      }
      properties[name] = written;
    }
  }
  // A component now written out wherever it was named is no longer a component.
  const text = JSON.stringify(document);
  for (const name of inlined) {
    if (!text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  }
  return document;
}

function sortByKey<T>(object: Record<string, T>, map: (value: T) => T = (value) => value) {
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, map(object[key])]),
  );
}

function sortResponses(operation: unknown): unknown {
  if (typeof operation !== 'object' || operation === null || !('responses' in operation)) {
    return operation;
  }
  const responses = operation.responses as Record<string, unknown>;
  return { ...operation, responses: sortByKey(responses) };
}

/**
 * Serves the document at `GET /docs/openapi.json` and its page at `GET /docs`. These are plain
 * Express routes, outside /v1: no Nest guard sees them, so they need no API key. The document
 * is built on the first request, once every module has its routes.
 */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup(OPENAPI_PAGE_PATH, app, () => createOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Invoicing service API',
  });
}

/** The committed copy's text: pretty, two spaces, a final newline. */
export function serializeOpenApiDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
