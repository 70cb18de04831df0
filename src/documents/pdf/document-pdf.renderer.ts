import { DocumentMessages, messagesFor } from '../i18n/document-messages';
import {
  asksForPayment,
  LabelledRow,
  labelled,
  lineNotes,
  quantityText,
  referenceRows,
  supplyRow,
  totalRows,
} from '../i18n/document-rows';
import { Issuer, paymentTermsIn } from '../../document-vocabulary/issuer';
import { DocumentView, DocumentViewLedgerEntry, DocumentViewLine } from '../document-view';
import {
  amountNoteHeight,
  AmountRowWidths,
  amountRowHeight,
  BLOCK_GAP,
  Box,
  CELL_PADDING,
  COLOR,
  contentBox,
  createPdf,
  drawFlowingText,
  drawAmountNote,
  drawAmountRow,
  drawLines,
  drawPageFooters,
  drawWatermark,
  drawTableHeader,
  drawTextRow,
  headerHeight,
  linesHeight,
  pdfBytes,
  PdfFileOptions,
  placeColumns,
  printable,
  singleLineWidth,
  startPageIfShort,
  TableColumn,
  TextLine,
  textRowHeight,
  typeLineHeight,
  TYPE_SIZE,
} from './pdf-layout';

/*
 * The printed invoice or estimate on A4: the title; the issuer beside the number and dates; the
 * client; the description; the line table; the totals; the note; a footer on every page. Blocks
 * are drawn in reading order, which is the order a PDF reader extracts the text in. Positions
 * are computed here in points: a table row is measured before it is drawn, and one that does
 * not fit starts a new page, so pdfkit never splits a row across pages by itself.
 *
 * Taxes, discounts and units keep the table at its four columns, so a plain document prints as
 * it always did and a long description keeps its width: the unit follows the quantity
 * (`3 Std.`); a line's discount and, when the lines do not all carry the same taxes, its taxes
 * print in one small muted line under its description (`Rabatt (10 %): -28,50 · USt. (19 %)`,
 * `GST (5%) + PST (7%)`), named exactly as their rows of the breakdown in the totals are. A
 * column of rates would be empty for most documents and too narrow for two named taxes.
 */

export const PDF_MEDIA_TYPE = 'application/pdf';

/**
 * Issuer on the left, the dates on the right: the dates as wide as they need, within these
 * shares of the content width; their values within a share of theirs.
 */
const DETAILS_MIN_SHARE = 0.3;
const DETAILS_MAX_SHARE = 0.55;
const DETAILS_VALUE_MAX_SHARE = 0.7;

/**
 * The line table: the number columns are as wide as their widest text (at least these widths,
 * at most a share of the table each), the description takes the rest.
 */
const NUMBER_COLUMN_MIN_WIDTHS = { quantity: 55, rate: 80, amount: 90 };
const NUMBER_COLUMN_MAX_SHARE = 0.22;
/** The ledger's date, kind and amount: each at most this share; the reference takes the rest. */
const LEDGER_COLUMN_MAX_SHARE = 0.28;

/** Totals sit under the table, right-aligned: a label, then the amount and currency code. */
const TOTALS: AmountRowWidths = { label: 150, value: 170, gap: 4 };

/** The paid, void or draft mark beside the title. */
const MARK_COLORS = { paid: '#1a7f37', void: '#b42318', draft: '#6b7280' };
const MARK_PADDING = { x: 8, y: 3 };

/** The line table's cells: the discount and the taxes print under the description. */
type LineCell = 'description' | 'quantity' | 'rate' | 'amount';
type LineColumn = TableColumn<LineCell>;
type LedgerColumn = TableColumn<'date' | 'kind' | 'reference' | 'amount'>;

/** What drawing one document needs: its view, its issuer, and its language's messages. */
interface Printing {
  view: DocumentView;
  issuer: Issuer;
  messages: DocumentMessages;
}

/** Renders the document as an A4 PDF, in its locale, and resolves with its bytes. */
export function renderDocumentPdf(view: DocumentView, issuer: Issuer): Promise<Buffer> {
  return renderPrintedDocument(view, issuer);
}

/**
 * What a format built on the printed document (the Factur-X PDF) changes: pdfkit's options for
 * the file (PDF/A), and what it adds once the pages are drawn, before the file is ended.
 */
