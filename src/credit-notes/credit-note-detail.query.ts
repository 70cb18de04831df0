import { documentDetailQuery, documentPrintQuery } from '../documents/document-detail.query';
import { CreditNoteLineItem } from './entities/credit-note-line-item.entity';
import { CreditNoteTaxGroup } from './entities/credit-note-tax-group.entity';
import { CreditNoteSendLogEntry } from './entities/credit-note-send-log-entry.entity';
import { CreditNote } from './entities/credit-note.entity';

const CREDIT_NOTE_TABLES = {
  document: CreditNote,
  lines: CreditNoteLineItem,
  breakdown: CreditNoteTaxGroup,
  sends: CreditNoteSendLogEntry,
  parentColumn: 'credit_note_id',
  children: {},
  liveOnly: false,
};

/** The credit note with its lines and send log, or null. */
export const readCreditNoteDetail = documentDetailQuery(CREDIT_NOTE_TABLES);

/** The same, and its client's language: what a PDF or an e-mail of it is made from. */
export const readCreditNotePrint = documentPrintQuery(CREDIT_NOTE_TABLES);

export type CreditNoteDetailRecord = NonNullable<Awaited<ReturnType<typeof readCreditNoteDetail>>>;
export type CreditNotePrintRecord = NonNullable<Awaited<ReturnType<typeof readCreditNotePrint>>>;
