import { DocumentFont, DocumentGlyphRun, isSilent, useFace } from './document-font';
import { FontFace } from './font-faces';

/*
 * Draws one run of glyphs (one face, one direction) so that both kinds of reader extract the
 * text as sent. pdf.js reads each glyph's ToUnicode entry (document-font.ts labels them) and
 * ignores /ActualText; poppler (pdftotext, Evince, Okular) reads /ActualText where there is one
 * (PDF 32000-1 14.9.4).
 *
 * A left-to-right run is one /Span whose /ActualText is the run, so poppler never sees the
 * WORD JOINER of a glyph that stands for no character. A right-to-left run gets no span of its
 * text: poppler lays a span's text out left to right and then reverses right-to-left text, so a
 * span of several characters would come back backwards. Its glyphs are one text item (pdf.js
 * turns an item back to logical order whole, and would not turn several), and those that stand
 * for no character (dots shaping split off Arabic letters) are drawn after it, inside a span
 * that stands for nothing.
 *
 * pdfkit's text() cannot do this: it draws inside a saved graphics state that it restores before
 * any marked content could end, and poppler places a span's text by the state at its end.
 */

/** What of pdfkit's document and embedded font this drawing uses (pdfkit has no public API). */
interface PdfkitDocument {
  _font: PdfkitFont;
  page: { fonts: Record<string, unknown>; height: number };
  addContent(data: string): unknown;
}

interface PdfkitFont {
  id: string;
  font: DocumentFont;
  subset: { includeGlyph(glyph: number): number };
  unicode: number[][];
  widths: number[];
  ref(): unknown;
}

/** One run of a line, as text-layout places it. */
export interface GlyphText {
  face: FontFace;
  /** The characters as written: what extraction gives back. */
  text: string;
  /** The characters drawn: `text` with a right-to-left run's mirrored characters swapped. */
  drawn: string;
  rtl: boolean;
}

/** Draws the run with its left end at `x` on the baseline `baseline` (pdfkit's top-down y). */
export function drawGlyphText(
  pdf: PDFKit.PDFDocument,
  run: GlyphText,
  x: number,
  baseline: number,
  size: number,
): void {
  useFace(pdf, run.face).fontSize(size);
  const document = pdf as unknown as PdfkitDocument;
  const font = document._font;
  const glyphs = font.font.layoutRun(run.drawn, run.rtl);
  const codes = glyphCodes(font, glyphs);
  const toText = size / font.font.unitsPerEm;
  const toThousandths = 1000 / font.font.unitsPerEm;

  if (document.page.fonts[font.id] == null) document.page.fonts[font.id] = font.ref();
  pdf.save();
  // PDF's y runs up from the bottom; pdfkit's down from the top.
  pdf.transform(1, 0, 0, -1, 0, document.page.height);
  const y = document.page.height - baseline;
  const content = (data: string) => document.addContent(data);
  const moveTo = (at: number, rise = 0) => content(`1 0 0 1 ${number(at)} ${number(y + rise)} Tm`);
  content('BT');
  moveTo(x);
  content(`/${font.id} ${number(size)} Tf`);

  const pens: number[] = [];
  let pen = x;
  for (const position of glyphs.positions) {
    pens.push(pen);
    pen += position.xAdvance * toText;
  }
  const silent = glyphs.glyphs.map((glyph) => run.rtl && isSilent(glyph.codePoints));
  if (!run.rtl) content(`/Span <</ActualText ${textString(run.text)}>> BDC`);
  // One text item for pdf.js, which turns a right-to-left item back to logical order whole:
  // offsets and kerning are TJ adjustments and text rise, never a new text position.
  let shown: string[] = [];
  const show = () => {
    if (shown.length > 0) content(`[${shown.join(' ')}] TJ`);
    shown = [];
  };
  const adjust = (units: number) => {
    if (units !== 0) shown.push(number(-units * toThousandths));
  };
  glyphs.positions.forEach((position, index) => {
    if (silent[index]) {
      adjust(position.xAdvance);
      return;
    }
    adjust(position.xOffset);
    if (position.yOffset !== 0) {
      show();
      content(`${number(position.yOffset * toText)} Ts`);
      shown.push(`<${codes[index]}>`);
      show();
      content('0 Ts');
    } else {
      shown.push(`<${codes[index]}>`);
    }
    adjust(position.xAdvance - glyphs.glyphs[index].advanceWidth - position.xOffset);
  });
  show();
  if (!run.rtl) content('EMC');
  // Glyphs of no character (a dot shaping split off its letter) last, marked as standing for
  // nothing: poppler reads a right-to-left span's text backwards, so they cannot share one.
  if (silent.includes(true)) {
    content('/Span <</ActualText ()>> BDC');
    glyphs.positions.forEach((position, index) => {
      if (!silent[index]) return;
      moveTo(pens[index] + position.xOffset * toText, position.yOffset * toText);
      content(`[<${codes[index]}>] TJ`);
    });
    content('EMC');
  }
  content('ET');
  pdf.restore();
}

/** A PDF text string in UTF-16BE with its byte order mark, written in hex. */
function textString(text: string): string {
  let hex = 'FEFF';
  for (let index = 0; index < text.length; index += 1) {
    hex += text.charCodeAt(index).toString(16).padStart(4, '0');
  }
  return `<${hex}>`;
}

/** Each glyph's code in the embedded subset, registering its width and ToUnicode entry. */
function glyphCodes(font: PdfkitFont, run: DocumentGlyphRun): string[] {
  const toThousandths = 1000 / font.font.unitsPerEm;
  return run.glyphs.map((glyph) => {
    const code = font.subset.includeGlyph(glyph.id);
    font.widths[code] ??= glyph.advanceWidth * toThousandths;
    font.unicode[code] ??= glyph.codePoints;
    return code.toString(16).padStart(4, '0');
  });
}

/** A number as PDF writes it: no exponent, at most four decimals. */
function number(value: number): string {
  const fixed = value.toFixed(4);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
