import bidiFactory from 'bidi-js';
import type * as fontkit from 'fontkit';
import {
  ByteBoundedCache,
  FIELD_BYTES,
  OBJECT_BYTES,
  TEXT_CACHE_BYTES,
} from './byte-bounded-cache';
import { FontFace } from './font-faces';

/*
 * Parsing a font file is most of the cost of a render, and a CJK file is 5–10 MB, so every
 * document shares one parsed fontkit font per face. Sharing it with pdfkit as-is would be wrong:
 * fontkit keeps one Glyph object per glyph id for the font's life, labelled with the characters
 * it was first laid out for, and pdfkit writes that label into the PDF's ToUnicode map, the map
 * text extraction and search read. A face that draws two characters with one glyph (DejaVu's
 * Latin P and Cyrillic Р) would then extract one as the other, in a later document too.
 *
 * So each document wraps the shared font in a DocumentFont, which is what pdfkit embeds:
 * - its layout labels every glyph with the characters of *this* text it was shaped for, and
 *   answers copies of the glyphs, taken at once, that later layouts cannot relabel;
 * - each distinct (glyph, characters) pair gets its own number in the document's subset, so one
 *   glyph drawn for two characters is embedded twice and each copy extracts as its own text.
 * Only the glyphs a document uses are embedded (fontkit's subset), so a Latin invoice stays small.
 */

interface GlyphCopy {
  /** This document's number for the (glyph, characters) pair, not the font's glyph id. */
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

/** A text shaped by fontkit: the font's glyph ids, each labelled with what it extracts as. */
interface ShapedText {
  glyphs: Array<{ id: number; advanceWidth: number; codePoints: number[] }>;
  positions: fontkit.GlyphPosition[];
}

/**
 * Shaped texts (pdfkit lays out word by word) by parsed font, shared by every document: a word
 * is shaped once, not once per document. Bounded by bytes (see TEXT_CACHE_BYTES).
 */
const SHAPED = new ByteBoundedCache<ShapedText>(
  TEXT_CACHE_BYTES.shaped,
  ({ glyphs }) =>
    2 * OBJECT_BYTES +
    glyphs.reduce(
      (bytes, glyph) => bytes + SHAPED_GLYPH_BYTES + FIELD_BYTES * glyph.codePoints.length,
      0,
    ),
);
/** A shaped glyph (its object and code point array) and its position, about. */
const SHAPED_GLYPH_BYTES = 4 * OBJECT_BYTES + 9 * FIELD_BYTES;

/** What pdfkit reads of a layout; `advanceWidth` sums the positions pdfkit scales in place. */
export interface DocumentGlyphRun {
  glyphs: GlyphCopy[];
  positions: fontkit.GlyphPosition[];
  readonly advanceWidth: number;
}

/** The members of fontkit's Subset that pdfkit uses, and the glyph list it encodes from. */
interface FontkitSubset {
  glyphs: number[];
  cff?: unknown;
  includeGlyph(glyph: number): number;
  encode(): Uint8Array;
}

export class DocumentFont {
  /** `${glyph id}:${code points}` → this document's glyph number. */
  private readonly numbers = new Map<string, number>();
  /** This document's glyph number → the font's glyph id. */
  private readonly glyphIds: number[] = [];

  constructor(private readonly font: fontkit.Font) {}

  // What pdfkit's EmbeddedFont reads for metrics and the font descriptor.
  get postscriptName() {
    return this.font.postscriptName;
  }
  get unitsPerEm() {
    return this.font.unitsPerEm;
  }
  get ascent() {
    return this.font.ascent;
  }
  get descent() {
    return this.font.descent;
  }
  get xHeight() {
    return this.font.xHeight;
  }
  get capHeight() {
    return this.font.capHeight;
  }
  get lineGap() {
    return this.font.lineGap;
  }
  get bbox() {
    return this.font.bbox;
  }
  get italicAngle() {
    return this.font.italicAngle;
  }
  get 'OS/2'() {
    return this.font['OS/2'];
  }
  get post() {
    return (this.font as unknown as { post: unknown }).post;
  }
  get head() {
    return (this.font as unknown as { head: unknown }).head;
  }

  getGlyph(id: number): fontkit.Glyph {
    return this.font.getGlyph(id);
  }

  /** The text laid out: shaped once per face and text, numbered for this document. */
  layout(text: string, features?: string[]): DocumentGlyphRun {
    const shaped =
      features === undefined ? this.shapedOnce(text, false) : this.shape(text, false, features);
    return this.numbered(shaped, false);
  }

