import { EntityManager } from 'typeorm';
import { JsonRows, jsonRows } from '../database/json-rows';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';

export interface InvoiceDetailRecord {
  invoice: Invoice;
  lines: InvoiceLineItem[];
  payments: InvoicePayment[];
  sends: InvoiceSendLogEntry[];
}

interface InvoiceDetailRow extends Record<string, unknown> {
  line_items: unknown;
  payments: unknown;
  send_log: unknown;
}

/** The live invoice's columns, and its lines, payments and send log as JSON. */
function invoiceDetailSql(rows: JsonRows): string {
  return `SELECT ${rows.columns(Invoice, 'invoice')},
      ${rows.children(InvoiceLineItem, 'line', 'line.invoice_id = invoice.id')} AS line_items,
      ${rows.children(InvoicePayment, 'payment', 'payment.invoice_id = invoice.id')} AS payments,
      ${rows.children(InvoiceSendLogEntry, 'entry', 'entry.invoice_id = invoice.id')} AS send_log
    FROM invoices invoice
    WHERE invoice.id = ? AND invoice.deleted_at IS NULL`;
}

/**
 * The live invoice with its lines (position order), payments and send log (id order), or null.
 * One statement, so every part is read at the same moment without a transaction.
 */
export async function readInvoiceDetail(
  manager: EntityManager,
  id: number,
): Promise<InvoiceDetailRecord | null> {
  const rows = jsonRows(manager);
  const [row] = await manager.query<InvoiceDetailRow[]>(rows.statement(invoiceDetailSql), [id]);
  if (!row) return null;
  // JSON aggregates keep no order on MySQL 8: sort here.
  return {
    invoice: rows.entity(Invoice, row),
    lines: rows
      .childEntities(InvoiceLineItem, row.line_items)
      .sort((a, b) => a.position - b.position),
    payments: rows.childEntities(InvoicePayment, row.payments).sort((a, b) => a.id - b.id),
    sends: rows.childEntities(InvoiceSendLogEntry, row.send_log).sort((a, b) => a.id - b.id),
  };
}
