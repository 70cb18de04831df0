import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { parseToUnicode } from './pdf-glyphs';

/*
 * What a PDF draws for a character, as opposed to what it extracts as: for each embedded
 * TrueType CIDFont (Identity-H, identity CIDToGIDMap, FontFile2, as pdfkit writes them), the
 * outline of every glyph by the text its ToUnicode entry gives. A bracket mirrored in
 * right-to-left text extracts as "(" but is drawn with the outline of ")".
 */

export interface FontOutlines {
  /** BaseFont without the subset tag: `NotoSansHebrew-Bold`. */
  name: string;
  /** Text (from ToUnicode) → the SVG paths of the glyphs that extract as it. */
  outlines: Map<string, string[]>;
}

/** The glyph outlines of every embedded TrueType CIDFont of the PDF. */
export async function drawnOutlines(bytes: Uint8Array): Promise<FontOutlines[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const fonts: FontOutlines[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (object.lookup(PDFName.of('Subtype')) !== PDFName.of('Type0')) continue;
    const toUnicode = object.lookup(PDFName.of('ToUnicode'));
    const descendants = object.lookup(PDFName.of('DescendantFonts'));
    const cidFont = descendants instanceof PDFArray ? descendants.lookup(0) : undefined;
    const descriptor =
      cidFont instanceof PDFDict ? cidFont.lookup(PDFName.of('FontDescriptor')) : undefined;
    const file =
      descriptor instanceof PDFDict ? descriptor.lookup(PDFName.of('FontFile2')) : undefined;
    if (!(toUnicode instanceof PDFRawStream) || !(file instanceof PDFRawStream)) continue;
    const program = fontkit.create(Buffer.from(inflated(file))) as fontkit.Font;
    const outlines = new Map<string, string[]>();
    const map = parseToUnicode(Buffer.from(inflated(toUnicode)).toString('latin1'));
    for (const [code, text] of map) {
      if (code === 0 || code >= program.numGlyphs) continue;
      const paths = outlines.get(text) ?? [];
      paths.push(program.getGlyph(code).path.toSVG());
      outlines.set(text, paths);
    }
    const name = (object.lookup(PDFName.of('BaseFont')) as PDFName).decodeText();
    fonts.push({ name: name.replace(/^[A-Z]{6}\+/, ''), outlines });
  }
  return fonts;
}

/** The outline fontkit draws for a character in a font: what the PDF's glyph must match. */
export function outlineOf(font: fontkit.Font, character: string): string {
  return font.glyphForCodePoint(character.codePointAt(0)!).path.toSVG();
}

/** pdfkit compresses its streams with Flate only. */
function inflated(stream: PDFRawStream): Uint8Array {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  return filter === PDFName.of('FlateDecode') ? inflateSync(stream.contents) : stream.contents;
}
