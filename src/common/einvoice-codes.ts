import { EAS } from 'node-zugferd/codelist/eas';

/*
 * What an e-invoice needs to know of its parties: where each receives e-invoices (BT-34, BT-49,
 * the electronic address) and in which format a client wants them.
 */

/** The formats `GET …/einvoice?format=` answers, and that a client may ask its documents in. */
export const EINVOICE_FORMATS = [
  'ubl',
  'cii',
  'peppol',
  'xrechnung-ubl',
  'xrechnung-cii',
  'facturx',
] as const;
export type EinvoiceFormat = (typeof EINVOICE_FORMATS)[number];

/**
 * The codes of the Electronic Address Scheme list (CEF EAS: ISO 6523 ICDs such as 0088 GLN and
 * 0204 Leitweg-ID, the 99xx VAT schemes, EM e-mail, …), as node-zugferd ships them.
 */
export const EAS_CODES: readonly string[] = EAS.map((entry) => entry.value);

/** An electronic address: the identifier and the EAS code of the scheme it belongs to. */
export interface EinvoiceAddress {
  scheme: string;
  identifier: string;
}

/** The longest identifier taken: an e-mail address (scheme EM) may have 254 characters. */
export const EINVOICE_IDENTIFIER_MAX_LENGTH = 254;
/** `scheme:identifier` at its longest. */
export const EINVOICE_ADDRESS_MAX_LENGTH = 4 + 1 + EINVOICE_IDENTIFIER_MAX_LENGTH;

const SCHEMES = new Map(EAS_CODES.map((code) => [code.toLowerCase(), code]));
/** Printable ASCII without white space: what routing networks take in an identifier. */
const IDENTIFIER = new RegExp(`^[\\x21-\\x7e]{1,${EINVOICE_IDENTIFIER_MAX_LENGTH}}$`);

/**
 * `scheme:identifier` (`0088:5790000435975`, `9930:DE123456789`, `em:billing@example.com`)
 * read: the scheme a listed EAS code in any case, kept as listed; the identifier as written.
 * Null for anything else.
 */
export function parseEinvoiceAddress(text: string): EinvoiceAddress | null {
  const colon = text.indexOf(':');
  if (colon === -1) return null;
  const scheme = SCHEMES.get(text.slice(0, colon).toLowerCase());
  const identifier = text.slice(colon + 1);
  if (scheme === undefined || !IDENTIFIER.test(identifier)) return null;
  return { scheme, identifier };
}

/** The address as `scheme:identifier`, the scheme in its listed spelling. */
export function einvoiceAddressText(address: EinvoiceAddress): string {
  return `${address.scheme}:${address.identifier}`;
}
