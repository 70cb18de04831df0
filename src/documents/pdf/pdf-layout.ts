import PDFDocument from 'pdfkit';
import {
  drawText,
  lineHeight,
  TextAlign,
  textDirection,
  textHeight,
  textWidth,
} from './text/text-layout';

/*
 * What every printed page of the service shares (documents and statements): sizes, colours,
 * margins, text in any script (text/text-layout.ts), and the table that is measured before it
 * is drawn, so that a row that does not fit starts a new page and pdfkit never splits one by
 * itself. Positions are in points.
 */

/** Points (1/72 in). A4 is 595.28 × 841.89. */
export const PAGE_MARGIN = 50;
/** The footer's top, from the bottom edge of the page (inside the bottom margin). */
export const FOOTER_FROM_BOTTOM = 30;
/** `note`: the muted remark under a table cell or a total (a line's discount and taxes). */
export const TYPE_SIZE = { title: 22, issuer: 12, body: 10, table: 9, note: 8, footer: 8 };
/** Space between a cell's text and its note. */
export const NOTE_GAP = 1;
export const BLOCK_GAP = 18;
export const COLOR = {
  text: '#1a1a1a',
  muted: '#666666',
  rule: '#c8c8c8',
  headerFill: '#eeeeee',
};
export const RULE_WIDTH = 0.5;
export const CELL_PADDING = { x: 4, y: 4 };

export interface Box {
  x: number;
  width: number;
}

/** A column of a table, placed; `K` names the field of a row it shows. */
export interface TableColumn<K extends string = string> extends Box {
  key: K;
  label: string;
  align: 'left' | 'right';
}

export interface TextLine {
  text: string;
  bold?: boolean;
  muted?: boolean;
  size?: number;
  align?: TextAlign;
}

/** What a file format sets of pdfkit's document (PDF/A: its version and conformance). */
export type PdfFileOptions = Pick<PDFKit.PDFDocumentOptions, 'pdfVersion' | 'subset'>;

/** A new A4 document with the service's margins; pages are buffered for "page 1 of 3" footers. */
export function createPdf(
  info: PDFKit.DocumentInfo,
  file: PdfFileOptions = {},
): PDFKit.PDFDocument {
  const pdf = new PDFDocument({
    ...file,
    size: 'A4',
    margin: PAGE_MARGIN,
    bufferPages: true,
    displayTitle: true,
    // No standard font: every text is set by text-layout in the embedded faces.
    font: null as unknown as string,
    info,
  });
  pdf.fillColor(COLOR.text);
  return pdf;
}

/** Draws on the document, ends it and resolves with its bytes. */
export function pdfBytes(
  pdf: PDFKit.PDFDocument,
  draw: (pdf: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    draw(pdf);
    pdf.end();
  });
}

/** The content area of a page (every page has the same size and margins). */
export function contentBox(pdf: PDFKit.PDFDocument): Box & { bottom: number } {
  const { width, height, margins } = pdf.page;
  return {
    x: margins.left,
    width: width - margins.left - margins.right,
    bottom: height - margins.bottom,
  };
}

/** How drawLines sets a stacked block. */
export interface BlockOptions {
  /**
   * The block is set in the direction of this text's first strong character (left to right if
   * it has none), every line flush to its start: a client named in Hebrew is set flush right
   * as a whole, its Latin VAT number and country too. Each line's own characters are still
   * ordered by the bidirectional algorithm from the line's own first strong character, so a
   * phone number or a Latin line reads as written. Without it, each line takes its own
   * direction.
   */
  directionFrom?: string;
}

/** Stacks the non-empty lines in a box from `y`; answers the y under the last one. */
export function drawLines(
  pdf: PDFKit.PDFDocument,
  box: Box,
  y: number,
  lines: TextLine[],
  block: BlockOptions = {},
): number {
  const direction =
    block.directionFrom === undefined ? undefined : (textDirection(block.directionFrom) ?? 'ltr');
  for (const line of lines) {
    const text = printable(line.text);
    if (text === '') continue;
    pdf.fillColor(line.muted ? COLOR.muted : COLOR.text);
    y = drawText(pdf, text, box.x, y, {
      size: line.size ?? TYPE_SIZE.body,
      bold: line.bold,
      width: box.width,
      align: line.align ?? 'left',
      direction,
    });
  }
  pdf.fillColor(COLOR.text);
  return y;
}

/** The height of lines as drawLines stacks them in a box of this width (in any direction). */
export function linesHeight(width: number, lines: TextLine[]): number {
  return lines.reduce((height, line) => {
    const text = printable(line.text);
    const style = { size: line.size ?? TYPE_SIZE.body, bold: line.bold };
    return text === '' ? height : height + textHeight(text, style, width);
  }, 0);
}

