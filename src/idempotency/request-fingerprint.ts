import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { JsonNumberText } from '../common/json-number-text';

/**
 * What makes two requests "the same request" for an Idempotency-Key: the method, the path and
 * every parameter, query and body, whatever the encoding carried them. Object keys are taken
 * in sorted order, so a client that rebuilds its JSON in another key order still retries the
 * same request; arrays keep their order (the lines of an invoice are ordered).
 */
export function requestFingerprint(request: Request): string {
  const text = canonical([request.method, request.path, request.query, request.body ?? null]);
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function canonical(value: unknown): string {
  if (value instanceof JsonNumberText) return `#${value.text}`;
  // An uploaded file (POST /expense/import): its bytes, by their digest.
  if (Buffer.isBuffer(value)) return `bytes:${createHash('sha256').update(value).digest('hex')}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  // A number and its text are different requests: `"5"` and `5` are both 5, but a client
  // retrying sends what it sent before.
  return typeof value === 'number' ? `#${String(value)}` : (JSON.stringify(value) ?? 'null');
}
