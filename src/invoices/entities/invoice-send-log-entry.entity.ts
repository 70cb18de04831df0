import { Entity } from 'typeorm';
import { ReferenceColumn } from '../../database/columns';
import { DocumentSendLogRecord } from '../../documents/entities/document-columns';

@Entity('invoice_send_log')
export class InvoiceSendLogEntry extends DocumentSendLogRecord {
  @ReferenceColumn('invoice_id')
  invoiceId: number;
}