/** A paragraph of body text that flows onto new pages; answers the y under it. */
export function drawFlowingText(
  pdf: PDFKit.PDFDocument,
  text: string,
  box: Box,
  style: { size?: number; bold?: boolean } = {},
): number {
  return drawText(pdf, printable(text), box.x, pdf.y, {
    size: style.size ?? TYPE_SIZE.body,
    bold: style.bold,
    width: box.width,
    flow: true,
  });
}

/** One line's height in a type size: what a block of n lines is n times. */
export function typeLineHeight(size: number, bold = false): number {
  return lineHeight({ size, bold });
}

/** The width a single line of text takes, unwrapped. */
export function singleLineWidth(text: string, style: { size: number; bold?: boolean }): number {
  return textWidth(printable(text), style);
}

/** Starts a new page unless `height` still fits above the bottom margin; answers whether. */
export function startPageIfShort(pdf: PDFKit.PDFDocument, height: number): boolean {
  if (pdf.y + height <= contentBox(pdf).bottom) return false;
  pdf.addPage();
  return true;
}

/** Columns of these widths side by side from the content's left edge. */
export function placeColumns<K extends string>(
  pdf: PDFKit.PDFDocument,
  columns: Array<Omit<TableColumn<K>, 'x'>>,
): TableColumn<K>[] {
  let x = contentBox(pdf).x;
  return columns.map((column) => {
    const placed = { ...column, x };
    x += column.width;
    return placed;
  });
}

/**
 * The height a row of these texts needs: its tallest cell, wrapped, with the cell's note under
 * it when it has one, plus padding.
 */
export function cellsHeight(
  columns: TableColumn[],
  texts: string[],
  bold = false,
  notes: string[] = [],
): number {
  const style = { size: TYPE_SIZE.table, bold };
  const heights = columns.map((column, index) => {
    const width = column.width - 2 * CELL_PADDING.x;
    return textHeight(texts[index] || ' ', style, width) + noteHeight(notes[index], width);
  });
  return Math.max(...heights) + 2 * CELL_PADDING.y;
}

/** The height a cell's note adds under its text: 0 without one. */
function noteHeight(note: string | undefined, width: number): number {
  const text = printable(note ?? '');
  return text === '' ? 0 : NOTE_GAP + textHeight(text, { size: TYPE_SIZE.note }, width);
}

export function headerHeight(columns: TableColumn[]): number {
  return cellsHeight(
    columns,
    columns.map((column) => column.label),
    true,
  );
}

/** A row's height: its texts in the table's type, and their notes. */
export function textRowHeight(columns: TableColumn[], texts: string[], notes?: string[]): number {
  return cellsHeight(columns, texts, false, notes);
}

export function drawTableHeader(pdf: PDFKit.PDFDocument, columns: TableColumn[]): void {
  const height = headerHeight(columns);
  const content = contentBox(pdf);
  pdf.rect(content.x, pdf.y, content.width, height).fill(COLOR.headerFill);
  pdf.fillColor(COLOR.text);
  drawCells(
    pdf,
    columns,
    columns.map((column) => column.label),
    height,
    true,
  );
}

/**
 * A row of texts under a rule across the content; `notes[i]`, when given, is printed muted
 * and smaller under the text of column i.
 */
export function drawTextRow(
  pdf: PDFKit.PDFDocument,
  columns: TableColumn[],
  texts: string[],
  notes: string[] = [],
) {
  const height = textRowHeight(columns, texts, notes);
  drawCells(pdf, columns, texts, height, false, notes);
  const content = contentBox(pdf);
  drawRule(pdf, content.x, content.x + content.width, pdf.y);
}

/** Where an amount row sits: its label and value widths, right-aligned on the content. */
export interface AmountRowWidths {
  label: number;
  value: number;
  /** Space under each row (half of it above a strong row's rule). */
  gap: number;
}

/** The height of one amount row in the body type. */
export function amountRowHeight(widths: AmountRowWidths): number {
  return typeLineHeight(TYPE_SIZE.body, true) + widths.gap;
}

/** A note's box in the amount rows: under the label and the amount together. */
function noteBox(pdf: PDFKit.PDFDocument, widths: AmountRowWidths): Box {
  const content = contentBox(pdf);
  const width = widths.label + widths.value;
  return { x: content.x + content.width - width, width: width - CELL_PADDING.x };
}

/** The height of a note among the amount rows: its text, wrapped, in the table's type. */
export function amountNoteHeight(
  pdf: PDFKit.PDFDocument,
  widths: AmountRowWidths,
  text: string,
): number {
  return linesHeight(noteBox(pdf, widths).width, [{ text, size: TYPE_SIZE.table }]) + widths.gap;
}

