import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { LevelWithSilent, LoggerOptions } from 'pino';

/** Routes polled by machines: a success there is logged at debug, not once per probe at info. */
const PROBE_ROUTES = new Set(['/health', '/health/ready', '/metrics']);

/** The one line logged per request, bound to its `requestId`. Nothing from the headers, query string or body. */
export interface RequestLine {
  method: string | undefined;
  route: string;
  status: number;
  durationMs: number;
}

/** pino settings of every line: JSON with an ISO time and a level name. */
export function logOptions(level: string): LoggerOptions {
  return {
    level,
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

/**
 * Writes the request's line once it has been answered (or the client went away): the method,
 * the route pattern, the status and the duration, under the request's id, at the level the
 * status calls for, with the message pino-http gave it before ("request completed", or
 * "request errored" for a 5xx).
 */
export function logRequest(
  logger: pino.Logger,
  answered: {
    requestId: string;
    /** Its route pattern (route-pattern.ts). */
    route: string;
    request: IncomingMessage;
    response: ServerResponse;
  },
  durationMs: number,
): void {
  const { requestId, route, request, response } = answered;
  const level = requestLogLevel(route, response.statusCode);
  if (!logger.isLevelEnabled(level)) return;
  const line: RequestLine & { requestId: string } = {
    requestId,
    method: request.method,
    route,
    status: response.statusCode,
    durationMs,
  };
  logger[level](line, response.statusCode >= 500 ? 'request errored' : 'request completed');
}

/** A 503 is the database or a shutdown, not a bug: a warning; other 5xx are errors. */
function requestLogLevel(route: string, status: number): Exclude<LevelWithSilent, 'silent'> {
  if (status === 503) return 'warn';
  if (status >= 500) return 'error';
  if (status < 400 && PROBE_ROUTES.has(route)) return 'debug';
  return 'info';
}
