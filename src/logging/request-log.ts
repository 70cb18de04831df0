import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { LevelWithSilent } from 'pino';
import type { Options } from 'pino-http';
import { assignRequestId } from './request-id';
import { routePattern } from './route-pattern';

/** Routes polled by machines: a success there is logged at debug, not once per probe at info. */
const PROBE_ROUTES = new Set(['/health', '/health/ready', '/metrics']);

/** The one line logged per request. Nothing from the headers, query string or body. */
export interface RequestLine {
  method: string | undefined;
  route: string;
  status: number;
  durationMs: number;
}

/**
 * pino-http settings: JSON lines with an ISO time and a level name; each request is logged once,
 * when it ends, as a {@link RequestLine} bound to its `requestId`, which every line logged while
 * handling it carries too.
 */
export function requestLogOptions(level: string): Options {
  return {
    level,
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    genReqId: assignRequestId,
    customAttributeKeys: { reqId: 'requestId' },
    // Bind only the request id to the request's loggers, never the request itself (headers).
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: requestLogLevel,
    customSuccessObject: (request, response, result: { responseTime: number }) =>
      requestLine(request, response, result.responseTime),
    customErrorObject: (request, response, _error, result: { responseTime: number }) =>
      requestLine(request, response, result.responseTime),
  };
}

function requestLine(
  request: IncomingMessage,
  response: ServerResponse,
  durationMs: number,
): RequestLine {
  return {
    method: request.method,
    route: routePattern(request),
    status: response.statusCode,
    durationMs,
  };
}

/** A 503 is the database or a shutdown, not a bug: a warning; other 5xx are errors. */
function requestLogLevel(
  request: IncomingMessage,
  response: ServerResponse,
  error?: Error,
): LevelWithSilent {
  const status = response.statusCode;
  if (status === 503) return 'warn';
  if (status >= 500 || error) return 'error';
  if (status < 400 && PROBE_ROUTES.has(routePattern(request))) return 'debug';
  return 'info';
}
