import { readPdf } from './pdf-worker';

export interface PdfText {
  /** Every page's text, in order, as pdf.js extracts it (content-stream order). */
  pages: string[];
  /** The pages joined by a line break. */
  text: string;
}

/** The text a PDF reader would extract from these bytes, page by page (pdf-parse). */
export async function pdfText(bytes: Buffer): Promise<PdfText> {
  const answer = await readPdf({ kind: 'text', bytes: new Uint8Array(bytes) });
  if (answer.kind !== 'text') throw new Error('The PDF reader answered a text with pages drawn');
  return { pages: answer.pages, text: answer.pages.join('\n') };
}

/** Whitespace runs as one space: a wrapped line reads as the text it came from. */
export function flattened(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Asserts that each text occurs in `text`, and in this order. */
export function expectInOrder(text: string, parts: string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    expect({ part, found: at >= 0 }).toEqual({ part, found: true });
    from = at + part.length;
  }
}
