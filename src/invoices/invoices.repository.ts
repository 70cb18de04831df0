import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, LessThan, MoreThanOrEqual } from 'typeorm';
import { ListQueryDto } from '../common/list-query.dto';
import { LIVE } from '../database/columns';
import { Database, isUniqueViolation } from '../database/database';
import { findList, ListResult } from '../database/find-list';
import { ArchivableDocumentRepository } from '../documents/document.repository';
import { InvoiceStatus } from './domain/invoice-status';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { Invoice } from './entities/invoice.entity';
import {
  InvoiceDetailRecord,
  InvoicePrintRecord,
  readInvoiceDetail,
  readInvoicePrint,
} from './invoice-detail.query';

/** An invoice a recurring schedule made, as the schedule's answer lists it. */
export type MadeInvoice = Pick<Invoice, 'id' | 'invoiceNo' | 'issueDate'> & {
  recurringInvoiceId: number;
};

/** The columns a list reads of each invoice (no entity is built: see `listRows`). */
export const INVOICE_LIST_COLUMNS = [
  'id',
  'shortCode',
  'invoiceNo',
  'description',
  'clientId',
  'customerName',
  'customerPhone',
  'customerAddress',
  'customerTaxId',
  'customerCountry',
  'paymentStatus',
  'draft',
  'voidedAt',
  'voidReason',
  'recurringInvoiceId',
  'buyerReference',
  'orderReference',
  'currency',
  'taxRate',
  'taxAmount',
  'subTotal',
  'total',
  'amountPaid',
  'issueDate',
  'dueDate',
  'note',
  'discountPercent',
  'discountAmount',
  'pricesIncludeTax',
  'supplyDate',
  'periodStart',
  'periodEnd',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Invoice>;

/** Columns whose values the driver hands over in its own form: decimals, datetimes. */
type DriverFormColumns =
  | 'draft'
  | 'voidedAt'
  | 'taxRate'
  | 'taxAmount'
  | 'subTotal'
  | 'total'
  | 'amountPaid'
  | 'discountPercent'
  | 'discountAmount'
  | 'pricesIncludeTax'
  | 'createdAt'
  | 'updatedAt';

/**
 * An invoice as a list reads it, under its property names: text columns as they are; decimals
 * as the driver gives them (text), datetimes too (a Date on MySQL, text on SQLite).
 */
export type InvoiceListRow = Pick<
  Invoice,
  Exclude<(typeof INVOICE_LIST_COLUMNS)[number], DriverFormColumns>
> &
  Record<DriverFormColumns, unknown>;

/** What an invoice is printed from: its print read, and its credit notes' numbers by id. */
export interface InvoicePrint extends InvoicePrintRecord {
  creditNoteNumbers: Map<number, string>;
}

/** Invoices and their send log; reads their ledger (`invoice_payments`), which the ledger writes. */
@Injectable()
export class InvoicesRepository extends ArchivableDocumentRepository<Invoice, InvoiceSendLogEntry> {
  constructor(database: Database) {
    super(database, {
      kind: 'invoice',
      document: Invoice,
      sendLogEntry: InvoiceSendLogEntry,
      sendLogParentKey: 'invoiceId',
      numberKey: 'invoiceNo',
      numberParam: 'invoice_no',
      numberIndex: ['uq_invoices_live_invoice_no', 'invoices.invoice_no'],
      duplicateNumberCode: 'DUPLICATE_INVOICE_NO',
      indexedFilters: ['clientId', 'recurringInvoiceId'],
    });
  }

  /**
   * Live invoices matching the filter, in id order, as the list query asks, as rows of their
   * listed columns: building entities cost more than reading the rows (docs/measured.md).
   */
  listRows(
    filter: FindOptionsWhere<Invoice>,
    query: ListQueryDto,
  ): Promise<ListResult<InvoiceListRow>> {
    // A client's invoices, and a recurring schedule's, have an index of their own (findList).
    const byPrimaryKey = filter.clientId === undefined && filter.recurringInvoiceId === undefined;
    return findList<Invoice, InvoiceListRow>(
      this.database,
      Invoice,
      { ...filter, ...LIVE },
      query,
      {
        byPrimaryKey,
        columns: [...INVOICE_LIST_COLUMNS],
      },
    );
  }

  /**
   * The invoices of a status on `today`, as one range of one index over the generated columns
   * (settlementOf and openUntilOf in domain/invoice-status.ts): `settlement` for void and paid;
   * `open_until`, the last day an invoice is open, for overdue and open. A copy of the status
   * rule that test/rule-copies.e2e-spec.ts proves equal to it.
   */
  statusFilter(status: InvoiceStatus, today: string): FindOptionsWhere<Invoice> {
    switch (status) {
      case 'draft':
      case 'void':
      case 'paid':
        return { settlement: status };
      case 'overdue':
        return { openUntil: LessThan(today) };
      case 'open':
        return { openUntil: MoreThanOrEqual(today) };
    }
  }

  /** True when an insert failed because its short code is another invoice's. */
  shortCodeTaken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_invoices_short_code', 'invoices.short_code');
  }

  /** True when an insert failed because its schedule already billed its period. */
  periodBilled(error: unknown): boolean {
    return isUniqueViolation(
      error,
      'uq_invoices_recurring_period',
      'invoices.recurring_invoice_id, invoices.recurring_period',
    );
  }

  /**
   * The live invoices of each schedule's latest `latest` periods, in order of schedule and
   * period: one statement, read along the unique index of (schedule, period).
   */
  async madeBySchedules(scheduleIds: number[], latest: number): Promise<MadeInvoice[]> {
    if (scheduleIds.length === 0) return [];
    const rows = await this.database.manager.query<
      Array<{
        id: number | string;
        invoice_no: string;
        issue_date: string;
        schedule: number | string;
      }>
    >(
      `SELECT id, invoice_no, issue_date, schedule FROM (
        SELECT id, invoice_no, issue_date, recurring_invoice_id AS schedule, recurring_period,
          ROW_NUMBER() OVER (
            PARTITION BY recurring_invoice_id ORDER BY recurring_period DESC) AS latest
        FROM invoices
        WHERE recurring_invoice_id IN (${scheduleIds.map(() => '?').join(', ')})
          AND deleted_at IS NULL
      ) made
      WHERE latest <= ?
      ORDER BY schedule, recurring_period`,
      [...scheduleIds, latest],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      invoiceNo: row.invoice_no,
      issueDate: row.issue_date,
      recurringInvoiceId: Number(row.schedule),
    }));
  }

  /** Whether the invoice's ledger has any entry. */
  async hasLedgerEntries(id: number): Promise<boolean> {
    const entry = await this.database.manager.findOne(InvoicePayment, {
      select: { id: true },
      where: { invoiceId: id },
    });
    return entry !== null;
  }

  /**
   * The live invoice with its lines, ledger and send log, or null: one statement, so every
   * part is read at the same moment without a transaction.
   */
  findLiveDetail(id: number): Promise<InvoiceDetailRecord | null> {
    return readInvoiceDetail(this.database.manager, id);
  }

  /**
   * The live invoice as printed, or null: the detail and its client's language in one
   * statement, and, when its ledger holds credits, one more for the numbers of its credit notes
   * (by idx_credit_notes_invoice). Credit notes never change, so the two need no transaction.
   */
  async findLivePrint(id: number): Promise<InvoicePrint | null> {
    const print = await readInvoicePrint(this.database.manager, id);
    if (!print) return null;
    const credited = print.payments.some((entry) => entry.status === 'Credited');
    const creditNoteNumbers = credited
      ? await this.creditNoteNumbers(id)
      : new Map<number, string>();
    return { ...print, creditNoteNumbers };
  }

  /**
   * What a credit note names of the invoice it corrects, archived or not: its issue date and
   * the buyer's references (BT-10, BT-13); null when there is no such invoice.
   */
  async correctedInvoiceOf(id: number): Promise<CorrectedInvoice | null> {
    const row = await this.database.manager.findOne(Invoice, {
      select: { id: true, issueDate: true, buyerReference: true, orderReference: true },
      where: { id },
      withDeleted: true,
    });
    return (
      row && {
        issueDate: row.issueDate,
        buyerReference: row.buyerReference,
        orderReference: row.orderReference,
      }
    );
  }

  /** The number of each credit note of the invoice, by id. */
  private async creditNoteNumbers(invoiceId: number): Promise<Map<number, string>> {
    const rows: Array<{ id: number | string; credit_note_no: string }> =
      await this.database.manager.query(
        'SELECT n.id, n.credit_note_no FROM credit_notes n WHERE n.invoice_id = ?',
        [invoiceId],
      );
    return new Map(rows.map((row) => [Number(row.id), row.credit_note_no]));
  }
}

/** What a credit note names of the invoice it corrects. */
export interface CorrectedInvoice {
  issueDate: string;
  buyerReference: string;
  orderReference: string;
}
