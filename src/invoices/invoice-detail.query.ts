import {
  documentDetailQuery,
  documentLockedDetailQuery,
  documentPrintQuery,
} from '../documents/document-detail.query';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoiceTaxGroup } from './entities/invoice-tax-group.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';

const INVOICE_TABLES = {
  document: Invoice,
  lines: InvoiceLineItem,
  breakdown: InvoiceTaxGroup,
  sends: InvoiceSendLogEntry,
  parentColumn: 'invoice_id',
  children: { payments: InvoicePayment },
  liveOnly: true,
};

/** The live invoice with its lines, its ledger (`payments`) and its send log, or null. */
export const readInvoiceDetail = documentDetailQuery(INVOICE_TABLES);

/** The same, row-locked until the transaction ends: what a payment changes and its event records. */
export const lockInvoiceDetail = documentLockedDetailQuery(INVOICE_TABLES);

/** The same, and its client's language: what a PDF or an e-mail of it is made from. */
export const readInvoicePrint = documentPrintQuery(INVOICE_TABLES);

export type InvoiceDetailRecord = NonNullable<Awaited<ReturnType<typeof readInvoiceDetail>>>;
export type InvoicePrintRecord = NonNullable<Awaited<ReturnType<typeof readInvoicePrint>>>;