export interface PrintedDocumentFormat {
  options: PdfFileOptions;
  complete(pdf: PDFKit.PDFDocument): void;
}

const PLAIN: PrintedDocumentFormat = { options: {}, complete: () => undefined };

/** The document drawn as renderDocumentPdf draws it, in a format's file. */
export function renderPrintedDocument(
  view: DocumentView,
  issuer: Issuer,
  format: PrintedDocumentFormat = PLAIN,
): Promise<Buffer> {
  const printing = { view, issuer, messages: messagesFor(view.locale) };
  const info = {
    Title: `${title(printing)} ${view.number}`.trim(),
    Author: issuer.name,
    Creator: issuer.name,
    // The issue date, so the same document always gives the same bytes (pdfkit derives the
    // file id from it).
    CreationDate: new Date(`${view.issueDate}T00:00:00Z`),
  };
  return pdfBytes(createPdf(info, format.options), (pdf) => {
    drawDocument(pdf, printing);
    format.complete(pdf);
  });
}

function drawDocument(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const { view, messages } = printing;
  drawTitle(pdf, printing);
  drawIssuerAndDetails(pdf, printing);
  drawClient(pdf, printing);
  drawParagraph(pdf, null, view.description);
  drawParagraph(pdf, messages.t('label.reason'), view.reason ?? '');
  drawParagraph(pdf, messages.t('label.voidReason'), view.voidReason ?? '');
  drawLineTable(pdf, printing);
  drawTotals(pdf, printing);
  drawLedger(pdf, printing);
  drawPaymentDetails(pdf, printing);
  drawParagraph(pdf, messages.t('label.note'), view.note);
  drawPageFooters(pdf, (page, pages) =>
    messages.t('footer', { title: title(printing), number: view.number, page, pages }),
  );
  // A draft says so across every page (docs/numbering.md).
  if (view.mark === 'draft') drawWatermark(pdf, messages.t('mark.draft'));
}

function title({ view, messages }: Printing): string {
  return messages.t(`title.${view.kind}`);
}

/** The kind in capitals, its number under it, and the paid or void mark on the right. */
function drawTitle(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const { view, messages } = printing;
  const content = contentBox(pdf);
  const top = pdf.y;
  const mark = view.mark === undefined ? '' : messages.t(`mark.${view.mark}`);
  const markStyle = { size: TYPE_SIZE.title, bold: true };
  const markWidth = mark === '' ? 0 : singleLineWidth(mark, markStyle) + 2 * MARK_PADDING.x;
  const titleBox = { x: content.x, width: content.width - markWidth - BLOCK_GAP };
  const titleBottom = drawLines(pdf, titleBox, top, [
    { text: title(printing).toLocaleUpperCase(messages.locale), bold: true, size: TYPE_SIZE.title },
  ]);
  if (mark !== '') drawMark(pdf, mark, MARK_COLORS[view.mark!], markWidth, top);
  pdf.y = titleBottom;
  // A draft has no number yet: no number line.
  if (view.number === '') {
    pdf.y += BLOCK_GAP / 2;
    return;
  }
  // The number on its own line across the page: a long one stays on one line.
  const label = messages.t('label.number', { kind: view.kind });
  const labelWidth = singleLineWidth(label, { size: TYPE_SIZE.body }) + CELL_PADDING.x * 2;
  const numberTop = pdf.y;
  const labelBottom = drawLines(pdf, { x: content.x, width: labelWidth }, numberTop, [
    { text: label, muted: true },
  ]);
  const numberBox = { x: content.x + labelWidth, width: content.width - labelWidth };
  const numberBottom = drawLines(pdf, numberBox, numberTop, [{ text: view.number, bold: true }]);
  pdf.y = Math.max(labelBottom, numberBottom) + BLOCK_GAP / 2;
}

