import type { EinvoiceFormat } from '../common/einvoice-codes';
import type Mail from 'nodemailer/lib/mailer';
import { DocumentMessages, messagesFor } from '../documents/i18n/document-messages';
import {
  asksForPayment,
  isPositive,
  LabelledRow,
  lineNotes,
  quantityText,
  settledByCredit,
  referenceRows,
  supplyRow,
  totalRows,
} from '../documents/i18n/document-rows';
import { DocumentView } from '../documents/document-view';
import { Issuer, paymentTermsIn } from '../document-vocabulary/issuer';

/** What the mail needs beyond the document. */
export interface MailEnvelope {
  from: string;
  to: string;
  /** Stable across retries, so a receiver can tell a repeated delivery (see DeliveryWorker). */
  messageId: string;
}

/** One labelled line of a table: the summary, the totals, the issuer's details. */
type Row = LabelledRow;

/** A line of the document as the mail lists it. */
interface MailLine {
  description: string;
  /** The line's amount with the currency code. */
  amount: string;
  /**
   * `3 Std. × 95,00 EUR`, then what the PDF prints under the line (its discount, its taxes when
   * the lines differ), joined by ` · `.
   */
  detail: string;
}

/**
 * The lines a mail lists at most; the rest are counted (`mail.moreLines`), the PDF has them all.
 * A mail stays short to read, and under the size (about 100 kB) at which webmail clips it.
 */
export const MAIL_LINE_LIMIT = 25;

/** Everything one mail says, in its language: both bodies are drawn from this alone. */
interface MailContent {
  locale: string;
  subject: string;
  /** `Invoice INV-1`, with the mark (`PAID`, `VOID`) when there is one. */
  heading: string;
  greeting: string;
  /** The intro, or for a reminder what it reminds of. */
  message: string;
  /** What is due and by when, that it is paid, void, or how long an estimate holds. */
  status: string;
  summary: Row[];
  lines: MailLine[];
  /** How many lines more the PDF has than the mail lists, said as a sentence; '' for none. */
  moreLines: string;
  totals: Row[];
  closing: string;
  /** The issuer's name and address lines. */
  signature: string[];
  issuerDetails: Row[];
}

/**
 * The e-mail of one send, in the document's locale: the subject with the kind, number and
 * company; a plain-text body and a responsive HTML body (MJML) saying the same things (what is
 * due and by when, the dates, the lines, the totals, the issuer's details); the PDF attached as
 * `<number>.pdf`, and the e-invoice when the client takes one, as `<number>.xml`.
 */
export async function composeDocumentMail(
  view: DocumentView,
  issuer: Issuer,
  pdf: Buffer,
  envelope: MailEnvelope,
  einvoice: EinvoiceAttachment | null = null,
): Promise<Mail.Options> {
  const content = mailContent(view, issuer);
  return {
    from: envelope.from,
    to: envelope.to,
    messageId: envelope.messageId,
    subject: content.subject,
    text: textBody(content),
    html: await htmlBody(content),
    attachments: [
      { filename: `${fileNameOf(view.number)}.pdf`, content: pdf, contentType: 'application/pdf' },
      ...(einvoice === null
        ? []
        : [
            {
              filename: `${fileNameOf(view.number)}.xml`,
              content: einvoice.xml,
              contentType: 'application/xml',
            },
          ]),
    ],
  };
}

/** An e-invoice attached to a send: its format and its XML. */
export interface EinvoiceAttachment {
  format: EinvoiceFormat;
  xml: string;
}

function mailContent(view: DocumentView, issuer: Issuer): MailContent {
  const messages = messagesFor(view.locale);
  const { t } = messages;
  const title = t(`title.${view.kind}`);
  const subject = t('mail.subject', { title, number: view.number, issuer: issuer.name });
  const mark = view.mark === undefined ? '' : ` · ${t(`mark.${view.mark}`)}`;
  const message =
    view.reminder === undefined
      ? t('mail.intro', {
          kind: view.kind,
          number: isolated(view.number),
          issuer: isolated(issuer.name),
        })
      : reminderText(view, view.reminder.daysOverdue, messages);
  return {
    locale: messages.locale,
    subject: oneLine(
      view.reminder === undefined ? subject : `${t('mail.reminderSubjectPrefix')} ${subject}`,
    ),
    heading: `${title} ${isolated(view.number)}${mark}`,
    greeting: view.customer.name
      ? t('mail.greeting', { name: isolated(view.customer.name) })
      : t('mail.greetingNoName'),
    message,
    status: statusText(view, messages),
    summary: summaryRows(view, messages),
    lines: mailLines(view, messages),
    moreLines:
      view.lines.length > MAIL_LINE_LIMIT
        ? t('mail.moreLines', { count: view.lines.length - MAIL_LINE_LIMIT })
        : '',
    totals: totalRows(view, messages),
    closing: t('mail.closing'),
    signature: [
      issuer.name,
      ...linesOf(issuer.address),
      messages.country(issuer.country ?? ''),
    ].filter((line) => line !== ''),
    issuerDetails: issuerRows(view, issuer, messages),
  };
}

