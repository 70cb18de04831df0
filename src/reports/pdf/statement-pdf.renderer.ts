import { messagesFor } from '../../documents/i18n/document-messages';
import { issuerLines } from '../../documents/pdf/document-pdf.renderer';
import { Issuer } from '../../documents/pdf/document-view';
import {
  AmountRowWidths,
  amountRowHeight,
  BLOCK_GAP,
  CELL_PADDING,
  contentBox,
  createPdf,
  drawAmountRow,
  drawLines,
  drawPageFooters,
  drawTableHeader,
  drawTextRow,
  headerHeight,
  pdfBytes,
  placeColumns,
  printable,
  startPageIfShort,
  TableColumn,
  textRowHeight,
  typeLineHeight,
  TYPE_SIZE,
} from '../../documents/pdf/pdf-layout';

/*
 * A client's statement of account on A4, drawn like the printed documents (the same fonts,
 * sizes, colours and table: src/documents/pdf/pdf-layout.ts): the title; the issuer beside the period; the client; then per currency
 * the opening balance, the lines with their running balance and the closing balance; a footer
 * on every page. Blocks are drawn in reading order, which is the order a PDF reader extracts the
 * text in. A table row is measured before it is drawn, and one that does not fit starts a new
 * page that repeats the table header, so pdfkit never splits a row across pages by itself.
 * Every amount arrives formatted: nothing here does arithmetic on money.
 */

export type StatementLineType = 'invoice' | 'payment' | 'refund' | 'credit_note';

/** One line of a currency's section, every amount already in its printed form. */
export interface StatementViewLine {
  /** `YYYY-MM-DD`. */
  date: string;
  type: StatementLineType;
  reference: string;
  invoiceNo: string;
  /** The currency's minor digits, signed: payments and credit notes are negative. */
  amount: string;
  /** The running balance after this line. */
  balance: string;
}

/** A statement as the PDF shows it: plain data, no database, no arithmetic. */
export interface StatementView {
  client: { id: string; names: string; email: string; address: string };
  /** `''` when not given: the statement starts at the client's first document. */
  from: string;
  to: string;
  currencies: Array<{
    currency: string;
    /** Already formatted with the currency's minor digits. */
    openingBalance: string;
    lines: StatementViewLine[];
    closingBalance: string;
  }>;
}

type StatementCurrency = StatementView['currencies'][number];

const TITLE = 'Statement of account';

/** Issuer on the left, the period on the right, as shares of the content width. */
const PERIOD_SHARE = 0.42;

/**
 * The line table: fixed widths for the date, the type, the invoice number and the amounts (the
 * widest amount, `-12345678901.23`, fits on one line); the reference takes the rest.
 */
const COLUMN_WIDTHS = { date: 64, type: 62, invoiceNo: 80, amount: 92, balance: 92 };

/** The opening and closing balances sit right-aligned: a label, then amount and currency. */
const BALANCES: AmountRowWidths = { label: 130, value: 150, gap: 4 };

/** Statements print in English (their labels are few); the issuer block is the documents'. */
const ENGLISH = messagesFor('en');

const TYPE_LABELS: Record<StatementLineType, string> = {
  invoice: 'Invoice',
  payment: 'Payment',
  refund: 'Refund',
  credit_note: 'Credit note',
};

type LineColumn = TableColumn<keyof StatementViewLine>;

/** Renders the statement as an A4 PDF and resolves with its bytes. */
export function renderStatementPdf(view: StatementView, issuer: Issuer): Promise<Buffer> {
  // The creation date is the end of the period, so the same statement always gives the same
  // bytes (pdfkit derives the file id from it).
  const created = new Date(`${view.to}T00:00:00Z`);
  const pdf = createPdf({
    Title: `${TITLE} ${oneLine(view.client.names)}`.trim(),
    Author: issuer.name,
    Creator: issuer.name,
    ...(Number.isNaN(created.getTime()) ? {} : { CreationDate: created }),
  });
  return pdfBytes(pdf, (document) => drawStatement(document, view, issuer));
}

function drawStatement(pdf: PDFKit.PDFDocument, view: StatementView, issuer: Issuer): void {
  drawTitle(pdf);
  drawIssuerAndPeriod(pdf, view, issuer);
  drawClient(pdf, view);
  for (const section of view.currencies) drawCurrency(pdf, section);
  drawFooters(pdf, view);
}

function drawTitle(pdf: PDFKit.PDFDocument): void {
  const content = contentBox(pdf);
  pdf.y = drawLines(pdf, content, pdf.y, [
    { text: TITLE.toUpperCase(), bold: true, size: TYPE_SIZE.title },
  ]);
  pdf.y += typeLineHeight(TYPE_SIZE.body) / 2;
}

/** "From 2026-01-01 to 2026-11-25", or "Up to 2026-11-25" when the statement has no start. */
function period(view: StatementView): string {
  const from = printable(view.from);
  const to = printable(view.to);
  return from === '' ? `Up to ${to}` : `From ${from} to ${to}`;
}

/** The issuer on the left; the period beside it on the right. */
function drawIssuerAndPeriod(pdf: PDFKit.PDFDocument, view: StatementView, issuer: Issuer): void {
  const content = contentBox(pdf);
  const top = pdf.y;
  const periodWidth = content.width * PERIOD_SHARE;
  const issuerBox = { x: content.x, width: content.width - periodWidth - BLOCK_GAP };
  const issuerBottom = drawLines(pdf, issuerBox, top, issuerLines(issuer, ENGLISH));
  const periodBox = { x: content.x + content.width - periodWidth, width: periodWidth };
  const periodBottom = drawLines(pdf, periodBox, top, [
    { text: 'Period', muted: true, align: 'right' },
    { text: period(view), bold: true, align: 'right' },
  ]);
  pdf.y = Math.max(issuerBottom, periodBottom) + BLOCK_GAP;
}

