import type Mail from 'nodemailer/lib/mailer';
import { DOCUMENT_NAMES, DocumentView, Issuer } from '../documents/pdf/document-view';

/** What the mail needs beyond the document. */
export interface MailEnvelope {
  from: string;
  to: string;
  /** Stable across retries, so a receiver can tell a repeated delivery (see DeliveryWorker). */
  messageId: string;
}

/**
 * The e-mail of one send: subject with the kind, number and company; plain-text and HTML
 * bodies with the totals and due date; the PDF attached as `<number>.pdf`.
 */
export function composeDocumentMail(
  view: DocumentView,
  issuer: Issuer,
  pdf: Buffer,
  envelope: MailEnvelope,
): Mail.Options {
  const name = DOCUMENT_NAMES[view.kind];
  const title = `${capitalised(name)} ${view.number}`;
  const rows = summaryRows(view);
  const greeting = view.customer.name ? `Dear ${view.customer.name},` : 'Hello,';
  const intro =
    view.reminder === undefined
      ? `Please find attached ${name} ${view.number} from ${issuer.name}.`
      : reminderText(view, view.reminder.daysOverdue);
  const signature = [issuer.name, issuer.address, issuer.email].filter((line) => line !== '');
  const labelWidth = Math.max(...rows.map(([label]) => label.length)) + 1;
  const text = [
    greeting,
    '',
    intro,
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(labelWidth)} ${value}`),
    '',
    ...signature,
    '',
  ].join('\n');
  const html = [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>`,
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<table>',
    ...rows.map(
      ([label, value]) =>
        `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    `<p>${signature.map(escapeHtml).join('<br>')}</p>`,
    '</body></html>',
    '',
  ].join('\n');
  return {
    from: envelope.from,
    to: envelope.to,
    messageId: envelope.messageId,
    subject: oneLine(`${view.reminder ? 'Reminder: ' : ''}${title} from ${issuer.name}`),
    text,
    html,
    attachments: [
      { filename: `${fileNameOf(view.number)}.pdf`, content: pdf, contentType: 'application/pdf' },
    ],
  };
}

/** What a reminder says: how late the invoice is, and what is still owed. */
function reminderText(view: DocumentView, daysOverdue: number): string {
  const owed = `${view.balanceDue ?? view.total} ${view.currency}`;
  const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
  const when =
    daysOverdue > 0
      ? `is ${days(daysOverdue)} overdue (due ${view.dueDate})`
      : daysOverdue === 0
        ? 'is due today'
        : `is due in ${days(-daysOverdue)}, on ${view.dueDate}`;
  return `A reminder: invoice ${view.number} ${when}. ${owed} is still owed. The invoice is attached.`;
}

/** Label and value of each summary line, as both bodies show them. */
function summaryRows(view: DocumentView): Array<[string, string]> {
  const money = (amount: string) => `${amount} ${view.currency}`;
  const rows: Array<[string, string]> = [
    [capitalised(DOCUMENT_NAMES[view.kind]), view.number],
    ['Issue date', view.issueDate],
  ];
  if (view.dueDate !== undefined) rows.push(['Due date', view.dueDate]);
  if (view.corrects !== undefined) rows.push(['Corrects invoice', view.corrects]);
  rows.push(
    ['Sub-total', money(view.subTotal)],
    [`Tax (${view.taxRate}%)`, money(view.taxAmount)],
    ['Total', money(view.total)],
  );
  if (view.amountPaid !== undefined) rows.push(['Amount paid', money(view.amountPaid)]);
  if (view.balanceDue !== undefined) rows.push(['Balance due', money(view.balanceDue)]);
  return rows;
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

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