/** What a reminder says: how late the invoice is, and what is still owed. */
function reminderText(
  view: DocumentView,
  daysOverdue: number,
  { t, money, date }: DocumentMessages,
): string {
  return t('mail.reminder', {
    number: view.number,
    state: daysOverdue > 0 ? 'overdue' : daysOverdue === 0 ? 'today' : 'upcoming',
    days: Math.abs(daysOverdue),
    dueDate: view.dueDate === undefined ? '' : date(view.dueDate),
    balance: money(view.balanceDue ?? view.total, view.currency),
  });
}

/**
 * A void invoice says so; an invoice with nothing left to pay that it is paid; one with a
 * balance what to pay by when (a reminder has said it already); an estimate until when it holds.
 */
function statusText(view: DocumentView, { t, money, date }: DocumentMessages): string {
  if (view.mark === 'void') return t('mail.void');
  if (view.kind === 'estimate') {
    return view.dueDate === undefined ? '' : t('mail.validUntil', { date: date(view.dueDate) });
  }
  if (view.kind !== 'invoice') return '';
  const balance = view.balanceDue ?? view.total;
  if (view.mark === 'paid' || !isPositive(balance)) {
    // Settled by a credit note, the customer may have paid nothing: say what is true.
    return t(settledByCredit(view) ? 'mail.settled' : 'mail.paid');
  }
  if (view.reminder !== undefined) return '';
  const amount = money(balance, view.currency);
  return view.dueDate === undefined
    ? t('mail.pay', { amount })
    : t('mail.payBy', { amount, date: date(view.dueDate) });
}

/** The number, dates (the date of supply or service period too) and parties of the document. */
function summaryRows(view: DocumentView, messages: DocumentMessages): Row[] {
  const { t, date, country } = messages;
  const rows: Row[] = [
    { label: t('label.number', { kind: view.kind }), value: view.number },
    { label: t('label.issueDate'), value: date(view.issueDate) },
  ];
  const supply = supplyRow(view, messages);
  if (supply !== null) rows.push(supply);
  if (view.dueDate !== undefined) {
    const label = view.kind === 'estimate' ? t('label.validUntil') : t('label.dueDate');
    rows.push({ label, value: date(view.dueDate) });
  }
  if (view.corrects !== undefined) rows.push({ label: t('label.corrects'), value: view.corrects });
  if (view.correctsDate !== undefined) {
    rows.push({ label: t('label.correctsDate'), value: date(view.correctsDate) });
  }
  if (view.reason) rows.push({ label: t('label.reason'), value: view.reason });
  if (view.voidReason) rows.push({ label: t('label.voidReason'), value: view.voidReason });
  rows.push(...referenceRows(view, messages));
  const { name, taxId = '', country: countryCode = '' } = view.customer;
  if (name) rows.push({ label: t(`heading.${view.kind}`), value: name });
  if (taxId) rows.push({ label: t('label.customerTaxId'), value: taxId });
  if (countryCode) rows.push({ label: t('label.country'), value: country(countryCode) });
  return rows;
}

/** The first MAIL_LINE_LIMIT lines: description, amount, and quantity, unit, rate and notes. */
function mailLines(view: DocumentView, messages: DocumentMessages): MailLine[] {
  const { t, money } = messages;
  const notes = lineNotes(view, messages);
  return view.lines.slice(0, MAIL_LINE_LIMIT).map((line, index) => ({
    description: linesOf(line.description.trim()).join(' '),
    amount: money(line.amount, view.currency),
    detail: [
      t('label.quantityTimesRate', {
        quantity: quantityText(line, messages),
        rate: money(line.rate, view.currency),
      }),
      ...notes[index],
    ].join(' · '),
  }));
}

/**
 * The issuer's details that are set, each with its label; how to pay (bank, terms) only when
 * the document asks for payment.
 */
function issuerRows(view: DocumentView, issuer: Issuer, { t, locale }: DocumentMessages): Row[] {
  const rows: Row[] = [
    { label: t('label.email'), value: issuer.email },
    { label: t('label.phone'), value: issuer.phone },
    { label: t('label.website'), value: issuer.website },
    { label: t('label.taxId'), value: issuer.taxId },
    { label: t('label.registration'), value: issuer.registration },
  ];
  if (asksForPayment(view)) {
    rows.push(
      { label: t('label.bankAccount'), value: issuer.bankAccount },
      { label: t('label.bankBic'), value: issuer.bankBic },
      { label: t('label.bank'), value: issuer.bankName },
      { label: t('label.paymentTerms'), value: paymentTermsIn(issuer, locale) },
    );
  }
  return rows.filter((row) => row.value !== '');
}

