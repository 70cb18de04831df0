import { Worker } from 'node:worker_threads';
import type { RenderedPage } from './pdf-render';

/*
 * pdf-parse (pdf.js) loads its parsing worker with a dynamic import(), which Jest's module
 * sandbox refuses; a worker thread is plain Node, so reading a PDF (its text, its pages drawn)
 * runs there. Starting a worker and loading pdf-parse, pdf.js and the canvas into it costs
 * about 0.8 s of CPU, several times the reading of an invoice, and the response recorder reads
 * every invoice PDF an e2e file fetches: so one worker serves a file's reads one after another,
 * and ends once it has been idle for a moment (it holds no file open meanwhile).
 */

/** A page as the worker sends it: RenderedPage (pdf-render.ts) before its PNG is decoded. */
export type WorkerPage = Omit<RenderedPage, 'image' | 'png'> & { png: Uint8Array };

export type PdfRequest =
  | { kind: 'text'; bytes: Uint8Array }
  | { kind: 'render'; pdfs: Uint8Array[]; pages: number[]; scale: number };

export type PdfAnswer =
  | { kind: 'text'; pages: string[] }
  | { kind: 'render'; pdfs: Array<{ pages: WorkerPage[]; text: string }> };

const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const { PDFParse } = require(workerData.parser);

async function text(bytes) {
  const parser = new PDFParse({ data: bytes });
  try {
    const result = await parser.getText({ pageJoiner: '' });
    return result.pages.map((page) => page.text);
  } finally {
    await parser.destroy();
  }
}

async function render(bytes, pages, scale) {
  const parser = new PDFParse({ data: bytes });
  try {
    const extracted = await parser.getText({ pageJoiner: '' });
    const shot = await parser.getScreenshot({
      partial: pages,
      scale,
      imageBuffer: true,
      imageDataUrl: false,
    });
    // getScreenshot has loaded the document; its pdf.js proxy (pdf-parse's \`doc\`, private in
    // its typings) places the text items.
    const doc = parser.doc;
    if (!doc) throw new Error('pdf-parse holds no pdf.js document after getScreenshot');
    const rendered = [];
    for (const image of shot.pages) {
      const page = await doc.getPage(image.pageNumber);
      const viewport = page.getViewport({ scale });
      const content = await page.getTextContent();
      const textBoxes = content.items
        .filter((item) => 'str' in item && item.str.trim() !== '')
        .map((item) => {
          const [left, baseline] = viewport.convertToViewportPoint(item.transform[4], item.transform[5]);
          const height = item.height * scale;
          return { str: item.str, x: left, y: baseline - height, width: item.width * scale, height };
        });
      rendered.push({
        pageNumber: image.pageNumber,
        png: image.data,
        width: image.width,
        height: image.height,
        textBoxes,
      });
      page.cleanup();
    }
    return { pages: rendered, text: extracted.pages.map((page) => page.text).join('\\n') };
  } finally {
    await parser.destroy();
  }
}

async function answer(request) {
  if (request.kind === 'text') return { kind: 'text', pages: await text(request.bytes) };
  const pdfs = [];
  for (const bytes of request.pdfs) pdfs.push(await render(bytes, request.pages, request.scale));
  return { kind: 'render', pdfs };
}

parentPort.on('message', (request) => {
  answer(request).then(
    (result) => parentPort.postMessage({ result }),
    (error) => parentPort.postMessage({ error: String(error && error.stack ? error.stack : error) }),
  );
});
`;

/** How long the worker waits idle for the next read before it ends. */
const IDLE_MS = 3000;

let reader: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
/** Reads run one at a time, in the order asked: the tail of the queue. */
let queue: Promise<unknown> = Promise.resolve();
let pending = 0;

function worker(): Worker {
  if (!reader) {
    const started = new Worker(READER, {
      eval: true,
      workerData: { parser: require.resolve('pdf-parse') },
    });
    started.on('exit', () => {
      if (reader === started) reader = undefined;
    });
    reader = started;
  }
  return reader;
}

function ask(request: PdfRequest): Promise<PdfAnswer> {
  return new Promise<PdfAnswer>((resolve, reject) => {
    const current = worker();
    current.ref();
    const done = () => {
      current.off('message', onMessage);
      current.off('error', onError);
      current.off('exit', onExit);
      pending -= 1;
      if (pending === 0) {
        current.unref();
        idle = setTimeout(() => {
          if (reader === current) reader = undefined;
          void current.terminate();
        }, IDLE_MS);
        idle.unref();
      }
    };
    const onMessage = (message: { result?: PdfAnswer; error?: string }) => {
      done();
      if (message.error !== undefined) reject(new Error(`The PDF reader failed: ${message.error}`));
      else resolve(message.result as PdfAnswer);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`The PDF reader exited with ${code}`));
    };
    current.on('message', onMessage);
    current.on('error', onError);
    current.on('exit', onExit);
    current.postMessage(request);
  });
}

/** Reads a PDF in the shared worker, after the reads asked before it. */
export function readPdf(request: PdfRequest): Promise<PdfAnswer> {
  pending += 1;
  if (idle) clearTimeout(idle);
  idle = undefined;
  const next = queue.then(() => ask(request));
  queue = next.catch(() => undefined);
  return next;
}
