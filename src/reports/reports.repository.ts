import { VatCategory } from '../documents/domain/vat-categories';
import { Injectable } from '@nestjs/common';
import { daysBetween } from '../common/clock';
import { Decimal, ZERO } from '../common/money/decimal';
import { Database } from '../database/database';
import { outstandingBalance } from '../documents/domain/document-totals';
import { OPEN_FOREVER } from '../invoices/domain/invoice-status';
import { PaymentStatus } from '../invoices/domain/payment-status';
import {
  AGING_BUCKETS,
  AgingBucket,
  agingBalance,
  agingBucket,
  agingDueRanges,
} from './domain/aging';
import { cashIncome, cashIncomeSql } from './domain/cash-income';

/*
 * The reports' reads. Each answers "facts": amounts keyed by what the report groups by. On
 * MySQL/MariaDB the database groups and sums (DECIMAL arithmetic is exact) and a fact is a
 * group; on SQLite, which keeps decimals as text and sums in floating point, a fact is a row,
 * stepped through one at a time and summed by the service with exact decimals, so memory stays
 * flat however many rows there are. The service folds facts the same way in both cases.
 *
 * Left out everywhere: archived invoices and expenses, void invoices, and the credit notes and
 * ledger entries of either.
 *
 * A dated table joined to invoices is written `CROSS JOIN … ON`: SQLite, which has no
 * statistics, then reads the dated table first by its date index and each invoice by its key
 * (it would otherwise walk every live invoice); MySQL and MariaDB read it as a plain join.
 */

/**
 * Amounts owed on the aging date by bucket: one invoice, or a client's invoices in one
 * currency (MySQL), or a correction of those (`invoices` −1: an invoice taken back).
 */
export interface AgingFact {
  currency: string;
  clientId: number;
  balances: Record<AgingBucket, Decimal>;
  invoices: number;
}

/**
 * Invoices with a balance outstanding now, neither paid nor void (settlement `unpaid`), as a
 * range of `open_until` (invoice-status.ts), which idx_invoices_aging holds.
 */
const OWING_NOW = `i.open_until < '${OPEN_FOREVER}'`;

/** Its complement among invoices that are not void: paid, or settled without being Paid. */
const NOT_OWING_NOW = `(i.open_until IS NULL OR i.open_until = '${OPEN_FOREVER}')`;

/** The outstanding balance (outstandingBalance) of an invoice row. */
const OUTSTANDING_BALANCE = 'i.total - i.amount_paid';

/** One invoice's balance, in the bucket of its days past due on `asOf`. */
function agingFactOf(
  invoice: { currency: string; clientId: number; dueDate: string },
  asOf: string,
  balance: Decimal,
  invoices: 1 | -1,
): AgingFact {
  const bucket = agingBucket(daysBetween(invoice.dueDate, asOf));
  return {
    currency: invoice.currency,
    clientId: invoice.clientId,
    balances: bucketsOf((each) => (each === bucket ? balance : ZERO)),
    invoices,
  };
}

/** Most buckets of most clients are empty: one shared zero for them. */
function decimalOrZero(text: string): Decimal {
  return /^0(\.0*)?$/.test(text) ? ZERO : new Decimal(text);
}

function bucketsOf(amount: (bucket: AgingBucket) => Decimal): Record<AgingBucket, Decimal> {
  return Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, amount(bucket)])) as Record<
    AgingBucket,
    Decimal
  >;
}

/** An amount of a month (`YYYY-MM`): income, credit notes' income, cash received. */
export interface MonthFact {
  currency: string;
  month: string;
  amount: Decimal;
}

export interface ExpenseFact extends MonthFact {
  category: string;
}

/** Taxable amount and tax of invoices (sign 1) or credit notes (sign −1) in one tax group. */
export interface TaxFact {
  currency: string;
  name: string;
  category: VatCategory;
  taxRate: Decimal;
  documents: number;
  taxable: Decimal;
  tax: Decimal;
}

/** How many documents of one currency a report counts. */
export interface DocumentCount {
  currency: string;
  documents: number;
}

export interface StatementInvoice {
  id: number;
  invoiceNo: string;
  currency: string;
  issueDate: string;
  total: Decimal;
}

export interface StatementEntry {
  id: number;
  invoiceNo: string;
  currency: string;
  status: 'Completed' | 'Refunded' | 'Credited';
  amount: Decimal;
  date: string;
  reference: string;
  creditNoteNo: string | null;
}

