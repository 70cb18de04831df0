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