/**
 * A remark among the amount rows, muted and right-aligned under the label and the amount (a
 * tax group's exemption under its row). Moves y under it.
 */
export function drawAmountNote(
  pdf: PDFKit.PDFDocument,
  widths: AmountRowWidths,
  text: string,
): void {
  const line: TextLine = { text, muted: true, size: TYPE_SIZE.table, align: 'right' };
  pdf.y = drawLines(pdf, noteBox(pdf, widths), pdf.y, [line]) + widths.gap;
}

/**
 * A label and an amount right-aligned at the content's right edge (totals, balances); a strong
 * row is bold, under a rule. Moves y under it.
 */
export function drawAmountRow(
  pdf: PDFKit.PDFDocument,
  widths: AmountRowWidths,
  row: { label: string; value: string; strong?: boolean },
): void {
  const content = contentBox(pdf);
  const right = content.x + content.width;
  const labelX = right - widths.value - widths.label;
  if (row.strong) drawRule(pdf, labelX, right, pdf.y - widths.gap / 2);
  const top = pdf.y;
  const line = (text: string): TextLine[] => [{ text, bold: row.strong, align: 'right' }];
  const labelBox = { x: labelX, width: widths.label - CELL_PADDING.x };
  const valueBox = { x: right - widths.value, width: widths.value - CELL_PADDING.x };
  const labelBottom = drawLines(pdf, labelBox, top, line(row.label));
  const valueBottom = drawLines(pdf, valueBox, top, line(row.value));
  pdf.y = Math.max(labelBottom, valueBottom) + widths.gap;
}

export function drawRule(pdf: PDFKit.PDFDocument, from: number, to: number, y: number): void {
  pdf.moveTo(from, y).lineTo(to, y).lineWidth(RULE_WIDTH).stroke(COLOR.rule);
}

/**
 * Each cell top-aligned in its column, wrapped to its width; then each note, muted, under its
 * cell (drawn after the whole row, so a reader extracts the row's figures together and its
 * notes after them). Moves y under the row.
 */
export function drawCells(
  pdf: PDFKit.PDFDocument,
  columns: TableColumn[],
  texts: string[],
  height: number,
  bold = false,
  notes: string[] = [],
): void {
  const top = pdf.y;
  const bottoms = columns.map((column, index) =>
    drawText(pdf, texts[index] ?? '', column.x + CELL_PADDING.x, top + CELL_PADDING.y, {
      size: TYPE_SIZE.table,
      bold,
      width: column.width - 2 * CELL_PADDING.x,
      align: column.align,
    }),
  );
  columns.forEach((column, index) => {
    const note = printable(notes[index] ?? '');
    if (note === '') return;
    pdf.fillColor(COLOR.muted);
    drawText(pdf, note, column.x + CELL_PADDING.x, bottoms[index] + NOTE_GAP, {
      size: TYPE_SIZE.note,
      width: column.width - 2 * CELL_PADDING.x,
      align: column.align,
    });
    pdf.fillColor(COLOR.text);
  });
  pdf.y = top + height;
}

/** The footer text of every page, drawn once every page exists (pages are buffered). */
export function drawPageFooters(
  pdf: PDFKit.PDFDocument,
  footer: (page: number, pages: number) => string,
): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    pdf.switchToPage(index);
    const content = contentBox(pdf);
    pdf.fillColor(COLOR.muted);
    drawText(
      pdf,
      printable(footer(index - start + 1, count)).replace(/\s+/g, ' '),
      content.x,
      pdf.page.height - FOOTER_FROM_BOTTOM,
      { size: TYPE_SIZE.footer, width: content.width, align: 'center' },
    );
  }
}

/** Light text across the middle of every page, on a slant: a draft's mark. */
export function drawWatermark(pdf: PDFKit.PDFDocument, text: string): void {
  const { start, count } = pdf.bufferedPageRange();
  const size = 96;
  for (let index = start; index < start + count; index += 1) {
    pdf.switchToPage(index);
    const { width, height } = pdf.page;
    pdf.save();
    pdf.rotate(-35, { origin: [width / 2, height / 2] });
    pdf.fillColor(COLOR.muted).fillOpacity(0.18);
    drawText(pdf, text, 0, height / 2 - size / 2, { size, bold: true, width, align: 'center' });
    pdf.restore();
  }
}

/**
 * Text as stored may hold control characters (NUL is kept as given): they have no glyph, so
 * each becomes a space; line breaks stay line breaks.
 */
export function printable(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ')
      .trim()
  );
}
