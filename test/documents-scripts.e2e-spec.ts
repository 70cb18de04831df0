import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import PDFKitDocument from 'pdfkit';
import { fontFace } from '../src/documents/pdf/text/font-faces';
import { addClient, ClientInput } from './factories/clients';
import { addCreditNote } from './factories/credit-notes';
import { createEstimate } from './factories/estimates';
import { createInvoice } from './factories/invoices';
import { createTestApp, TestApp } from './setup/create-app';
import {
  coverageOf,
  EmbeddedFont,
  embeddedFonts,
  glyphCoverage,
  isExempt,
  parseToUnicode,
} from './setup/pdf-glyphs';
import { drawnOutlines, outlineOf } from './setup/pdf-outlines';
import { popplerText, withoutDirectionMarks } from './setup/pdf-poppler';
import {
  hasInk,
  inkPixels,
  RenderedPage,
  RenderedPdf,
  renderPdf,
  renderPdfs,
} from './setup/pdf-render';
import { flattened, pdfText } from './setup/pdf-text';
import { describeWithoutDatabase, itWithoutDatabase, testDialect } from './setup/test-database';

/*
 * Every script prints as its glyphs, in reading order (right-to-left runs by the Unicode
 * bidirectional algorithm, brackets mirrored), and extracts as the same text. For each script
 * a client and a document carrying text in it, mixed with Latin and digits, fetched as a PDF
 * through HTTP, and these readings of the file:
 *
 * - the text pdf.js extracts and the text poppler's pdftotext extracts each hold every text
 *   exactly as sent, with nothing added (no control or format characters);
 * - every character sent is drawn by a real glyph of an embedded font, never .notdef (tofu);
 * - page 1 renders with ink, and ink where pdf.js places the script's text.
 *
 * pdf.js reads a page in the order it was drawn, through each glyph's ToUnicode entry, and
 * turns right-to-left text back into logical order with its own bidi pass, so a right-to-left
 * run extracts in logical order exactly when it was drawn in visual order. poppler reads the
 * /ActualText of marked content where there is one. Two things poppler's pdftotext does to
 * right-to-left text whatever the file says, which the texts below stay clear of: on a page
 * mostly left to right, a neutral character (a bracket, a full stop) at either end of a
 * right-to-left line is written on the wrong side, and the space between a right-to-left run
 * and the Latin after it moves before the run; so mixed lines are checked by their parts.
 */

/** A text sent in a field of the document, and what extraction must give back for it. */
interface SentText {
  text: string;
  /**
   * A line that mixes a left-to-right and a right-to-left run: which run pdf.js puts first
   * depends on how it splits the line into items (font changes, gaps), not on the document,
   * so each part must come out whole but their order is not checked. Absent: the whole text.
   */
  parts?: string[];
}

interface ScriptCase {
  script: string;
  /** More of the client than its name and address. */
  client?: ClientInput;
  /** Matches a character of the script (for the text boxes of the rendered page). */
  letters: RegExp;
  names: string;
  address: string;
  description: SentText;
  line: string;
}

