import { Column, Entity } from 'typeorm';
import {
  IdColumn,
  InstantColumn,
  ReferenceColumn,
  TextColumn,
  TimestampColumn,
} from '../../database/columns';
import { EinvoiceFormat } from '../../common/einvoice-codes';
import { DocumentKind } from '../../document-vocabulary/document-kind';

/** `sending`: claimed by a worker, under a lease (see OutboxQueue). */
export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** One send to deliver by e-mail, written in the same transaction as its send-log entry. */
@Entity('document_outbox')
export class OutboxMessage {
  @IdColumn()
  id: number;

  @TextColumn({ length: 16 })
  kind: DocumentKind;

  @ReferenceColumn('document_id')
  documentId: number;

  /** The entry in the kind's send log (`invoice_send_log`, `estimate_send_log`, `credit_note_send_log`). */
  @ReferenceColumn('send_log_id')
  sendLogId: number;

  @TextColumn({ length: 254 })
  recipient: string;

  /** The DocumentView as JSON: the document as it was when it was sent. */
  @Column({ name: 'document_view', type: 'text' })
  documentView: string;

  /** The e-invoice attached (docs/einvoices.md): its format, '' for none, and the buyer's address. */
  @TextColumn({ name: 'einvoice_format', length: 16 })
  einvoiceFormat: EinvoiceFormat | '';

  @TextColumn({ name: 'einvoice_address', length: 259 })
  einvoiceAddress: string;

  @TextColumn({ length: 8 })
  status: OutboxStatus;

  /** Deliveries begun, the current one included. */
  @Column({ type: 'int' })
  attempts: number;

  /** Queued: when the next attempt is due. Sending: when the lease ends. Otherwise NULL. */
  @InstantColumn('next_attempt_at', { nullable: true })
  nextAttemptAt: Date | null;

  /** When the current (or last) claim was taken; with the id it names that claim. */
  @InstantColumn('claimed_at', { nullable: true })
  claimedAt: Date | null;

  @Column({ name: 'sent_at', type: 'datetime', nullable: true })
  sentAt: Date | null;

  /** Why the last attempt failed: an error code and SMTP status, never the server's text. */
  @TextColumn({ name: 'last_error', length: 255 })
  lastError: string;

  @TimestampColumn('created_at')
  createdAt: Date;
}
