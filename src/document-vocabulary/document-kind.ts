/** The kinds of document the service issues; each has its table, its numbers and its send log. */
export type DocumentKind = 'invoice' | 'estimate' | 'credit_note';

/** How each kind is named in text: messages, titles, e-mails. */
export const DOCUMENT_NAMES: Record<DocumentKind, string> = {
  invoice: 'invoice',
  estimate: 'estimate',
  credit_note: 'credit note',
};