const SCRIPTS: ScriptCase[] = [
  {
    script: 'Greek',
    letters: /\p{Script=Greek}/u,
    names: 'Ελληνική Εταιρεία',
    address: 'Οδός Ερμού 15, Αθήνα',
    description: { text: 'Translation Μετάφραση 2026' },
    line: 'Μετάφραση εγγράφων',
  },
  {
    script: 'Cyrillic',
    letters: /\p{Script=Cyrillic}/u,
    names: 'ООО «Петровна»',
    address: 'ул. Пушкина, д. 10, Москва',
    description: { text: 'Translation Перевод 2026' },
    line: 'Перевод документов',
  },
  {
    script: 'Japanese',
    letters: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
    names: '株式会社テスト商事',
    address: '東京都千代田区丸の内1-1-1',
    // The line mixing Latin and Japanese.
    description: { text: 'Consulting 相談 2026' },
    line: 'ソフトウェア開発 第2期',
  },
  {
    script: 'Chinese',
    letters: /\p{Script=Han}/u,
    names: '北京科技有限公司',
    address: '北京市海淀区中关村大街27号',
    description: { text: 'Software 软件开发 2026' },
    line: '技术咨询服务',
  },
  {
    script: 'Korean',
    letters: /\p{Script=Hangul}/u,
    names: '주식회사 미래',
    address: '서울특별시 강남구 테헤란로 123',
    description: { text: 'Consulting 컨설팅 2026' },
    line: '소프트웨어 개발',
  },
  {
    script: 'Devanagari',
    letters: /\p{Script=Devanagari}/u,
    names: 'राम कुमार शर्मा',
    address: 'नई दिल्ली 110001',
    description: { text: 'Project 2026: वेबसाइट विकास' },
    line: 'नमस्ते दुनिया — परामर्श सेवा',
  },
  {
    script: 'Thai',
    letters: /\p{Script=Thai}/u,
    names: 'บริษัท ทดสอบ จำกัด',
    address: 'กรุงเทพมหานคร 10110',
    description: { text: 'Consulting 2026 งานที่ปรึกษา' },
    line: 'บริการให้คำปรึกษา',
  },
  {
    script: 'Arabic',
    letters: /\p{Script=Arabic}/u,
    // Brackets inside right-to-left text: drawn mirrored, extracted as sent.
    names: 'شركة المستقبل (فرع الرياض) للتجارة',
    address: 'شارع الملك فهد الرياض',
    client: { country: 'SA', tax_id: 'SA300000000000003' },
    // Digits after Arabic join its run (bidi rule W2): printed left of it. Parts only.
    description: {
      text: 'Consulting for شركة المستقبل 2026',
      parts: ['Consulting for', 'شركة المستقبل', '2026'],
    },
    // ن and ب share a dotless form in Noto Sans Arabic: برنامج must not read بربامج.
    line: 'برنامج خدمات استشارية',
  },
  {
    script: 'Hebrew',
    letters: /\p{Script=Hebrew}/u,
    names: 'חברת העתיד (ישראל) בע"מ',
    address: 'רחוב הרצל תל אביב',
    client: { country: 'IL', phone: '+972 3 555 0100', tax_id: 'IL514000000' },
    // The line mixing Latin and Hebrew.
    description: {
      text: 'Invoice for חברת העתיד Ltd',
      parts: ['Invoice for', 'חברת העתיד', 'Ltd'],
    },
    line: 'ייעוץ עסקי',
  },
];

/** Writing without spaces between words: pdf.js may put a space between two such characters. */
/**
 * pdf.js ends a text item after a Devanagari ligature glyph (द with the vowel sign ु drawn as
 * one), so it may put a line break between two letters of a word; never before a vowel sign.
 */
const DEVANAGARI = /\p{Script=Devanagari}/u;

const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * A pattern for a text as extraction gives it back. Only whitespace is normalised:
 * - a run of whitespace sent matches any run of whitespace (pdf.js joins the items of a line
 *   with spaces and a wrapped text with a line break; the text must still have a break there);
 * - where no space was sent, next to a character of a script written without spaces between
 *   words (Chinese, Japanese, Korean, Thai), any whitespace is allowed, none required: pdf.js
 *   inserts a space where a glyph lands further right than the previous one's advance (Thai
 *   marks, kerning, a change of font as in 丸の内1-1-1, a line wrapped inside a CJK run), which
 *   no reader of those scripts would count as a word break;
 * - between two Devanagari letters (not before a vowel sign or other mark), see DEVANAGARI.
 * Every other character must come out exactly as sent, in logical order.
 */
function extractionPattern(text: string): RegExp {
  const chars = Array.from(text.trim());
  let source = '';
  chars.forEach((char, index) => {
    const previous = chars[index - 1] ?? '';
    if (/\s/u.test(char)) {
      if (!/\s/u.test(previous)) source += '\\s+';
      return;
    }
    if (previous !== '' && (UNSPACED.test(previous) || UNSPACED.test(char))) source += '\\s*';
    else if (DEVANAGARI.test(previous) && DEVANAGARI.test(char) && !/\p{M}/u.test(char)) {
      source += '\\s*';
    }
    source += char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  });
  return new RegExp(source, 'u');
}

