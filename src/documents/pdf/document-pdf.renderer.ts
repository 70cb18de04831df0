import PDFDocument from 'pdfkit';
import { DocumentView, DocumentViewLine, Issuer } from './document-view';
import {
  BLOCK_GAP,
  BOLD,
  Box,
  CELL_PADDING,
  COLOR,
  contentBox,
  drawLines,
  drawRule,
  drawTableHeader,
  drawTextRow,
  FONT_FILES,
  FOOTER_FROM_BOTTOM,
  headerHeight,
  LINE_GAP,
  PAGE_MARGIN,
  pdfBytes,
  placeColumns,
  printable,
  REGULAR,
  startPageIfShort,
  TableColumn,
  textRowHeight,
  TYPE_SIZE,
} from './pdf-layout';

/*
 * The printed invoice or estimate on A4: the title; the issuer beside the number and dates; the
 * client; the description; the line table; the totals; the note; a footer on every page. Blocks
 * are drawn in reading order, which is the order a PDF reader extracts the text in. Positions
 * are computed here in points: a table row is measured before it is drawn, and one that does
 * not fit starts a new page, so pdfkit never splits a row across pages by itself.
 */

export const PDF_MEDIA_TYPE = 'application/pdf';

/** Issuer on the left, number and dates on the right, as shares of the content width. */
const DETAILS_SHARE = 0.42;
const DETAILS_LABEL_WIDTH = 100;

/** The line table: fixed widths for the numbers, the description takes the rest. */
const NUMBER_COLUMN_WIDTHS = { quantity: 65, rate: 95, amount: 105 };

/** Totals sit under the table, right-aligned: a label, then the amount and currency code. */
const TOTALS_LABEL_WIDTH = 130;
const TOTALS_VALUE_WIDTH = 150;
const TOTALS_ROW_GAP = 4;

type LineColumn = TableColumn<keyof DocumentViewLine>;

interface TotalRow {
  label: string;
  value: string;
  /** Bold, under a rule: the total and the balance due. */
  strong?: boolean;
}

/** Renders the document as an A4 PDF and resolves with its bytes. */
export function renderDocumentPdf(view: DocumentView, issuer: Issuer): Promise<Buffer> {
  return pdfBytes(createPdf(view, issuer), (pdf) => drawDocument(pdf, view, issuer));
}

function drawDocument(pdf: PDFKit.PDFDocument, view: DocumentView, issuer: Issuer): void {
  drawTitle(pdf, view);
  drawIssuerAndDetails(pdf, view, issuer);
  drawClient(pdf, view);
  drawParagraph(pdf, null, view.description);
  drawParagraph(pdf, 'Reason', view.reason ?? '');
  drawLineTable(pdf, view);
  drawTotals(pdf, view);
  drawParagraph(pdf, 'Note', view.note);
  drawFooters(pdf, view);
}

/**
 * Pages are buffered so that the footer can say "page 1 of 3". The creation date is the issue
 * date, so the same document always gives the same bytes (pdfkit derives the file id from it).
 */
function createPdf(view: DocumentView, issuer: Issuer): PDFKit.PDFDocument {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    bufferPages: true,
    displayTitle: true,
    info: {
      Title: `${title(view)} ${view.number}`,
      Author: issuer.name,
      Creator: issuer.name,
      CreationDate: new Date(`${view.issueDate}T00:00:00Z`),
    },
  });
  pdf.registerFont(REGULAR, FONT_FILES.regular);
  pdf.registerFont(BOLD, FONT_FILES.bold);
  pdf.font(REGULAR).fontSize(TYPE_SIZE.body).fillColor(COLOR.text).lineGap(LINE_GAP);
  return pdf;
}

const TITLES: Record<DocumentView['kind'], string> = {
  invoice: 'Invoice',
  estimate: 'Estimate',
  credit_note: 'Credit note',
};

const CLIENT_HEADINGS: Record<DocumentView['kind'], string> = {
  invoice: 'Bill to',
  estimate: 'Prepared for',
  credit_note: 'Credited to',
};

function title(view: DocumentView): string {
  return TITLES[view.kind];
}

