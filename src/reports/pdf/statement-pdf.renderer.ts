import { DocumentMessages, messagesFor } from '../../documents/i18n/document-messages';
import { issuerLines } from '../../documents/pdf/document-pdf.renderer';
import { DocumentLocale } from '../../document-vocabulary/document-locale';
import { Issuer } from '../../document-vocabulary/issuer';
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
  singleLineWidth,
  startPageIfShort,
  TableColumn,
  textRowHeight,
  typeLineHeight,
  TYPE_SIZE,
} from '../../documents/pdf/pdf-layout';

/*
 * A client's statement of account on A4, drawn like the printed documents (the same fonts,
 * sizes, colours and table: src/documents/pdf/pdf-layout.ts) and in the client's language as
 * they are (labels, written-out dates, grouped amounts): the title; the issuer beside the
 * period; the client; then per currency the opening balance, the lines with their running
 * balance and the closing balance; a footer on every page. Blocks are drawn in reading order,
 * which is the order a PDF reader extracts the text in. A table row is measured before it is
 * drawn, and one that does not fit starts a new page that repeats the table header, so pdfkit
 * never splits a row across pages by itself. Amounts arrive as exact decimal text with their
 * currency's minor digits and are only grouped here: nothing does arithmetic on money.
 */

export type StatementLineType = 'invoice' | 'payment' | 'refund' | 'credit_note';

/** One line of a currency's section, as the statement's JSON has it. */
export interface StatementViewLine {
  /** `YYYY-MM-DD`, written out in the statement's locale. */
  date: string;
  type: StatementLineType;
  reference: string;
  invoiceNo: string;
  /**
   * Plain decimal text with the currency's minor digits, signed (payments and credit notes are
   * negative); grouped in the statement's locale when printed.
   */
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
    /** Plain decimal text with the currency's minor digits, like every amount here. */
    openingBalance: string;
    lines: StatementViewLine[];
    closingBalance: string;
  }>;
}

type StatementCurrency = StatementView['currencies'][number];

/**
 * Issuer on the left, the period on the right: at least this share of the content width, more
 * (up to the most) when the period needs it to stay on one line.
 */
const PERIOD_SHARE = { least: 0.42, most: 0.6 };

/** The opening and closing balances sit right-aligned: a label, then amount and currency. */
const BALANCES: AmountRowWidths = { label: 130, value: 170, gap: 4 };

/** What a column is never made narrower than when the table is too wide for the page. */
const COLUMN_MIN_WIDTH = 48;

/**
 * The table's columns, left to right: the date, the reference (an invoice's or credit note's
 * number, a payment's reference), what the line is (its type and, for a payment, refund or
 * credit, the invoice it belongs to: each number is printed once), the amount and the running
 * balance.
 */
const COLUMN_KEYS = ['date', 'reference', 'description', 'amount', 'balance'] as const;
type ColumnKey = (typeof COLUMN_KEYS)[number];
type LineColumn = TableColumn<ColumnKey>;

/** What drawing one statement needs: its view, its issuer, and its language's messages. */
interface Printing {
  view: StatementView;
  issuer: Issuer;
  messages: DocumentMessages;
}

/**
 * Renders the statement as an A4 PDF in `locale` (the client's language, else DOCUMENT_LOCALE,
 * as documents do) and resolves with its bytes.
 */
export function renderStatementPdf(
  view: StatementView,
  issuer: Issuer,
  locale: DocumentLocale,
): Promise<Buffer> {
  const printing: Printing = { view, issuer, messages: messagesFor(locale) };
  // The creation date is the end of the period, so the same statement always gives the same
  // bytes (pdfkit derives the file id from it).
  const created = new Date(`${view.to}T00:00:00Z`);
  const pdf = createPdf({
    Title: `${title(printing)} ${oneLine(view.client.names)}`.trim(),
    Author: issuer.name,
    Creator: issuer.name,
    ...(Number.isNaN(created.getTime()) ? {} : { CreationDate: created }),
  });
  return pdfBytes(pdf, (document) => drawStatement(document, printing));
}

function drawStatement(pdf: PDFKit.PDFDocument, printing: Printing): void {
  drawTitle(pdf, printing);
  drawIssuerAndPeriod(pdf, printing);
  drawClient(pdf, printing);
  // One set of columns for every currency, so that their tables line up.
  const columns = tableColumns(pdf, printing);
  for (const section of printing.view.currencies) drawCurrency(pdf, printing, columns, section);
  drawFooters(pdf, printing);
}

function title({ messages }: Printing): string {
  return messages.t('statement.title');
}

