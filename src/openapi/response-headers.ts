import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  HeaderObject,
  OperationObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorEnvelopeDto } from './dto/envelope-response.dto';

/*
 * The headers the service sends besides each answer's content, declared once here for every
 * operation rather than on each: what sets them is outside the handlers (the request log, the
 * key guard, the rate limiter, the method check).
 */

const HEADERS: Record<string, HeaderObject> = {
  // src/logging/request-id.ts
  'X-Request-Id': {
    description:
      'The request’s id: the X-Request-Id the caller sent when it is 1 to 128 of A-Z a-z 0-9 . _ -, else a new UUID. Also in the request’s log line. Sent on every answer the service writes; not on the few Node writes before a request is read (400 for a malformed request line, 408, 431)',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$', example: 'req-2026-04-02-0001' },
  },
  // src/http/auth/api-key.guard.ts
  'WWW-Authenticate': {
    description: 'How to present the key: Bearer (X-API-Key works too)',
    required: true,
    schema: { type: 'string', enum: ['Bearer'] },
  },
  // @nestjs/throttler, through src/http/rate-limit
  'Retry-After': {
    description: 'Seconds until the caller’s counter starts over and requests are let in again',
    required: true,
    schema: { type: 'integer', minimum: 0, maximum: 60, example: 17 },
  },
  'X-RateLimit-Limit': {
    description:
      'RATE_LIMIT_PER_MINUTE: requests per minute per API key (per client address when the API is open). Sent while rate limiting is on',
    schema: { type: 'integer', minimum: 1, example: 600 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute, this one counted',
    schema: { type: 'integer', minimum: 0, example: 587 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current minute’s counter starts over',
    schema: { type: 'integer', minimum: 0, maximum: 60, example: 43 },
  },
  // src/http/method-not-allowed.middleware.ts
  Allow: {
    description: 'The methods the path takes, e.g. GET, HEAD',
    required: true,
    schema: { type: 'string', example: 'GET, HEAD' },
  },
};

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * Answers given before the rate limiter counts the request (the body, the key, the method) or by
 * Node itself, and the 429 of the limiter: they carry no X-RateLimit-* headers.
 */
const BEFORE_THE_LIMIT = new Set(['400', '401', '403', '405', '408', '413', '415', '429', '431']);

const METHOD_NOT_ALLOWED =
  'The {id} segment is not digits but the name of another operation on this path (add, all, send, …), which takes other methods; Allow lists them. Any path the API has, asked with a method it does not take, answers 405 the same way';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Operations = Record<string, OperationObject>;

/**
 * The document with every answer's headers declared (as references to components.headers), and
 * 405 on the operations whose path a request with another operation's name in place of the id
 * also matches (`GET /v1/invoice/add` is `GET /v1/invoice/{id}` by its shape).
 */
export function withResponseHeaders(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => {
      const operations = item as Operations;
      return [
        path,
        Object.fromEntries(
          Object.entries(operations).map(([method, operation]) => {
            if (!HTTP_METHODS.includes(method)) return [method, operation];
            const withWrongMethod = takesOtherOperationNames(document, path, method)
              ? addMethodNotAllowed(operation)
              : operation;
            return [method, declareHeaders(withWrongMethod)];
          }),
        ),
      ];
    }),
  );
  return {
    ...document,
    paths,
    components: {
      ...document.components,
      headers: { ...document.components?.headers, ...HEADERS },
    },
  };
}

function declareHeaders(operation: OperationObject): OperationObject {
  const limited = '429' in operation.responses;
  const responses = Object.fromEntries(
    Object.entries(operation.responses).map(([status, answer]) => {
      const response = answer as ResponseObject;
      const names = ['X-Request-Id'];
      if (status === '401') names.push('WWW-Authenticate');
      if (status === '429') names.push('Retry-After');
      if (status === '405') names.push('Allow');
      if (limited && !BEFORE_THE_LIMIT.has(status)) names.push(...RATE_LIMIT_HEADERS);
      const headers = Object.fromEntries(
        names.map((name) => [name, { $ref: `#/components/headers/${name}` }]),
      );
      return [status, { ...response, headers: { ...response.headers, ...headers } }];
    }),
  );
  return { ...operation, responses };
}

function addMethodNotAllowed(operation: OperationObject): OperationObject {
  const schema = { $ref: `#/components/schemas/${ErrorEnvelopeDto.name}` };
  return {
    ...operation,
    responses: {
      ...operation.responses,
      '405': { description: METHOD_NOT_ALLOWED, content: { 'application/json': { schema } } },
    },
  };
}

/**
 * Whether some other path of the document has a literal segment where this one has a parameter
 * (and agrees elsewhere), without this method: that literal in place of the id answers 405.
 */
function takesOtherOperationNames(document: OpenAPIObject, path: string, method: string) {
  const segments = path.split('/');
  if (!segments.some(isParameter)) return false;
  return Object.entries(document.paths).some(([other, item]) => {
    const theirs = other.split('/');
    if (other === path || theirs.length !== segments.length || method in item) return false;
    let literalForParameter = false;
    for (const [index, segment] of segments.entries()) {
      const their = theirs[index];
      if (isParameter(segment) && !isParameter(their)) literalForParameter = true;
      else if (isParameter(segment) !== isParameter(their)) return false;
      else if (!isParameter(segment) && segment !== their) return false;
    }
    return literalForParameter;
  });
}

function isParameter(segment: string): boolean {
  return segment.startsWith('{');
}
