import { inflateSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFRawStream,
  PDFString,
} from 'pdf-lib';
import { germanMixedRateInvoice, testIssuer } from '../../../test/factories/document-views';
import { einvoiceView } from '../../../test/factories/einvoice-views';
import { embeddedFonts } from '../../../test/setup/pdf-glyphs';
import { popplerAttachments, popplerText } from '../../../test/setup/pdf-poppler';
import { pdfText } from '../../../test/setup/pdf-text';
import type { Issuer } from '../../document-vocabulary/issuer';
import type { DocumentView } from '../document-view';
import { einvoiceXml } from '../einvoice/einvoice';
import { renderDocumentPdf } from './document-pdf.renderer';
import { FACTURX_FILE_NAME, FACTURX_XMP, renderFacturxPdf } from './facturx-pdf.renderer';

/*
 * The Factur-X PDF read back as a receiver and a PDF/A validator would: the attachment (by
 * poppler's pdfdetach), its file specification and the catalog (by pdf-lib), the XMP packet,
 * the fonts and the output intent; its pages against the plain PDF's. A full PDF/A validation
 * (veraPDF) runs beside the project (docs/einvoices.md).
 */

/** An issuer whose name XML must escape, and that needs more than Latin-1 in the Info dict. */
const SELLER: Issuer = testIssuer({
  name: 'Müller & Söhne <Łódź> GmbH',
  address: 'Hauptstraße 1, 10115 Berlin',
  country: 'DE',
  einvoiceAddress: '0204:991-01234-56',
  taxId: 'DE123456789',
});

function invoiceView(change: Partial<DocumentView> = {}): DocumentView {
  return einvoiceView({
    note: 'Zahlbar innerhalb von 30 Tagen.',
    ...germanMixedRateInvoice(),
    ...change,
  });
}

function ciiXmlOf(view: DocumentView): string {
  const result = einvoiceXml('cii', view, { seller: SELLER, buyerAddress: '9930:DE987654321' });
  if ('problems' in result) throw new Error(JSON.stringify(result.problems));
  return result.xml;
}

// Parsed XMP, walked by the names the PDF/A and Factur-X specifications give.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Tree = Record<string, any>;

const xmpParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => name === 'rdf:Description',
});

/** Every property of the packet's descriptions, as one object (XMP merges them so). */
function xmpProperties(packet: string): Tree {
  const tree = xmpParser.parse(packet) as Tree;
  const descriptions = tree['x:xmpmeta']['rdf:RDF']['rdf:Description'] as Tree[];
  return Object.assign({}, ...descriptions) as Tree;
}

function text(object: PDFObject | undefined): string {
  if (object instanceof PDFString || object instanceof PDFHexString) return object.decodeText();
  if (object instanceof PDFName) return object.decodeText();
  throw new Error(`not a string or name: ${String(object)}`);
}

function dict(object: PDFObject | undefined): PDFDict {
  if (!(object instanceof PDFDict)) throw new Error(`not a dictionary: ${String(object)}`);
  return object;
}

/** Each graphics state entry of the pages that makes something transparent. */
function transparencyOf(document: PDFDocument): string[] {
  return document.getPages().flatMap((page) => {
    const states = page.node.Resources()?.lookup(PDFName.of('ExtGState'));
    if (!(states instanceof PDFDict)) return [];
    return states.values().flatMap((state) =>
      ['ca', 'CA', 'SMask', 'BM'].flatMap((key) => {
        const value = dict(document.context.lookup(state)).get(PDFName.of(key));
        return value === undefined ? [] : [`${key} ${String(value)}`];
      }),
    );
  });
}

