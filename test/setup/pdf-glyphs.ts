import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFObject,
  PDFRawStream,
} from 'pdf-lib';

/*
 * Which characters a PDF can actually show: "no tofu". A reader extracts text through a font's
 * ToUnicode CMap, which says nothing of what the glyph looks like: the box (.notdef) a font
 * draws for a character it lacks can map to that character as well as a real glyph does
 * (pdfkit maps it to U+0000; another writer may map it to the character it stood for). This
 * reads every embedded composite font (Type0 over CIDFontType2 with a
 * FontFile2, or an OpenType FontFile3), opens its font program with fontkit, and counts a
 * character as covered only when some font maps a glyph that is not .notdef and has an outline
 * to a text holding that character. Whitespace, control and format characters (ZWJ, bidi
 * marks, …) draw nothing by design and are exempt.
 */

/** One font embedded in the PDF, as far as the checker could read it. */
export interface EmbeddedFont {
  /** BaseFont, subset tag included (`ABCDEF+NotoSansJP-Regular`). */
  name: string;
  /** `Type0`, or a simple font's subtype (`TrueType`, `Type1`, …), which is listed only. */
  subtype: string;
  /** The descendant CIDFont's subtype (`CIDFontType2`, `CIDFontType0`); '' for simple fonts. */
  cidSubtype: string;
  /** Which font file the descriptor holds: `FontFile2`, `FontFile3/OpenType`, … or ''. */
  fontFile: string;
  /** Bytes of the font program, decoded. */
  programBytes: number;
  /** Glyphs in the embedded program (a subset holds only those used, plus .notdef). */
  glyphCount: number;
  /** Code → the text ToUnicode gives for it. */
  toUnicode: Map<number, string>;
  /** Codes whose glyph is not .notdef and has an outline. */
  inkedCodes: Set<number>;
  /** Why some or all of this font could not be checked; its codes then count as not covered. */
  problems: string[];
}

/** What the fonts of a PDF show of a text. */
export interface GlyphCoverage {
  /** Distinct characters of the text (code points) that some font shows with a real glyph. */
  covered: string[];
  /** Distinct characters of the text that no font shows: tofu, or not embedded at all. */
  missing: string[];
}

/** Lists the fonts embedded in a PDF, each with its ToUnicode map and the codes it can ink. */
export async function embeddedFonts(bytes: Uint8Array): Promise<EmbeddedFont[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  const fonts: EmbeddedFont[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (nameOf(object.lookup(PDFName.of('Type'))) !== 'Font') continue;
    const subtype = nameOf(object.lookup(PDFName.of('Subtype')));
    // Descendant CIDFonts are read through their Type0 parent.
    if (subtype === 'CIDFontType0' || subtype === 'CIDFontType2') continue;
    fonts.push(subtype === 'Type0' ? readType0(object) : listSimpleFont(object, subtype));
  }
  return fonts;
}

/** Every character (code point) some embedded font shows with a real glyph. */
export async function coveredCharacters(bytes: Uint8Array): Promise<Set<string>> {
  return charactersOf(await embeddedFonts(bytes));
}

/** For each distinct character of `text` (exempt ones left out): covered or missing. */
export async function glyphCoverage(bytes: Uint8Array, text: string): Promise<GlyphCoverage> {
  return coverageOf(await embeddedFonts(bytes), text);
}

/** The same, for fonts already read (one PDF checked against several texts). */
export function coverageOf(fonts: EmbeddedFont[], text: string): GlyphCoverage {
  const inked = charactersOf(fonts);
  const distinct = [...new Set(Array.from(text))].filter((char) => !isExempt(char));
  return {
    covered: distinct.filter((char) => inked.has(char)),
    missing: distinct.filter((char) => !inked.has(char)),
  };
}

/** Characters that draw nothing by design: whitespace, control and format characters. */
export function isExempt(char: string): boolean {
  return /^[\p{White_Space}\p{Cc}\p{Cf}]$/u.test(char);
}

function charactersOf(fonts: EmbeddedFont[]): Set<string> {
  const chars = new Set<string>();
  for (const font of fonts) {
    for (const code of font.inkedCodes) {
      for (const char of font.toUnicode.get(code) ?? '') chars.add(char);
    }
  }
  return chars;
}

