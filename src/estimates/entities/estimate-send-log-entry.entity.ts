import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentSendLogRecord } from '../../documents/entities/document-columns';

@Entity('estimate_send_log')
export class EstimateSendLogEntry extends DocumentSendLogRecord {
  @ReferenceColumn('estimate_id')
  estimateId: number;
}
