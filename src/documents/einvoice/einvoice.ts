import type { EinvoiceFormat } from '../../common/einvoice-codes';
import type { DocumentView } from '../document-view';
import { ciiXml } from './cii-syntax';
import { EINVOICE_PROFILES, EinvoiceProfile } from './einvoice-profile';
import { EinvoiceParties, EinvoiceProblems, en16931Document } from './en16931-document';
import type { En16931Document } from './en16931-model';
import { ublXml } from './ubl-syntax';

/*
 * The XML e-invoices of an invoice or a credit note: the document is made into EN 16931's
 * business terms once, under the format's profile, and written in the format's syntax
 * (docs/einvoices.md). The Factur-X PDF embeds the `cii` one.
 */

export type { EinvoiceParties, EinvoiceProblems } from './en16931-document';

export type XmlEinvoiceFormat = 'ubl' | 'cii' | 'peppol' | 'xrechnung-ubl' | 'xrechnung-cii';

const FORMATS: Record<
  XmlEinvoiceFormat,
  { profile: EinvoiceProfile; write: (document: En16931Document) => string }
> = {
  ubl: { profile: EINVOICE_PROFILES.en16931, write: ublXml },
  cii: { profile: EINVOICE_PROFILES.en16931, write: ciiXml },
  peppol: { profile: EINVOICE_PROFILES.peppol, write: ublXml },
  'xrechnung-ubl': { profile: EINVOICE_PROFILES.xrechnung, write: ublXml },
  'xrechnung-cii': { profile: EINVOICE_PROFILES.xrechnung, write: ciiXml },
};

/** The XML a format carries: Factur-X's is the CII. */
export function xmlFormatOf(format: EinvoiceFormat): XmlEinvoiceFormat {
  return format === 'facturx' ? 'cii' : format;
}

/** The document in the format, or everything the format needs and the service lacks. */
export function einvoiceXml(
  format: XmlEinvoiceFormat,
  view: DocumentView,
  parties: EinvoiceParties,
): { xml: string } | { problems: EinvoiceProblems } {
  const { profile, write } = FORMATS[format];
  const result = en16931Document(view, parties, profile);
  if ('problems' in result) return result;
  return { xml: write(result.document) };
}