/** Where a text is in the extracted text (after `from`), or -1. */
function findText(extracted: string, text: string, from = 0): { at: number; end: number } {
  const match = extractionPattern(text).exec(extracted.slice(from));
  return match
    ? { at: from + match.index, end: from + match.index + match[0].length }
    : { at: -1, end: -1 };
}

/** Asserts each text is in the extracted text, in this order; names the first one missing. */
function expectTextsInOrder(extracted: string, texts: string[]): void {
  let from = 0;
  for (const text of texts) {
    const found = findText(extracted, text, from);
    const anywhere = found.at >= 0 || findText(extracted, text).at >= 0;
    expect({ text, found: found.at >= 0, anywhere }).toEqual({ text, found: true, anywhere: true });
    if (found.at >= 0) from = found.end;
  }
}

/**
 * Characters extraction must never give: control characters (bar line breaks, tabs and form
 * feeds), format characters (WORD JOINER, bidi controls) and U+FFFD.
 */
function strayCharacters(extracted: string): string[] {
  const stray = extracted.match(/[\p{Cc}\p{Cf}\uFFFD]/gu) ?? [];
  return [...new Set(stray.filter((char) => !'\n\r\t\f'.includes(char)))].map(
    (char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/** All that one fetched document gives a reader. */
interface Reading {
  bytes: Buffer;
  /** The text pdf-parse extracts, pages joined by a line break (as pdfText gives it). */
  text: string;
  /** The text pdftotext extracts, less the direction marks it adds (pdf-poppler.ts). */
  poppler: string;
  fonts: EmbeddedFont[];
  /** Page 1, drawn (every document in the SQLite run; see DRAWN_ON_BOTH). */
  page: RenderedPage;
}

/**
 * The documents drawn in both runs: their tests check the text and the ink together. The
 * other drawings (ink, no blank page, where a block sits) are checked in the SQLite run only:
 * what is drawn follows from the text, and the text each database gives back is checked in
 * both, by both readers.
 */
const DRAWN_ON_BOTH = ['estimate-Hebrew', 'credit-note-Korean'];

/**
 * Reads the PDFs in `workers` batches at once: each batch is one worker thread that extracts
 * the text and draws page 1 of each of its PDFs (pdf-render.ts), so pdf.js loads once a batch.
 * In the MariaDB run, the documents not in DRAWN_ON_BOTH are read as text only (pdfText).
 */
async function readAll(pdfs: Array<{ name: string; bytes: Buffer }>, workers = 2) {
  const drawn = pdfs.filter(
    ({ name }) => testDialect() === 'sqlite' || DRAWN_ON_BOTH.includes(name),
  );
  const batches = Array.from({ length: workers }, (_, batch) =>
    drawn.filter((_, index) => index % workers === batch),
  );
  const rendered = await Promise.all(batches.map((batch) => renderPdfs(batch)));
  const drawings = new Map<string, RenderedPdf>(
    batches.flatMap((batch, index) =>
      batch.map(({ name }, position): [string, RenderedPdf] => [name, rendered[index][position]]),
    ),
  );
  const readings = new Map<string, Reading>();
  for (const { name, bytes } of pdfs) {
    const drawing = drawings.get(name);
    readings.set(name, {
      bytes,
      text: drawing ? drawing.text : (await pdfText(bytes)).text,
      poppler: withoutDirectionMarks(await popplerText(bytes)),
      fonts: await embeddedFonts(bytes),
      // Read only by the tests declared where it is drawn.
      page: drawing?.pages[0] as RenderedPage,
    });
  }
  return readings;
}

/** Ink where pdf.js placed the text items that hold letters of the script. */
function scriptInk(page: RenderedPage, letters: RegExp): { boxes: number; ink: number } {
  const boxes = page.textBoxes.filter((box) => letters.test(box.str));
  return {
    boxes: boxes.length,
    ink: boxes.reduce((sum, box) => sum + inkPixels(page.image, box), 0),
  };
}

/** The fonts' names without the subset tag: `NotoSansJP-Regular`. */
function fontNames(fonts: EmbeddedFont[]): string[] {
  return fonts.map((font) => font.name.replace(/^[A-Z]{6}\+/, ''));
}

const CJK_FONT = /(JP|SC|TC|KR|HK|CJK|Japanese|Chinese|Korean|Han)/i;

/** A PDF drawn by pdfkit itself, for checking the checkers. */
function pdfkitPdf(draw: (pdf: PDFKit.PDFDocument) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFKitDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    draw(pdf);
    pdf.end();
  });
}

/** The PDF with one more bfchar entry in each font's ToUnicode CMap. */
async function withToUnicodeEntry(bytes: Buffer, entry: string): Promise<Buffer> {
  const pdf = await PDFDocument.load(bytes);
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const cmap = object.lookup(PDFName.of('ToUnicode'));
    if (!(cmap instanceof PDFRawStream)) continue;
    const text = Buffer.from(decodePDFRawStream(cmap).decode()).toString('latin1');
    const patched = text.replace('endcmap', `1 beginbfchar\n${entry}\nendbfchar\nendcmap`);
    object.set(PDFName.of('ToUnicode'), pdf.context.register(pdf.context.flateStream(patched)));
  }
  return Buffer.from(await pdf.save());
}

