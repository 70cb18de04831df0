import { Injectable } from '@nestjs/common';
import { Database, isUniqueViolation } from '../database/database';
import { DocumentRepository } from '../documents/document.repository';
import {
  CreditNoteDetailRecord,
  CreditNotePrintRecord,
  readCreditNoteDetail,
  readCreditNotePrint,
} from './credit-note-detail.query';
import { CreditNoteSendLogEntry } from './entities/credit-note-send-log-entry.entity';
import { CreditNote } from './entities/credit-note.entity';

/** Credit notes and their send log; a credit note is written once and never archived. */
@Injectable()
export class CreditNotesRepository extends DocumentRepository<CreditNote, CreditNoteSendLogEntry> {
  constructor(database: Database) {
    super(database, {
      kind: 'credit_note',
      document: CreditNote,
      sendLogEntry: CreditNoteSendLogEntry,
      sendLogParentKey: 'creditNoteId',
      numberKey: 'creditNoteNo',
      numberParam: 'credit_note_no',
      numberIndex: ['uq_credit_notes_credit_note_no', 'credit_notes.credit_note_no'],
      duplicateNumberCode: 'DUPLICATE_CREDIT_NOTE_NO',
      archivable: false,
      indexedFilters: ['clientId', 'invoiceId'],
    });
  }

  /** True when an insert failed because its short code is another credit note's. */
  shortCodeTaken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_credit_notes_short_code', 'credit_notes.short_code');
  }

  /** The credit note with its lines and send log, or null: one statement. */
  findDetail(id: number): Promise<CreditNoteDetailRecord | null> {
    return readCreditNoteDetail(this.database.manager, id);
  }

  /** The credit note as printed (the detail and its client's language), or null: one statement. */
  findPrint(id: number): Promise<CreditNotePrintRecord | null> {
    return readCreditNotePrint(this.database.manager, id);
  }
}