describe('renderFacturxPdf', () => {
  const view = invoiceView();
  const xml = ciiXmlOf(view);
  let bytes: Buffer;
  let pdf: PDFDocument;

  beforeAll(async () => {
    bytes = await renderFacturxPdf(view, SELLER, xml);
    pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  });

  const catalog = () => pdf.catalog;
  const lookup = (from: PDFDict, key: string) => from.lookup(PDFName.of(key));

  it('attaches the CII XML as factur-x.xml, byte for byte', async () => {
    const attachments = await popplerAttachments(bytes);
    expect([...attachments.keys()]).toEqual([FACTURX_FILE_NAME]);
    expect(attachments.get(FACTURX_FILE_NAME)!.equals(Buffer.from(xml, 'utf8'))).toBe(true);
  });

  it('describes it as text/xml, the Alternative of the pages, in the catalog /AF and the name tree', () => {
    const associated = lookup(catalog(), 'AF');
    expect(associated).toBeInstanceOf(PDFArray);
    expect((associated as PDFArray).size()).toBe(1);
    const fileSpecRef = (associated as PDFArray).get(0);
    const names = dict(lookup(dict(lookup(catalog(), 'Names')), 'EmbeddedFiles'));
    const tree = lookup(names, 'Names') as PDFArray;
    expect(text(tree.lookup(0))).toBe(FACTURX_FILE_NAME);
    expect(String(tree.get(1))).toBe(String(fileSpecRef));

    const fileSpec = dict(pdf.context.lookup(fileSpecRef));
    expect(text(lookup(fileSpec, 'Type'))).toBe('Filespec');
    expect(text(lookup(fileSpec, 'F'))).toBe(FACTURX_FILE_NAME);
    expect(text(lookup(fileSpec, 'UF'))).toBe(FACTURX_FILE_NAME);
    expect(text(lookup(fileSpec, 'AFRelationship'))).toBe('Alternative');

    const file = lookup(dict(lookup(fileSpec, 'EF')), 'F');
    expect(file).toBeInstanceOf(PDFRawStream);
    const stream = (file as PDFRawStream).dict;
    expect(text(lookup(stream, 'Type'))).toBe('EmbeddedFile');
    expect(text(lookup(stream, 'Subtype'))).toBe('text/xml');
    const params = dict(lookup(stream, 'Params'));
    expect((lookup(params, 'Size') as PDFNumber).asNumber()).toBe(Buffer.byteLength(xml));
    // The issue date: no clock in the file.
    expect(text(lookup(params, 'CreationDate'))).toBe('D:20260331000000Z');
    expect(text(lookup(params, 'ModDate'))).toBe('D:20260331000000Z');
    expect(inflateSync((file as PDFRawStream).contents).toString('utf8')).toBe(xml);
  });

  it('says PDF/A-3b and Factur-X EN 16931 in a well-formed XMP packet that agrees with the Info dictionary', () => {
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    const metadata = lookup(catalog(), 'Metadata');
    expect(metadata).toBeInstanceOf(PDFRawStream);
    // PDF/A: the packet is readable without decoding.
    expect(lookup((metadata as PDFRawStream).dict, 'Filter')).toBeUndefined();
    const packet = Buffer.from((metadata as PDFRawStream).contents).toString('utf8');
    expect(XMLValidator.validate(packet)).toBe(true);

    const xmp = xmpProperties(packet);
    expect(xmp['pdfaid:part']).toBe('3');
    expect(xmp['pdfaid:conformance']).toBe('B');
    const { namespace, prefix, properties } = FACTURX_XMP;
    expect(properties).toEqual({
      DocumentType: 'INVOICE',
      DocumentFileName: 'factur-x.xml',
      Version: '1.0',
      ConformanceLevel: 'EN 16931',
    });
    for (const [name, value] of Object.entries(properties)) {
      expect({ name, value: xmp[`${prefix}:${name}`] }).toEqual({ name, value });
    }
    expect(
      packet.match(/xmlns:fx="([^"]*)"/g)?.every((declared) => declared.includes(namespace)),
    ).toBe(true);

    // PDF/A accepts the fx schema only as the packet describes it.
    const schema = xmp['pdfaExtension:schemas']['rdf:Bag']['rdf:li'] as Tree;
    expect(schema['pdfaSchema:namespaceURI']).toBe(namespace);
    expect(schema['pdfaSchema:prefix']).toBe(prefix);
    const described = schema['pdfaSchema:property']['rdf:Seq']['rdf:li'] as Tree[];
    expect(described.map((property) => property['pdfaProperty:name'] as string)).toEqual(
      Object.keys(properties),
    );
    for (const property of described) {
      expect(property['pdfaProperty:valueType']).toBe('Text');
      expect(property['pdfaProperty:category']).toBe('external');
    }

    // Each Info entry has its XMP equivalent, of the same value (the issuer's `&` and `<`).
    const info = dict(pdf.context.lookup(pdf.context.trailerInfo.Info));
    const infoText = (key: string) => text(lookup(info, key));
    expect(xmp['dc:title']['rdf:Alt']['rdf:li']['#text']).toBe(infoText('Title'));
    expect(infoText('Title')).toBe('Rechnung RE-2026-0042');
    expect(xmp['dc:creator']['rdf:Seq']['rdf:li']).toBe(infoText('Author'));
    expect(infoText('Author')).toBe(SELLER.name);
    expect(xmp['xmp:CreatorTool']).toBe(infoText('Creator'));
    expect(xmp['pdf:Producer']).toBe(infoText('Producer'));
    expect(infoText('CreationDate')).toBe('D:20260331000000Z');
    expect(xmp['xmp:CreateDate']).toBe('2026-03-31T00:00:00Z');
    expect(lookup(info, 'ModDate')).toBeUndefined();
    expect(pdf.context.trailerInfo.ID).toBeDefined();
  });

  it('embeds every font it uses, and no standard font', async () => {
    const fonts = await embeddedFonts(bytes);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect({ font: font.name, problems: font.problems }).toEqual({
        font: font.name,
        problems: [],
      });
      expect(font).toMatchObject({ subtype: 'Type0', cidSubtype: 'CIDFontType2' });
      expect(font.fontFile).toBe('FontFile2');
      expect(font.programBytes).toBeGreaterThan(0);
    }
  });

  it('has an sRGB output intent with its ICC profile', () => {
    const intents = lookup(catalog(), 'OutputIntents') as PDFArray;
    expect(intents.size()).toBe(1);
    const intent = dict(intents.lookup(0));
    expect(text(lookup(intent, 'S'))).toBe('GTS_PDFA1');
    expect(text(lookup(intent, 'OutputConditionIdentifier'))).toBe('sRGB IEC61966-2.1');
    const profile = lookup(intent, 'DestOutputProfile') as PDFRawStream;
    expect((lookup(profile.dict, 'N') as PDFNumber).asNumber()).toBe(3);
    const icc = lookup(profile.dict, 'Filter') ? inflateSync(profile.contents) : profile.contents;
    // An ICC profile: its signature, and an RGB display profile.
    expect(Buffer.from(icc.subarray(36, 40)).toString('latin1')).toBe('acsp');
    expect(Buffer.from(icc.subarray(16, 20)).toString('latin1')).toBe('RGB ');
  });

  it('draws nothing transparent, a paid stamp included: no opacity, soft mask or blend mode', async () => {
    const paid = invoiceView({ mark: 'paid', amountPaid: '796.94', balanceDue: '0.00' });
    const paidPdf = await PDFDocument.load(await renderFacturxPdf(paid, SELLER, ciiXmlOf(paid)), {
      updateMetadata: false,
    });
    expect([...transparencyOf(pdf), ...transparencyOf(paidPdf)]).toEqual([]);
    // The check sees it where there is some: a draft's watermark (a draft gets no e-invoice).
    const draft = invoiceView({ mark: 'draft', number: '' });
    const draftPdf = await PDFDocument.load(await renderFacturxPdf(draft, SELLER, xml), {
      updateMetadata: false,
    });
    expect(transparencyOf(draftPdf)).toEqual(['ca 0.18']);
  });

  it('shows the text of the plain PDF, page by page, in pdf.js and in poppler', async () => {
    const plain = await renderDocumentPdf(view, SELLER);
    expect((await pdfText(bytes)).pages).toEqual((await pdfText(plain)).pages);
    expect(await popplerText(bytes)).toBe(await popplerText(plain));
  });

  it('gives the same bytes for the same input', async () => {
    expect((await renderFacturxPdf(view, SELLER, xml)).equals(bytes)).toBe(true);
  });
});
