import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFObject,
  PDFRawStream,
  PDFString,
} from 'pdf-lib';
import { MAX_XML_BYTES } from '../../common/xml/untrusted-xml';

/**
 * The names under which Factur-X, ZUGFeRD and XRechnung in a PDF embed their XML, matched
 * without regard to case (ZUGFeRD 1 wrote ZUGFeRD-invoice.xml).
 */
export const EINVOICE_ATTACHMENT_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];
/** Levels of the EmbeddedFiles name tree followed: real ones have one or two. */
const MAX_TREE_DEPTH = 8;

/** Why a PDF gives no e-invoice; the message names the reason. */
export class PdfAttachmentRefused extends Error {}

/**
 * The e-invoice XML embedded in a Factur-X / ZUGFeRD PDF: the file of the catalog's
 * EmbeddedFiles name tree (ISO 32000-1, 7.9.6 and 7.11.4) with one of the names above. The
 * stream is inflated with a ceiling (MAX_XML_BYTES), so a compressed bomb is refused rather
 * than unpacked. Nothing of the PDF is rendered or run.
 */
export async function embeddedEinvoice(pdf: Buffer): Promise<Buffer> {
  try {
    return await findEinvoice(pdf);
  } catch (error) {
    if (error instanceof PdfAttachmentRefused) throw error;
    // pdf-lib meets a broken structure (a missing catalog, a bad reference) as it walks.
    throw new PdfAttachmentRefused('The body is not a PDF this service can read');
  }
}

async function findEinvoice(pdf: Buffer): Promise<Buffer> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (error) {
    const encrypted = error instanceof Error && /encrypt/i.test(error.message);
    throw new PdfAttachmentRefused(
      encrypted ? 'The PDF is encrypted' : 'The body is not a PDF this service can read',
    );
  }
  const names = document.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const files = tree ? namedFiles(tree, 0, new Set()) : [];
  const wanted = files.find(([name]) => EINVOICE_ATTACHMENT_NAMES.includes(name.toLowerCase()));
  if (!wanted) {
    throw new PdfAttachmentRefused(
      files.length === 0
        ? 'The PDF has no embedded files: no factur-x.xml, zugferd-invoice.xml or xrechnung.xml'
        : `The PDF embeds no factur-x.xml, zugferd-invoice.xml or xrechnung.xml (it embeds ${files
            .map(([name]) => name)
            .slice(0, 5)
            .join(', ')})`,
    );
  }
  return fileContents(wanted[1]);
}

/** The [name, file specification] pairs of a name tree, its kids followed to a bounded depth. */
function namedFiles(node: PDFDict, depth: number, seen: Set<PDFDict>): Array<[string, PDFDict]> {
  if (depth > MAX_TREE_DEPTH || seen.has(node)) return [];
  seen.add(node);
  const found: Array<[string, PDFDict]> = [];
  const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
  for (let index = 0; pairs && index + 1 < pairs.size(); index += 2) {
    const name = textOf(pairs.lookup(index));
    const spec = pairs.lookup(index + 1);
    if (name !== null && spec instanceof PDFDict) found.push([specName(spec) ?? name, spec]);
  }
  const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
  for (let index = 0; kids && index < kids.size(); index += 1) {
    const kid = kids.lookup(index);
    if (kid instanceof PDFDict) found.push(...namedFiles(kid, depth + 1, seen));
  }
  return found;
}

/** The file name a file specification gives (UF, else F), which the tree's key usually repeats. */
function specName(spec: PDFDict): string | null {
  return textOf(spec.lookup(PDFName.of('UF'))) ?? textOf(spec.lookup(PDFName.of('F')));
}

function textOf(value: PDFObject | undefined): string | null {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;
}

/** The embedded file's bytes: unfiltered or FlateDecode, the filters Factur-X writers use. */
function fileContents(spec: PDFDict): Buffer {
  const embedded = spec.lookupMaybe(PDFName.of('EF'), PDFDict);
  const stream = embedded?.lookup(PDFName.of('UF')) ?? embedded?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) {
    throw new PdfAttachmentRefused('The PDF names the e-invoice file but holds no stream for it');
  }
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters =
    filter instanceof PDFArray
      ? filter.asArray().map((entry) => entry.toString())
      : filter
        ? [filter.toString()]
        : [];
  const contents = Buffer.from(stream.getContents());
  if (filters.length === 0) return contents;
  if (filters.length > 1 || filters[0] !== '/FlateDecode') {
    throw new PdfAttachmentRefused(`The embedded e-invoice is encoded with ${filters.join(' ')}`);
  }
  try {
    return inflateSync(contents, { maxOutputLength: MAX_XML_BYTES + 1 });
  } catch (error) {
    throw new PdfAttachmentRefused(
      (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE'
        ? `The embedded e-invoice is larger than ${MAX_XML_BYTES} bytes`
        : 'The embedded e-invoice stream is corrupt',
    );
  }
}
