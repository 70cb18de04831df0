import { randomInt } from 'node:crypto';

/** Crockford-style alphabet: digits and capitals without I, L, O and U. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 8;

/** 8 random characters (40 bits); a unique index on each table guards the rare collision. */
export function generateShortCode(): string {
  let code = '';
  for (let index = 0; index < LENGTH; index++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/**
 * Writes with a fresh code at most this often. At a million rows one code in a million is
 * taken, so a second attempt is rare and a fifth beyond reach.
 */
export const SHORT_CODE_ATTEMPTS = 5;

/**
 * Runs `write` with a code from `newCode`, and again with a fresh code while `taken` says the
 * unique index refused it. A refused INSERT undoes only itself, on MySQL and SQLite alike, so
 * this retries inside the caller's transaction without disturbing the rest of it.
 */
export async function withFreshCode<T>(
  newCode: () => string,
  write: (code: string) => Promise<T>,
  taken: (error: unknown) => boolean,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(newCode());
    } catch (error) {
      if (attempt >= SHORT_CODE_ATTEMPTS || !taken(error)) throw error;
    }
  }
}
