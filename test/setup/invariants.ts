import { createRequire } from 'node:module';
import * as currencyCodes from 'currency-codes';
import DecimalJs from 'decimal.js';
import { createConnection } from 'mysql2/promise';

/*
 * What must hold of the stored data whatever happened to the process that wrote it: read
 * straight from the database, with no code of the service's, so a crash test or a test of two
 * instances on one database can judge what the service left behind.
 */

/** The part of better-sqlite3 used here (the package ships no type declarations). */
interface SqliteDatabase {
  prepare(sql: string): { all(): unknown[] };
  close(): void;
}
const Sqlite = createRequire(__filename)('better-sqlite3') as new (
  file: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => SqliteDatabase;

export interface Sql {
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Opens the database a DATABASE_URL names (sqlite:<file> with better-sqlite3 read-only, mariadb://… with mysql2). */
export async function openSql(databaseUrl: string): Promise<Sql> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Sqlite(databaseUrl.slice('sqlite:'.length), {
      readonly: true,
      fileMustExist: true,
    });
    return {
      query: (sql) => Promise.resolve(db.prepare(sql).all() as Record<string, unknown>[]),
      close: () => Promise.resolve(void db.close()),
    };
  }
  const connection = await createConnection({
    uri: databaseUrl.replace(/^mariadb:/, 'mysql:'),
    // Decimals and dates as the text the server holds: nothing goes through a binary float.
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    dateStrings: true,
  });
  return {
    query: async (sql) => (await connection.query(sql))[0] as Record<string, unknown>[],
    close: () => connection.end(),
  };
}

/* Exact decimals, independent of the service's own helpers: half away from zero. */
const Exact = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP });
type Exact = DecimalJs;

const exact = (value: unknown): Exact => new Exact(String(value));
const sumOf = (values: Exact[]): Exact => values.reduce((a, b) => a.plus(b), new Exact(0));

function minorDigits(currency: unknown): number | null {
  return currencyCodes.code(String(currency))?.digits ?? null;
}

const isLive = (row: Record<string, unknown>): boolean => row.deleted_at === null;

function groupBy(
  rows: Record<string, unknown>[],
  key: string,
): Map<string, Record<string, unknown>[]> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const id = String(row[key]);
    const group = groups.get(id) ?? [];
    group.push(row);
    groups.set(id, group);
  }
  return groups;
}

/** `name` values that more than one row has, with the rows' ids. */
function duplicates(rows: Record<string, unknown>[], name: string): Array<[string, string[]]> {
  const seen = new Map<string, string[]>();
  for (const row of rows) {
    const value = String(row[name]);
    seen.set(value, [...(seen.get(value) ?? []), String(row.id)]);
  }
  return [...seen].filter(([, ids]) => ids.length > 1);
}

/** The money checks every kind of document shares: lines, sub_total, tax, total. */
function documentViolations(
  table: 'invoices' | 'estimates' | 'credit_notes',
  numberColumn: string,
  documents: Record<string, unknown>[],
  lines: Map<string, Record<string, unknown>[]>,
): string[] {
  const violations: string[] = [];
  for (const document of documents) {
    const name = `${table}#${String(document.id)} (${String(document[numberColumn])})`;
    const own = lines.get(String(document.id)) ?? [];
    if (own.length === 0) violations.push(`${name}: has no line`);
    const digits = minorDigits(document.currency);
    if (digits === null) {
      violations.push(`${name}: unknown currency ${String(document.currency)}`);
      continue;
    }
    for (const line of own) {
      const expected = exact(line.quantity).times(exact(line.rate)).toDecimalPlaces(digits);
      if (!exact(line.amount).eq(expected)) {
        violations.push(
          `${name} line#${String(line.id)}: amount ${String(line.amount)} ≠ quantity × rate ${expected.toFixed()}`,
        );
      }
    }
    const subTotal = sumOf(own.map((line) => exact(line.amount)));
    if (!exact(document.sub_total).eq(subTotal)) {
      violations.push(
        `${name}: sub_total ${String(document.sub_total)} ≠ sum of line amounts ${subTotal.toFixed()}`,
      );
    }
    const tax = exact(document.sub_total)
      .times(exact(document.tax_rate))
      .dividedBy(100)
      .toDecimalPlaces(digits);
    if (!exact(document.tax_amount).eq(tax)) {
      violations.push(
        `${name}: tax_amount ${String(document.tax_amount)} ≠ sub_total × tax_rate / 100 ${tax.toFixed()}`,
      );
    }
    const total = exact(document.sub_total).plus(exact(document.tax_amount));
    if (!exact(document.total).eq(total)) {
      violations.push(
        `${name}: total ${String(document.total)} ≠ sub_total + tax_amount ${total.toFixed()}`,
      );
    }
  }
  const live = documents.filter(isLive);
  for (const [number, ids] of duplicates(live, numberColumn)) {
    violations.push(`${table} ${number}: number held by live rows ${ids.join(', ')}`);
  }
  const known = new Set(documents.map((document) => String(document.id)));
  for (const [documentId, own] of lines) {
    if (!known.has(documentId)) {
      violations.push(
        `${table}: lines ${own.map((line) => String(line.id)).join(', ')} belong to missing #${documentId}`,
      );
    }
  }
  return violations;
}