export interface Period {
  from: string;
  to: string;
}

@Injectable()
export class ReportsRepository {
  constructor(private readonly database: Database) {}

  private get mysql(): boolean {
    return this.database.dialect === 'mysql';
  }

  /**
   * Invoices with a balance on `asOf`: their `total` less the ledger entries dated on or before
   * it. An invoice marked Paid by hand while a balance remains is settled outside the ledger
   * and left out.
   *
   * MySQL/MariaDB: the invoices with a balance now, summed per client and currency, one bucket
   * per column, in the order of idx_invoices_aging (read from the index alone, grouped as it
   * streams: no temporary table however many clients; forced, as MariaDB would otherwise take
   * the open invoices' range and look up every row, 40 s at a million); then the few invoices with an entry
   * dated after `asOf`, one by one, whose balance on `asOf` differs from now: each takes back
   * what the sums counted for it and adds what it owed then. SQLite: every candidate row.
   */
  async aging(asOf: string, onFact: (fact: AgingFact) => void): Promise<void> {
    if (this.mysql) {
      const ranges = agingDueRanges(asOf);
      const parameters: string[] = [];
      const sums = AGING_BUCKETS.map((bucket) => {
        const { from, before } = ranges[bucket];
        const conditions: string[] = [];
        if (from !== null) {
          conditions.push('i.due_date >= ?');
          parameters.push(from);
        }
        if (before !== null) {
          conditions.push('i.due_date < ?');
          parameters.push(before);
        }
        return `SUM(CASE WHEN ${conditions.join(' AND ')} THEN ${OUTSTANDING_BALANCE} ELSE 0 END) AS \`${bucket}\``;
      });
      await this.database.forEachRow<RawAgingSums>(
        `SELECT i.client_id AS clientId, i.currency, ${sums.join(', ')}, COUNT(*) AS invoices
           FROM invoices i FORCE INDEX (idx_invoices_aging)
           WHERE i.deleted_at IS NULL AND ${OWING_NOW} AND i.issue_date <= ?
           GROUP BY i.client_id, i.currency`,
        [...parameters, asOf],
        (row) =>
          onFact({
            currency: row.currency,
            clientId: Number(row.clientId),
            balances: bucketsOf((bucket) => decimalOrZero(row[bucket])),
            invoices: Number(row.invoices),
          }),
      );
      await this.database.forEachRow<RawAgingCorrection>(
        `SELECT i.client_id AS clientId, i.currency, i.due_date AS dueDate, i.total,
                i.amount_paid AS amountPaid, i.payment_status AS paymentStatus,
                i.voided_at IS NOT NULL AS isVoid,
                COALESCE(${OWING_NOW}, 0) AS counted, l.later
           FROM (SELECT p.invoice_id, SUM(${signedLater('p')}) AS later
                   FROM invoice_payments p WHERE p.payment_date > ? GROUP BY p.invoice_id) l
           JOIN invoices i ON i.id = l.invoice_id
           WHERE i.deleted_at IS NULL AND i.issue_date <= ?`,
        [asOf, asOf],
        (row) => {
          const facts = agingFacts(row, Number(row.isVoid) === 1);
          const invoice = { ...row, clientId: Number(row.clientId) };
          if (Number(row.counted) === 1) {
            const now = outstandingBalance(facts.total, facts.amountPaid);
            onFact(agingFactOf(invoice, asOf, now.negated(), -1));
          }
          const balance = agingBalance(facts, new Decimal(row.later));
          if (balance !== null) onFact(agingFactOf(invoice, asOf, balance, 1));
        },
      );
      return;
    }
    await this.database.forEachRow<RawSqliteAging>(
      `SELECT c.currency, c.client_id AS clientId, c.due_date AS dueDate, c.total,
              c.amount_paid AS amountPaid, c.payment_status AS paymentStatus,
              (SELECT group_concat(${signedLater('p', " '-' || ")}, ' ')
                 FROM invoice_payments p WHERE p.invoice_id = c.id AND p.payment_date > ?) AS later
         FROM (
           SELECT i.id, i.currency, i.client_id, i.due_date, i.total, i.amount_paid,
                  i.payment_status
             FROM invoices i
             WHERE i.deleted_at IS NULL AND ${OWING_NOW} AND i.issue_date <= ?
           UNION ALL
           SELECT i.id, i.currency, i.client_id, i.due_date, i.total, i.amount_paid,
                  i.payment_status
             FROM invoices i
             WHERE i.id IN (SELECT p.invoice_id FROM invoice_payments p WHERE p.payment_date > ?)
               AND +i.deleted_at IS NULL AND i.voided_at IS NULL AND +i.issue_date <= ?
               AND ${NOT_OWING_NOW}
         ) c`,
      [asOf, asOf, asOf, asOf],
      (row) => {
        const later = (row.later ?? '')
          .split(' ')
          .filter((amount) => amount !== '')
          .reduce((sum, amount) => sum.plus(amount), ZERO);
        const balance = agingBalance(agingFacts(row, false), later);
        if (balance === null) return;
        onFact(agingFactOf({ ...row, clientId: Number(row.clientId) }, asOf, balance, 1));
      },
    );
  }