function readType0(dict: PDFDict): EmbeddedFont {
  const font: EmbeddedFont = {
    name: nameOf(dict.lookup(PDFName.of('BaseFont'))),
    subtype: 'Type0',
    cidSubtype: '',
    fontFile: '',
    programBytes: 0,
    glyphCount: 0,
    toUnicode: new Map(),
    inkedCodes: new Set(),
    problems: [],
  };
  const toUnicode = dict.lookup(PDFName.of('ToUnicode'));
  if (toUnicode instanceof PDFRawStream) {
    font.toUnicode = parseToUnicode(Buffer.from(streamBytes(toUnicode)).toString('latin1'));
  } else {
    font.problems.push('no ToUnicode CMap');
  }
  const encoding = nameOf(dict.lookup(PDFName.of('Encoding')));
  if (encoding !== 'Identity-H' && encoding !== 'Identity-V') {
    // Any other CMap maps codes to CIDs in ways this checker does not read.
    font.problems.push(`encoding ${encoding || '(a CMap stream)'} is not Identity`);
    return font;
  }
  const descendants = dict.lookup(PDFName.of('DescendantFonts'));
  const cidFont = descendants instanceof PDFArray ? descendants.lookup(0) : undefined;
  if (!(cidFont instanceof PDFDict)) {
    font.problems.push('no descendant CIDFont');
    return font;
  }
  font.cidSubtype = nameOf(cidFont.lookup(PDFName.of('Subtype')));
  const cidToGid = cidToGidMap(cidFont.lookup(PDFName.of('CIDToGIDMap')), font);
  const program = fontProgram(cidFont.lookup(PDFName.of('FontDescriptor')), font);
  if (!program) return font;
  font.programBytes = program.length;
  let parsed: fontkit.Font;
  try {
    parsed = fontkit.create(Buffer.from(program)) as fontkit.Font;
    font.glyphCount = parsed.numGlyphs;
  } catch (error) {
    font.problems.push(`fontkit cannot open the program: ${String(error)}`);
    return font;
  }
  for (const code of font.toUnicode.keys()) {
    // Identity-H: the code is the CID; a TrueType CIDFont maps it to a glyph id.
    const gid = cidToGid(code);
    if (gid > 0 && gid < parsed.numGlyphs && hasOutline(parsed, gid)) font.inkedCodes.add(code);
  }
  return font;
}

/** A simple font is listed (its name and file) but not checked: codes map through its cmap. */
function listSimpleFont(dict: PDFDict, subtype: string): EmbeddedFont {
  const descriptor = dict.lookup(PDFName.of('FontDescriptor'));
  const fontFile =
    descriptor instanceof PDFDict
      ? (['FontFile', 'FontFile2', 'FontFile3'].find((key) => descriptor.has(PDFName.of(key))) ??
        '')
      : '';
  return {
    name: nameOf(dict.lookup(PDFName.of('BaseFont'))),
    subtype,
    cidSubtype: '',
    fontFile,
    programBytes: 0,
    glyphCount: 0,
    toUnicode: new Map(),
    inkedCodes: new Set(),
    problems: [fontFile ? `simple ${subtype} font: not checked` : `${subtype} font not embedded`],
  };
}

function hasOutline(font: fontkit.Font, gid: number): boolean {
  try {
    const glyph = font.getGlyph(gid);
    return glyph.name !== '.notdef' && glyph.path.commands.length > 0;
  } catch {
    return false;
  }
}

/**
 * CID → glyph id. A TrueType CIDFont has a CIDToGIDMap: Identity (or absent, which means the
 * same), or a stream of big-endian 16-bit glyph ids indexed by CID. A CFF CIDFont maps CIDs
 * through its charset, which this does not read: it takes the CID as the glyph id and says so.
 */
function cidToGidMap(map: PDFObject | undefined, font: EmbeddedFont): (cid: number) => number {
  if (font.cidSubtype !== 'CIDFontType2') {
    font.problems.push(`${font.cidSubtype || 'CIDFont'}: CIDs taken as glyph ids, not checked`);
  } else if (map instanceof PDFRawStream) {
    const table = streamBytes(map);
    return (cid) => (2 * cid + 1 < table.length ? (table[2 * cid] << 8) | table[2 * cid + 1] : 0);
  } else if (map !== undefined && nameOf(map) !== 'Identity') {
    font.problems.push('CIDToGIDMap neither Identity nor a stream');
  }
  return (cid) => cid;
}

