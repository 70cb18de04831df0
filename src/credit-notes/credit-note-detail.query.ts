import { documentDetailQuery } from '../documents/document-detail.query';
import { CreditNoteLineItem } from './entities/credit-note-line-item.entity';
import { CreditNoteSendLogEntry } from './entities/credit-note-send-log-entry.entity';
import { CreditNote } from './entities/credit-note.entity';

/** The credit note with its lines and send log, or null. */
export const readCreditNoteDetail = documentDetailQuery({
  document: CreditNote,
  lines: CreditNoteLineItem,
  sends: CreditNoteSendLogEntry,
  parentColumn: 'credit_note_id',
  children: {},
  liveOnly: false,
});

export type CreditNoteDetailRecord = NonNullable<Awaited<ReturnType<typeof readCreditNoteDetail>>>;