  /**
   * Σ income of invoices by issue month (idx_invoices_issued alone): each one's `total` less its
   * `tax_amount`, the sub-total net of the document discount and of tax whether prices include
   * tax or not (sub_total itself where neither applies).
   */
  invoiceIncome(period: Period, onFact: (fact: MonthFact) => void): Promise<void> {
    return this.monthSums(
      `SELECT i.currency, ${this.month('i.issue_date')} AS month, ${this.netSum('i')}
         FROM invoices i
         WHERE i.deleted_at IS NULL AND i.draft = 0 AND i.issue_date BETWEEN ? AND ?
           AND i.voided_at IS NULL
         ${this.groupBy('i.currency, month')}`,
      [period.from, period.to],
      onFact,
    );
  }

  /** The same of credit notes by issue month, of live invoices that are not void. */
  creditNoteIncome(period: Period, onFact: (fact: MonthFact) => void): Promise<void> {
    return this.monthSums(
      `SELECT n.currency, ${this.month('n.issue_date')} AS month, ${this.netSum('n')}
         FROM credit_notes n CROSS JOIN invoices i ON i.id = n.invoice_id
         WHERE n.issue_date BETWEEN ? AND ? AND i.deleted_at IS NULL AND i.voided_at IS NULL
         ${this.groupBy('n.currency, month')}`,
      [period.from, period.to],
      onFact,
    );
  }

  /**
   * Cash received less cash returned, by month of the ledger entry, each entry without its
   * invoice's tax (`cashIncome`: `amount × sub_total / total`, rounded half away from zero to
   * the currency's minor digits; the whole amount when the total is 0). On MySQL each invoice
   * is read from idx_invoices_cash, forced: MariaDB would take the primary key and read a table
   * page per entry (43 s for a year at a million invoices, 2.3 s so). The division keeps at least 12 decimals, truncated; an amount at or
   * above a rounding midpoint (at most 5 decimals) stays at or above it, so ROUND decides as
   * exact arithmetic does (roundMoneySql; test/rule-copies.e2e-spec.ts compares the two).
   */
  async cashIncome(period: Period, onFact: (fact: MonthFact) => void): Promise<void> {
    const from = `FROM invoice_payments p CROSS JOIN invoices i ${this.mysql ? 'FORCE INDEX (idx_invoices_cash)' : ''} ON i.id = p.invoice_id
      WHERE p.payment_date BETWEEN ? AND ? AND p.status IN ('Completed', 'Refunded')
        AND i.deleted_at IS NULL AND i.voided_at IS NULL`;
    if (this.mysql) {
      const net = cashIncomeSql('i.currency', 'p.amount', 'i.total - i.tax_amount', 'i.total');
      return this.monthSums(
        `SELECT i.currency, ${this.month('p.payment_date')} AS month,
                SUM(CASE p.status WHEN 'Refunded' THEN -1 ELSE 1 END * ${net}) AS amount
           ${from} GROUP BY i.currency, month`,
        [period.from, period.to],
        onFact,
      );
    }
    await this.database.forEachRow<RawCashEntry>(
      `SELECT i.currency, ${this.month('p.payment_date')} AS month, p.status, p.amount,
              i.tax_amount AS taxAmount, i.total ${from}`,
      [period.from, period.to],
      (row) => {
        const net = cashIncome(
          row.amount,
          new Decimal(row.total).minus(row.taxAmount),
          row.total,
          row.currency,
        );
        onFact({
          currency: row.currency,
          month: row.month,
          amount: row.status === 'Refunded' ? net.negated() : net,
        });
      },
    );
  }

