import pino, { DestinationStream } from 'pino';

/** Where log lines go: standard output in production; the e2e tests put a capture here. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

/**
 * Synchronous writes: a line logged just before the process exits (a shutdown past its bound)
 * is not lost in a buffer.
 */
export function standardOutput(): DestinationStream {
  return pino.destination({ dest: 1, sync: true });
}
