import { formatTimestamp } from '../common/clock';
import { formatMoney } from '../common/money/money';
import { DeliveryRecord } from '../documents/domain/delivery-state';
import { WrittenLines } from '../documents/document-lines.repository';
import { DocumentTaxGroupRecord } from '../documents/entities/document-columns';
import {
  customerFields,
  pricingFields,
  taxTermsFields,
  toDetailParts,
  toTaxBreakdown,
  toLineItemsRead,
} from '../documents/documents.mapper';
import { InvoiceWithTimestampsDto } from '../invoices/dto/invoice-response.dto';
import {
  CreditNoteDto,
  CreditNoteReadResponseDto,
  CreditNoteWriteResponseDto,
} from './dto/credit-note-response.dto';
import { CreditNoteLineItem } from './entities/credit-note-line-item.entity';
import { CreditNoteSendLogEntry } from './entities/credit-note-send-log-entry.entity';
import { CreditNote } from './entities/credit-note.entity';

/** A credit note in every output. */
export function toListItem(creditNote: CreditNote): CreditNoteDto {
  return {
    id: String(creditNote.id),
    short_code: creditNote.shortCode,
    credit_note_no: creditNote.creditNoteNo,
    invoice_id: String(creditNote.invoiceId),
    invoice_no: creditNote.invoiceNo,
    ...customerFields(creditNote),
    ...pricingFields(creditNote),
    refunded: formatMoney(creditNote.refunded, creditNote.currency),
    issue_date: creditNote.issueDate,
    reason: creditNote.reason,
    note: creditNote.note,
    ...taxTermsFields(creditNote),
    created_at: formatTimestamp(creditNote.createdAt),
  };
}

/** `GET /credit-note/{id}`: lines with amounts, and the sends with their delivery records. */
export function toDetail(
  creditNote: CreditNote,
  lines: CreditNoteLineItem[],
  breakdown: DocumentTaxGroupRecord[],
  sends: CreditNoteSendLogEntry[],
  deliveries: Map<number, DeliveryRecord>,
): CreditNoteReadResponseDto {
  return {
    credit_note: [toListItem(creditNote)],
    ...toDetailParts(creditNote, lines, breakdown, sends, deliveries),
  };
}

/** Add: the credit note, its lines with amounts, and the invoice as the credit left it. */
export function toWriteResult(
  creditNote: CreditNote,
  { lines, breakdown }: WrittenLines<CreditNoteLineItem>,
  invoice: InvoiceWithTimestampsDto,
): CreditNoteWriteResponseDto {
  return {
    credit_note: [toListItem(creditNote)],
    items: toLineItemsRead(lines, creditNote),
    tax_breakdown: toTaxBreakdown(breakdown, creditNote.currency),
    invoice: [invoice],
  };
}