function drawTitle(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const content = contentBox(pdf);
  const text = title(printing).toLocaleUpperCase(printing.messages.locale);
  pdf.y = drawLines(pdf, content, pdf.y, [{ text, bold: true, size: TYPE_SIZE.title }]);
  pdf.y += typeLineHeight(TYPE_SIZE.body) / 2;
}

/** "From January 1, 2026 to November 25, 2026", or "Up to …" when the statement has no start. */
function period({ view, messages }: Printing): string {
  const from = printable(view.from);
  const to = messages.date(printable(view.to));
  return from === ''
    ? messages.t('statement.upTo', { to })
    : messages.t('statement.between', { from: messages.date(from), to });
}

/** The issuer on the left; the period beside it on the right, on one line when it fits. */
function drawIssuerAndPeriod(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const { issuer, messages } = printing;
  const content = contentBox(pdf);
  const top = pdf.y;
  const periodText = period(printing);
  const periodWidth = Math.min(
    Math.max(
      singleLineWidth(periodText, { size: TYPE_SIZE.body, bold: true }) + 1,
      content.width * PERIOD_SHARE.least,
    ),
    content.width * PERIOD_SHARE.most,
  );
  const issuerBox = { x: content.x, width: content.width - periodWidth - BLOCK_GAP };
  const issuerBottom = drawLines(pdf, issuerBox, top, issuerLines(issuer, messages));
  const periodBox = { x: content.x + content.width - periodWidth, width: periodWidth };
  const periodBottom = drawLines(pdf, periodBox, top, [
    { text: messages.t('statement.period'), muted: true, align: 'right' },
    { text: periodText, bold: true, align: 'right' },
  ]);
  pdf.y = Math.max(issuerBottom, periodBottom) + BLOCK_GAP;
}