function textBody(content: MailContent): string {
  // The locale's "label: value" (French sets a no-break space before the colon), aligned.
  const colon = messagesFor(content.locale).t('label.pair', { label: '', value: '' }).trimEnd();
  const labelWidth = (rows: Row[]) =>
    Math.max(0, ...rows.map((row) => row.label.length)) + colon.length;
  // A note stands outside the columns: indented under the row it is about (an exemption under
  // its tax row), flush at the head of the table ("Prices include tax").
  const table = (rows: Row[], alignValues: 'left' | 'right') => {
    const valued = rows.filter((row) => !row.note);
    const width = labelWidth(valued);
    const valueWidth = Math.max(0, ...valued.map((row) => row.value.length));
    return rows.map(({ label, value, note }, index) => {
      if (note) return index === 0 ? label : `  ${label}`;
      const shown = alignValues === 'right' ? value.padStart(valueWidth) : value;
      return `${`${label}${colon}`.padEnd(width)} ${shown.replace(/\r?\n/g, ' ')}`;
    });
  };
  const pair = (label: string, value: string) =>
    messagesFor(content.locale).t('label.pair', { label, value });
  // Each line as `Description: 21.00 EUR`, its quantity, rate and notes indented under it.
  const lines = content.lines.flatMap((line) => [
    pair(line.description, line.amount),
    `  ${line.detail}`,
  ]);
  const paragraphs: string[][] = [
    [content.heading],
    [content.greeting],
    [content.message],
    content.status ? [content.status] : [],
    table(content.summary, 'left'),
    content.moreLines ? [...lines, content.moreLines] : lines,
    table(content.totals, 'right'),
    [content.closing, ...content.signature, ...table(content.issuerDetails, 'left')],
  ];
  return plain(
    `${paragraphs
      .filter((lines) => lines.length > 0)
      .map((lines) => lines.join('\n'))
      .join('\n\n')}\n`,
  );
}

/**
 * The system's own sans-serif: no web font to fetch (MJML would link Google's for `Roboto`
 * unless `fonts` is emptied, which htmlBody does).
 */
const FONT_STACK =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const TEXT_COLOUR = '#1f2933';
const MUTED_COLOUR = '#52606d';

/**
 * The HTML body, compiled from MJML for each mail (a few milliseconds; the PDF costs more).
 * Every value is escaped before it enters the markup, so no value can add an element.
 */
async function htmlBody(content: MailContent): Promise<string> {
  // Loaded on the first mail: mjml is hundreds of modules (about 0.3 s), and a process that
  // sends nothing (most test files, an instance with OUTBOX_POLL_MS=0) need not load it.
  const { default: mjml2html } = await import('mjml');
  const { html, errors } = await mjml2html(mjmlOf(content), {
    validationLevel: 'strict',
    fonts: {},
    keepComments: false,
  });
  // 'strict' throws on invalid MJML; an error here would be one it only reports.
  if (errors.length > 0) throw new Error(`MJML: ${errors.map((e) => e.message).join('; ')}`);
  return html;
}

/** The MJML source of one mail's HTML body (exported for its spec, which validates it). */
export function documentMailMjml(view: DocumentView, issuer: Issuer): string {
  return mjmlOf(mailContent(view, issuer));
}

