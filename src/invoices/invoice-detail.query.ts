import { documentDetailQuery } from '../documents/document-detail.query';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';

/** The live invoice with its lines, its ledger (`payments`) and its send log, or null. */
export const readInvoiceDetail = documentDetailQuery({
  document: Invoice,
  lines: InvoiceLineItem,
  sends: InvoiceSendLogEntry,
  parentColumn: 'invoice_id',
  children: { payments: InvoicePayment },
  liveOnly: true,
});

export type InvoiceDetailRecord = NonNullable<Awaited<ReturnType<typeof readInvoiceDetail>>>;
