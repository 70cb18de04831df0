import { Worker } from 'node:worker_threads';

export interface PdfText {
  /** Every page's text, in order, as pdf.js extracts it (content-stream order). */
  pages: string[];
  /** The pages joined by a line break. */
  text: string;
}

/*
 * pdf-parse (pdf.js) loads its parsing worker with a dynamic import(), which Jest's module
 * sandbox refuses; a worker thread is plain Node, so the extraction runs there.
 */
const EXTRACT_TEXT = `
const { parentPort, workerData } = require('node:worker_threads');
const { PDFParse } = require(workerData.parser);
const parser = new PDFParse({ data: workerData.bytes });
parser
  .getText({ pageJoiner: '' })
  .then((result) => parentPort.postMessage(result.pages.map((page) => page.text)))
  .finally(() => parser.destroy());
`;

/** The text a PDF reader would extract from these bytes, page by page (pdf-parse). */
export function pdfText(bytes: Buffer): Promise<PdfText> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(EXTRACT_TEXT, {
      eval: true,
      workerData: { parser: require.resolve('pdf-parse'), bytes: new Uint8Array(bytes) },
    });
    worker.once('message', (pages: string[]) => resolve({ pages, text: pages.join('\n') }));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The PDF text worker exited with ${code}`)));
  });
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
