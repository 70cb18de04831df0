import type { EinvoiceFormat } from '../../common/einvoice-codes';
import type { DocumentView } from '../document-view';
import { ciiInvoice, EinvoiceParties, EinvoiceProblems } from './cii-invoice';

export type XmlEinvoiceFormat = 'ubl' | 'cii' | 'peppol' | 'xrechnung-ubl' | 'xrechnung-cii';

/** The XML a format carries: Factur-X's is the CII. */
export function xmlFormatOf(format: EinvoiceFormat): XmlEinvoiceFormat {
  return format === 'facturx' ? 'cii' : format;
}

/** The document in an XML format, or what it lacks for one. */
export function einvoiceXml(
  format: XmlEinvoiceFormat,
  view: DocumentView,
  parties: EinvoiceParties,
): { xml: string } | { problems: EinvoiceProblems } {
  if (format === 'cii') return ciiInvoice(view, parties);
  return { problems: { format: [`${format} is not built yet`] } };
}