function drawClient(pdf: PDFKit.PDFDocument, view: StatementView): void {
  const content = contentBox(pdf);
  const { names, address, email } = view.client;
  const bottom = drawLines(pdf, content, pdf.y, [
    { text: 'Statement for', muted: true },
    { text: names, bold: true },
    { text: address },
    { text: email },
  ]);
  pdf.y = bottom + BLOCK_GAP;
}

/**
 * One currency: its code, the opening balance, the lines, the closing balance. The code, the
 * opening balance, the table header and the first row start on one page.
 */
function drawCurrency(pdf: PDFKit.PDFDocument, section: StatementCurrency): void {
  const content = contentBox(pdf);
  const columns = tableColumns(pdf);
  const first = section.lines[0];
  const headingHeight = typeLineHeight(TYPE_SIZE.issuer, true);
  startPageIfShort(
    pdf,
    headingHeight +
      balanceHeight() +
      headerHeight(columns) +
      (first ? rowHeight(pdf, columns, first) : emptyHeight()),
  );
  pdf.y = drawLines(pdf, content, pdf.y, [
    { text: section.currency, bold: true, size: TYPE_SIZE.issuer },
  ]);
  pdf.y += BALANCES.gap;
  drawBalance(pdf, 'Opening balance', money(section, section.openingBalance), false);
  drawLineTable(pdf, columns, section.lines);
  startPageIfShort(pdf, balanceHeight() + BALANCES.gap);
  drawBalance(pdf, 'Closing balance', money(section, section.closingBalance), true);
  pdf.y += BLOCK_GAP;
}

function money(section: StatementCurrency, amount: string): string {
  return `${printable(amount)} ${printable(section.currency)}`;
}

function balanceHeight(): number {
  return amountRowHeight(BALANCES);
}

/** A balance right-aligned on the content: label, then amount and currency; strong is bold. */
function drawBalance(pdf: PDFKit.PDFDocument, label: string, value: string, strong: boolean) {
  drawAmountRow(pdf, BALANCES, { label, value, strong });
}

function tableColumns(pdf: PDFKit.PDFDocument): LineColumn[] {
  const { date, type, invoiceNo, amount, balance } = COLUMN_WIDTHS;
  const reference = contentBox(pdf).width - date - type - invoiceNo - amount - balance;
  return placeColumns<keyof StatementViewLine>(pdf, [
    { key: 'date', label: 'Date', width: date, align: 'left' },
    { key: 'type', label: 'Type', width: type, align: 'left' },
    { key: 'reference', label: 'Reference', width: reference, align: 'left' },
    { key: 'invoiceNo', label: 'Invoice', width: invoiceNo, align: 'left' },
    { key: 'amount', label: 'Amount', width: amount, align: 'right' },
    { key: 'balance', label: 'Balance', width: balance, align: 'right' },
  ]);
}

/** Rows in order; a row that does not fit starts a new page, which repeats the header. */
function drawLineTable(
  pdf: PDFKit.PDFDocument,
  columns: LineColumn[],
  lines: StatementViewLine[],
): void {
  drawTableHeader(pdf, columns);
  if (lines.length === 0) {
    const content = contentBox(pdf);
    const box = { x: content.x + CELL_PADDING.x, width: content.width - 2 * CELL_PADDING.x };
    pdf.y = drawLines(pdf, box, pdf.y + CELL_PADDING.y, [
      { text: 'No transactions in this period.', muted: true, size: TYPE_SIZE.table },
    ]);
    pdf.y += CELL_PADDING.y;
  }
  for (const line of lines) {
    if (startPageIfShort(pdf, rowHeight(pdf, columns, line))) drawTableHeader(pdf, columns);
    drawTableRow(pdf, columns, line);
  }
  pdf.y += BLOCK_GAP / 2;
}

function cellTexts(columns: LineColumn[], line: StatementViewLine): string[] {
  return columns.map((column) =>
    printable(column.key === 'type' ? (TYPE_LABELS[line.type] ?? line.type) : line[column.key]),
  );
}

function rowHeight(pdf: PDFKit.PDFDocument, columns: LineColumn[], line: StatementViewLine) {
  return textRowHeight(columns, cellTexts(columns, line));
}

/** The height of the note that stands for an empty table. */
function emptyHeight(): number {
  return typeLineHeight(TYPE_SIZE.table) + 2 * CELL_PADDING.y;
}

function drawTableRow(pdf: PDFKit.PDFDocument, columns: LineColumn[], line: StatementViewLine) {
  drawTextRow(pdf, columns, cellTexts(columns, line));
}

/** "Statement of account · Acme · page 1 of 3" under every page, once every page exists. */
function drawFooters(pdf: PDFKit.PDFDocument, view: StatementView): void {
  const names = oneLine(view.client.names);
  const heading = names === '' ? TITLE : `${TITLE} · ${names}`;
  drawPageFooters(pdf, (page, pages) => `${heading} · page ${page} of ${pages}`);
}

/** Printable text on one line: for the footer and the file's title. */
function oneLine(text: string): string {
  return printable(text).replace(/\s+/g, ' ');
}
