import type { Response } from 'supertest';

/** `YYYY-MM-DD HH:MM:SS`. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** An id: a string of digits naming a positive integer. */
export const ID = /^[1-9]\d*$/;
/** 8 characters of 0-9A-Z without I, L, O and U. */
export const SHORT_CODE = /^[0-9A-HJKMNP-TV-Z]{8}$/;

/** Ids that are not all digits: each names no record, whatever the table holds. */
export const NON_DIGIT_IDS = ['abc', '0x1', '1.5', '-1', '1e2', '%201', '1%20', '+1'];
/** All digits, but no record can have them. */
export const UNKNOWN_IDS = ['0', '999999', '4294967295', '4294967296', '99999999999999999999'];

/** Every failure: `status` and `message`; a validation failure adds `errors` (docs/rules.md). */
const ERROR_KEYS = keyList('status message errors');

/** A failure: the given status, JSON, and the error envelope with nothing else in it. */
export function expectError(response: Response, status: number): void {
  expect({ status: response.status, body: response.body as unknown }).toMatchObject({
    status,
    body: { status: 'error', message: expect.any(String) },
  });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect((response.body as { message: string }).message).not.toBe('');
  const extra = Object.keys(response.body as object).filter((key) => !ERROR_KEYS.includes(key));
  expect(extra).toEqual([]);
}

/** A 422 whose `errors` names exactly these fields, each with at least one message. */
export function expectValidationError(response: Response, fields: string[]): void {
  expectError(response, 422);
  const errors = (response.body as { errors?: Record<string, unknown> }).errors ?? {};
  expect(Object.keys(errors).sort()).toEqual([...fields].sort());
  for (const messages of Object.values(errors)) {
    expect(messages).toEqual(expect.arrayContaining([expect.any(String)]));
    expect((messages as unknown[]).length).toBeGreaterThan(0);
  }
}

/** A success: HTTP 200, JSON, `status: 'success'`. Answers the body. */
export function expectSuccess(response: Response): Record<string, unknown> {
  expect({ status: response.status, body: response.body as unknown }).toMatchObject({
    status: 200,
    body: { status: 'success' },
  });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.body as Record<string, unknown>;
}

/** A `YYYY-MM-DD HH:MM:SS` UTC timestamp as epoch milliseconds. */
export function parseTimestamp(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}

/**
 * Brackets a request in wall-clock time, at the whole-second precision the service keeps, so
 * a timestamp it answers can be checked to be "now, in UTC" without any timing tolerance.
 */
export function timeWindow(): { contains(timestamp: string): boolean } {
  const start = Math.floor(Date.now() / 1000) * 1000;
  return {
    contains(timestamp: string) {
      const instant = parseTimestamp(timestamp);
      return instant >= start && instant <= Date.now();
    },
  };
}

/**
 * Resolves once the wall clock is in a later second than when called. The service keeps whole
 * seconds, so a write after this has a strictly later timestamp than one before it.
 */
export async function nextSecond(): Promise<void> {
  const start = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) <= start) {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
  }
}

/** An object's keys, sorted: compared with an exact key list, an extra or missing key fails. */
export function keysOf(value: object): string[] {
  return Object.keys(value).sort();
}

/**
 * An output shape's exact key list, to compare with `keysOf`: written out by hand as words (each
 * argument a group of them, in the order the shape is documented), answered sorted.
 */
export function keyList(...groups: string[]): string[] {
  return groups.flatMap((group) => group.split(/\s+/).filter((key) => key !== '')).sort();
}
