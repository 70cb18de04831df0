import { readFileSync } from 'node:fs';

/*
 * What every printed page of the service shares (documents and statements): fonts, sizes,
 * colours, margins, and the table that is measured before it is drawn, so that a row that does
 * not fit starts a new page and pdfkit never splits one by itself. Positions are in points.
 */

/** DejaVu Sans covers Latin, Greek and Cyrillic; read once, from the npm package, at load. */
export const FONT_FILES = {
  regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
  bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
};
export const REGULAR = 'DejaVuSans';
export const BOLD = 'DejaVuSans-Bold';

/** Points (1/72 in). A4 is 595.28 × 841.89. */
export const PAGE_MARGIN = 50;
/** The footer's top, from the bottom edge of the page (inside the bottom margin). */
export const FOOTER_FROM_BOTTOM = 30;
export const TYPE_SIZE = { title: 22, issuer: 12, body: 10, table: 9, footer: 8 };
export const LINE_GAP = 1;
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
  align?: 'left' | 'right';
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

/** Stacks the non-empty lines in a box from `y`; answers the y under the last one. */
export function drawLines(pdf: PDFKit.PDFDocument, box: Box, y: number, lines: TextLine[]): number {
  for (const line of lines) {
    const text = printable(line.text);
    if (text === '') continue;
    pdf
      .font(line.bold ? BOLD : REGULAR)
      .fontSize(line.size ?? TYPE_SIZE.body)
      .fillColor(line.muted ? COLOR.muted : COLOR.text);
    pdf.text(text, box.x, y, { width: box.width, align: line.align ?? 'left' });
    y = pdf.y;
  }
  pdf.fillColor(COLOR.text);
  return y;
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

/** The height a row of these texts needs: its tallest cell, wrapped, plus padding. */
export function cellsHeight(
  pdf: PDFKit.PDFDocument,
  columns: TableColumn[],
  texts: string[],
): number {
  const heights = columns.map((column, index) =>
    pdf.heightOfString(texts[index] || ' ', { width: column.width - 2 * CELL_PADDING.x }),
  );
  return Math.max(...heights) + 2 * CELL_PADDING.y;
}

export function headerHeight(pdf: PDFKit.PDFDocument, columns: TableColumn[]): number {
  pdf.font(BOLD).fontSize(TYPE_SIZE.table);
  return cellsHeight(
    pdf,
    columns,
    columns.map((column) => column.label),
  );
}

/** A row's height: its texts in the table's type. */
export function textRowHeight(
  pdf: PDFKit.PDFDocument,
  columns: TableColumn[],
  texts: string[],
): number {
  pdf.font(REGULAR).fontSize(TYPE_SIZE.table);
  return cellsHeight(pdf, columns, texts);
}

export function drawTableHeader(pdf: PDFKit.PDFDocument, columns: TableColumn[]): void {
  const height = headerHeight(pdf, columns);
  const content = contentBox(pdf);
  pdf.rect(content.x, pdf.y, content.width, height).fill(COLOR.headerFill);
  pdf.fillColor(COLOR.text);
  drawCells(
    pdf,
    columns,
    columns.map((column) => column.label),
    height,
  );
}

/** A row of texts under a rule across the content. */
export function drawTextRow(pdf: PDFKit.PDFDocument, columns: TableColumn[], texts: string[]) {
  const height = textRowHeight(pdf, columns, texts);
  drawCells(pdf, columns, texts, height);
  const content = contentBox(pdf);
  drawRule(pdf, content.x, content.x + content.width, pdf.y);
}

export function drawRule(pdf: PDFKit.PDFDocument, from: number, to: number, y: number): void {
  pdf.moveTo(from, y).lineTo(to, y).lineWidth(RULE_WIDTH).stroke(COLOR.rule);
}

/** Each cell top-aligned in its column, wrapped to its width; moves y under the row. */
export function drawCells(
  pdf: PDFKit.PDFDocument,
  columns: TableColumn[],
  texts: string[],
  height: number,
): void {
  const top = pdf.y;
  columns.forEach((column, index) => {
    pdf.text(texts[index], column.x + CELL_PADDING.x, top + CELL_PADDING.y, {
      width: column.width - 2 * CELL_PADDING.x,
      align: column.align,
    });
  });
  pdf.y = top + height;
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
