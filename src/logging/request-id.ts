import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a caller may send as its own request id: short, and safe to copy into a log line. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when it is acceptable, otherwise a new UUID.
 * It is answered in the same header on every response, errors included.
 */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const sent = request.headers[REQUEST_ID_HEADER.toLowerCase()];
  const id = typeof sent === 'string' && ACCEPTED_REQUEST_ID.test(sent) ? sent : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