  /**
   * A run of one direction as text-layout draws it. A right-to-left run is shaped right to left
   * whatever its characters, and comes with its mirrored characters already swapped (UAX #9
   * L4, done by text-layout for every face alike, so the font's own `rtlm` is left out): its
   * glyphs are labelled with the characters as written, so extraction gives back "(" where ")"
   * was drawn.
   */
  layoutRun(text: string, rtl: boolean): DocumentGlyphRun {
    if (rtl) return this.numbered(this.shapedOnce(text, true), true);
    // Word by word, each with its following space, as pdfkit and FontFace.width measure: a
    // word is shaped once however many lines it is in.
    const glyphs: ShapedText['glyphs'] = [];
    const positions: fontkit.GlyphPosition[] = [];
    let start = 0;
    for (let index = 0; index < text.length; index += 1) {
      if (text[index] === ' ' || text[index] === '\t' || index === text.length - 1) {
        const shaped = this.shapedOnce(text.slice(start, index + 1), false);
        glyphs.push(...shaped.glyphs);
        positions.push(...shaped.positions);
        start = index + 1;
      }
    }
    return this.numbered({ glyphs, positions }, false);
  }

  private numbered(shaped: ShapedText, unmirror: boolean): DocumentGlyphRun {
    const glyphs = shaped.glyphs.map((glyph) => {
      const codePoints = unmirror ? glyph.codePoints.map(mirrored) : glyph.codePoints;
      return {
        id: this.numberOf(glyph.id, codePoints),
        advanceWidth: glyph.advanceWidth,
        codePoints,
      };
    });
    // pdfkit scales the positions in place: each layout gets its own.
    const positions = shaped.positions.map((position) => ({ ...position }));
    return {
      glyphs,
      positions,
      get advanceWidth() {
        return positions.reduce((sum, position) => sum + position.xAdvance, 0);
      },
    };
  }

  private shapedOnce(text: string, rtl: boolean): ShapedText {
    const key = rtl ? `\u0001${text}` : text;
    return SHAPED.get(key, () => this.shape(text, rtl), this.font);
  }

  /** fontkit's layout of the text, each glyph labelled with what it extracts as. */
  private shape(text: string, rtl: boolean, features?: string[]): ShapedText {
    const run = this.layoutLabelled(text, rtl, features);
    const labels = extractionLabels(
      text,
      run.glyphs.map((glyph, index) => ({
        codePoints: glyph.codePoints,
        spacing: run.positions[index].xAdvance !== 0,
      })),
      run.direction === 'rtl',
    );
    return {
      glyphs: run.glyphs.map((glyph, index) => ({
        id: glyph.id,
        advanceWidth: glyph.advanceWidth,
        codePoints: labels[index],
      })),
      positions: run.positions.map(({ xAdvance, yAdvance, xOffset, yOffset }) => ({
        xAdvance,
        yAdvance,
        xOffset,
        yOffset,
      })),
    };
  }

  /**
   * fontkit's layout, each glyph labelled with the characters it stood for in this layout.
   * fontkit tracks them while shaping, then answers its one cached Glyph per id, labelled for
   * the first text it was made for (in Noto Sans Arabic the dotless form of ب is also that of
   * ن): for the length of this layout each Glyph it answers is a view of the cached one with
   * this use's characters.
   */
  private layoutLabelled(text: string, rtl: boolean, features?: string[]): fontkit.GlyphRun {
    const font = this.font as unknown as {
      getGlyph(id: number, codePoints?: number[]): fontkit.Glyph;
    };
    const getGlyph = font.getGlyph;
    font.getGlyph = function (this: unknown, id: number, codePoints: number[] = []) {
      const glyph = getGlyph.call(this, id, codePoints);
      return Object.create(glyph, { codePoints: { value: codePoints } }) as fontkit.Glyph;
    };
    try {
      return rtl
        ? this.font.layout(text, features ?? { rtlm: false }, undefined, undefined, 'rtl')
        : this.font.layout(text, features);
    } finally {
      delete (font as { getGlyph?: unknown }).getGlyph;
    }
  }

  createSubset(): DocumentSubset {
    return new DocumentSubset(this.font.createSubset() as unknown as FontkitSubset, this.glyphIds);
  }

  private numberOf(glyphId: number, codePoints: number[]): number {
    const key = `${glyphId}:${codePoints.join(',')}`;
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.glyphIds.length;
      this.glyphIds.push(glyphId);
      this.numbers.set(key, number);
    }
    return number;
  }
}

