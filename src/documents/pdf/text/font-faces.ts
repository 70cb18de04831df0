import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { ByteBoundedCache, FIELD_BYTES, TEXT_CACHE_BYTES } from './byte-bounded-cache';

/*
 * The fonts documents print with, all from npm packages: DejaVu Sans for Latin, Greek and
 * Cyrillic (and the symbols it has), and a Noto Sans family for each script it lacks. A font is
 * read and parsed once per process, the first time a text needs it, and shared by every
 * document after that (see document-font.ts for how sharing stays correct). A Latin invoice
 * never loads the large CJK files.
 */

export type Weight = 'regular' | 'bold';

export type FamilyName =
  'latin' | 'arabic' | 'hebrew' | 'devanagari' | 'thai' | 'japanese' | 'chinese' | 'korean';

/** The npm module path of each family's regular and bold file. */
const FAMILY_FILES: Record<FamilyName, Record<Weight, string>> = {
  latin: {
    regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
    bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  },
  arabic: notoFiles('noto-sans-arabic', 'NotoSansArabic'),
  hebrew: notoFiles('noto-sans-hebrew', 'NotoSansHebrew'),
  devanagari: notoFiles('noto-sans-devanagari', 'NotoSansDevanagari'),
  thai: notoFiles('noto-sans-thai', 'NotoSansThai'),
  japanese: notoFiles('noto-sans-jp', 'NotoSansJP'),
  chinese: notoFiles('noto-sans-sc', 'NotoSansSC'),
  korean: notoFiles('noto-sans-kr', 'NotoSansKR'),
};

function notoFiles(pkg: string, file: string): Record<Weight, string> {
  return {
    regular: `@expo-google-fonts/${pkg}/400Regular/${file}_400Regular.ttf`,
    bold: `@expo-google-fonts/${pkg}/700Bold/${file}_700Bold.ttf`,
  };
}

/** One weight of one family: the name a PDF registers it under, and its parsed font. */
export interface FontFace {
  /** Unique per face, e.g. `latin-bold`; the name pdfkit registers it by in a document. */
  readonly key: string;
  readonly family: FamilyName;
  readonly weight: Weight;
  /** Parsed on first use, then shared. */
  readonly font: fontkit.Font;
  covers(codePoint: number): boolean;
  /** The width of the text in points at this size. */
  width(text: string, size: number): number;
}

/** Measured advances of words, in font units, by face; bounded by bytes (see TEXT_CACHE_BYTES). */
const MEASURED = new ByteBoundedCache<number>(TEXT_CACHE_BYTES.measured, () => FIELD_BYTES);

/** Whether a face has a character, for the Basic Multilingual Plane: 0 not asked yet, 1, 2. */
const COVERED = 1;
const NOT_COVERED = 2;

class LazyFontFace implements FontFace {
  private parsed: fontkit.Font | undefined;
  /** By BMP code point (64 KiB a face asked); other planes are asked of the font each time. */
  private coverage: Uint8Array | undefined;
  private unitsPerEm = 0;

  constructor(
    readonly family: FamilyName,
    readonly weight: Weight,
  ) {}

  get key(): string {
    return `${this.family}-${this.weight}`;
  }

  get font(): fontkit.Font {
    if (this.parsed === undefined) {
      const file = readFileSync(require.resolve(FAMILY_FILES[this.family][this.weight]));
      this.parsed = fontkit.create(file) as fontkit.Font;
    }
    return this.parsed;
  }

  /**
   * The advance of the text at `size` points, as pdfkit lays it out: word by word (each with
   * its following space), so that measuring agrees with drawing. Kept across documents.
   */
  width(text: string, size: number): number {
    let units = 0;
    let start = 0;
    for (let index = 0; index < text.length; index += 1) {
      if (text[index] === ' ' || text[index] === '\t') {
        units += this.advance(text.slice(start, index + 1));
        start = index + 1;
      }
    }
    if (start < text.length) units += this.advance(text.slice(start));
    if (this.unitsPerEm === 0) this.unitsPerEm = this.font.unitsPerEm;
    return (units / this.unitsPerEm) * size;
  }

  private advance(word: string): number {
    return MEASURED.get(word, () => this.font.layout(word).advanceWidth, this);
  }

  covers(codePoint: number): boolean {
    if (codePoint > 0xffff) return this.font.hasGlyphForCodePoint(codePoint);
    this.coverage ??= new Uint8Array(0x10000);
    let covered = this.coverage[codePoint];
    if (covered === 0) {
      covered = this.font.hasGlyphForCodePoint(codePoint) ? COVERED : NOT_COVERED;
      this.coverage[codePoint] = covered;
    }
    return covered === COVERED;
  }
}

const FACES = {} as Record<FamilyName, Record<Weight, FontFace>>;
for (const family of Object.keys(FAMILY_FILES) as FamilyName[]) {
  FACES[family] = {
    regular: new LazyFontFace(family, 'regular'),
    bold: new LazyFontFace(family, 'bold'),
  };
}

export function fontFace(family: FamilyName, weight: Weight): FontFace {
  return FACES[family][weight];
}

/** The face whose metrics set every line's height and baseline, so page flow is script-blind. */
export function baseFace(weight: Weight): FontFace {
  return fontFace('latin', weight);
}
