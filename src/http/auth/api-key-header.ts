import type { IncomingHttpHeaders } from 'node:http';

/** What a request says about its API key. */
export type PresentedKey =
  { status: 'missing' } | { status: 'malformed' } | { status: 'present'; key: string };

const BEARER = /^Bearer +(\S+)$/i;
const SINGLE_TOKEN = /^\S+$/;

/**
 * The key from `Authorization: Bearer <key>` or `X-API-Key: <key>`. A header that is given must
 * hold exactly one key; when both are given they must agree, so no request is read two ways.
 */
export function readPresentedKey(headers: IncomingHttpHeaders): PresentedKey {
  const fromAuthorization = headerKey(headers.authorization, BEARER);
  const fromApiKey = headerKey(headers['x-api-key'], SINGLE_TOKEN);
  if (fromAuthorization === undefined && fromApiKey === undefined) return { status: 'missing' };
  if (fromAuthorization === null || fromApiKey === null) return { status: 'malformed' };
  if (
    fromAuthorization !== undefined &&
    fromApiKey !== undefined &&
    fromAuthorization !== fromApiKey
  ) {
    return { status: 'malformed' };
  }
  return { status: 'present', key: (fromAuthorization ?? fromApiKey)! };
}

/** `undefined`: header absent; `null`: given but not one key in the expected form. */
function headerKey(value: string | string[] | undefined, form: RegExp): string | null | undefined {
  if (value === undefined) return undefined;
  // Node joins a repeated X-API-Key into one value; an array only comes from a hand-built request.
  if (typeof value !== 'string') return null;
  const match = form.exec(value.trim());
  if (!match) return null;
  return match[1] ?? match[0];
}