/** The document's subset: the first use of a glyph includes it, each other labelling copies it. */
class DocumentSubset {
  private readonly included = new Map<number, number>();
  private readonly glyphsIncluded = new Set<number>();

  constructor(
    private readonly subset: FontkitSubset,
    private readonly glyphIds: number[],
  ) {}

  get cff() {
    return this.subset.cff;
  }

  /** pdfkit passes a glyph's number from DocumentFont.layout; answers its id in the subset. */
  includeGlyph(number: number): number {
    let subsetId = this.included.get(number);
    if (subsetId === undefined) {
      const glyphId = this.glyphIds[number];
      if (this.glyphsIncluded.has(glyphId)) {
        this.subset.glyphs.push(glyphId);
        subsetId = this.subset.glyphs.length - 1;
      } else {
        subsetId = this.subset.includeGlyph(glyphId);
        this.glyphsIncluded.add(glyphId);
      }
      this.included.set(number, subsetId);
    }
    return subsetId;
  }

  encode(): Uint8Array {
    return this.subset.encode();
  }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const bidi = bidiFactory();

/**
 * The characters each glyph of a shaped left-to-right run extracts as, so that reading the
 * glyphs in the order they are drawn gives the text back. Shaping may reorder glyphs (a
 * Devanagari vowel sign drawn before its consonant), merge characters (a ligature) or split one
 * (a mark drawn apart). Glyphs are grouped into clusters of whole grapheme clusters, and each
 * group's characters are dealt to its glyphs in drawn order, one each, the last taking the rest;
 * when there are more glyphs than characters, zero-width ones get none (see silentIfEmpty). A run whose glyphs are
 * one per character in order (most text), and a right-to-left run (extractors reverse those
 * themselves, by fontkit's labels), keep fontkit's labels.
 */
function extractionLabels(
  text: string,
  glyphs: Array<{ codePoints: number[]; spacing: boolean }>,
  rtl: boolean,
): number[][] {
  const characters = [...text].map((character) => character.codePointAt(0)!);
  const inOrder =
    glyphs.length === characters.length &&
    glyphs.every(
      ({ codePoints }, index) => codePoints.length === 1 && codePoints[0] === characters[index],
    );
  if (inOrder) return glyphs.map(({ codePoints }) => silentIfEmpty(codePoints));
  // A right-to-left run's glyphs are in drawn order, its text's last character first; readers
  // reverse them back.
  if (rtl) return extractionLabels(text, [...glyphs].reverse(), false).reverse();

  const clusterOf: number[] = [];
  const clusterTexts: string[] = [];
  for (const { segment } of graphemes.segment(text)) {
    for (const _ of segment) clusterOf.push(clusterTexts.length);
    clusterTexts.push(segment);
  }
  // Each glyph's clusters: its code points found in the text, first unused occurrence first; a
  // glyph of no character (a mark split off by shaping) belongs with the one before it.
  // Only the next two clusters are searched, so that a glyph shaping made up (Thai SARA AM
  // split in two) never takes a character further on.
  const used = new Array<boolean>(characters.length).fill(false);
  const glyphClusters: number[][] = [];
  glyphs.forEach(({ codePoints }, index) => {
    const next = used.indexOf(false);
    const clusters = codePoints.flatMap((codePoint) => {
      const at = characters.findIndex(
        (c, position) =>
          !used[position] &&
          c === codePoint &&
          next >= 0 &&
          clusterOf[position] - clusterOf[next] <= 1,
      );
      if (at < 0) return [];
      used[at] = true;
      return [clusterOf[at]];
    });
    glyphClusters.push(clusters.length > 0 ? clusters : [...(glyphClusters[index - 1] ?? [0])]);
  });
  // Groups of clusters: a glyph joins its clusters; groups that interleave in drawn order merge.
  const parent = clusterTexts.map((_, index) => index);
  const root = (index: number): number =>
    parent[index] === index ? index : (parent[index] = root(parent[index]));
  const join = (a: number, b: number) => {
    parent[root(a)] = root(b);
  };
  glyphClusters.forEach((clusters) => clusters.forEach((cluster) => join(cluster, clusters[0])));
  for (let changed = true; changed;) {
    changed = false;
    const roots = glyphClusters.map((clusters) => root(clusters[0]));
    roots.forEach((groupRoot, index) => {
      for (let between = index + 1; between < roots.lastIndexOf(groupRoot); between += 1) {
        if (root(glyphClusters[between][0]) !== root(groupRoot)) {
          join(glyphClusters[between][0], groupRoot);
          changed = true;
        }
      }
    });
  }
  // Each group's characters, with any cluster no glyph drew joining the group before it.
  const groupCharacters = new Map<number, number[]>();
  let owner = root(glyphClusters[0]?.[0] ?? 0);
  clusterTexts.forEach((cluster, index) => {
    if (glyphClusters.some((clusters) => clusters.includes(index))) owner = root(index);
    const list = groupCharacters.get(owner) ?? [];
    for (const character of cluster) list.push(character.codePointAt(0)!);
    groupCharacters.set(owner, list);
  });
  const labels = glyphs.map(() => [] as number[]);
  for (const [groupRoot, codePoints] of groupCharacters) {
    const members = glyphs.flatMap((glyph, index) =>
      root(glyphClusters[index][0]) === groupRoot ? [index] : [],
    );
    let silent = Math.max(0, members.length - codePoints.length);
    const speaking = members.filter((index) => !(silent > 0 && !glyphs[index].spacing && silent--));
    speaking.forEach((index, order) => {
      labels[index] =
        order === speaking.length - 1
          ? codePoints.slice(order)
          : codePoints.slice(order, order + 1);
    });
  }
  return marksAfterWordStart(labels, glyphs).map(silentIfEmpty);
}

const NONSPACING_MARK = /\p{Mn}/u;
const WHITESPACE = /\s/u;

/**
 * pdf.js takes a glyph whose text holds a nonspacing mark for a zero-width diacritic: it does
 * not advance past it, nor look for a gap before it. When such a glyph starts a word (Devanagari
 * दु drawn as one), the gap of the space before it is found at the next glyph instead, and a
 * space lands inside the word. Its trailing marks go to the next glyph of the word instead:
 * read in order, the text is the same.
 */
function marksAfterWordStart(labels: number[][], glyphs: Array<{ spacing: boolean }>): number[][] {
  labels.forEach((label, index) => {
    const next = labels[index + 1];
    const previous = labels[index - 1];
    const startsWord =
      previous === undefined ||
      (previous.length > 0 && previous.every((c) => WHITESPACE.test(String.fromCodePoint(c))));
    if (!startsWord || !glyphs[index].spacing || next === undefined || next.length === 0) return;
    if (next.every((c) => WHITESPACE.test(String.fromCodePoint(c)))) return;
    let keep = label.length;
    while (keep > 1 && NONSPACING_MARK.test(String.fromCodePoint(label[keep - 1]))) keep -= 1;
    if (keep === label.length) return;
    labels[index + 1] = [...label.slice(keep), ...next];
    labels[index] = label.slice(0, keep);
  });
  return labels;
}

/**
 * A glyph that stands for no character (a mark shaping split off its letter) extracts as WORD
 * JOINER: text extraction drops a format character, where an empty entry would read as the
 * glyph's raw code.
 */
function silentIfEmpty(codePoints: number[]): number[] {
  return codePoints.length === 0 ? [WORD_JOINER] : codePoints;
}

const WORD_JOINER = 0x2060;

/** Whether a glyph's label says it stands for no character (see silentIfEmpty). */
export function isSilent(codePoints: number[]): boolean {
  return codePoints.length === 1 && codePoints[0] === WORD_JOINER;
}

/** The character's mirror image in the Unicode Bidi Mirroring list, or the character itself. */
function mirrored(codePoint: number): number {
  if (codePoint > 0xffff) return codePoint;
  const mirror = bidi.getMirroredCharacter(String.fromCharCode(codePoint));
  return mirror === null ? codePoint : mirror.charCodeAt(0);
}

/** Per document: the faces registered on it, and the one it is set in now. */
interface DocumentFaces {
  registered: Set<string>;
  current?: FontFace;
}

const DOCUMENT_FACES = new WeakMap<PDFKit.PDFDocument, DocumentFaces>();

/** Sets the document in the face, registering it (wrapped) on first use. */
export function useFace(pdf: PDFKit.PDFDocument, face: FontFace): PDFKit.PDFDocument {
  let faces = DOCUMENT_FACES.get(pdf);
  if (faces === undefined) {
    faces = { registered: new Set() };
    DOCUMENT_FACES.set(pdf, faces);
  }
  if (faces.current === face) return pdf;
  if (!faces.registered.has(face.key)) {
    // pdfkit embeds any object with fontkit's `layout` as a font (PDFFontFactory.open).
    const font = new DocumentFont(face.font);
    pdf.registerFont(face.key, font as unknown as Buffer);
    faces.registered.add(face.key);
  }
  faces.current = face;
  return pdf.font(face.key);
}