/** Every invariant that can be read from the database alone; [] when all hold. Each violation names the row. */
export async function invariantViolations(sql: Sql): Promise<string[]> {
  const invoices = await sql.query(
    'SELECT id, invoice_no, payment_status, currency, tax_rate, sub_total, tax_amount, total, amount_paid, amount_credited, voided_at, deleted_at FROM invoices ORDER BY id',
  );
  const invoiceLines = groupBy(
    await sql.query(
      'SELECT id, invoice_id, quantity, rate, amount FROM invoice_line_items ORDER BY id',
    ),
    'invoice_id',
  );
  const payments = await sql.query(
    'SELECT id, invoice_id, reference, status, amount, credit_note_id FROM invoice_payments ORDER BY id',
  );
  // Credit notes are never archived: `deleted_at` NULL makes every one live for the number check.
  const creditNotes = await sql.query(
    'SELECT id, credit_note_no, invoice_id, currency, tax_rate, sub_total, tax_amount, total, refunded, NULL AS deleted_at FROM credit_notes ORDER BY id',
  );
  const creditNoteLines = groupBy(
    await sql.query(
      'SELECT id, credit_note_id, quantity, rate, amount FROM credit_note_line_items ORDER BY id',
    ),
    'credit_note_id',
  );
  const estimates = await sql.query(
    'SELECT id, estimate_no, currency, tax_rate, sub_total, tax_amount, total, converted_invoice_id, deleted_at FROM estimates ORDER BY id',
  );
  const estimateLines = groupBy(
    await sql.query(
      'SELECT id, estimate_id, quantity, rate, amount FROM estimate_line_items ORDER BY id',
    ),
    'estimate_id',
  );

  const violations = [
    ...documentViolations('invoices', 'invoice_no', invoices, invoiceLines),
    ...documentViolations('estimates', 'estimate_no', estimates, estimateLines),
    ...documentViolations('credit_notes', 'credit_note_no', creditNotes, creditNoteLines),
  ];

  // The ledger: amount_paid = Σ Completed + Σ Credited − Σ Refunded, amount_credited =
  // Σ Credited, 0 ≤ amount_paid ≤ total, and the cash held (Σ Completed − Σ Refunded) ≥ 0.
  const paymentsOf = groupBy(payments, 'invoice_id');
  const creditNotesOf = groupBy(creditNotes, 'invoice_id');
  for (const invoice of invoices) {
    const name = `invoices#${String(invoice.id)} (${String(invoice.invoice_no)})`;
    const entries = paymentsOf.get(String(invoice.id)) ?? [];
    const sumOfStatus = (status: string) =>
      sumOf(entries.filter((entry) => entry.status === status).map((entry) => exact(entry.amount)));
    const [completed, refunded, credited] = ['Completed', 'Refunded', 'Credited'].map(sumOfStatus);
    const ledger = completed.plus(credited).minus(refunded);
    const amountPaid = exact(invoice.amount_paid);
    if (!amountPaid.eq(ledger)) {
      violations.push(
        `${name}: amount_paid ${String(invoice.amount_paid)} ≠ Σ Completed + Σ Credited − Σ Refunded ${ledger.toFixed()}`,
      );
    }
    if (!exact(invoice.amount_credited).eq(credited)) {
      violations.push(
        `${name}: amount_credited ${String(invoice.amount_credited)} ≠ Σ Credited ${credited.toFixed()}`,
      );
    }
    if (amountPaid.lt(0) || amountPaid.gt(exact(invoice.total))) {
      violations.push(
        `${name}: amount_paid ${String(invoice.amount_paid)} outside 0 … total ${String(invoice.total)}`,
      );
    }
    if (completed.lt(refunded)) {
      violations.push(
        `${name}: refunded ${refunded.toFixed()} more than received ${completed.toFixed()}`,
      );
    }
    const creditNoteTotal = sumOf(
      (creditNotesOf.get(String(invoice.id)) ?? []).map((note) => exact(note.total)),
    );
    if (!creditNoteTotal.eq(credited)) {
      violations.push(
        `${name}: credit notes total ${creditNoteTotal.toFixed()} ≠ Σ Credited ${credited.toFixed()}`,
      );
    }
    if (invoice.voided_at !== null && !completed.eq(refunded)) {
      violations.push(`${name}: void while holding ${completed.minus(refunded).toFixed()}`);
    }
  }
  // Each credit note: one Credited entry for its total, its refund as its Refunded entries.
  const entriesOfNote = groupBy(
    payments.filter((entry) => entry.credit_note_id !== null),
    'credit_note_id',
  );
  for (const note of creditNotes) {
    const name = `credit_notes#${String(note.id)} (${String(note.credit_note_no)})`;
    const own = entriesOfNote.get(String(note.id)) ?? [];
    const credits = own.filter((entry) => entry.status === 'Credited');
    const refunds = sumOf(
      own.filter((entry) => entry.status === 'Refunded').map((entry) => exact(entry.amount)),
    );
    if (credits.length !== 1 || !exact(credits[0].amount).eq(exact(note.total))) {
      violations.push(`${name}: not exactly one Credited entry of its total ${String(note.total)}`);
    }
    if (!refunds.eq(exact(note.refunded))) {
      violations.push(
        `${name}: refunded ${String(note.refunded)} ≠ its Refunded entries ${refunds.toFixed()}`,
      );
    }
    if (own.some((entry) => String(entry.invoice_id) !== String(note.invoice_id))) {
      violations.push(`${name}: an entry on another invoice than #${String(note.invoice_id)}`);
    }
  }
  const invoiceIds = new Set(invoices.map((invoice) => String(invoice.id)));
  for (const payment of payments) {
    const name = `invoice_payments#${String(payment.id)} (${String(payment.reference)})`;
    if (!exact(payment.amount).gt(0)) {
      violations.push(`${name}: amount ${String(payment.amount)} is not positive`);
    }
    if (!['Completed', 'Refunded', 'Credited'].includes(String(payment.status))) {
      violations.push(`${name}: status ${String(payment.status)}`);
    }
    if (
      (payment.status === 'Credited') !== (payment.credit_note_id !== null) &&
      payment.status !== 'Refunded'
    ) {
      violations.push(
        `${name}: a ${String(payment.status)} entry with credit note ${String(payment.credit_note_id)}`,
      );
    }
    if (!invoiceIds.has(String(payment.invoice_id))) {
      violations.push(`${name}: belongs to missing invoice #${String(payment.invoice_id)}`);
    }
  }
  for (const [reference, ids] of duplicates(payments, 'reference')) {
    violations.push(`invoice_payments ${reference}: reference held by rows ${ids.join(', ')}`);
  }

  // A conversion is recorded on the estimate alone (converted_invoice_id), so one estimate
  // names one invoice at most by construction; what can break is an invoice claimed by two
  // estimates, or a conversion that names no invoice.
  const converted = estimates.filter((estimate) => estimate.converted_invoice_id !== null);
  for (const estimate of converted) {
    if (!invoiceIds.has(String(estimate.converted_invoice_id))) {
      violations.push(
        `estimates#${String(estimate.id)} (${String(estimate.estimate_no)}): converted into missing invoice #${String(estimate.converted_invoice_id)}`,
      );
    }
  }
  for (const [invoiceId, ids] of duplicates(converted, 'converted_invoice_id')) {
    violations.push(`invoices#${invoiceId}: the conversion of estimates ${ids.join(', ')}`);
  }
  return violations;
}