const DEJAVU = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const NOTO_JP =
  require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf');

describeWithoutDatabase('The checkers this file relies on', () => {
  describe('glyph coverage', () => {
    it('finds Japanese drawn with DejaVu Sans missing (.notdef), and the Latin beside it covered', async () => {
      const bytes = await pdfkitPdf((pdf) =>
        pdf.font(DEJAVU).text('Invoice 株式会社テスト商事 Ltd', 50, 50),
      );
      const coverage = await glyphCoverage(bytes, 'Invoice 株式会社テスト商事 Ltd');
      expect(coverage.missing).toEqual(Array.from('株式会社テスト商事'));
      expect(coverage.covered).toEqual(['I', 'n', 'v', 'o', 'i', 'c', 'e', 'L', 't', 'd']);
      const fonts = await embeddedFonts(bytes);
      expect(fontNames(fonts)).toEqual(['DejaVuSans']);
      expect(fonts[0]).toMatchObject({ subtype: 'Type0', cidSubtype: 'CIDFontType2' });
      expect(fonts[0].fontFile).toBe('FontFile2');
      expect(fonts[0].problems).toEqual([]);
    });

    it('finds the same Japanese covered when drawn with Noto Sans JP, whose subset is small', async () => {
      const bytes = await pdfkitPdf((pdf) =>
        pdf.font(NOTO_JP).text('Consulting 相談 2026', 50, 50),
      );
      expect(await glyphCoverage(bytes, 'Consulting 相談 2026')).toEqual({
        covered: ['C', 'o', 'n', 's', 'u', 'l', 't', 'i', 'g', '相', '談', '2', '0', '6'],
        missing: [],
      });
      const [font] = await embeddedFonts(bytes);
      expect(font.name).toMatch(/^[A-Z]{6}\+NotoSansJP-Regular$/);
      expect(font.glyphCount).toBeLessThan(30);
    });

    it('does not count .notdef even when its ToUnicode entry claims the character', async () => {
      // pdfkit maps .notdef to U+0000; this file says it stands for 株, as another writer might.
      const drawn = await pdfkitPdf((pdf) => pdf.font(DEJAVU).text('A株', 50, 50));
      const bytes = await withToUnicodeEntry(drawn, '<0000> <682A>');
      expect((await pdfText(bytes)).text).toContain('A株');
      expect(await glyphCoverage(bytes, 'A株')).toEqual({ covered: ['A'], missing: ['株'] });
    });

    it('does not count a glyph without an outline, nor a character no font holds', async () => {
      // U+2800 BRAILLE PATTERN BLANK is a letter-like symbol whose DejaVu glyph is empty.
      const bytes = await pdfkitPdf((pdf) => pdf.font(DEJAVU).text('A\u2800B', 50, 50));
      expect(await glyphCoverage(bytes, 'A\u2800B Ж')).toEqual({
        covered: ['A', 'B'],
        missing: ['\u2800', 'Ж'],
      });
    });

    it('exempts whitespace, control and format characters', () => {
      expect(coverageOf([], 'a \n\t\u00a0\u200d\u200f\u0000')).toEqual({
        covered: [],
        missing: ['a'],
      });
      expect(['\u2003', '\u200b', '\u2066', '\u007f'].every(isExempt)).toBe(true);
      expect(['x', '\u0301', '\u2800'].some(isExempt)).toBe(false);
    });

    it('reads ToUnicode CMaps: bfchar, bfrange counting up or as an array, surrogates, ligatures', () => {
      const map = parseToUnicode(`
        /CIDInit /ProcSet findresource begin % a comment <0099> <0041>
        1 begincodespacerange <0000> <FFFF> endcodespacerange
        3 beginbfchar
        <0001> <0041>
        <0002> <D83D DE00>
        <0003><00660069>
        endbfchar
        2 beginbfrange
        <0010> <0012> <05D0>
        <0020> <0022> [<0628> <FB01> <0915094D0937>]
        endbfrange
        endcmap`);
      expect(Object.fromEntries(map)).toEqual({
        1: 'A',
        2: '😀',
        3: 'fi',
        16: 'א',
        17: 'ב',
        18: 'ג',
        32: 'ب',
        33: 'ﬁ',
        34: 'क्ष',
      });
    });
  });

  describe('rendering', () => {
    it('finds no ink on a blank page, and ink where text was drawn', async () => {
      const [blank] = await renderPdf(await pdfkitPdf(() => undefined), { name: 'blank' });
      expect({ width: Math.round(blank.width), height: Math.round(blank.height) }).toEqual({
        width: 595,
        height: 842,
      });
      expect(hasInk(blank.image)).toBe(false);
      const [page] = await renderPdf(
        await pdfkitPdf((pdf) => {
          pdf.font(NOTO_JP).fontSize(10).text('相談 2026', 50, 50);
          // The table header's fill is not ink.
          pdf.rect(50, 300, 200, 20).fill('#eeeeee');
        }),
        { name: 'ink' },
      );
      const [box] = page.textBoxes;
      expect(box.str).toBe('相談 2026');
      expect(inkPixels(page.image, box)).toBeGreaterThan(50);
      expect(hasInk(page.image, { x: 0, y: 100, width: 595, height: 742 })).toBe(false);
    });

    it('draws every page when asked', async () => {
      const bytes = await pdfkitPdf((pdf) => {
        pdf.font(DEJAVU).text('one', 50, 50);
        pdf.addPage().font(DEJAVU).text('two', 50, 50);
      });
      const pages = await renderPdf(bytes, { pages: 'all', name: 'two-pages' });
      expect(pages.map((page) => [page.pageNumber, page.textBoxes[0].str])).toEqual([
        [1, 'one'],
        [2, 'two'],
      ]);
      expect(pages.every((page) => hasInk(page.image))).toBe(true);
    });
  });

  describe('extraction patterns', () => {
    it('allow whitespace only where sent, inside a CJK or Thai run, or between Devanagari letters', () => {
      expect(findText('x 株式 会社\nテスト y', '株式会社テスト').at).toBe(2);
      expect(findText('Consulting\n相談  2026', 'Consulting 相談 2026').at).toBe(0);
      expect(findText('Consulting相談 2026', 'Consulting 相談 2026').at).toBe(-1);
      expect(findText('丸の内 1-1-1 (2)', '丸の内1-1-1 (2)').at).toBe(0);
      expect(findText('1-1-1', '1-1.1').at).toBe(-1);
      expect(findText('บริษัท ทดสอบ จำ กัด', 'บริษัท ทดสอบ จำกัด').at).toBe(0);
      expect(findText('परामशर्', 'परामर्श').at).toBe(-1);
      expect(findText('दु िनया', 'दुनिया').at).toBe(-1);
      expect(findText('दु\nनिया', 'दुनिया').at).toBe(0);
      expect(findText('העתיד חברת', 'חברת העתיד').at).toBe(-1);
      expect(strayCharacters('a\u0000b\u0005\n\t\f\u2060\u202b')).toEqual([
        'U+0000',
        'U+0005',
        'U+2060',
        'U+202B',
      ]);
    });
  });
});