function drawTitle(pdf: PDFKit.PDFDocument, view: DocumentView): void {
  const content = contentBox(pdf);
  pdf.font(BOLD).fontSize(TYPE_SIZE.title);
  pdf.text(title(view).toUpperCase(), content.x, pdf.y, { width: content.width });
  pdf.moveDown(0.5);
}

/** The issuer on the left; number, issue date and due date beside it on the right. */
function drawIssuerAndDetails(pdf: PDFKit.PDFDocument, view: DocumentView, issuer: Issuer): void {
  const content = contentBox(pdf);
  const top = pdf.y;
  const detailsWidth = content.width * DETAILS_SHARE;
  const issuerBox = { x: content.x, width: content.width - detailsWidth - BLOCK_GAP };
  const issuerBottom = drawLines(pdf, issuerBox, top, [
    { text: issuer.name, bold: true, size: TYPE_SIZE.issuer },
    { text: issuer.address },
    { text: issuer.email },
    { text: issuer.taxId && `Tax ID: ${issuer.taxId}` },
  ]);
  const detailsBox = { x: content.x + content.width - detailsWidth, width: detailsWidth };
  let y = top;
  const details: Array<[string, string | undefined]> = [
    [`${title(view)} number`, view.number],
    ['Issue date', view.issueDate],
    ['Due date', view.dueDate],
    ['Corrects invoice', view.corrects],
  ];
  for (const [label, value] of details) {
    if (value !== undefined) y = drawLabelled(pdf, detailsBox, y, label, value);
  }
  pdf.y = Math.max(issuerBottom, y) + BLOCK_GAP;
}

function drawClient(pdf: PDFKit.PDFDocument, view: DocumentView): void {
  const content = contentBox(pdf);
  const { name, phone, address } = view.customer;
  const heading = CLIENT_HEADINGS[view.kind];
  const bottom = drawLines(pdf, content, pdf.y, [
    { text: heading, muted: true },
    { text: name, bold: true },
    { text: phone },
    { text: address },
  ]);
  pdf.y = bottom + BLOCK_GAP;
}

/** A muted label and its value on one line of a box; answers the y under the taller. */
function drawLabelled(
  pdf: PDFKit.PDFDocument,
  box: Box,
  y: number,
  label: string,
  value: string,
): number {
  const valueBox = { x: box.x + DETAILS_LABEL_WIDTH, width: box.width - DETAILS_LABEL_WIDTH };
  pdf.font(REGULAR).fontSize(TYPE_SIZE.body).fillColor(COLOR.muted);
  pdf.text(label, box.x, y, { width: DETAILS_LABEL_WIDTH });
  const labelBottom = pdf.y;
  pdf.font(BOLD).fillColor(COLOR.text);
  pdf.text(printable(value), valueBox.x, y, { width: valueBox.width, align: 'right' });
  return Math.max(labelBottom, pdf.y);
}

/** A free-text block (the description, the note); pdfkit flows a long one onto new pages. */
function drawParagraph(pdf: PDFKit.PDFDocument, heading: string | null, body: string): void {
  const text = printable(body);
  if (text === '') return;
  const content = contentBox(pdf);
  if (heading !== null) {
    pdf.font(BOLD).fontSize(TYPE_SIZE.body);
    // Keep the heading with at least its first line.
    startPageIfShort(pdf, 3 * pdf.currentLineHeight(true));
    pdf.text(heading, content.x, pdf.y, { width: content.width });
  }
  pdf.font(REGULAR).fontSize(TYPE_SIZE.body);
  pdf.text(text, content.x, pdf.y, { width: content.width });
  pdf.y += BLOCK_GAP;
}

function tableColumns(pdf: PDFKit.PDFDocument, currency: string): LineColumn[] {
  const { quantity, rate, amount } = NUMBER_COLUMN_WIDTHS;
  const description = contentBox(pdf).width - quantity - rate - amount;
  return placeColumns<keyof DocumentViewLine>(pdf, [
    { key: 'description', label: 'Description', width: description, align: 'left' },
    { key: 'quantity', label: 'Quantity', width: quantity, align: 'right' },
    { key: 'rate', label: `Rate (${currency})`, width: rate, align: 'right' },
    { key: 'amount', label: `Amount (${currency})`, width: amount, align: 'right' },
  ]);
}

