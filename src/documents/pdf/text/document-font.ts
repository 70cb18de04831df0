import type * as fontkit from 'fontkit';
import { FamilyName, FontFace } from './font-faces';

/*
 * Parsing a font file is most of the cost of a render, and a CJK file is 5–10 MB, so every
 * document shares one parsed fontkit font per face. Sharing it with pdfkit as-is would be wrong:
 * fontkit keeps one Glyph object per glyph id for the font's life, labelled with the characters
 * it was first laid out for, and pdfkit writes that label into the PDF's ToUnicode map, the map
 * text extraction and search read. A face that draws two characters with one glyph (DejaVu's
 * Latin P and Cyrillic Р) would then extract one as the other, in a later document too.
 *
 * So each document wraps the shared font in a DocumentFont, which is what pdfkit embeds:
 * - its layout labels every base glyph with the character of *this* text before laying it out,
 *   and answers copies of the glyphs, taken at once, that later layouts cannot relabel;
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
 * Shaped texts (pdfkit lays out word by word) per parsed font, shared by every document: a word
 * is shaped once, not once per document. Cleared when it holds this many.
 */
const SHAPED = new WeakMap<fontkit.Font, Map<string, ShapedText>>();
const SHAPED_LIMIT = 20_000;

/** What pdfkit reads of a layout; `advanceWidth` sums the positions pdfkit scales in place. */
interface DocumentGlyphRun {
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

  /**
   * `relabel`: the face's shaping substitutes glyphs (Arabic forms, Indic conjuncts, Thai
   * marks), and fontkit labels a substituted glyph from its cache too, where priming cannot
   * reach: its glyph cache is emptied before each layout, at the cost of decoding those glyphs
   * again.
   */
  constructor(
    private readonly font: fontkit.Font,
    private readonly relabel: boolean,
  ) {}

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
    const shaped = features === undefined ? this.shapedOnce(text) : this.shape(text, features);
    const glyphs = shaped.glyphs.map((glyph) => ({
      id: this.numberOf(glyph.id, glyph.codePoints),
      advanceWidth: glyph.advanceWidth,
      codePoints: glyph.codePoints,
    }));
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

  private shapedOnce(text: string): ShapedText {
    let shapes = SHAPED.get(this.font);
    if (shapes === undefined) {
      shapes = new Map();
      SHAPED.set(this.font, shapes);
    }
    let shaped = shapes.get(text);
    if (shaped === undefined) {
      if (shapes.size >= SHAPED_LIMIT) shapes.clear();
      shaped = this.shape(text);
      shapes.set(text, shaped);
    }
    return shaped;
  }

  /** fontkit's layout of the text, each glyph labelled with what it extracts as. */
  private shape(text: string, features?: string[]): ShapedText {
    if (this.relabel) (this.font as unknown as { _glyphs: object })._glyphs = {};
    for (const character of text) {
      const codePoint = character.codePointAt(0)!;
      const glyph = this.font.glyphForCodePoint(codePoint) as { codePoints: number[] };
      glyph.codePoints = [codePoint];
    }
    const run = this.font.layout(text, features);
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
  if (rtl || inOrder) return glyphs.map(({ codePoints }) => silentIfEmpty(codePoints));

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
  return labels.map(silentIfEmpty);
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

/** Families whose shaping substitutes glyphs for others: see DocumentFont's `relabel`. */
const SHAPED_FAMILIES = new Set<FamilyName>(['arabic', 'hebrew', 'devanagari', 'thai']);

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
    const font = new DocumentFont(face.font, SHAPED_FAMILIES.has(face.family));
    pdf.registerFont(face.key, font as unknown as Buffer);
    faces.registered.add(face.key);
  }
  faces.current = face;
  return pdf.font(face.key);
}
