import bidiFactory from 'bidi-js';
import {
  ByteBoundedCache,
  FIELD_BYTES,
  OBJECT_BYTES,
  stringBytes,
  TEXT_CACHE_BYTES,
} from './byte-bounded-cache';
import { baseFace, FontFace, Weight } from './font-faces';
import { faceRuns } from './font-runs';
import { drawGlyphText, GlyphText } from './marked-text';

/*
 * Text set on a PDF page in any script: each paragraph is split into runs of one face (see
 * font-runs.ts), wrapped at the break opportunities of its scripts, and each line's runs are put
 * in visual order by the Unicode bidirectional algorithm (bidi-js). Runs are drawn in logical
 * order at their visual positions, so text extraction reads them in the order they were written;
 * fontkit shapes each run (Arabic joining, Devanagari conjuncts) and reverses a right-to-left
 * one, whose mirrored characters (brackets) are swapped first (UAX #9 L4). Each run says what it
 * stands for (marked-text.ts). Every line has the height and baseline of the Latin face, so page
 * flow does not depend on the script.
 */

const bidi = bidiFactory();

export interface TextStyle {
  size: number;
  bold?: boolean;
}

/**
 * `left` is the start of the paragraph's direction: a right-to-left paragraph sets flush right.
 * `right` and `center` are absolute (numbers and footers).
 */
export type TextAlign = 'left' | 'right' | 'center';

export type TextDirection = 'ltr' | 'rtl';

/** A piece of one line: one face, one direction, at `x` from the line's left edge. */
interface PlacedPiece extends GlyphText {
  x: number;
}

interface TextLine {
  pieces: PlacedPiece[];
  width: number;
  rtl: boolean;
}

/** Points added under every line, as pdfkit's lineGap. */
const LINE_GAP = 1;

const RTL_CHARACTERS =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
/** Scripts written without spaces between words: a line may break between any two of these. */
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f]/u;
/** Thai and its neighbours: breaks come from the dictionary of Intl.Segmenter. */
const DICTIONARY_BROKEN = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const SPACE = /\s/u;