/** Rows in order; a row that does not fit starts a new page, which repeats the header. */
function drawLineTable(pdf: PDFKit.PDFDocument, view: DocumentView): void {
  const columns = tableColumns(pdf, view.currency);
  startPageIfShort(pdf, headerHeight(pdf, columns) + rowHeight(pdf, columns, view.lines[0]));
  drawTableHeader(pdf, columns);
  for (const line of view.lines) {
    if (startPageIfShort(pdf, rowHeight(pdf, columns, line))) drawTableHeader(pdf, columns);
    drawTableRow(pdf, columns, line);
  }
  pdf.y += BLOCK_GAP / 2;
}

function cellTexts(columns: LineColumn[], line: DocumentViewLine | undefined): string[] {
  return columns.map((column) => (line ? printable(line[column.key]) : ''));
}

function rowHeight(
  pdf: PDFKit.PDFDocument,
  columns: LineColumn[],
  line: DocumentViewLine | undefined,
): number {
  return textRowHeight(pdf, columns, cellTexts(columns, line));
}

function drawTableRow(pdf: PDFKit.PDFDocument, columns: LineColumn[], line: DocumentViewLine) {
  drawTextRow(pdf, columns, cellTexts(columns, line));
}

function totalRows(view: DocumentView): TotalRow[] {
  const money = (amount: string) => `${amount} ${view.currency}`;
  const rows: TotalRow[] = [
    { label: 'Sub-total', value: money(view.subTotal) },
    { label: `Tax (${view.taxRate}%)`, value: money(view.taxAmount) },
    { label: 'Total', value: money(view.total), strong: true },
  ];
  if (view.amountPaid !== undefined && view.balanceDue !== undefined) {
    rows.push(
      { label: 'Amount paid', value: money(view.amountPaid) },
      { label: 'Balance due', value: money(view.balanceDue), strong: true },
    );
  }
  return rows;
}

/** The totals, kept together on one page, right-aligned under the table. */
function drawTotals(pdf: PDFKit.PDFDocument, view: DocumentView): void {
  const content = contentBox(pdf);
  const right = content.x + content.width;
  const label = { x: right - TOTALS_VALUE_WIDTH - TOTALS_LABEL_WIDTH, width: TOTALS_LABEL_WIDTH };
  const value = { x: right - TOTALS_VALUE_WIDTH, width: TOTALS_VALUE_WIDTH };
  const rows = totalRows(view);
  pdf.font(BOLD).fontSize(TYPE_SIZE.body);
  startPageIfShort(pdf, rows.length * (pdf.currentLineHeight(true) + TOTALS_ROW_GAP));
  for (const row of rows) {
    if (row.strong) drawRule(pdf, label.x, right, pdf.y - TOTALS_ROW_GAP / 2);
    const top = pdf.y;
    pdf.font(row.strong ? BOLD : REGULAR).fontSize(TYPE_SIZE.body);
    pdf.text(row.label, label.x, top, { width: label.width - CELL_PADDING.x, align: 'right' });
    const labelBottom = pdf.y;
    pdf.text(row.value, value.x, top, { width: value.width - CELL_PADDING.x, align: 'right' });
    pdf.y = Math.max(labelBottom, pdf.y) + TOTALS_ROW_GAP;
  }
  pdf.y += BLOCK_GAP;
}

/** "Invoice INV-1 · page 1 of 3" under every page, written once every page exists. */
function drawFooters(pdf: PDFKit.PDFDocument, view: DocumentView): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    pdf.switchToPage(index);
    const content = contentBox(pdf);
    const y = pdf.page.height - FOOTER_FROM_BOTTOM;
    // Text below the bottom margin would otherwise make pdfkit start another page.
    const bottomMargin = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf.font(REGULAR).fontSize(TYPE_SIZE.footer).fillColor(COLOR.muted);
    pdf.text(
      `${title(view)} ${printable(view.number)} · page ${index - start + 1} of ${count}`,
      content.x,
      y,
      { width: content.width, align: 'center', lineBreak: false },
    );
    pdf.page.margins.bottom = bottomMargin;
  }
}
