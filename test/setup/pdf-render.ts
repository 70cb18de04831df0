import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { readPdf } from './pdf-worker';

/*
 * A PDF page as a reader draws it: pdf-parse's getScreenshot (pdf.js onto @napi-rs/canvas,
 * glyphs drawn from the embedded font programs), as PNG. Like pdf-text.ts this runs in the shared
 * worker thread of pdf-worker.ts.
 * Beside the image the worker answers where pdf.js placed each text item on the page, so a test
 * can look for ink where a given text was printed, not just anywhere on the page.
 *
 * Set PDF_PNG_DIR (a folder under the system's temporary folder, e.g. `PDF_PNG_DIR=pdf-pngs`
 * for /tmp/pdf-pngs) to keep every rendered page as a PNG there for a person to look at; a
 * folder anywhere else is refused.
 */

/** A text item as pdf.js placed it, in the image's pixels (origin top left). */
export interface TextBox {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RenderedPage {
  pageNumber: number;
  /** The page as PNG. */
  png: Buffer;
  /** The same, decoded, for looking at its pixels. */
  image: Bitmap;
  /** The page's size at the scale drawn (A4 at scale 1: 595.28 × 841.89). */
  width: number;
  height: number;
  /** pdf.js text items of the page, placed. */
  textBoxes: TextBox[];
}

export interface RenderOptions {
  /** Pages to draw, 1-based, or every page; default the first. */
  pages?: number[] | 'all';
  /** Pixels per point; 1 draws A4 at 595 × 842, which is enough to see ink and fast. */
  scale?: number;
}

/** One PDF of a batch: its pages drawn, and its text as pdfText (pdf-text.ts) extracts it. */
export interface RenderedPdf {
  pages: RenderedPage[];
  /** Every page's text (pdf-parse getText), joined by a line break. */
  text: string;
}

/**
 * Draws pages of each PDF (the first unless told) as PNG, with where each text item landed, and
 * extracts its text, in the shared PDF worker. `names` name the PNGs kept under PDF_PNG_DIR.
 */
export async function renderPdfs(
  pdfs: Array<{ bytes: Buffer; name: string }>,
  options: RenderOptions = {},
): Promise<RenderedPdf[]> {
  const answer = await readPdf({
    kind: 'render',
    pdfs: pdfs.map((pdf) => new Uint8Array(pdf.bytes)),
    // pdf-parse draws every page when `partial` is empty.
    pages: options.pages === 'all' ? [] : (options.pages ?? [1]),
    scale: options.scale ?? 1,
  });
  if (answer.kind !== 'render') throw new Error('The PDF reader answered pages with a text');
  return answer.pdfs.map((result, index) => {
    const pages = result.pages.map((page) => {
      const png = Buffer.from(page.png);
      return { ...page, png, image: decodePng(png) };
    });
    keepPngs(pages, pdfs[index].name);
    return { pages, text: result.text };
  });
}

/** Draws pages of one PDF (the first unless told); see renderPdfs. */
export async function renderPdf(
  bytes: Buffer,
  options: RenderOptions & { name?: string } = {},
): Promise<RenderedPage[]> {
  const [result] = await renderPdfs([{ bytes, name: options.name ?? 'document' }], options);
  return result.pages;
}

/** Writes the pages to PDF_PNG_DIR when it is set; only ever under the temporary folder. */
function keepPngs(pages: RenderedPage[], name: string): void {
  const wanted = process.env.PDF_PNG_DIR;
  if (!wanted) return;
  const base = tmpdir();
  const dir = resolve(base, wanted);
  const inside = relative(base, dir);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(`PDF_PNG_DIR must name a folder under ${base}, not ${dir}`);
  }
  mkdirSync(dir, { recursive: true });
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_');
  for (const page of pages) writeFileSync(join(dir, `${safe}-p${page.pageNumber}.png`), page.png);
}

/** An RGBA image decoded from PNG. */
export interface Bitmap {
  width: number;
  height: number;
  /** Four bytes a pixel, row by row. */
  rgba: Uint8Array;
}

/** A rectangle in pixels, origin top left. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A pixel is ink when, laid over white, it is clearly darker than white: luminance under 200
 * of 255. Anti-aliased edges of body text pass; the table header's light grey fill (#eeeeee)
 * and the page itself do not.
 */
const INK_LUMINANCE = 200;

/** How many pixels of the image (or of a region of it) are ink. */
export function inkPixels(png: Buffer | Bitmap, region?: Region): number {
  const image = Buffer.isBuffer(png) ? decodePng(png) : png;
  const left = Math.max(0, Math.floor(region?.x ?? 0));
  const top = Math.max(0, Math.floor(region?.y ?? 0));
  const right = Math.min(image.width, Math.ceil(region ? region.x + region.width : image.width));
  const bottom = Math.min(
    image.height,
    Math.ceil(region ? region.y + region.height : image.height),
  );
  let ink = 0;
  for (let y = top; y < bottom; y += 1) {
    for (let x = left; x < right; x += 1) {
      const at = 4 * (y * image.width + x);
      const alpha = image.rgba[at + 3] / 255;
      const over = (channel: number) => image.rgba[at + channel] * alpha + 255 * (1 - alpha);
      const luminance = 0.2126 * over(0) + 0.7152 * over(1) + 0.0722 * over(2);
      if (luminance < INK_LUMINANCE) ink += 1;
    }
  }
  return ink;
}

/** Whether the image, or a region of it, has ink: at least `minimum` dark pixels. */
export function hasInk(png: Buffer | Bitmap, region?: Region, minimum = 1): boolean {
  return inkPixels(png, region) >= minimum;
}

/**
 * Decodes a non-interlaced 8-bit PNG (greyscale, RGB, RGBA, grey + alpha: what a canvas
 * writes) to RGBA. Anything else is an error, never a blank image.
 */
export function decodePng(png: Buffer): Bitmap {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let colourType = 0;
  const data: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const bitDepth = body[8];
      colourType = body[9];
      const interlace = body[12];
      if (bitDepth !== 8 || interlace !== 0 || ![0, 2, 4, 6].includes(colourType)) {
        throw new Error(`PNG not decoded: bit depth ${bitDepth}, colour type ${colourType}`);
      }
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType as 0 | 2 | 4 | 6];
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(data));
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x += 1) {
      const a = x >= channels ? pixels[out + x - channels] : 0;
      const b = y > 0 ? pixels[out - stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[out - stride + x - channels] : 0;
      pixels[out + x] = (line[x] + predictor(filter, a, b, c)) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    const source = pixel * channels;
    const grey = channels <= 2;
    rgba[4 * pixel] = pixels[source];
    rgba[4 * pixel + 1] = grey ? pixels[source] : pixels[source + 1];
    rgba[4 * pixel + 2] = grey ? pixels[source] : pixels[source + 2];
    rgba[4 * pixel + 3] =
      channels === 4 ? pixels[source + 3] : channels === 2 ? pixels[source + 1] : 255;
  }
  return { width, height, rgba };
}

/** PNG filter predictors: none, sub, up, average, Paeth. */
function predictor(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return Math.floor((a + b) / 2);
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`PNG filter ${filter} unknown`);
  }
}
