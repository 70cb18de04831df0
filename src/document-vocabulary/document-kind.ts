/** The kinds of document the service issues; each has its table, its numbers and its send log. */
export const DOCUMENT_KINDS = ['invoice', 'estimate', 'credit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** How each kind is named in text: messages, titles, e-mails. */
export const DOCUMENT_NAMES: Record<DocumentKind, string> = {
  invoice: 'invoice',
  estimate: 'estimate',
  credit_note: 'credit note',
};