function drawClient(pdf: PDFKit.PDFDocument, { view, messages }: Printing): void {
  const content = contentBox(pdf);
  const { names, address, email } = view.client;
  const bottom = drawLines(pdf, content, pdf.y, [
    { text: messages.t('statement.for'), muted: true },
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
function drawCurrency(
  pdf: PDFKit.PDFDocument,
  printing: Printing,
  columns: LineColumn[],
  section: StatementCurrency,
): void {
  const { messages } = printing;
  const content = contentBox(pdf);
  const first = section.lines[0];
  const headingHeight = typeLineHeight(TYPE_SIZE.issuer, true);
  startPageIfShort(
    pdf,
    headingHeight +
      amountRowHeight(BALANCES) +
      headerHeight(columns) +
      (first ? textRowHeight(columns, cellTexts(printing, first)) : emptyHeight()),
  );
  pdf.y = drawLines(pdf, content, pdf.y, [
    { text: section.currency, bold: true, size: TYPE_SIZE.issuer },
  ]);
  pdf.y += BALANCES.gap;
  drawAmountRow(pdf, BALANCES, {
    label: messages.t('statement.openingBalance'),
    value: money(printing, section, section.openingBalance),
  });
  drawLineTable(pdf, printing, columns, section.lines);
  startPageIfShort(pdf, amountRowHeight(BALANCES) + BALANCES.gap);
  drawAmountRow(pdf, BALANCES, {
    label: messages.t('statement.closingBalance'),
    value: money(printing, section, section.closingBalance),
    strong: true,
  });
  pdf.y += BLOCK_GAP;
}

function money({ messages }: Printing, section: StatementCurrency, amount: string): string {
  return messages.money(printable(amount), printable(section.currency));
}

/** The header of each column in the statement's language. */
function columnLabels({ messages }: Printing): Record<ColumnKey, string> {
  return {
    date: messages.t('statement.date'),
    reference: messages.t('statement.reference'),
    description: messages.t('statement.description'),
    amount: messages.t('statement.amount'),
    balance: messages.t('statement.balance'),
  };
}

/**
 * Each column as wide as its longest text in the statement's language (header included), so
 * that dates, references and amounts stay on one line; the description takes what is left and
 * wraps between its words. When that is less than its longest word, the date gives way first
 * (onto two lines, then between every word), then the reference; amounts never wrap.
 */
function tableColumns(pdf: PDFKit.PDFDocument, printing: Printing): LineColumn[] {
  const labels = columnLabels(printing);
  const rows = printing.view.currencies.flatMap((section) =>
    section.lines.map((line) => cellTexts(printing, line)),
  );
  const texts = (key: ColumnKey) => rows.map((cells) => cells[COLUMN_KEYS.indexOf(key)]);
  const header = (key: ColumnKey) => cellWidth(labels[key], true);
  const widths = {} as Record<ColumnKey, number>;
  for (const key of COLUMN_KEYS) {
    widths[key] = Math.max(header(key), ...texts(key).map((text) => cellWidth(text)));
  }
  const descriptionLeast = Math.max(header('description'), ...texts('description').map(widestWord));
  const total = contentBox(pdf).width;
  const short = () =>
    descriptionLeast - (total - widths.date - widths.reference - widths.amount - widths.balance);
  /** Narrows a column towards `least` by what the description is short of. */
  const giveWay = (key: ColumnKey, least: number) => {
    widths[key] = Math.min(widths[key], Math.max(least, widths[key] - Math.max(0, short())));
  };
  giveWay('date', Math.max(header('date'), ...texts('date').map(twoLineWidth)));
  giveWay('date', Math.max(header('date'), ...texts('date').map(widestWord)));
  // Past this a reference breaks mid-code: only when nothing else gives way.
  giveWay('reference', Math.max(header('reference'), COLUMN_MIN_WIDTH));
  widths.description = descriptionLeast - short();
  return placeColumns<ColumnKey>(
    pdf,
    COLUMN_KEYS.map((key) => ({
      key,
      label: labels[key],
      width: widths[key],
      align: key === 'amount' || key === 'balance' ? 'right' : 'left',
    })),
  );
}

/** The width of a cell that holds this text on one line. */
function cellWidth(text: string, bold = false): number {
  return Math.ceil(singleLineWidth(text, { size: TYPE_SIZE.table, bold })) + 2 * CELL_PADDING.x + 1;
}

/** The width of a cell that holds the text's longest word on one line. */
function widestWord(text: string): number {
  return Math.max(0, ...text.split(/\s+/).map((word) => cellWidth(word)));
}

/** The least width of a cell that holds the text on two lines, broken at a space. */
function twoLineWidth(text: string): number {
  const words = text.split(/\s+/);
  let best = cellWidth(text);
  for (let split = 1; split < words.length; split += 1) {
    const first = cellWidth(words.slice(0, split).join(' '));
    const second = cellWidth(words.slice(split).join(' '));
    best = Math.min(best, Math.max(first, second));
  }
  return best;
}

/** Rows in order; a row that does not fit starts a new page, which repeats the header. */
function drawLineTable(
  pdf: PDFKit.PDFDocument,
  printing: Printing,
  columns: LineColumn[],
  lines: StatementViewLine[],
): void {
  drawTableHeader(pdf, columns);
  if (lines.length === 0) {
    const content = contentBox(pdf);
    const box = { x: content.x + CELL_PADDING.x, width: content.width - 2 * CELL_PADDING.x };
    pdf.y = drawLines(pdf, box, pdf.y + CELL_PADDING.y, [
      { text: printing.messages.t('statement.empty'), muted: true, size: TYPE_SIZE.table },
    ]);
    pdf.y += CELL_PADDING.y;
  }
  for (const line of lines) {
    const cells = cellTexts(printing, line);
    if (startPageIfShort(pdf, textRowHeight(columns, cells))) drawTableHeader(pdf, columns);
    drawTextRow(pdf, columns, cells);
  }
  pdf.y += BLOCK_GAP / 2;
}

/**
 * A line's cells as printed, in COLUMN_KEYS order: the date written out, the line named in the
 * statement's language with the invoice it belongs to, amounts grouped.
 */
function cellTexts({ messages }: Printing, line: StatementViewLine): string[] {
  return COLUMN_KEYS.map((key) => {
    switch (key) {
      case 'date':
        return messages.date(printable(line.date));
      case 'description':
        return messages.t('statement.line', {
          type: line.type,
          invoice: printable(line.invoiceNo),
        });
      case 'amount':
      case 'balance':
        return messages.amount(printable(line[key]));
      default:
        return printable(line[key]);
    }
  });
}

/** The height of the note that stands for an empty table. */
function emptyHeight(): number {
  return typeLineHeight(TYPE_SIZE.table) + 2 * CELL_PADDING.y;
}

/** "Statement of account · Acme · page 1 of 3" under every page, once every page exists. */
function drawFooters(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const names = oneLine(printing.view.client.names);
  const heading = names === '' ? title(printing) : `${title(printing)} · ${names}`;
  drawPageFooters(pdf, (page, pages) =>
    printing.messages.t('statement.footer', { title: heading, page, pages }),
  );
}

/** Printable text on one line: for the footer and the file's title. */
function oneLine(text: string): string {
  return printable(text).replace(/\s+/g, ' ');
}