  /** Σ `amount` of expenses by month and category (idx_expenses_issued alone). */
  async expenses(period: Period, onFact: (fact: ExpenseFact) => void): Promise<void> {
    await this.database.forEachRow<RawExpense>(
      `SELECT e.currency, ${this.month('e.issued_date')} AS month, e.category,
              ${this.sum('e.amount')} AS amount
         FROM expenses e
         WHERE e.deleted_at IS NULL AND e.issued_date BETWEEN ? AND ?
         ${this.groupBy('e.currency, month, e.category')}`,
      [period.from, period.to],
      (row) => onFact({ ...row, amount: new Decimal(row.amount) }),
    );
  }

  /**
   * Taxable amount and tax per currency and tax group (name, category, rate) of invoices issued
   * in the period: their VAT breakdown entries.
   */
  invoiceTax(period: Period, onFact: (fact: TaxFact) => void): Promise<void> {
    return this.taxSums(
      `FROM invoices d CROSS JOIN invoice_tax_breakdown g ON g.invoice_id = d.id
        WHERE d.deleted_at IS NULL AND d.draft = 0 AND d.issue_date BETWEEN ? AND ?
          AND d.voided_at IS NULL`,
      period,
      onFact,
    );
  }

  /**
   * How many invoices per currency were issued in the period (live, not void): a document with
   * two tax groups counts once in the summary's totals.
   */
  invoiceCount(period: Period, onFact: (fact: DocumentCount) => void): Promise<void> {
    return this.documentCounts(
      `FROM invoices d
        WHERE d.deleted_at IS NULL AND d.draft = 0 AND d.issue_date BETWEEN ? AND ?
          AND d.voided_at IS NULL`,
      period,
      onFact,
    );
  }

  /** The same of credit notes, of live invoices that are not void. */
  creditNoteCount(period: Period, onFact: (fact: DocumentCount) => void): Promise<void> {
    return this.documentCounts(
      `FROM credit_notes d CROSS JOIN invoices i ON i.id = d.invoice_id
        WHERE d.issue_date BETWEEN ? AND ? AND i.deleted_at IS NULL AND i.voided_at IS NULL`,
      period,
      onFact,
    );
  }

  /** The same of credit notes issued in the period, of live invoices that are not void. */
  creditNoteTax(period: Period, onFact: (fact: TaxFact) => void): Promise<void> {
    return this.taxSums(
      `FROM credit_notes d CROSS JOIN invoices i ON i.id = d.invoice_id
        CROSS JOIN credit_note_tax_breakdown g ON g.credit_note_id = d.id
        WHERE d.issue_date BETWEEN ? AND ? AND i.deleted_at IS NULL AND i.voided_at IS NULL`,
      period,
      onFact,
    );
  }

  /** The client's live invoices that are not void, issued on or before `to` (unordered: the service orders the statement). */
  async statementInvoices(clientId: number, to: string): Promise<StatementInvoice[]> {
    const rows: Array<Omit<StatementInvoice, 'total'> & { total: string }> =
      await this.database.manager.query(
        `SELECT i.id, i.invoice_no AS invoiceNo, i.currency, i.issue_date AS issueDate, i.total
         FROM invoices i
         WHERE i.client_id = ? AND i.deleted_at IS NULL AND i.draft = 0 AND i.voided_at IS NULL
           AND ${this.unindexed('i.issue_date')} <= ?`,
        [clientId, to],
      );
    return rows.map((row) => ({ ...row, id: Number(row.id), total: new Decimal(row.total) }));
  }

  /** The ledger entries of those invoices dated on or before `to` (unordered). */
  async statementEntries(clientId: number, to: string): Promise<StatementEntry[]> {
    const rows: Array<Omit<StatementEntry, 'amount'> & { amount: string }> =
      await this.database.manager.query(
        `SELECT p.id, i.invoice_no AS invoiceNo, i.currency, p.status, p.amount,
              p.payment_date AS date, p.reference, n.credit_note_no AS creditNoteNo
         FROM invoice_payments p
         JOIN invoices i ON i.id = p.invoice_id
         LEFT JOIN credit_notes n ON n.id = p.credit_note_id
         WHERE i.client_id = ? AND i.deleted_at IS NULL AND i.voided_at IS NULL
           AND p.payment_date <= ?`,
        [clientId, to],
      );
    return rows.map((row) => ({ ...row, id: Number(row.id), amount: new Decimal(row.amount) }));
  }

