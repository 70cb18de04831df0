import { Injectable } from '@nestjs/common';
import { Clock, formatTimestamp } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { DEFAULT_PER_PAGE } from '../common/list-query.dto';
import { Database } from '../database/database';
import { DOCUMENT_KINDS, DocumentKind } from '../document-vocabulary/document-kind';
import { formatNumber, NumberFormat, parseFormat, periodOf } from './domain/number-format';
import {
  ListNumberSeriesDto,
  NumberSeriesDto,
  NumberSeriesListResponseDto,
  NumberSeriesResponseDto,
  UpdateNumberSeriesDto,
} from './dto/number-series.dto';

interface SeriesRow {
  kind: DocumentKind;
  format: string;
  updated_at: Date | string;
}

/**
 * The number series of docs/numbering.md. A number is taken inside the transaction that writes
 * its document: the counter row of its kind and period is written first (an upsert adding 1),
 * which holds that row's lock until the transaction ends, so concurrent adds queue on it one by
 * one, on every instance, and a transaction that rolls back gives its number back with it. On
 * SQLite every write transaction already runs alone.
 */
@Injectable()
export class NumberSeries {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * The next number of `kind` for a document dated `date`, in the caller's transaction. A
   * number a caller already gave a document of the kind (`inUse`) is passed over: it counts as
   * taken, and the series stays without a gap.
   */
  async take(
    kind: DocumentKind,
    date: string,
    inUse: (number: string) => Promise<boolean>,
  ): Promise<string> {
    if (!this.database.inTransaction) throw new Error('A number is taken inside a transaction');
    const format = await this.format(kind);
    const period = periodOf(format, date);
    for (;;) {
      await this.database.write(this.countSql(), [kind, period]);
      const sequence = await this.lastValue(kind, period);
      const number = formatNumber(format, date, sequence);
      if (!(await inUse(number))) return number;
    }
  }

  /** All three, in kind order; `page` and `per_page` page them as every list is paged. */
  async list(query: ListNumberSeriesDto): Promise<NumberSeriesListResponseDto> {
    return this.database.read(async () => {
      const rows = await this.database.manager.query<SeriesRow[]>(
        'SELECT kind, format, updated_at FROM number_series',
      );
      const byKind = new Map(rows.map((row) => [row.kind, row]));
      const data: NumberSeriesDto[] = [];
      for (const kind of DOCUMENT_KINDS) {
        const row = byKind.get(kind);
        if (!row) throw new Error(`number_series has no ${kind} row`);
        data.push(await this.answer(row));
      }
      if (query.page === undefined && query.per_page === undefined) return { data };
      const perPage = query.per_page ?? DEFAULT_PER_PAGE;
      const page = query.page ?? 1;
      return {
        data: data.slice((page - 1) * perPage, page * perPage),
        meta: { page, per_page: perPage, total: data.length },
      };
    });
  }

  /** Changes the format, then sets the next number of the current period: both or either. */
  update(kindText: string, input: UpdateNumberSeriesDto): Promise<NumberSeriesResponseDto> {
    const kind = DOCUMENT_KINDS.find((known) => known === kindText);
    if (!kind) throw DomainException.notFound('Number series', kindText);
    return this.database.transaction(async () => {
      if (input.format !== undefined) {
        const parsed = parseFormat(input.format);
        if (typeof parsed === 'string') throw DomainException.invalidField('format', parsed);
        await this.database.write(
          'UPDATE number_series SET format = ?, updated_at = ? WHERE kind = ?',
          [input.format, this.database.instant(this.clock.now()), kind],
        );
      }
      if (input.next !== undefined) await this.setNext(kind, input.next);
      return { number_series: [await this.answer(await this.row(kind))] };
    });
  }

  /**
   * The current period's counter set so that `next` comes next, under its row lock; below a
   * number already taken answers 409.
   */
  private async setNext(kind: DocumentKind, next: number): Promise<void> {
    const period = periodOf(await this.format(kind), this.clock.today());
    await this.database.write(this.holdSql(), [kind, period]);
    const last = await this.lastValue(kind, period);
    if (next - 1 < last) {
      throw new DomainException(
        'SEQUENCE_ALREADY_USED',
        `The ${kind} series has taken numbers up to ${last} in period ${period || '(none)'}: next must be at least ${last + 1}`,
        { next: [`next must be at least ${last + 1}`] },
      );
    }
    await this.database.write(
      'UPDATE number_counters SET last_value = ? WHERE kind = ? AND period = ?',
      [next - 1, kind, period],
    );
  }

  private async answer(row: SeriesRow): Promise<NumberSeriesDto> {
    const format = this.parsed(row.format);
    const today = this.clock.today();
    const period = periodOf(format, today);
    const next = ((await this.counter(row.kind, period)) ?? 0) + 1;
    return {
      kind: row.kind,
      format: row.format,
      period,
      next,
      next_number: formatNumber(format, today, next),
      updated_at: formatTimestamp(instantOf(row.updated_at)),
    };
  }

  private async row(kind: DocumentKind): Promise<SeriesRow> {
    const [row] = await this.database.manager.query<SeriesRow[]>(
      'SELECT kind, format, updated_at FROM number_series WHERE kind = ?',
      [kind],
    );
    if (!row) throw new Error(`number_series has no ${kind} row`);
    return row;
  }

  private async format(kind: DocumentKind): Promise<NumberFormat> {
    return this.parsed((await this.row(kind)).format);
  }

  private parsed(text: string): NumberFormat {
    const format = parseFormat(text);
    // Every format stored was parsed first (update above, the migration's defaults).
    if (typeof format === 'string') throw new Error(`Stored number format ${text}: ${format}`);
    return format;
  }

  /** The last sequence number taken in the period; null before its first. */
  private async counter(kind: DocumentKind, period: string): Promise<number | null> {
    const [row] = await this.database.manager.query<Array<{ last_value: number | string }>>(
      'SELECT last_value FROM number_counters WHERE kind = ? AND period = ?',
      [kind, period],
    );
    return row ? Number(row.last_value) : null;
  }

  /** The counter of a period this transaction has just written (countSql, holdSql). */
  private async lastValue(kind: DocumentKind, period: string): Promise<number> {
    const last = await this.counter(kind, period);
    if (last === null) throw new Error(`No ${kind} counter for period ${period}`);
    return last;
  }

  /** Adds 1 to the period's counter (1 for a new period), holding its row until commit. */
  private countSql(): string {
    return this.database.dialect === 'sqlite'
      ? `INSERT INTO number_counters (kind, period, last_value) VALUES (?, ?, 1)
         ON CONFLICT (kind, period) DO UPDATE SET last_value = last_value + 1`
      : `INSERT INTO number_counters (kind, period, last_value) VALUES (?, ?, 1)
         ON DUPLICATE KEY UPDATE last_value = last_value + 1`;
  }

  /** Makes sure the period's counter exists (0 for a new period), holding its row until commit. */
  private holdSql(): string {
    return this.database.dialect === 'sqlite'
      ? `INSERT INTO number_counters (kind, period, last_value) VALUES (?, ?, 0)
         ON CONFLICT (kind, period) DO NOTHING`
      : `INSERT INTO number_counters (kind, period, last_value) VALUES (?, ?, 0)
         ON DUPLICATE KEY UPDATE last_value = last_value`;
  }
}

/** A DATETIME as read by a raw query: a Date from mysql2, UTC text from SQLite. */
function instantOf(value: Date | string): Date {
  return typeof value === 'string' ? new Date(`${value.replace(' ', 'T')}Z`) : value;
}