/** A boxed stamp of this width at the top right. */
function drawMark(
  pdf: PDFKit.PDFDocument,
  text: string,
  color: string,
  width: number,
  top: number,
): void {
  const content = contentBox(pdf);
  const height = typeLineHeight(TYPE_SIZE.title, true) + 2 * MARK_PADDING.y;
  const x = content.x + content.width - width;
  pdf.save();
  pdf.rect(x, top, width, height).lineWidth(2).stroke(color);
  pdf.restore();
  pdf.fillColor(color);
  const box = { x: x + MARK_PADDING.x, width: width - 2 * MARK_PADDING.x };
  drawLines(pdf, box, top + MARK_PADDING.y, [{ text, bold: true, size: TYPE_SIZE.title }]);
  pdf.fillColor(COLOR.text);
}

/**
 * The issuer's block of every printed page: name, address, country (named in the page's
 * language, as the client's is), contact, tax and registration.
 */
export function issuerLines(issuer: Issuer, messages: DocumentMessages): TextLine[] {
  return [
    { text: issuer.name, bold: true, size: TYPE_SIZE.issuer },
    { text: issuer.address },
    { text: messages.country(issuer.country ?? '') },
    { text: issuer.email },
    { text: labelled(messages, 'label.phone', issuer.phone) },
    { text: issuer.website },
    { text: labelled(messages, 'label.taxId', issuer.taxId) },
    { text: labelled(messages, 'label.registration', issuer.registration) },
  ];
}

/**
 * The issuer on the left; the dates (issue, supply or service period, due) and the corrected
 * invoice beside it on the right.
 */
function drawIssuerAndDetails(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const { view, issuer, messages } = printing;
  const content = contentBox(pdf);
  const top = pdf.y;
  const dueLabel = view.kind === 'estimate' ? 'label.validUntil' : 'label.dueDate';
  const supply = supplyRow(view, messages);
  const details = (
    [
      [messages.t('label.issueDate'), messages.date(view.issueDate)],
      [supply?.label, supply?.value],
      [messages.t(dueLabel), view.dueDate && messages.date(view.dueDate)],
      [messages.t('label.corrects'), view.corrects],
      [messages.t('label.correctsDate'), view.correctsDate && messages.date(view.correctsDate)],
      ...referenceRows(view, messages).map(({ label, value }) => [label, value]),
    ] as Array<[string, string | undefined]>
  ).filter((detail): detail is [string, string] => detail[1] !== undefined);
  // The details as wide as their longest label and value, so that a written-out date stays on
  // one line; the issuer (whose registration may be long) takes the rest.
  const labelWidth = Math.max(
    ...details.map(([label]) => singleLineWidth(label, { size: TYPE_SIZE.body })),
  );
  // A service period may wrap after its dash (`1. November 2026 –` / `30. November 2026`):
  // measured by its longer half, it leaves the labels their width.
  const valueWidth = Math.max(
    ...details.flatMap(([, value]) =>
      value
        .split(/(?<= –) /)
        .map((part) => singleLineWidth(part, { size: TYPE_SIZE.body, bold: true })),
    ),
  );
  const detailsWidth = Math.min(
    Math.max(
      Math.ceil(labelWidth + valueWidth) + 3 * CELL_PADDING.x,
      content.width * DETAILS_MIN_SHARE,
    ),
    content.width * DETAILS_MAX_SHARE,
  );
  const detailsBox = { x: content.x + content.width - detailsWidth, width: detailsWidth };
  // A value (a written-out date) never wraps while the details fit; a long label may.
  const valueShare = Math.min(
    DETAILS_VALUE_MAX_SHARE,
    (valueWidth + 2 * CELL_PADDING.x + 1) / detailsWidth,
  );
  const labelShare = 1 - valueShare;
  // The issuer beside the details, and across the page below them: a long registration at the
  // end of the block then stays on one line. Drawn first, in reading order.
  const detailsBottom =
    top +
    details.reduce(
      (height, [label, value]) =>
        height + labelledHeight(detailsBox.width, label, value, labelShare),
      0,
    );
  let issuerBottom = top;
  for (const line of issuerLines(issuer, messages)) {
    const width =
      issuerBottom >= detailsBottom ? content.width : content.width - detailsWidth - BLOCK_GAP;
    issuerBottom = drawLines(pdf, { x: content.x, width }, issuerBottom, [line]);
  }
  let y = top;
  for (const [label, value] of details) {
    y = drawLabelled(pdf, detailsBox, y, label, value, labelShare);
  }
  pdf.y = Math.max(issuerBottom, y) + BLOCK_GAP;
}

