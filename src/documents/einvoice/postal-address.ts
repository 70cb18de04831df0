import type { En16931Address } from './en16931-model';

/*
 * The service keeps an address as one free text. EN 16931 has its parts (street BT-35, city
 * BT-37, post code BT-38), which XRechnung requires (BR-DE-3, -4, -8, -9). The one form read
 * is the European one, the post code before the city on the last line or after the last
 * comma: `Hauptstraße 1, 10115 Berlin`, `Rue X 3\n75001 Paris`, `D-10115 Berlin`. Anything else
 * is kept whole as the street line, with no city or post code (docs/einvoices.md).
 */

/** A post code (digits, maybe a country prefix and a dash) and the city after it. */
const POST_CODE_AND_CITY = /^((?:[A-Z]{1,3}-)?[0-9][0-9-]{3,9})\s+(\S.*)$/;

export function postalAddressOf(text: string, country: string): En16931Address {
  const parts = text
    .split(/\n|,/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const last = POST_CODE_AND_CITY.exec(parts.at(-1) ?? '');
  if (last === null) return { street: parts.length > 0 ? parts.join(', ') : undefined, country };
  const street = parts.slice(0, -1).join(', ');
  return { street: street === '' ? undefined : street, postCode: last[1], city: last[2], country };
}
