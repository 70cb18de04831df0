/*
 * The one numbering rule (docs/rules.md): the caller writes a document's number (trimmed, 1 to
 * 64 characters), and it is unique within its kind among the documents that count, compared
 * exactly as written (case, accents and inner spaces included): live invoices and live
 * estimates, since archiving one frees its number, and every credit note, which is never
 * archived.
 *
 * The database holds it in unique indexes written out per dialect in the migrations (MySQL:
 * `live_invoice_no` and `live_estimate_no`, NULL once archived, in utf8mb4_bin; SQLite: indexes
 * over live rows; both: `uq_credit_notes_credit_note_no`), and the check before a write asks it
 * first (DocumentRepository.guardNumber). test/rule-copies.e2e-spec.ts proves both equal to
 * `numberTaken` on both databases.
 */

export interface NumberedDocument {
  number: string;
  archived: boolean;
}

/** Whether `number` is taken among the documents of one kind. */
export function numberTaken(number: string, documents: Iterable<NumberedDocument>): boolean {
  for (const document of documents) {
    if (!document.archived && document.number === number) return true;
  }
  return false;
}
