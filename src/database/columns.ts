import { Column, ColumnOptions, IsNull, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../common/money/decimal';

/*
 * One decorator per kind of column, so entities say what a column holds and not how each
 * dialect stores it. The schema itself comes from the per-dialect migrations: MySQL keeps
 * DECIMAL and DATETIME columns, SQLite keeps decimals as TEXT (its NUMERIC affinity would turn
 * them into binary floats) and datetimes as ISO text. Both drivers hand decimals back as text.
 */

const decimalTransformer = (scale: number) => ({
  to: (value: Decimal | null | undefined): string | null | undefined =>
    value instanceof Decimal ? value.toFixed(scale) : value,
  from: (value: string | number | null): Decimal | null =>
    value === null ? null : decimalRead(String(value)),
});

/**
 * `make(text)`, kept per text and shared by every read of the same text, so what is made must
 * be immutable. Bounded: past `limit` texts the memory starts again.
 */
function keptByText<T>(limit: number, make: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    let value = kept.get(text);
    if (value === undefined) {
      value = make(text);
      if (kept.size >= limit) kept.clear();
      kept.set(text, value);
    }
    return value;
  };
}

/**
 * Decimals read, one instance per text: quantities, prices, rates and zero discounts repeat
 * across lines and documents, and a Decimal is immutable, so reads share them rather than
 * parse each again (about 0.45 µs a value; a 20-line invoice's read hydrates some 120).
 */
const decimalRead = keptByText(10_000, (text) => new Decimal(text));

/** Exact decimal with 4 places: money, quantities, unit prices. */
export function DecimalColumn(options: ColumnOptions & { precision?: number } = {}) {
  return Column({
    type: 'decimal',
    precision: options.precision ?? 17,
    scale: 4,
    transformer: decimalTransformer(4),
    ...options,
  });
}

/** Auto-increment id, output as a string of digits. */
export function IdColumn() {
  return PrimaryGeneratedColumn({ type: 'int', unsigned: true });
}

/** A foreign key id. */
export function ReferenceColumn(name: string) {
  return Column({ name, type: 'int', unsigned: true });
}

/** Text that is never null: the service writes '' for an optional input that was not given. */
export function TextColumn(options: ColumnOptions & { length?: number } = {}) {
  return Column({ type: 'varchar', ...options });
}

/** A calendar date kept as 'YYYY-MM-DD' text in every dialect. */
export function DateOnlyColumn(name: string) {
  return Column({ name, type: 'date' });
}

/** A calendar date that may be absent (null). */
export function OptionalDateColumn(name: string) {
  return Column({ name, type: 'date', nullable: true });
}

/**
 * Characters of the longest taxes text a line can hold: three taxes, each with a 64-character
 * name and a 500-character exemption reason of characters JSON escapes in six (10,462; see the
 * spec). MySQL/MariaDB keep it as VARCHAR (migration 1765200000000: TEXT made every detail read
 * aggregate through an on-disk table).
 */
export const LINE_TAXES_MAX_LENGTH = 10_500;

/**
 * A line's own taxes as JSON text (null: its document's default tax), rates as decimal text so
 * they come back exactly. Read with the line in the one statement of a detail read.
 */
export function LineTaxesColumn() {
  return Column({
    type: 'varchar',
    length: LINE_TAXES_MAX_LENGTH,
    nullable: true,
    transformer: {
      to: (value: LineTaxValue[] | null | undefined): string | null | undefined =>
        value === undefined || value === null ? value : lineTaxesText(value),
      from: (value: string | null): LineTaxValue[] | null =>
        value === null ? null : parsedLineTaxes(value),
    },
  });
}

/** A line's taxes as stored: JSON, rates as decimal text. */
export function lineTaxesText(value: LineTaxValue[]): string {
  return JSON.stringify(
    // Written out, not spread (a spread with keys after it is slow on Node 20).
    value.map((tax) => ({
      name: tax.name,
      category: tax.category,
      rate: tax.rate.toFixed(),
      exemptionReason: tax.exemptionReason,
      exemptionCode: tax.exemptionCode,
    })),
  );
}

/**
 * Parsed line taxes by their text: the lines of a document mostly repeat a few tax sets, so
 * each text is parsed once and its lines share the list, frozen (Decimal is immutable).
 */
const parsedLineTaxes = keptByText(1000, (text) => {
  const parsed = JSON.parse(text) as Array<Omit<LineTaxValue, 'rate'> & { rate: string }>;
  return Object.freeze(
    parsed.map((tax) => Object.freeze({ ...tax, rate: new Decimal(tax.rate) })),
  ) as LineTaxValue[];
});

/** What LineTaxesColumn keeps of each tax (documents/domain LineTax). */
export interface LineTaxValue {
  name: string;
  category: string;
  rate: Decimal;
  exemptionReason: string;
  exemptionCode: string;
}

/** A UTC instant, whole seconds. The service sets it; the database never defaults it. */
export function TimestampColumn(name: string) {
  return Column({ name, type: 'datetime' });
}

/**
 * A UTC instant to the millisecond, for the claims and leases of the queues (outbox,
 * idempotency keys), where an instant tells one claim from a later one.
 */
export function InstantColumn(name: string, options: { nullable?: boolean } = {}) {
  return Column({ name, type: 'datetime', precision: 3, nullable: options.nullable ?? false });
}

/**
 * Archive marker, set on DELETE. Queries say `...LIVE` where they want live rows only: plain
 * rather than TypeORM's soft-delete column, which costs a re-select after every insert.
 */
export function ArchivedAtColumn() {
  return Column({ name: 'deleted_at', type: 'datetime', nullable: true });
}

/** Where-clause fragment for rows that are not archived. */
export const LIVE = { deletedAt: IsNull() };