const thaiWords = new Intl.Segmenter('th', { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function weightOf(style: TextStyle): Weight {
  return style.bold ? 'bold' : 'regular';
}

/** A face's vertical metrics in points per point of type size. */
interface VerticalMetrics {
  lineHeight: number;
  ascent: number;
}

const VERTICAL = new Map<FontFace, VerticalMetrics>();

function verticalMetrics(style: TextStyle): VerticalMetrics {
  const face = baseFace(weightOf(style));
  let metrics = VERTICAL.get(face);
  if (metrics === undefined) {
    const { ascent, descent, lineGap, unitsPerEm } = face.font;
    metrics = {
      lineHeight: (ascent - descent + lineGap) / unitsPerEm,
      ascent: ascent / unitsPerEm,
    };
    VERTICAL.set(face, metrics);
  }
  return metrics;
}

/** The height of one line in this style: the Latin face's line height (as pdfkit's) and the gap. */
export function lineHeight(style: TextStyle): number {
  return verticalMetrics(style).lineHeight * style.size + LINE_GAP;
}

/** From a line's top to its baseline: the Latin face's ascent, as pdfkit places a first line. */
function baselineOffset(style: TextStyle): number {
  return verticalMetrics(style).ascent * style.size;
}

/** The width of a single line of text (no wrapping), as drawn. */
export function textWidth(text: string, style: TextStyle): number {
  return layoutParagraph(text, style, Infinity).reduce(
    (widest, line) => Math.max(widest, line.width),
    0,
  );
}

/** The height the text takes wrapped to `width` (an empty text takes none). */
export function textHeight(text: string, style: TextStyle, width: number): number {
  return layoutText(text, style, width).length * lineHeight(style);
}

/**
 * Draws the text wrapped to `width` from the top `y`; answers the y under its last line. The
 * fill colour is the document's current one.
 */
export function drawText(
  pdf: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  options: TextStyle & {
    width: number;
    align?: TextAlign;
    flow?: boolean;
    /** The direction whose start `left` means, for every line; by default each line's own. */
    direction?: TextDirection;
  },
): number {
  const lines = layoutText(text, options, options.width);
  const height = lineHeight(options);
  const ascender = baselineOffset(options);
  let top = y;
  for (const line of lines) {
    if (options.flow && top + height > pdf.page.height - pdf.page.margins.bottom) {
      pdf.addPage();
      top = pdf.page.margins.top;
    }
    const rtl = options.direction === undefined ? line.rtl : options.direction === 'rtl';
    const left = x + alignedOffset(line.width, rtl, options.width, options.align ?? 'left');
    const baseline = top + ascender;
    for (const piece of line.pieces) {
      drawGlyphText(pdf, piece, left + piece.x, baseline, options.size);
    }
    top += height;
  }
  pdf.x = x;
  pdf.y = top;
  return top;
}

function alignedOffset(lineWidth: number, rtl: boolean, width: number, align: TextAlign): number {
  const free = Math.max(0, width - lineWidth);
  if (align === 'center') return free / 2;
  if (align === 'right' || rtl) return free;
  return 0;
}

/**
 * The direction of the text's first strong character (UAX #9 P2), or undefined when it has
 * none (digits and punctuation only).
 */
export function textDirection(text: string): TextDirection | undefined {
  for (const character of text) {
    const type = bidi.getBidiCharTypeName(character);
    if (type === 'L') return 'ltr';
    if (type === 'R' || type === 'AL') return 'rtl';
  }
  return undefined;
}

/**
 * Laid-out texts by style, width and text, shared by every document: a row is measured, then
 * drawn, and labels recur. Bounded by bytes (see TEXT_CACHE_BYTES); a piece's strings are
 * slices of the text (counted whole, as V8 may copy them).
 */
const LAID_OUT = new ByteBoundedCache<TextLine[]>(TEXT_CACHE_BYTES.laidOut, (lines) =>
  lines.reduce(
    (bytes, line) =>
      bytes +
      2 * OBJECT_BYTES +
      line.pieces.reduce(
        (pieceBytes, piece) =>
          pieceBytes +
          OBJECT_BYTES +
          6 * FIELD_BYTES +
          stringBytes(piece.text) +
          (piece.drawn === piece.text ? 0 : stringBytes(piece.drawn)),
        0,
      ),
    0,
  ),
);

/** Every line of the text wrapped to `width`; hard line breaks start new paragraphs. */
function layoutText(text: string, style: TextStyle, width: number): TextLine[] {
  if (text === '') return [];
  const key = `${style.bold ? 'b' : 'r'}${style.size}/${width}/${text}`;
  return LAID_OUT.get(key, () =>
    text.split('\n').flatMap((paragraph) => layoutParagraph(paragraph, style, width)),
  );
}

/** A stretch of a paragraph that is never broken, with its width and that of its trailing space. */
interface BreakUnit {
  start: number;
  end: number;
  width: number;
  /** The width without trailing spaces: what must fit at the end of a line. */
  inkWidth: number;
}

function layoutParagraph(text: string, style: TextStyle, width: number): TextLine[] {
  if (text.trim() === '') return [{ pieces: [], width: 0, rtl: false }];
  const weight = weightOf(style);
  const runs = faceRuns(text, weight);
  const levels = RTL_CHARACTERS.test(text) ? bidi.getEmbeddingLevels(text) : null;
  const measure = (start: number, end: number) => piecesWidth(text, runs, start, end, style);
  const lines: Array<[number, number]> = [];
  let lineStart = 0;
  let lineEnd = 0;
  let lineWidth = 0;
  for (const unit of breakUnits(text, measure, width)) {
    if (lineEnd > lineStart && lineWidth + unit.inkWidth > width) {
      lines.push([lineStart, lineEnd]);
      lineStart = unit.start;
      lineWidth = 0;
    }
    lineEnd = unit.end;
    lineWidth += unit.width;
  }
  lines.push([lineStart, lineEnd]);
  return lines.map(([start, end]) => placeLine(text, runs, levels, start, end, style));
}

/** Splits the paragraph where a line may break; a unit wider than the line breaks anywhere. */
function breakUnits(
  text: string,
  measure: (start: number, end: number) => number,
  width: number,
): BreakUnit[] {
  const units: BreakUnit[] = [];
  const boundaries = breakOpportunities(text);
  for (let index = 0; index < boundaries.length - 1; index += 1) {
    const start = boundaries[index];
    const end = boundaries[index + 1];
    const inkEnd = start + text.slice(start, end).trimEnd().length;
    const inkWidth = measure(start, inkEnd);
    if (inkWidth <= width) {
      units.push({ start, end, width: measure(start, end), inkWidth });
      continue;
    }
    // Too wide for any line (a long number, a word in a narrow column): break by character.
    let offset = start;
    for (const { segment } of graphemes.segment(text.slice(start, end))) {
      const piece = measure(offset, offset + segment.length);
      units.push({ start: offset, end: offset + segment.length, width: piece, inkWidth: piece });
      offset += segment.length;
    }
  }
  return units;
}

/** Offsets where a line may start: after spaces, around ideographs, at Thai word boundaries. */
function breakOpportunities(text: string): number[] {
  const breaks = new Set<number>([0, text.length]);
  const ideographic = IDEOGRAPHIC.test(text);
  let previous = '';
  let offset = 0;
  for (const character of text) {
    if (
      offset > 0 &&
      !SPACE.test(character) &&
      (SPACE.test(previous) ||
        (ideographic && (IDEOGRAPHIC.test(character) || IDEOGRAPHIC.test(previous))))
    ) {
      breaks.add(offset);
    }
    previous = character;
    offset += character.length;
  }
  if (DICTIONARY_BROKEN.test(text)) {
    for (const { index } of thaiWords.segment(text)) {
      const between = text.slice(Math.max(0, index - 1), index + 1);
      if (DICTIONARY_BROKEN.test(between)) breaks.add(index);
    }
  }
  return [...breaks].sort((a, b) => a - b);
}

/** The drawn width of text[start, end): the sum of its runs in their faces. */
function piecesWidth(
  text: string,
  runs: ReturnType<typeof faceRuns>,
  start: number,
  end: number,
  style: TextStyle,
): number {
  let width = 0;
  for (const run of runs) {
    const from = Math.max(run.start, start);
    const to = Math.min(run.end, end);
    if (from >= to) continue;
    width += run.face.width(text.slice(from, to), style.size);
  }
  return width;
}

/** A logical stretch of a line in one face at one embedding level. */
interface LogicalPiece {
  start: number;
  end: number;
  face: FontFace;
  level: number;
}

/**
 * One line's pieces placed left to right. Trailing spaces are dropped; a right-to-left piece is
 * split at its spaces so that its words, each shaped and reversed by fontkit, read right to left.
 */
function placeLine(
  text: string,
  runs: ReturnType<typeof faceRuns>,
  levels: ReturnType<typeof bidi.getEmbeddingLevels> | null,
  start: number,
  end: number,
  style: TextStyle,
): TextLine {
  end = start + text.slice(start, end).trimEnd().length;
  const paragraphLevel = levels?.paragraphs[0]?.level ?? 0;
  const logical: LogicalPiece[] = [];
  for (const run of runs) {
    const from = Math.max(run.start, start);
    const to = Math.min(run.end, end);
    if (from >= to) continue;
    let pieceStart = from;
    for (let offset = from; offset <= to; offset += 1) {
      const level = levels?.levels[offset] ?? 0;
      const startLevel = levels?.levels[pieceStart] ?? 0;
      const splitsWord = startLevel % 2 === 1 && offset < to && text[offset - 1] === ' ';
      if (offset === to || level !== startLevel || splitsWord) {
        if (offset > pieceStart) {
          logical.push({ start: pieceStart, end: offset, face: run.face, level: startLevel });
        }
        pieceStart = offset;
      }
    }
  }
  // Mirrored characters are in the BMP: swapping UTF-16 units never splits a pair.
  const mirrors = levels
    ? bidi.getMirroredCharactersMap(text, levels.levels, start, end - 1)
    : null;
  const drawn = (piece: LogicalPiece): string => {
    const characters = text.slice(piece.start, piece.end);
    if (mirrors === null || mirrors.size === 0 || piece.level % 2 === 0) return characters;
    return characters
      .split('')
      .map((unit, index) => mirrors.get(piece.start + index) ?? unit)
      .join('');
  };
  const visual = visualOrder(logical);
  const xs = new Map<LogicalPiece, number>();
  let x = 0;
  for (const piece of visual) {
    xs.set(piece, x);
    x += piece.face.width(drawn(piece), style.size);
  }
  return {
    rtl: paragraphLevel % 2 === 1,
    width: x,
    pieces: logical.map((piece) => ({
      text: text.slice(piece.start, piece.end),
      drawn: drawn(piece),
      rtl: piece.level % 2 === 1,
      face: piece.face,
      x: xs.get(piece)!,
    })),
  };
}

/** UAX #9 rule L2: from the highest level down to the lowest odd one, reverse each sequence. */
function visualOrder(pieces: LogicalPiece[]): LogicalPiece[] {
  const order = [...pieces];
  const highest = Math.max(0, ...order.map((piece) => piece.level));
  const lowestOdd = Math.min(
    ...order.map((piece) => (piece.level % 2 === 1 ? piece.level : piece.level + 1)),
    highest + 1,
  );
  for (let level = highest; level >= lowestOdd; level -= 1) {
    let index = 0;
    while (index < order.length) {
      if (order[index].level < level) {
        index += 1;
        continue;
      }
      let last = index;
      while (last + 1 < order.length && order[last + 1].level >= level) last += 1;
      const reversed = order.slice(index, last + 1).reverse();
      order.splice(index, reversed.length, ...reversed);
      index = last + 1;
    }
  }
  return order;
}