/** The MJML of one mail: a card with the message and tables, then one with the issuer. */
function mjmlOf(content: MailContent): string {
  const status = content.status
    ? `<mj-text font-weight="700">${textHtml(content.status)}</mj-text>`
    : '';
  const signature = [content.closing, ...content.signature].map(textHtml).join('<br />');
  const issuerDetails =
    content.issuerDetails.length === 0
      ? ''
      : `<mj-table font-size="13px" line-height="19px">${tableRows(content.issuerDetails, 'left')}</mj-table>`;
  const moreLines = content.moreLines
    ? `<mj-text font-size="13px" color="${MUTED_COLOUR}">${textHtml(content.moreLines)}</mj-text>`
    : '';
  const lines =
    content.lines.length === 0
      ? ''
      : `<mj-table>${lineRows(content.lines)}</mj-table>${moreLines}
        <mj-divider border-width="1px" border-color="#e4e7eb" padding="0 0 16px 0" />`;
  return `<mjml lang="${escapeHtml(content.locale)}" dir="ltr">
  <mj-head>
    <mj-title>${escapeHtml(content.subject)}</mj-title>
    <mj-preview>${escapeHtml(plain(content.message))}</mj-preview>
    <mj-attributes>
      <mj-all font-family="${FONT_STACK}" />
      <mj-text font-size="15px" line-height="22px" color="${TEXT_COLOUR}" padding="0 0 16px 0" />
      <mj-table font-size="15px" line-height="22px" color="${TEXT_COLOUR}" padding="0 0 16px 0" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section padding="24px 0 0 0">
      <mj-column background-color="#ffffff" padding="28px 24px 12px 24px">
        <mj-text font-size="22px" line-height="28px" font-weight="700">${textHtml(content.heading)}</mj-text>
        <mj-text>${textHtml(content.greeting)}</mj-text>
        <mj-text>${textHtml(content.message)}</mj-text>
        ${status}
        <mj-table>${tableRows(content.summary, 'left')}</mj-table>
        <mj-divider border-width="1px" border-color="#e4e7eb" padding="0 0 16px 0" />
        ${lines}
        <mj-table>${tableRows(content.totals, 'right')}</mj-table>
      </mj-column>
    </mj-section>
    <mj-section padding="0 0 24px 0">
      <mj-column background-color="#ffffff" padding="12px 24px 28px 24px">
        <mj-text color="${MUTED_COLOUR}">${signature}</mj-text>
        ${issuerDetails}
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

/** Labels left; values left (summary) or right-aligned and unbroken (amounts). */
function tableRows(rows: Row[], alignValues: 'left' | 'right'): string {
  // Values may break anywhere (an e-mail address, an IBAN), amounts never; labels only between
  // words, so that on a narrow screen (390 px) the label column keeps its longest word whole.
  const value =
    alignValues === 'right'
      ? 'text-align:right;white-space:nowrap;'
      : 'text-align:left;overflow-wrap:anywhere;word-break:normal;';
  const label = 'text-align:left;word-break:normal;overflow-wrap:normal;hyphens:manual;';
  return rows
    .map(({ label: text, value: shown, strong, note }) => {
      if (note) return noteRow(text);
      const weight = strong ? 'font-weight:700;' : 'font-weight:400;';
      return (
        `<tr><th align="left" valign="top" style="${label}${weight}padding:3px 16px 3px 0;color:${MUTED_COLOUR};">${textHtml(text)}</th>` +
        `<td align="${alignValues}" valign="top" style="${value}${weight}padding:3px 0;"><bdi>${textHtml(shown)}</bdi></td></tr>`
      );
    })
    .join('');
}

/** A remark across both columns, muted and smaller, under the row before it. */
function noteRow(text: string): string {
  return `<tr><td colspan="2" align="left" valign="top" style="text-align:left;overflow-wrap:anywhere;font-size:13px;line-height:19px;padding:0 0 3px 0;color:${MUTED_COLOUR};">${textHtml(text)}</td></tr>`;
}

/** Each line: its description and its amount (right-aligned, unbroken), its detail under them. */
function lineRows(lines: MailLine[]): string {
  const description = 'text-align:left;overflow-wrap:anywhere;word-break:normal;font-weight:400;';
  const amount = 'text-align:right;white-space:nowrap;font-weight:400;';
  return lines
    .map(
      (line) =>
        `<tr><td align="left" valign="top" style="${description}padding:3px 16px 0 0;">${textHtml(line.description)}</td>` +
        `<td align="right" valign="top" style="${amount}padding:3px 0 0 0;"><bdi>${textHtml(line.amount)}</bdi></td></tr>` +
        `<tr><td colspan="2" align="left" valign="top" style="text-align:left;overflow-wrap:anywhere;font-size:13px;line-height:19px;padding:0 0 6px 0;color:${MUTED_COLOUR};">${textHtml(line.detail)}</td></tr>`,
    )
    .join('');
}

/** Escaped text whose line breaks stay line breaks. */
function textHtml(text: string): string {
  return linesOf(text)
    .map((line) => escapeHtml(line).replace(ISOLATED, '<bdi>$1</bdi>'))
    .join('<br />');
}

/*
 * A name or number set inside a sentence is isolated, so that a right-to-left name (שרה כהן
 * (Sarah) GmbH) keeps its words in order and does not pull the sentence's punctuation into it:
 * marked with FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE while the sentence is built, then
 * written as <bdi> in the HTML and left out of the plain text.
 */
const FSI = '\u2068';
const PDI = '\u2069';
const ISOLATED = new RegExp(`${FSI}([^${FSI}${PDI}]*)${PDI}`, 'g');

function isolated(value: string): string {
  return `${FSI}${value}${PDI}`;
}

/** Plain text without the isolation marks. */
function plain(text: string): string {
  return text.replace(/[\u2068\u2069]/g, '');
}

function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every value shown in the HTML body is text, never markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/** A header value on one line: line breaks and other control characters become spaces. */
export function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** A document number as a file name: no path separators, quotes or control characters. */
export function fileNameOf(number: string): string {
  return oneLine(number).replace(/[/\\:*?"<>|]/g, '_') || 'document';
}
