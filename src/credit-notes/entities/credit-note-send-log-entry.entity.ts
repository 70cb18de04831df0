import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentSendLogRecord } from '../../documents/entities/document-columns';

@Entity('credit_note_send_log')
export class CreditNoteSendLogEntry extends DocumentSendLogRecord {
  @ReferenceColumn('credit_note_id')
  creditNoteId: number;
}
