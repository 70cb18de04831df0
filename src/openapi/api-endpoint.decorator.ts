import { applyDecorators, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  ApiTags,
  DECORATORS,
  getSchemaPath,
  SchemaObject,
} from '@nestjs/swagger';
import type { RequestBodyObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CHANGES_STATE } from '../http/auth/changes-state.decorator';
import { ErrorEnvelopeDto, SuccessEnvelopeDto } from './dto/envelope-response.dto';

export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'api-key';

/** The encodings every POST and PUT accepts (src/http/body-parsing.middleware.ts). */
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/** Failures any /v1 operation may answer, whatever it does. */
const COMMON_ERRORS: Record<number, string> = {
  400: 'Malformed body: bad JSON, nested deeper than 32 levels, not valid UTF-8',
  401: 'No API key, or an unknown one',
  408: 'The request did not arrive within REQUEST_TIMEOUT_MS',
  413: 'Body larger than BODY_LIMIT, or too many parameters',
  415: 'Body in another content type than JSON, URL-encoded form or multipart form',
  429: 'Rate limit reached; Retry-After says when to try again',
  431: 'Request line or headers too large',
  500: 'A bug; the answer reveals nothing internal',
  503: 'Database unavailable; try again later',
};

/** Failures particular to an operation; each says when. */
export interface OperationErrors {
  404?: string;
  409?: string;
  422?: string;
}

const FORBIDDEN = 'The API key may only read';

function errorResponse(status: number, description: string) {
  return ApiResponse({ status, description, type: ErrorEnvelopeDto });
}

/**
 * A /v1 controller: its tag, the two ways to present an API key, the failures every operation
 * may answer, and 403 on each operation a read-only key may not call (any but GET, and a GET
 * marked @ChangesState). A class decorator runs after the method decorators, so it sees them.
 */
export function ApiResource(tag: string): ClassDecorator {
  return (target) => {
    applyDecorators(
      ApiTags(tag),
      ApiBearerAuth(BEARER_SCHEME),
      ApiSecurity(API_KEY_SCHEME),
      ...Object.entries(COMMON_ERRORS).map(([status, text]) => errorResponse(+status, text)),
    )(target);
    const prototype = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      const handler = descriptor?.value as object | undefined;
      if (!descriptor || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      if (method !== RequestMethod.GET || Reflect.getMetadata(CHANGES_STATE, handler) === true) {
        errorResponse(403, FORBIDDEN)(prototype, name, descriptor);
      }
      if (method === RequestMethod.POST || method === RequestMethod.PUT) {
        idempotencyKey(handler)(prototype, name, descriptor);
      }
    }
  };
}

const IDEMPOTENCY_CONFLICT =
  'The Idempotency-Key was used for a different request, or its first request is still running';

/**
 * The `Idempotency-Key` header of every POST and PUT (src/idempotency), its 409, and the
 * header that marks a replayed answer.
 */
function idempotencyKey(handler: object): MethodDecorator {
  const responses = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<
    string,
    { description?: string; headers?: Record<string, unknown> }
  >;
  const conflict = responses['409']?.description;
  const success = responses['200'] ?? {};
  Reflect.defineMetadata(
    DECORATORS.API_RESPONSE,
    {
      ...responses,
      '200': {
        ...success,
        headers: {
          ...success.headers,
          'Idempotent-Replayed': {
            description: 'true when this is the kept answer to an earlier request with the key',
            schema: { type: 'string', enum: ['true'] },
          },
        },
      },
      '409': {
        description: conflict ? `${conflict}; or: ${IDEMPOTENCY_CONFLICT}` : IDEMPOTENCY_CONFLICT,
        type: ErrorEnvelopeDto,
      },
    },
    handler,
  );
  return ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes a retry safe: the first completed answer is kept 24 hours and replayed for the same request (same method, path and parameters) with the same key and API key. Failed requests keep nothing. Over 255 characters: 422.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });
}

/** A success answered as a file, outside the envelope (EnvelopeExpressAdapter lets it through). */
export interface FileSuccess {
  /** One media type, or the ones a parameter chooses between (an e-invoice's XML or PDF). */
  mediaType: string | readonly string[];
  description: string;
  /** How the file is named in Content-Disposition, e.g. `<invoice_no>.pdf`. */
  filename: string;
}

/** A request body that is a file: raw in one of `types`, or the multipart field `field`. */
export interface UploadBody {
  description: string;
  types: readonly string[];
  field: string;
  /** An example file, by media type. */
  example: Record<string, string>;
}