/** The client: the heading, name, address, phone, tax number and country. */
function drawClient(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const { view, messages } = printing;
  const content = contentBox(pdf);
  const { name, phone, address, taxId = '', country = '' } = view.customer;
  const bottom = drawLines(
    pdf,
    content,
    pdf.y,
    [
      { text: messages.t(`heading.${view.kind}`), muted: true },
      { text: name, bold: true },
      { text: address },
      { text: country && messages.country(country) },
      { text: phone },
      { text: labelled(messages, 'label.customerTaxId', taxId) },
    ],
    { directionFrom: name },
  );
  pdf.y = bottom + BLOCK_GAP;
}

/** The height drawLabelled takes for this label and value in a box of this width. */
function labelledHeight(width: number, label: string, value: string, labelShare: number): number {
  const labelWidth = width * labelShare;
  return Math.max(
    linesHeight(labelWidth, [{ text: label, muted: true }]),
    linesHeight(width - labelWidth, [{ text: value, bold: true }]),
  );
}

/** A muted label and its value on one line of a box; answers the y under the taller. */
function drawLabelled(
  pdf: PDFKit.PDFDocument,
  box: Box,
  y: number,
  label: string,
  value: string,
  labelShare: number,
): number {
  const labelWidth = box.width * labelShare;
  const labelBottom = drawLines(pdf, { x: box.x, width: labelWidth }, y, [
    { text: label, muted: true },
  ]);
  const valueBottom = drawLines(pdf, { x: box.x + labelWidth, width: box.width - labelWidth }, y, [
    { text: value, bold: true, align: 'right' },
  ]);
  return Math.max(labelBottom, valueBottom);
}

/** A free-text block (the description, the note); a long one flows onto new pages. */
function drawParagraph(pdf: PDFKit.PDFDocument, heading: string | null, body: string): void {
  if (printable(body) === '') return;
  const content = contentBox(pdf);
  if (heading !== null) {
    // Keep the heading with at least its first line.
    startPageIfShort(pdf, 3 * typeLineHeight(TYPE_SIZE.body, true));
    pdf.y = drawLines(pdf, content, pdf.y, [{ text: heading, bold: true }]);
  }
  pdf.y = drawFlowingText(pdf, body, content) + BLOCK_GAP;
}

/** The number columns as wide as their widest text, within bounds; the description the rest. */
function tableColumns(pdf: PDFKit.PDFDocument, printing: Printing): LineColumn[] {
  const { view, messages } = printing;
  const total = contentBox(pdf).width;
  const widthOf = (key: Exclude<LineCell, 'description'>, label: string) =>
    Math.max(
      NUMBER_COLUMN_MIN_WIDTHS[key],
      fittedWidth(
        label,
        view.lines.map((line) => cellText(printing, line, key)),
        total * NUMBER_COLUMN_MAX_SHARE,
      ),
    );
  const labels = {
    quantity: messages.t('label.quantity'),
    rate: messages.t('label.rate', { currency: view.currency }),
    amount: messages.t('label.amount', { currency: view.currency }),
  };
  const quantity = widthOf('quantity', labels.quantity);
  const rate = widthOf('rate', labels.rate);
  const amount = widthOf('amount', labels.amount);
  return placeColumns<LineCell>(pdf, [
    {
      key: 'description',
      label: messages.t('label.description'),
      width: total - quantity - rate - amount,
      align: 'left',
    },
    { key: 'quantity', label: labels.quantity, width: quantity, align: 'right' },
    { key: 'rate', label: labels.rate, width: rate, align: 'right' },
    { key: 'amount', label: labels.amount, width: amount, align: 'right' },
  ]);
}

/** A line's cell as printed: numbers grouped in the document's locale, the quantity's unit. */
function cellText({ messages }: Printing, line: DocumentViewLine, key: LineCell): string {
  if (key === 'quantity') return quantityText(line, messages);
  const text = printable(line[key]);
  return key === 'description' ? text : messages.amount(text);
}

/**
 * Rows in order; a row that does not fit starts a new page, which repeats the header. The last
 * row is kept with the closing block (totals, ledger, payment details, the note's start) when
 * they fit on one page together, so no page holds the closing block alone.
 */
