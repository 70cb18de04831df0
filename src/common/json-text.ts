import { isLosslessNumber, LosslessNumber } from 'lossless-json';

/** JSON text kept as it was stored (an event's `data`), written out as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON text of an answer or of an event's record, with a LosslessNumber (an exact decimal the
 * mappers mark as a JSON number) written digit for digit. Output is what lossless-json's
 * `stringify` writes for the plain objects, arrays, strings, numbers, booleans and nulls the
 * mappers build; written here because that general version (replacers, indentation, toJSON,
 * custom number types) took about a fifth of the CPU of a 100,000-invoice list. Escaping is
 * the platform's: a string or key with anything JSON escapes goes through the native
 * JSON.stringify, and the others (nearly all) are only quoted, each key once per process. That
 * wrote a 20-line invoice's answer in 25–31 µs instead of 69–73 (bench scratch run).
 */
export function jsonText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringText(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (value instanceof LosslessNumber || isLosslessNumber(value)) return value.value;
      if (value instanceof RawJson) return value.text;
      return Array.isArray(value) ? arrayText(value) : objectText(value);
    default:
      // undefined, functions, symbols: left out of objects, null in arrays (as JSON.stringify).
      return undefined;
  }
}

function arrayText(items: unknown[]): string {
  let text = '[';
  for (let index = 0; index < items.length; index++) {
    if (index > 0) text += ',';
    text += jsonText(items[index]) ?? 'null';
  }
  return text + ']';
}

function objectText(record: object): string {
  let text = '{';
  let first = true;
  // for…in over own keys: Object.entries would build an array of pairs per object.
  for (const key in record) {
    if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
    const itemText = jsonText((record as Record<string, unknown>)[key]);
    if (itemText === undefined) continue;
    text += (first ? '' : ',') + keyText(key) + itemText;
    first = false;
  }
  return text + '}';
}

/**
 * What may need escaping in a string: `"`, `\`, control characters and surrogates (JSON.stringify
 * escapes the lone ones). A string with none of them is written quoted as it is.
 */
// eslint-disable-next-line no-control-regex -- control characters are what JSON must escape
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringText(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** `"key":` of each key written so far; the mappers' keys are a few hundred at most. */
const keyTexts = new Map<string, string>();
const KEY_TEXTS_KEPT = 2000;

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${stringText(key)}:`;
    if (keyTexts.size < KEY_TEXTS_KEPT) keyTexts.set(key, text);
  }
  return text;
}