export interface EndpointDoc {
  summary: string;
  description?: string;
  /** The payload that EnvelopeExpressAdapter wraps in `{"status": "success", …}`, or a file. */
  success: Type<unknown> | FileSuccess;
  /** Parameters read from the query string (lists). */
  query?: Type<unknown>;
  /** Parameters read from the body (a query-string value is accepted too; the body wins). */
  body?: Type<unknown>;
  /** The body is a file (src/http/body-parsing.middleware.ts, UPLOAD_ROUTE). */
  upload?: UploadBody;
  /** The `{id}` path segment names this. */
  pathId?: string;
  /** A path segment naming one of a few values (`/number-series/{kind}`); others answer 404. */
  pathValue?: { name: string; values: readonly string[]; description: string };
  errors?: OperationErrors;
  /** Also answers CSV (`format=csv`): a report. */
  csv?: string;
}

/**
 * One /v1 operation. Handlers read their parameters through @RequestInput(), which Swagger
 * cannot see, so the query or body is declared here from the same DTO class that validates it.
 */
export function ApiEndpoint(doc: EndpointDoc): MethodDecorator {
  const decorators = [
    ApiOperation({
      summary: doc.summary,
      description: doc.description,
      ...(doc.upload ? { requestBody: uploadBody(doc.upload) } : {}),
    }),
    ...successResponse(doc.success, doc.csv),
    ...(Object.entries(doc.errors ?? {}) as Array<[string, string]>).map(([status, text]) =>
      errorResponse(+status, text),
    ),
  ];
  if (doc.pathId) {
    decorators.push(
      ApiParam({
        name: 'id',
        description: `${doc.pathId}; anything but digits naming a live record answers 404`,
        schema: { type: 'string', pattern: '^[0-9]+$' },
      }),
    );
  }
  if (doc.pathValue) {
    const { name, values, description } = doc.pathValue;
    decorators.push(
      ApiParam({
        name,
        description: `${description}; anything else answers 404`,
        schema: { type: 'string', enum: [...values] },
      }),
    );
  }
  if (doc.query) decorators.push(...queryParameters(doc.query));
  if (doc.body) decorators.push(ApiConsumes(...BODY_TYPES), ApiBody({ type: doc.body }));
  return applyDecorators(...decorators);
}

/** The request body of an upload: the file raw in each of its types, or in a multipart form. */
function uploadBody(upload: UploadBody): RequestBodyObject {
  const file: SchemaObject = { type: 'string', format: 'binary' };
  const content: RequestBodyObject['content'] = {};
  for (const type of upload.types) {
    const example = upload.example[type];
    content[type] = example === undefined ? { schema: file } : { schema: file, example };
  }
  content['multipart/form-data'] = {
    schema: { type: 'object', required: [upload.field], properties: { [upload.field]: file } },
  };
  return { required: true, description: upload.description, content };
}

function successResponse(success: Type<unknown> | FileSuccess, csv?: string): MethodDecorator[] {
  if (typeof success === 'function') {
    const schema = {
      allOf: [{ $ref: getSchemaPath(SuccessEnvelopeDto) }, { $ref: getSchemaPath(success) }],
    };
    return [
      ApiExtraModels(SuccessEnvelopeDto, success),
      csv === undefined
        ? ApiOkResponse({ description: 'Success', schema })
        : ApiOkResponse({
            description: `Success: JSON, or with format=csv ${csv}`,
            content: {
              'application/json': { schema },
              'text/csv': { schema: { type: 'string' } },
            },
          }),
    ];
  }
  return [
    ApiOkResponse({
      description: success.description,
      headers: {
        'Content-Disposition': {
          description: `inline; filename="${success.filename}"; a name that is not plain ASCII also comes whole as filename*=UTF-8''… (RFC 5987), with _ for each such character in filename`,
          schema: { type: 'string' },
        },
      },
      content: Object.fromEntries(
        [success.mediaType]
          .flat()
          .map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
    }),
  ];
}

/**
 * One query parameter per documented property of a list DTO. Swagger's own expansion of
 * `@ApiQuery({ type })` drops `enum`, so each parameter gets the property's schema as it is.
 */
function queryParameters(dto: Type<unknown>): MethodDecorator[] {
  const prototype = dto.prototype as object;
  const keys = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) ??
    []) as string[];
  return keys.map((key) => {
    const name = key.slice(1); // stored as ':name'
    const property = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, prototype, name) as {
      required?: boolean;
      description?: string;
      isArray?: boolean;
    } & SchemaObject;
    const { required, description, isArray: _isArray, ...schema } = property;
    return ApiQuery({ name, required: required !== false, description, schema });
  });
}
