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
    // docs/taxes.md: a line's amount is round(quantity × rate) less its discount.
    for (const line of own) {
      const expected = exact(line.quantity)
        .times(exact(line.rate))
        .toDecimalPlaces(digits)
        .minus(exact(line.discount_amount));
      if (!exact(line.amount).eq(expected)) {
        violations.push(
          `${name} line#${String(line.id)}: amount ${String(line.amount)} ≠ quantity × rate − discount ${expected.toFixed()}`,
        );
      }
    }
    const subTotal = sumOf(own.map((line) => exact(line.amount)));
    if (!exact(document.sub_total).eq(subTotal)) {
      violations.push(
        `${name}: sub_total ${String(document.sub_total)} ≠ sum of line amounts ${subTotal.toFixed()}`,
      );
    }
    // The specification's one rate, where the document uses none of the tax extensions; the
    // EN 16931 sums of the others are proved by test/taxes-property.e2e-spec.ts.
    const inclusive = Number(document.prices_include_tax) === 1;
    const discount = exact(document.discount_amount);
    const plain = !inclusive && discount.isZero() && own.every((line) => line.taxes === null);
    const tax = exact(document.sub_total)
      .times(exact(document.tax_rate))
      .dividedBy(100)
      .toDecimalPlaces(digits);
    if (plain && !exact(document.tax_amount).eq(tax)) {
      violations.push(
        `${name}: tax_amount ${String(document.tax_amount)} ≠ sub_total × tax_rate / 100 ${tax.toFixed()}`,
      );
    }
    const total = exact(document.sub_total)
      .minus(discount)
      .plus(inclusive ? 0 : exact(document.tax_amount));
    if (!exact(document.total).eq(total)) {
      violations.push(
        `${name}: total ${String(document.total)} ≠ sub_total − discount + tax_amount ${total.toFixed()}`,
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
    'SELECT id, invoice_no, payment_status, currency, tax_rate, sub_total, discount_amount, prices_include_tax, tax_amount, total, amount_paid, amount_credited, voided_at, deleted_at FROM invoices ORDER BY id',
  );
  const invoiceLines = groupBy(
    await sql.query(
      'SELECT id, invoice_id, quantity, rate, amount, discount_amount, taxes FROM invoice_line_items ORDER BY id',
    ),
    'invoice_id',
  );
  const payments = await sql.query(
    'SELECT id, invoice_id, reference, status, amount, credit_note_id FROM invoice_payments ORDER BY id',
  );
  // Credit notes are never archived: `deleted_at` NULL makes every one live for the number check.
  const creditNotes = await sql.query(
    'SELECT id, credit_note_no, invoice_id, currency, tax_rate, sub_total, discount_amount, prices_include_tax, tax_amount, total, refunded, NULL AS deleted_at FROM credit_notes ORDER BY id',
  );
  const creditNoteLines = groupBy(
    await sql.query(
      'SELECT id, credit_note_id, quantity, rate, amount, discount_amount, taxes FROM credit_note_line_items ORDER BY id',
    ),
    'credit_note_id',
  );
  const estimates = await sql.query(
    'SELECT id, estimate_no, currency, tax_rate, sub_total, discount_amount, prices_include_tax, tax_amount, total, converted_invoice_id, deleted_at FROM estimates ORDER BY id',
  );
  const estimateLines = groupBy(
    await sql.query(
      'SELECT id, estimate_id, quantity, rate, amount, discount_amount, taxes FROM estimate_line_items ORDER BY id',
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
  violations.push(...(await eventViolations(sql, { invoices, creditNotes, estimates })));
  violations.push(...(await webhookViolations(sql)));
  violations.push(...(await reminderViolations(sql)));
  return violations;
}

/**
 * Each reminder (docs/receivables.md) is one step of one invoice (a unique index), sent once:
 * it names a send-log entry of kind `reminder` of that invoice, which has its outbox e-mail;
 * and every entry of kind `reminder` belongs to exactly one reminder.
 */
async function reminderViolations(sql: Sql): Promise<string[]> {
  const violations: string[] = [];
  const reminders = await sql.query(
    'SELECT id, invoice_id, step, send_log_id FROM invoice_reminders ORDER BY id',
  );
  const entries = new Map(
    (await sql.query('SELECT id, invoice_id, kind FROM invoice_send_log')).map((row) => [
      String(row.id),
      row,
    ]),
  );
  const mailed = new Set(
    (await sql.query("SELECT send_log_id FROM document_outbox WHERE kind = 'invoice'")).map((row) =>
      String(row.send_log_id),
    ),
  );
  for (const reminder of reminders) {
    const name = `invoice_reminders#${String(reminder.id)} (invoice #${String(reminder.invoice_id)}, step ${String(reminder.step)})`;
    const entry = entries.get(String(reminder.send_log_id));
    if (!entry || String(entry.invoice_id) !== String(reminder.invoice_id)) {
      violations.push(`${name}: no send-log entry of its invoice`);
    } else if (entry.kind !== 'reminder') {
      violations.push(`${name}: its send-log entry is of kind ${String(entry.kind)}`);
    }
    if (!mailed.has(String(reminder.send_log_id))) violations.push(`${name}: no e-mail`);
  }
  for (const [key, ids] of duplicates(
    reminders.map((row) => ({ ...row, key: `${String(row.invoice_id)}/${String(row.step)}` })),
    'key',
  )) {
    violations.push(`invoice_reminders ${key}: sent by rows ${ids.join(', ')}`);
  }
  const reminded = new Set(reminders.map((row) => String(row.send_log_id)));
  for (const [id, entry] of entries) {
    if (entry.kind === 'reminder' && !reminded.has(id)) {
      violations.push(`invoice_send_log#${id}: a reminder with no reminder record`);
    }
  }
  return violations;
}

/** The table of each kind of record an event is about (docs/events.md). */
const EVENT_TABLES: Record<string, string> = {
  client: 'clients',
  invoice: 'invoices',
  estimate: 'estimates',
  credit_note: 'credit_notes',
  recurring_invoice: 'recurring_invoices',
  expense: 'expenses',
  webhook_endpoint: 'webhook_endpoints',
};

/**
 * The event log agrees with the rows (docs/events.md: each change writes its event in its own
 * transaction, so one exists exactly for what committed): every event names a record that
 * exists, with a type of its kind; every record has exactly one `created` event, an archived
 * one exactly one `deleted` and a live one none; a void invoice exactly one `voided`, a
 * converted estimate one `converted`, the others none; an invoice one `credited` per credit
 * note.
 */
async function eventViolations(
  sql: Sql,
  rows: {
    invoices: Record<string, unknown>[];
    creditNotes: Record<string, unknown>[];
    estimates: Record<string, unknown>[];
  },
): Promise<string[]> {
  const violations: string[] = [];
  const counted = await sql.query(
    'SELECT object, object_id, type, COUNT(*) AS count FROM events GROUP BY object, object_id, type',
  );
  /** `object#id type` → how many events. */
  const counts = new Map<string, number>();
  for (const row of counted) {
    const object = String(row.object);
    if (!(object in EVENT_TABLES) || !String(row.type).startsWith(`${object}.`)) {
      violations.push(`events: ${String(row.count)} of type ${String(row.type)} about ${object}`);
    }
    counts.set(`${object}#${String(row.object_id)} ${String(row.type)}`, Number(row.count));
  }
  const countOf = (object: string, id: unknown, verb: string): number =>
    counts.get(`${object}#${String(id)} ${object}.${verb}`) ?? 0;
  const expectCount = (object: string, id: unknown, verb: string, expected: number): void => {
    const found = countOf(object, id, verb);
    if (found !== expected) {
      violations.push(
        `${EVENT_TABLES[object]}#${String(id)}: ${found} ${object}.${verb} event(s), not ${expected}`,
      );
    }
  };
  const ids = new Map<string, Set<string>>();
  for (const [object, table] of Object.entries(EVENT_TABLES)) {
    const records = await sql.query(
      object === 'credit_note'
        ? `SELECT id, NULL AS deleted_at FROM ${table}`
        : `SELECT id, deleted_at FROM ${table}`,
    );
    ids.set(object, new Set(records.map((record) => String(record.id))));
    for (const record of records) {
      expectCount(object, record.id, 'created', 1);
      expectCount(object, record.id, 'deleted', isLive(record) ? 0 : 1);
    }
  }
  for (const row of counted) {
    if (ids.get(String(row.object))?.has(String(row.object_id)) === false) {
      violations.push(
        `events: ${String(row.count)} ${String(row.type)} about missing ${String(row.object)}#${String(row.object_id)}`,
      );
    }
  }
  for (const invoice of rows.invoices) {
    expectCount('invoice', invoice.id, 'voided', invoice.voided_at === null ? 0 : 1);
    const notes = rows.creditNotes.filter((note) => String(note.invoice_id) === String(invoice.id));
    expectCount('invoice', invoice.id, 'credited', notes.length);
  }
  for (const estimate of rows.estimates) {
    expectCount(
      'estimate',
      estimate.id,
      'converted',
      estimate.converted_invoice_id === null ? 0 : 1,
    );
  }
  return violations;
}

/**
 * Webhook deliveries: each names an event and an endpoint that exist, one per pair, in a
 * known state (queued with a due time, delivered with its time); each attempt names a
 * delivery, and none has more attempts logged than it counted (a claim counts one before the
 * request, so a process killed in between leaves one counted and none logged).
 */
async function webhookViolations(sql: Sql): Promise<string[]> {
  const violations: string[] = [];
  const events = new Set((await sql.query('SELECT id FROM events')).map((row) => String(row.id)));
  const endpoints = new Set(
    (await sql.query('SELECT id FROM webhook_endpoints')).map((row) => String(row.id)),
  );
  const deliveries = await sql.query(
    'SELECT id, event_id, endpoint_id, status, attempts, next_attempt_at, delivered_at FROM webhook_deliveries ORDER BY id',
  );
  const attempts = groupBy(
    await sql.query('SELECT id, delivery_id FROM webhook_delivery_attempts ORDER BY id'),
    'delivery_id',
  );
  for (const delivery of deliveries) {
    const name = `webhook_deliveries#${String(delivery.id)}`;
    if (!events.has(String(delivery.event_id))) {
      violations.push(`${name}: of missing event #${String(delivery.event_id)}`);
    }
    if (!endpoints.has(String(delivery.endpoint_id))) {
      violations.push(`${name}: to missing endpoint #${String(delivery.endpoint_id)}`);
    }
    const status = String(delivery.status);
    if (!['queued', 'sending', 'delivered', 'failed', 'paused'].includes(status)) {
      violations.push(`${name}: status ${status}`);
    }
    if (status === 'queued' && delivery.next_attempt_at === null) {
      violations.push(`${name}: queued with no next attempt`);
    }
    if (status === 'delivered' && delivery.delivered_at === null) {
      violations.push(`${name}: delivered with no time`);
    }
    const logged = attempts.get(String(delivery.id))?.length ?? 0;
    if (logged > Number(delivery.attempts)) {
      violations.push(`${name}: ${logged} attempts logged, ${String(delivery.attempts)} made`);
    }
  }
  for (const [pair, ids] of duplicates(
    deliveries.map((delivery) => ({
      id: delivery.id,
      pair: `event #${String(delivery.event_id)} to endpoint #${String(delivery.endpoint_id)}`,
    })),
    'pair',
  )) {
    violations.push(`webhook_deliveries ${pair}: delivered by rows ${ids.join(', ')}`);
  }
  const deliveryIds = new Set(deliveries.map((delivery) => String(delivery.id)));
  for (const [deliveryId, own] of attempts) {
    if (!deliveryIds.has(deliveryId)) {
      violations.push(
        `webhook_delivery_attempts ${own.map((row) => String(row.id)).join(', ')}: of missing delivery #${deliveryId}`,
      );
    }
  }
  return violations;
}
