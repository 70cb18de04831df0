import PDFDocument from 'pdfkit';
import { DocumentFont } from './document-font';
import { fontFace } from './font-faces';
import { drawText, textDirection } from './text-layout';

/** The content stream of page 1 after drawing on a new uncompressed document. */
function drawnContent(draw: (pdf: PDFKit.PDFDocument) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ compress: false, font: null as unknown as string });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    pdf.on('error', reject);
    draw(pdf);
    pdf.end();
  });
}

/** A PDF text string as marked-text writes /ActualText: UTF-16BE hex with its byte order mark. */
function hexText(text: string): string {
  const units = Array.from({ length: text.length }, (_, index) => text.charCodeAt(index));
  return `<FEFF${units.map((unit) => unit.toString(16).padStart(4, '0')).join('')}>`;
}

/** What the glyphs of a run extract as, read in the order drawn (U+2060: nothing). */
function labels(font: DocumentFont, text: string, rtl: boolean): string[] {
  return font.layoutRun(text, rtl).glyphs.map((glyph) => String.fromCodePoint(...glyph.codePoints));
}

describe('text layout', () => {
  it('takes a direction from the first strong character, none from digits and punctuation', () => {
    expect(textDirection('חברת העתיד Ltd')).toBe('rtl');
    expect(textDirection('(شركة) Ltd')).toBe('rtl');
    expect(textDirection('Ltd חברת')).toBe('ltr');
    expect(textDirection('+972 3 555 0100')).toBeUndefined();
  });

  it('marks a left-to-right run with its text, and glyphs of no character in a right-to-left run with none', async () => {
    const content = await drawnContent((pdf) => {
      drawText(pdf, 'บริษัท จำกัด', 50, 50, { size: 10, width: 400 });
      drawText(pdf, 'برنامج', 50, 80, { size: 10, width: 400 });
    });
    // Thai SARA AM is drawn as two glyphs: poppler reads the span's text instead.
    expect(content).toContain(`/Span <</ActualText ${hexText('บริษัท จำกัด')}>> BDC`);
    // Arabic: letters by their ToUnicode entries, dots split off them in a span of no text.
    expect(content).toContain('/Span <</ActualText ()>> BDC');
    expect(content).not.toContain(hexText('برنامج'));
  });

  it('labels each Arabic glyph with the letter it was shaped for, even one shared by two letters', () => {
    const font = new DocumentFont(fontFace('arabic', 'regular').font);
    // Drawn right to left: read backwards, the letters without the dots' U+2060.
    const read = labels(font, 'برنامج', true)
      .reverse()
      .join('')
      .replace(/\u2060/g, '');
    expect(read).toBe('برنامج');
  });

  it('labels a mirrored bracket with the bracket as written', () => {
    const font = new DocumentFont(fontFace('hebrew', 'regular').font);
    // text-layout hands over "(ישראל)" mirrored: ")ישראל(".
    const drawn = labels(font, ')ישראל(', true);
    // The leftmost glyph drawn is "(", for the closing bracket written last: it extracts as ")".
    expect(drawn[0]).toBe(')');
    expect(drawn.reverse().join('')).toBe('(ישראל)');
  });

  it('gives the marks of a word-initial Devanagari ligature to the next glyph, the text unchanged', () => {
    const font = new DocumentFont(fontFace('devanagari', 'regular').font);
    const drawn = labels(font, 'दुनिया', false);
    // दु is one glyph: labelled द alone, so pdf.js does not take it for a zero-width mark.
    expect(drawn[0]).toBe('द');
    expect(drawn.join('')).toBe('दुनिया');
  });
});