  private async taxSums(
    from: string,
    period: Period,
    onFact: (fact: TaxFact) => void,
  ): Promise<void> {
    await this.database.forEachRow<RawTax>(
      `SELECT d.currency, g.name, g.category, g.rate AS taxRate,
              ${this.mysql ? 'COUNT(*)' : '1'} AS documents,
              ${this.sum('g.taxable_amount')} AS taxable, ${this.sum('g.tax_amount')} AS tax
         ${from} ${this.groupBy('d.currency, g.name, g.category, g.rate')}`,
      [period.from, period.to],
      (row) =>
        onFact({
          currency: row.currency,
          name: row.name,
          category: row.category,
          taxRate: new Decimal(row.taxRate),
          documents: Number(row.documents),
          taxable: new Decimal(row.taxable),
          tax: new Decimal(row.tax),
        }),
    );
  }

  private async documentCounts(
    from: string,
    period: Period,
    onFact: (fact: DocumentCount) => void,
  ): Promise<void> {
    await this.database.forEachRow<{ currency: string; documents: number | string }>(
      `SELECT d.currency, ${this.mysql ? 'COUNT(*)' : '1'} AS documents
         ${from} ${this.groupBy('d.currency')}`,
      [period.from, period.to],
      (row) => onFact({ currency: row.currency, documents: Number(row.documents) }),
    );
  }

  private async monthSums(
    sql: string,
    parameters: unknown[],
    onFact: (fact: MonthFact) => void,
  ): Promise<void> {
    await this.database.forEachRow<RawMonth>(sql, parameters, (row) =>
      onFact({
        currency: row.currency,
        month: row.month,
        amount: new Decimal(row.amount).minus(row.less ?? 0),
      }),
    );
  }

  /**
   * The column, kept from choosing an index: SQLite has no statistics and would read a range
   * of the issue-date index over every client rather than the client's own rows.
   */
  private unindexed(column: string): string {
    return this.mysql ? column : `+${column}`;
  }

  private month(column: string): string {
    return this.mysql ? `DATE_FORMAT(${column}, '%Y-%m')` : `substr(${column}, 1, 7)`;
  }

  /** MySQL sums the group; SQLite hands over each row's value for the service to sum. */
  private sum(column: string): string {
    return this.mysql ? `SUM(${column})` : column;
  }

  /**
   * Σ (total − tax_amount) of the documents under `alias`, as `amount`. SQLite hands over both
   * (`amount` and `less`) for the service to subtract exactly: its arithmetic on text decimals
   * would go through binary floats.
   */
  private netSum(alias: string): string {
    return this.mysql
      ? `SUM(${alias}.total - ${alias}.tax_amount) AS amount`
      : `${alias}.total AS amount, ${alias}.tax_amount AS less`;
  }

  private groupBy(columns: string): string {
    return this.mysql ? `GROUP BY ${columns}` : '';
  }
}

/** A ledger entry's effect on a balance once undone: a payment or credit adds back, a refund takes off. */
function signedLater(alias: string, negate = ' -'): string {
  return `CASE ${alias}.status WHEN 'Refunded' THEN${negate}${alias}.amount ELSE ${alias}.amount END`;
}

/** What agingBalance reads of an aging row. */
function agingFacts(
  row: { total: string; amountPaid: string; paymentStatus: string },
  voided: boolean,
) {
  return {
    voided,
    paymentStatus: row.paymentStatus as PaymentStatus,
    total: new Decimal(row.total),
    amountPaid: new Decimal(row.amountPaid),
  };
}

type RawAgingSums = Record<AgingBucket, string> & {
  currency: string;
  clientId: number | string;
  invoices: number | string;
};

interface RawAgingCorrection {
  currency: string;
  clientId: number | string;
  dueDate: string;
  total: string;
  amountPaid: string;
  paymentStatus: string;
  isVoid: number | string;
  counted: number | string;
  later: string;
}

interface RawSqliteAging {
  currency: string;
  clientId: number;
  dueDate: string;
  total: string;
  amountPaid: string;
  paymentStatus: string;
  later: string | null;
}

interface RawMonth {
  currency: string;
  month: string;
  amount: string;
  /** SQLite's income rows: the tax to take off `amount` (netSum). */
  less?: string;
}

interface RawExpense extends RawMonth {
  category: string;
}

interface RawCashEntry {
  currency: string;
  month: string;
  status: string;
  amount: string;
  taxAmount: string;
  total: string;
}

interface RawTax {
  currency: string;
  name: string;
  category: VatCategory;
  taxRate: string;
  documents: number | string;
  taxable: string;
  tax: string;
}