/** The decoded TrueType or OpenType program of a CIDFont's descriptor, or undefined. */
function fontProgram(
  descriptor: PDFObject | undefined,
  font: EmbeddedFont,
): Uint8Array | undefined {
  if (!(descriptor instanceof PDFDict)) {
    font.problems.push('no FontDescriptor');
    return undefined;
  }
  const file2 = descriptor.lookup(PDFName.of('FontFile2'));
  if (file2 instanceof PDFRawStream) {
    font.fontFile = 'FontFile2';
    return streamBytes(file2);
  }
  const file3 = descriptor.lookup(PDFName.of('FontFile3'));
  if (file3 instanceof PDFRawStream) {
    const subtype = nameOf(file3.dict.lookup(PDFName.of('Subtype')));
    font.fontFile = `FontFile3/${subtype}`;
    if (subtype === 'OpenType') return streamBytes(file3);
    // A bare CFF (CIDFontType0C) is no file fontkit opens: report it rather than guess.
    font.problems.push(`bare CFF program (${subtype}): outlines not checked`);
    return undefined;
  }
  font.problems.push(descriptor.has(PDFName.of('FontFile')) ? 'Type 1 program' : 'not embedded');
  return undefined;
}

/** A stream's data with its filters undone: FlateDecode by zlib, others by pdf-lib. */
function streamBytes(stream: PDFRawStream): Uint8Array {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters =
    filter instanceof PDFArray
      ? filter.asArray().map((item) => nameOf(item))
      : filter
        ? [nameOf(filter)]
        : [];
  if (filters.length === 0) return stream.contents;
  if (filters.length === 1 && filters[0] === 'FlateDecode') return inflateSync(stream.contents);
  return decodePDFRawStream(stream).decode();
}

function nameOf(object: PDFObject | undefined): string {
  return object instanceof PDFName ? object.decodeText() : '';
}

/**
 * A ToUnicode CMap: `bfchar` pairs (`<code> <utf16>`) and `bfrange` triples, whose target is
 * either one UTF-16BE string whose last code unit counts up along the range, or an array of one
 * string per code. Targets are UTF-16BE hex, surrogate pairs and several characters included
 * (a ligature maps to all it stands for); whitespace inside the hex is ignored.
 */
export function parseToUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const tokens = tokenize(cmap);
  let section: 'bfchar' | 'bfrange' | null = null;
  for (let index = 0; index < tokens.length;) {
    const token = tokens[index];
    if (token === 'beginbfchar' || token === 'beginbfrange') {
      section = token === 'beginbfchar' ? 'bfchar' : 'bfrange';
      index += 1;
    } else if (token === 'endbfchar' || token === 'endbfrange') {
      section = null;
      index += 1;
    } else if (section === 'bfchar' && isHex(token)) {
      map.set(hexNumber(token), utf16(tokens[index + 1]));
      index += 2;
    } else if (section === 'bfrange' && isHex(token)) {
      const low = hexNumber(token);
      const high = hexNumber(tokens[index + 1]);
      const target = tokens[index + 2];
      if (target === '[') {
        let code = low;
        index += 3;
        while (tokens[index] !== ']' && index < tokens.length) {
          if (code <= high) map.set(code, utf16(tokens[index]));
          code += 1;
          index += 1;
        }
        index += 1;
      } else {
        const units = utf16Units(target);
        for (let code = low; code <= high; code += 1) {
          const shifted = [...units];
          shifted[shifted.length - 1] += code - low;
          map.set(code, String.fromCharCode(...shifted));
        }
        index += 3;
      }
    } else {
      index += 1;
    }
  }
  return map;
}

/** Hex strings (`<…>`, whitespace removed), array brackets, and bare words; comments dropped. */
function tokenize(source: string): string[] {
  const tokens: string[] = [];
  const pattern = /%[^\r\n]*|<([0-9A-Fa-f\s]*)>|(\[|\])|([^\s<>[\]%]+)/g;
  for (const match of source.matchAll(pattern)) {
    if (match[0].startsWith('%')) continue;
    if (match[1] !== undefined) tokens.push(`<${match[1].replace(/\s+/g, '')}>`);
    else tokens.push(match[2] ?? match[3]);
  }
  return tokens;
}

function isHex(token: string | undefined): token is string {
  return token !== undefined && token.startsWith('<');
}

function hexNumber(token: string): number {
  return parseInt(token.slice(1, -1) || '0', 16);
}

function utf16Units(token: string | undefined): number[] {
  if (!isHex(token)) return [];
  const hex = token.slice(1, -1);
  const units: number[] = [];
  for (let at = 0; at + 4 <= hex.length; at += 4) units.push(parseInt(hex.slice(at, at + 4), 16));
  // A one-byte target (<41>) is read as that code unit.
  if (hex.length > 0 && hex.length < 4) units.push(parseInt(hex, 16));
  return units;
}

function utf16(token: string | undefined): string {
  return String.fromCharCode(...utf16Units(token));
}
