import { isLosslessNumber } from 'lossless-json';

/** JSON text kept as it was stored (an event's `data`), written out as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON text of an answer or of an event's record, with a LosslessNumber (an exact decimal the
 * mappers mark as a JSON number) written digit for digit. Output is what lossless-json's
 * `stringify` writes for the plain objects, arrays, strings, numbers, booleans and nulls the
 * mappers build; written here because that general version (replacers, indentation, toJSON,
 * custom number types) took about a fifth of the CPU of a 100,000-invoice list. Strings and
 * keys go through the native JSON.stringify, so escaping is the platform's.
 */
export function jsonText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (isLosslessNumber(value)) return value.value;
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
    text += `${first ? '' : ','}${JSON.stringify(key)}:${itemText}`;
    first = false;
  }
  return text + '}';
}