function drawLineTable(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const columns = tableColumns(pdf, printing);
  const texts = (line: DocumentViewLine | undefined) =>
    columns.map((column) => (line ? cellText(printing, line, column.key) : ''));
  const lines = printing.view.lines;
  const notesOfLines = lineNotes(printing.view, printing.messages);
  const notes = (index: number) =>
    columns.map((column) =>
      column.key === 'description' ? (notesOfLines[index] ?? []).join(' · ') : '',
    );
  startPageIfShort(pdf, headerHeight(columns) + textRowHeight(columns, texts(lines[0]), notes(0)));
  drawTableHeader(pdf, columns);
  const closing = BLOCK_GAP / 2 + closingHeight(pdf, printing);
  const page = contentBox(pdf).bottom - pdf.page.margins.top - headerHeight(columns);
  lines.forEach((line, index) => {
    const cells = texts(line);
    const height = textRowHeight(columns, cells, notes(index));
    const last = index === lines.length - 1;
    const needed = last && height + closing <= page ? height + closing : height;
    if (startPageIfShort(pdf, needed)) drawTableHeader(pdf, columns);
    drawTextRow(pdf, columns, cells, notes(index));
  });
  pdf.y += BLOCK_GAP / 2;
}

/** What follows the line table on the last page: totals, ledger, payment details, note start. */
function closingHeight(pdf: PDFKit.PDFDocument, printing: Printing): number {
  const width = contentBox(pdf).width;
  const totals = totalsHeight(pdf, totalsLayout(pdf, printing));
  const payment = paymentDetailLines(printing);
  const paymentHeight = payment.length === 0 ? 0 : linesHeight(width, payment) + BLOCK_GAP;
  const note = printable(printing.view.note);
  const noteStart =
    note === ''
      ? 0
      : Math.min(linesHeight(width, [{ text: note }]), 3 * typeLineHeight(TYPE_SIZE.body)) +
        typeLineHeight(TYPE_SIZE.body, true);
  return totals + BLOCK_GAP + ledgerHeight(pdf, printing) + paymentHeight + noteStart;
}

/** The totals' rows and the widths they are drawn in. */
function totalsLayout(
  pdf: PDFKit.PDFDocument,
  { view, messages }: Printing,
): { rows: LabelledRow[]; widths: AmountRowWidths } {
  const rows = totalRows(view, messages);
  // The labels as wide as the longest ("Settled without a recorded payment", "USt. (19 %) auf
  // 1.234,50 EUR"), within the page; notes wrap under the labels and amounts together.
  const widest = Math.max(
    ...rows
      .filter((row) => !row.note)
      .map((row) => singleLineWidth(row.label, { size: TYPE_SIZE.body, bold: true })),
  );
  const widths = {
    ...TOTALS,
    label: Math.min(
      Math.max(TOTALS.label, Math.ceil(widest) + 2 * CELL_PADDING.x),
      contentBox(pdf).width - TOTALS.value,
    ),
  };
  return { rows, widths };
}

function totalsHeight(
  pdf: PDFKit.PDFDocument,
  { rows, widths }: ReturnType<typeof totalsLayout>,
): number {
  return rows.reduce(
    (height, row) =>
      height + (row.note ? amountNoteHeight(pdf, widths, row.label) : amountRowHeight(widths)),
    0,
  );
}

/** The totals, kept together on one page, right-aligned under the table. */
function drawTotals(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const layout = totalsLayout(pdf, printing);
  startPageIfShort(pdf, totalsHeight(pdf, layout));
  for (const row of layout.rows) {
    if (row.note) drawAmountNote(pdf, layout.widths, row.label);
    else drawAmountRow(pdf, layout.widths, row);
  }
  pdf.y += BLOCK_GAP;
}

/** An invoice's payments, refunds and credits with their dates, under a heading. */
function drawLedger(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const entries = printing.view.ledger ?? [];
  if (entries.length === 0) return;
  const { columns, texts, heading } = ledgerTable(pdf, printing);
  const content = contentBox(pdf);
  startPageIfShort(
    pdf,
    linesHeight(content.width, heading) +
      headerHeight(columns) +
      textRowHeight(columns, texts(entries[0])),
  );
  pdf.y = drawLines(pdf, content, pdf.y, heading) + CELL_PADDING.y;
  drawTableHeader(pdf, columns);
  for (const entry of entries) {
    const cells = texts(entry);
    if (startPageIfShort(pdf, textRowHeight(columns, cells))) drawTableHeader(pdf, columns);
    drawTextRow(pdf, columns, cells);
  }
  pdf.y += BLOCK_GAP;
}