describe('Documents in every script', () => {
  let test: TestApp;
  /** Each document as read, by name: `invoice-<script>`, `estimate-Hebrew`, … */
  let readings: Map<string, Reading>;
  const reading = (name: string): Reading => {
    const found = readings.get(name);
    if (!found) throw new Error(`No document ${name} was read`);
    return found;
  };

  const CREDIT_REASON = 'Correction 수량 정정 2026';
  const CREDIT_LINE = '환불 — 소프트웨어 개발';
  const ESTIMATE_LINE = 'ייעוץ עסקי';
  const ESTIMATE_NOTE = 'תודה רבה';

  async function getPdf(path: string): Promise<Buffer> {
    const response = await test.http.get(path).responseType('blob');
    expect({ status: response.status, type: response.headers['content-type'] }).toEqual({
      status: 200,
      type: 'application/pdf',
    });
    return response.body as Buffer;
  }

  beforeAll(async () => {
    // English labels (INVOICE, CREDIT NOTE) whatever the shell sets.
    test = await createTestApp({
      env: { COMPANY_NAME: 'Northwind Trading Ltd', DOCUMENT_LOCALE: 'en' },
    });
    const pdfs: Array<{ name: string; bytes: Buffer }> = [];
    for (const item of SCRIPTS) {
      const client = await addClient(test.http, {
        names: item.names,
        address: item.address,
        ...item.client,
      });
      const invoice = await createInvoice(test.http, {
        client: client.id,
        currency: 'EUR',
        description: item.description.text,
        items: [{ description: item.line, quantity: 2, rate: '150.00' }],
      });
      pdfs.push({
        name: `invoice-${item.script}`,
        bytes: await getPdf(`/v1/invoice/${invoice.id}/pdf`),
      });
      if (item.script === 'Hebrew') {
        const written = await createEstimate(test.http, {
          client: client.id,
          note: ESTIMATE_NOTE,
          items: [{ description: ESTIMATE_LINE, quantity: 1, rate: '80.00' }],
        });
        pdfs.push({
          name: 'estimate-Hebrew',
          bytes: await getPdf(`/v1/estimate/${written.id}/pdf`),
        });
      }
      if (item.script === 'Korean') {
        const written = await addCreditNote(test.http, invoice.id, {
          reason: CREDIT_REASON,
          items: [{ description: CREDIT_LINE, quantity: 1, rate: '10.00' }],
        });
        pdfs.push({
          name: 'credit-note-Korean',
          bytes: await getPdf(`/v1/credit-note/${written.credit_note[0].id}/pdf`),
        });
      }
    }
    const plain = await addClient(test.http, {
      names: 'Ada Lovelace',
      address: '12 St James Square, London',
    });
    const plainInvoice = await createInvoice(test.http, {
      client: plain.id,
      currency: 'EUR',
      description: 'Analytical engine, phase two',
      items: [{ description: 'Design workshop', quantity: 2, rate: '450.00' }],
    });
    pdfs.push({ name: 'invoice-Latin', bytes: await getPdf(`/v1/invoice/${plainInvoice.id}/pdf`) });
    readings = await readAll(pdfs);
  });

  afterAll(async () => {
    await test.close();
  });

  describe.each(SCRIPTS)('an invoice in $script', (item) => {
    const sent = [item.names, item.address, item.description.text, item.line];

    it('extracts every text exactly as sent, with pdf.js and with poppler, adding nothing', () => {
      const { text, poppler } = reading(`invoice-${item.script}`);
      const texts = [item.names, item.address, item.line];
      const parts = item.description.parts ?? [item.description.text];
      for (const [reader, extracted] of [
        ['pdf.js', text],
        ['poppler', poppler],
      ]) {
        expect({ reader, stray: strayCharacters(extracted) }).toEqual({ reader, stray: [] });
        // Only whitespace is normalised: items and lines are joined by spaces, tabs or breaks.
        const flat = flattened(extracted);
        const missing = [...texts, ...parts].filter((sent) => !flat.includes(sent));
        expect({ reader, missing }).toEqual({ reader, missing: [] });
      }
      // pdf.js reads in the order drawn: client, address, description, then the line table.
      expectTextsInOrder(text, [item.names, item.address]);
      for (const part of parts) expectTextsInOrder(text, [item.address, part, item.line]);
    });

    it('draws every character sent with a real glyph (no tofu)', () => {
      const { fonts } = reading(`invoice-${item.script}`);
      expect(coverageOf(fonts, sent.join(' ')).missing).toEqual([]);
      expect(fonts.flatMap((font) => font.problems)).toEqual([]);
    });

    itWithoutDatabase('renders page 1, not blank', () => {
      const { page } = reading(`invoice-${item.script}`);
      expect(inkPixels(page.image)).toBeGreaterThan(1000);
    });

    itWithoutDatabase(`draws ink where pdf.js places the text in ${item.script}`, () => {
      const { page } = reading(`invoice-${item.script}`);
      const { boxes, ink } = scriptInk(page, item.letters);
      expect({ boxes: boxes >= 1, ink: ink > 20 * boxes }).toEqual({ boxes: true, ink: true });
    });
  });

  it('keeps the words of a Hebrew name in their order, never reversed (חברת העתיד)', () => {
    for (const { text } of [reading('invoice-Hebrew'), reading('estimate-Hebrew')]) {
      expect(text).not.toContain('העתיד חברת');
      expect(findText(text, 'חברת העתיד').at).toBeGreaterThanOrEqual(0);
    }
  });

  it.each([
    { script: 'Hebrew', family: 'hebrew' as const },
    { script: 'Arabic', family: 'arabic' as const },
  ])(
    'draws the brackets of a $script name mirrored, and extracts them as sent',
    async ({ script, family }) => {
      const { bytes, text, poppler } = reading(`invoice-${script}`);
      const names = SCRIPTS.find((item) => item.script === script)!.names;
      // The name is bold: set in the bold face of its script, brackets and all.
      const face = fontFace(family, 'bold').font;
      const font = (await drawnOutlines(bytes)).find((each) => each.name === face.postscriptName);
      // Right to left, "(" opens towards the text on its left: it is drawn as ")" is.
      expect(font?.outlines.get('(')).toEqual([outlineOf(face, ')')]);
      expect(font?.outlines.get(')')).toEqual([outlineOf(face, '(')]);
      expect(outlineOf(face, '(')).not.toEqual(outlineOf(face, ')'));
      expect(flattened(text)).toContain(names);
      expect(flattened(poppler)).toContain(names);
    },
  );

  itWithoutDatabase(
    'sets a Hebrew client block flush right as a whole, a Latin one flush left',
    () => {
      // The right edges pdf.js places each line's items at, in points.
      const rightEdge = (page: RenderedPage, token: string): number => {
        const scale = page.width / 595.28;
        const boxes = page.textBoxes.filter((box) => box.str.includes(token));
        return Math.max(...boxes.map((box) => (box.x + box.width) / scale));
      };
      const hebrew = reading('invoice-Hebrew').page;
      const contentRight = 595.28 - 50;
      // Heading, name, address, country, phone, VAT number: Latin lines too, the whole block.
      const lines = ['Bill to', 'חברת', 'רחוב', 'Israel', '555 0100', 'IL514000000'];
      // Points between each line's right end and the content's right edge (+ 0 turns -0 into 0).
      const offsets = lines.map((token) => Math.round(contentRight - rightEdge(hebrew, token)) + 0);
      expect(offsets).toEqual(lines.map(() => 0));
      const latin = reading('invoice-Latin').page;
      const billTo = latin.textBoxes.find((box) => box.str.includes('Bill to'))!;
      expect(Math.round(billTo.x / (latin.width / 595.28))).toBe(50);
    },
  );

  it('prints an estimate in Hebrew: the client, the line and the note as sent', () => {
    const { text, fonts, page } = reading('estimate-Hebrew');
    expect(strayCharacters(text)).toEqual([]);
    expectTextsInOrder(text, ['ESTIMATE', 'חברת העתיד', 'רחוב הרצל תל אביב', ESTIMATE_LINE]);
    expectTextsInOrder(text, [ESTIMATE_LINE, ESTIMATE_NOTE]);
    expect(
      coverageOf(fonts, `חברת העתיד רחוב הרצל תל אביב ${ESTIMATE_LINE} ${ESTIMATE_NOTE}`).missing,
    ).toEqual([]);
    expect(scriptInk(page, /\p{Script=Hebrew}/u).ink).toBeGreaterThan(20);
  });

  it('prints a credit note in Korean: the client, the reason and the line as sent', () => {
    const { text, fonts, page } = reading('credit-note-Korean');
    expect(strayCharacters(text)).toEqual([]);
    expectTextsInOrder(text, ['CREDIT NOTE', '주식회사 미래', CREDIT_REASON, CREDIT_LINE]);
    expect(coverageOf(fonts, `주식회사 미래 ${CREDIT_REASON} ${CREDIT_LINE}`).missing).toEqual([]);
    expect(scriptInk(page, /\p{Script=Hangul}/u).ink).toBeGreaterThan(20);
  });

  it('extracts a Latin invoice as sent with both readers, embeds no CJK font in it, and keeps it small', () => {
    const { bytes, fonts, text, poppler } = reading('invoice-Latin');
    expectTextsInOrder(text, ['Ada Lovelace', 'Analytical engine, phase two', 'Design workshop']);
    const sent = ['Ada Lovelace', '12 St James Square, London', 'Analytical engine, phase two'];
    for (const extracted of [text, poppler]) {
      expect(strayCharacters(extracted)).toEqual([]);
      expect(sent.filter((each) => !flattened(extracted).includes(each))).toEqual([]);
    }
    expect(fontNames(fonts).filter((name) => CJK_FONT.test(name))).toEqual([]);
    // Every font a subset (its name tagged `ABCDEF+`), none a standard font left unembedded.
    const whole = fonts.filter(
      (font) => font.subtype !== 'Type0' || !/^[A-Z]{6}\+/.test(font.name),
    );
    expect(fontNames(whole)).toEqual([]);
    // Today's renderer (subsets of DejaVu Sans, regular and bold) gives 22,104 bytes.
    expect(bytes.length).toBeLessThan(60 * 1024);
  });

  it('embeds only a subset of the Japanese font (of 17,000 glyphs, 5.4 MB)', () => {
    const { bytes, fonts } = reading('invoice-Japanese');
    const japanese = fonts.filter(
      (font) => coverageOf([font], '株式会社テスト商事').covered.length > 0,
    );
    expect(fontNames(japanese)).not.toEqual([]);
    for (const font of fonts) {
      expect({ font: font.name, subset: /^[A-Z]{6}\+/.test(font.name) }).toEqual({
        font: font.name,
        subset: true,
      });
      expect(font.glyphCount).toBeLessThan(500);
    }
    // A subsetting renderer gives some 30 KB for it; the whole regular face alone is 5.4 MB.
    expect(bytes.length).toBeLessThan(400 * 1024);
  });
});
