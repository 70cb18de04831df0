import { XMLBuilder } from 'fast-xml-parser';
import type { Issuer } from '../../document-vocabulary/issuer';
import type { DocumentView } from '../document-view';
import { PrintedDocumentFormat, renderPrintedDocument } from './document-pdf.renderer';

/*
 * Factur-X 1.0 (ZUGFeRD 2.x), profile EN 16931: the printed invoice, drawn by the same code as
 * its plain PDF, as a PDF/A-3b file that carries the invoice's CII XML as `factur-x.xml`
 * (docs/einvoices.md, "Factur-X"). pdfkit writes the PDF/A parts it knows (the pdfaid
 * identification, the sRGB output intent, fonts embedded as subsets, the XMP packet); this adds
 * the attachment and the Factur-X description of it to the XMP packet.
 */

/** The attachment's name: the one name a Factur-X reader looks for. */
export const FACTURX_FILE_NAME = 'factur-x.xml';

/** The XMP schema that tells a reader which XML the PDF carries (Factur-X 1.0, section 6). */
export const FACTURX_XMP = {
  namespace: 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#',
  prefix: 'fx',
  properties: {
    DocumentType: 'INVOICE',
    DocumentFileName: FACTURX_FILE_NAME,
    Version: '1.0',
    ConformanceLevel: 'EN 16931',
  },
} as const;

/** What the PDF/A extension schema says of each fx property (all text), in Factur-X's words. */
const FACTURX_PROPERTY_DESCRIPTIONS: Record<keyof typeof FACTURX_XMP.properties, string> = {
  DocumentType: 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER',
  DocumentFileName: 'The name of the embedded XML document',
  Version: 'The actual version of the standard applying to the embedded XML document',
  ConformanceLevel: 'The conformance level of the embedded XML document',
};

/** The XMP namespaces of the document information, and those of PDF/A's extension schemas. */
const INFO_NAMESPACES = {
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
};
const EXTENSION_NAMESPACES = {
  pdfaExtension: 'http://www.aiim.org/pdfa/ns/extension/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  pdfaProperty: 'http://www.aiim.org/pdfa/ns/property#',
};

/** The embedded file's options that pdfkit reads and its typings lack. */
interface AttachmentOptions extends PDFKit.Mixins.PDFAttachmentOptions {
  /** PDF/A-3's AFRelationship of the file to the document. */
  relationship: 'Alternative';
}

/** The XMP packet's parts as pdfkit appends them: one rdf:Description each, as text. */
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_' });

/**
 * Renders the invoice as its plain PDF draws it, as a PDF/A-3b Factur-X file (EN 16931) that
 * embeds `ciiXml` (einvoiceXml('cii', …) of the same view) as `factur-x.xml`. The same input
 * always gives the same bytes.
 */
export function renderFacturxPdf(
  view: DocumentView,
  issuer: Issuer,
  ciiXml: string,
): Promise<Buffer> {
  return renderPrintedDocument(view, issuer, facturx(ciiXml));
}

function facturx(ciiXml: string): PrintedDocumentFormat {
  return {
    options: { subset: 'PDF/A-3b', pdfVersion: '1.7' },
    complete(pdf) {
      // The document's own date (the issue date), not the clock: the same bytes every time.
      const date = pdf.info.CreationDate;
      const attachment: AttachmentOptions = {
        name: FACTURX_FILE_NAME,
        type: 'text/xml',
        description: 'Factur-X invoice, EN 16931',
        creationDate: date,
        modifiedDate: date,
        // The XML is the invoice itself, equivalent to what the pages show, not data derived
        // from it: ZUGFeRD 2.x requires Alternative for EN 16931, Factur-X allows it.
        relationship: 'Alternative',
      };
      // pdfkit adds the file to the catalog's /AF and to the EmbeddedFiles name tree.
      pdf.file(Buffer.from(ciiXml, 'utf8'), attachment);
      writeInfoEscaped(pdf);
      pdf.appendXML(facturxDescription());
      pdf.appendXML(extensionSchemaDescription());
    },
  };
}

/**
 * pdfkit copies the document information (title, author, creator) into the XMP packet as it is,
 * unescaped: an issuer named `Smith & Sons` would make the packet malformed XML, and the file no
 * PDF/A. Its writer of that part is replaced, for this document only, by one that builds the
 * same properties with the XML builder; the Info dictionary stays pdfkit's. PDF/A requires the
 * two to agree, entry by entry.
 */
function writeInfoEscaped(pdf: PDFKit.PDFDocument): void {
  const { info } = pdf;
  const withInfoWriter = pdf as PDFKit.PDFDocument & { _addInfo?: () => void };
  if (typeof withInfoWriter._addInfo !== 'function') {
    throw new Error('pdfkit no longer writes the XMP document information with _addInfo');
  }
  withInfoWriter._addInfo = () =>
    pdf.appendXML(
      description(INFO_NAMESPACES, {
        'dc:title': { 'rdf:Alt': { 'rdf:li': { '@_xml:lang': 'x-default', '#text': info.Title } } },
        'dc:creator': { 'rdf:Seq': { 'rdf:li': info.Author } },
        'xmp:CreateDate': xmpDate(info.CreationDate!),
        'xmp:CreatorTool': info.Creator,
        'pdf:Producer': info.Producer,
      }),
    );
}

/** The fx properties: which file the PDF carries, in which version and profile. */
function facturxDescription(): string {
  const { namespace, prefix, properties } = FACTURX_XMP;
  return description(
    { [prefix]: namespace },
    Object.fromEntries(
      Object.entries(properties).map(([name, value]) => [`${prefix}:${name}`, value]),
    ),
  );
}

/** PDF/A allows only known XMP schemas, or those the packet describes: this describes fx. */
function extensionSchemaDescription(): string {
  const { namespace, prefix, properties } = FACTURX_XMP;
  return description(EXTENSION_NAMESPACES, {
    'pdfaExtension:schemas': {
      'rdf:Bag': {
        'rdf:li': {
          '@_rdf:parseType': 'Resource',
          'pdfaSchema:schema': 'Factur-X PDFA Extension Schema',
          'pdfaSchema:namespaceURI': namespace,
          'pdfaSchema:prefix': prefix,
          'pdfaSchema:property': {
            'rdf:Seq': {
              'rdf:li': Object.keys(properties).map((name) => ({
                '@_rdf:parseType': 'Resource',
                'pdfaProperty:name': name,
                'pdfaProperty:valueType': 'Text',
                'pdfaProperty:category': 'external',
                'pdfaProperty:description':
                  FACTURX_PROPERTY_DESCRIPTIONS[name as keyof typeof properties],
              })),
            },
          },
        },
      },
    },
  });
}

/** One rdf:Description of the packet, declaring these namespaces by prefix. */
function description(namespaces: Record<string, string>, properties: object): string {
  return builder.build({
    'rdf:Description': {
      '@_rdf:about': '',
      ...Object.fromEntries(
        Object.entries(namespaces).map(([prefix, uri]) => [`@_xmlns:${prefix}`, uri]),
      ),
      ...properties,
    },
  });
}

/** An XMP date to the second in UTC, as pdfkit writes the Info dictionary's. */
function xmpDate(date: Date): string {
  return `${date.toISOString().split('.')[0]}Z`;
}