/** The ledger's columns, each but the reference as wide as its widest text in the locale. */
function ledgerTable(pdf: PDFKit.PDFDocument, printing: Printing) {
  const { view, messages } = printing;
  const entries = view.ledger ?? [];
  const texts = (entry: DocumentViewLedgerEntry) => [
    messages.date(entry.date),
    messages.t(`ledger.${entry.kind}`),
    printable(entry.reference),
    // Signed as it counts towards the amount paid: payments and credits add, refunds subtract.
    messages.amount(entry.kind === 'refund' ? `-${entry.amount}` : entry.amount),
  ];
  const labels = [
    messages.t('ledger.date'),
    messages.t('ledger.kind'),
    messages.t('ledger.reference'),
    messages.t('ledger.amount', { currency: view.currency }),
  ];
  const rows = entries.map(texts);
  const total = contentBox(pdf).width;
  const [date, kind, , amount] = labels.map((label, index) =>
    fittedWidth(
      label,
      rows.map((row) => row[index]),
      total * LEDGER_COLUMN_MAX_SHARE,
    ),
  );
  const columns = placeColumns<LedgerColumn['key']>(pdf, [
    { key: 'date', label: labels[0], width: date, align: 'left' },
    { key: 'kind', label: labels[1], width: kind, align: 'left' },
    { key: 'reference', label: labels[2], width: total - date - kind - amount, align: 'left' },
    { key: 'amount', label: labels[3], width: amount, align: 'right' },
  ]);
  const heading: TextLine[] = [{ text: messages.t('ledger.heading'), bold: true }];
  return { columns, texts, heading };
}

/** The height of the ledger block as drawLedger draws it on one page. */
function ledgerHeight(pdf: PDFKit.PDFDocument, printing: Printing): number {
  const entries = printing.view.ledger ?? [];
  if (entries.length === 0) return 0;
  const { columns, texts, heading } = ledgerTable(pdf, printing);
  return (
    linesHeight(contentBox(pdf).width, heading) +
    CELL_PADDING.y +
    headerHeight(columns) +
    entries.reduce((height, entry) => height + textRowHeight(columns, texts(entry)), 0) +
    BLOCK_GAP
  );
}

/**
 * A table column as wide as its widest text (the bold header or a cell, in the table's type),
 * at most `maximum`: a date or an amount never wraps while it fits.
 */
function fittedWidth(label: string, cells: string[], maximum: number): number {
  const widest = Math.max(
    singleLineWidth(label, { size: TYPE_SIZE.table, bold: true }),
    ...cells.map((text) => singleLineWidth(text, { size: TYPE_SIZE.table })),
  );
  return Math.min(Math.ceil(widest) + 2 * CELL_PADDING.x + 1, maximum);
}

/** How to pay an invoice that asks for payment: the terms and the bank details, when set. */
function drawPaymentDetails(pdf: PDFKit.PDFDocument, printing: Printing): void {
  const lines = paymentDetailLines(printing);
  if (lines.length === 0) return;
  const content = contentBox(pdf);
  startPageIfShort(pdf, linesHeight(content.width, lines));
  pdf.y = drawLines(pdf, content, pdf.y, lines) + BLOCK_GAP;
}

/** The heading and lines of the payment details; none when the document asks for nothing. */
function paymentDetailLines(printing: Printing): TextLine[] {
  const { view, issuer, messages } = printing;
  if (!asksForPayment(view)) return [];
  const lines: TextLine[] = [
    { text: paymentTermsIn(issuer, messages.locale) },
    { text: labelled(messages, 'label.bank', issuer.bankName) },
    { text: labelled(messages, 'label.bankAccount', issuer.bankAccount) },
    { text: labelled(messages, 'label.bankBic', issuer.bankBic) },
  ].filter((line) => printable(line.text) !== '');
  if (lines.length === 0) return [];
  return [{ text: messages.t('label.paymentTerms'), bold: true }, ...lines];
}
