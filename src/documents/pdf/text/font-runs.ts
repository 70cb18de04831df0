import { FamilyName, fontFace, FontFace, Weight } from './font-faces';

/*
 * Which face prints each character: the family made for its script; characters every script
 * shares (spaces, digits, punctuation, combining marks) stay in the face of the run they are in
 * when it has them; anything the chosen face lacks falls back through the other families in a
 * fixed order, so a line mixing Latin and Japanese prints both.
 */

/** A run of text, as UTF-16 offsets into its paragraph (`end` exclusive), in one face. */
export interface FaceRun {
  start: number;
  end: number;
  face: FontFace;
}

/** Han characters print in Chinese forms unless the text is Japanese or Korean. */
type ScriptFamily = FamilyName | 'han';

const SCRIPT_FAMILIES: Array<[RegExp, ScriptFamily]> = [
  [/\p{Script=Arabic}/u, 'arabic'],
  [/\p{Script=Hebrew}/u, 'hebrew'],
  [/\p{Script=Devanagari}/u, 'devanagari'],
  [/\p{Script=Thai}/u, 'thai'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'japanese'],
  [/\p{Script=Hangul}/u, 'korean'],
  [/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u, 'han'],
  [/[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u, 'latin'],
];

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const MARK = /\p{M}/u;

const FALLBACK_ORDER: FamilyName[] = [
  'latin',
  'arabic',
  'hebrew',
  'devanagari',
  'thai',
  'japanese',
  'chinese',
  'korean',
];

/** The CJK family for Han characters in this text: its kana say Japanese, its Hangul Korean. */
function hanFamily(text: string): FamilyName {
  if (KANA.test(text)) return 'japanese';
  if (HANGUL.test(text)) return 'korean';
  return 'chinese';
}

/** A BMP code point's entry in SCRIPT_FAMILIES, plus one (0: not looked up yet; -1: none). */
const BMP_SCRIPT = new Int8Array(0x10000);

function scriptFamily(character: string, codePoint: number, han: FamilyName): FamilyName | null {
  let entry = codePoint < 0x10000 ? BMP_SCRIPT[codePoint] : 0;
  if (entry === 0) {
    entry = SCRIPT_FAMILIES.findIndex(([pattern]) => pattern.test(character)) + 1 || -1;
    if (codePoint < 0x10000) BMP_SCRIPT[codePoint] = entry;
  }
  if (entry < 0) return null;
  const family = SCRIPT_FAMILIES[entry - 1][1];
  return family === 'han' ? han : family;
}

/**
 * The first face that has the character: Latin, the text's CJK family, then the others; the
 * Latin face (its .notdef box) if none has.
 */
function fallbackFace(codePoint: number, weight: Weight, han: FamilyName): FontFace {
  const order = ['latin', han, ...FALLBACK_ORDER.filter((family) => family !== han)];
  for (const family of order as FamilyName[]) {
    const face = fontFace(family, weight);
    if (face.covers(codePoint)) return face;
  }
  return fontFace('latin', weight);
}

/** Splits one paragraph (no line breaks) into runs of one face each. */
export function faceRuns(text: string, weight: Weight): FaceRun[] {
  const han = hanFamily(text);
  const runs: FaceRun[] = [];
  let current: FaceRun | undefined;
  let offset = 0;
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    const face = chooseFace(character, codePoint, weight, han, current?.face);
    if (current !== undefined && current.face === face) {
      current.end = offset + character.length;
    } else {
      current = { start: offset, end: offset + character.length, face };
      runs.push(current);
    }
    offset += character.length;
  }
  return runs;
}

function chooseFace(
  character: string,
  codePoint: number,
  weight: Weight,
  han: FamilyName,
  current: FontFace | undefined,
): FontFace {
  const family = scriptFamily(character, codePoint, han);
  if (family === null) {
    // Shared by scripts: keep the run's face when it can print it (a mark always stays).
    if (current !== undefined && (MARK.test(character) || current.covers(codePoint))) {
      return current;
    }
    return fallbackFace(codePoint, weight, han);
  }
  const face = fontFace(family, weight);
  return face.covers(codePoint) ? face : fallbackFace(codePoint, weight, han);
}
