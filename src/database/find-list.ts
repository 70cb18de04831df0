import {
  Between,
  EntityTarget,
  FindOptionsOrder,
  FindOptionsWhere,
  MoreThan,
  ObjectLiteral,
  SelectQueryBuilder,
} from 'typeorm';
import { ListQueryDto, listRequest } from '../common/list-query.dto';
import { Database } from './database';

/** A row a list reads: lists are in id order. */
interface ListedRow {
  id: number;
}

/** Rows a whole list reads per statement: bounded memory, few round trips. */
export const LIST_BATCH_SIZE = 1000;

/** Where a numbered page sits. */
export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
}

/** Keyset paging: `next_after` fetches the next page, null on the last one. */
export interface CursorMeta {
  per_page: number;
  next_after: string | null;
}

/**
 * A whole list, read in id-ordered batches as it is written out, so neither the rows nor the
 * answer are ever all in memory. The first batch is read before the answer starts, so a failure
 * there still answers an error; a failure later cuts the answer short (the connection closes).
 * `rest` is null when the first batch is the whole list.
 */
export class StreamedList<T> {
  constructor(
    readonly first: T[],
    readonly rest: (() => AsyncIterable<T[]>) | null,
  ) {}

  map<O>(convert: (row: T) => O): StreamedList<O> {
    const rest = this.rest;
    if (rest === null) return new StreamedList(this.first.map(convert), null);
    return new StreamedList(this.first.map(convert), async function* () {
      for await (const batch of rest()) yield batch.map(convert);
    });
  }
}

/**
 * How a keyset read (`after`, and the batches of a whole list) walks the table: along the
 * primary key unless the filter has an index of its own that keeps the walk short (a client's
 * documents: `byPrimaryKey: false`). MySQL only; SQLite picks well by itself.
 */
export interface KeysetOptions {
  byPrimaryKey?: boolean;
  /** Keyset pages (`after`) stop at this id: rows past it may not be final yet (the event feed). */
  upTo?: number;
}

/**
 * A list read as the driver hands its rows over, without building entities: these properties
 * of the entity, each under its own name, with the database's values (decimals as text, a
 * MySQL datetime as a Date, a SQLite one as text) for a mapper that writes them out as text.
 * Hydration cost more per row than the rest of the read (see docs/measured.md).
 */
export interface RawListOptions<T> {
  columns: Array<keyof T & string>;
}

/** A list read: one page of rows and its meta, or the whole list streamed. */
export type ListResult<T> = { rows: T[]; meta: PageMeta | CursorMeta } | StreamedList<T>;

/** A list as the API answers it: `data` (and `meta` for a page), or the stream of a whole list. */
export type ListAnswer<R extends { data: unknown[] }> = R | StreamedList<R['data'][number]>;

/**
 * A list in id order (oldest first) as the query asks: the whole list streamed in batches, one
 * numbered page with the total count (two statements), or the page after an id (one statement,
 * the same cost however deep). Each statement runs as a read of its own.
 */
export function findList<T extends ListedRow>(
  database: Database,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T> | FindOptionsWhere<T>[],
  query: ListQueryDto,
  options?: KeysetOptions,
): Promise<ListResult<T>>;
/** The same list as raw rows: `R` holds the columns asked for, as the driver reads them. */
export function findList<T extends ListedRow, R extends ListedRow>(
  database: Database,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T> | FindOptionsWhere<T>[],
  query: ListQueryDto,
  options: KeysetOptions & RawListOptions<T>,
): Promise<ListResult<R>>;
export async function findList<T extends ListedRow>(
  database: Database,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T> | FindOptionsWhere<T>[],
  query: ListQueryDto,
  options: KeysetOptions & Partial<RawListOptions<T>> = {},
): Promise<ListResult<ListedRow>> {
  const order = { id: 'ASC' } as FindOptionsOrder<T>;
  const request = listRequest(query);
  const columns = options.columns;
  // A query builder reads an undefined filter as `= NULL`, where find() leaves it out.
  const conditions = (Array.isArray(where) ? where : [where]).map((condition) =>
    Object.fromEntries(Object.entries(condition).filter(([, value]) => value !== undefined)),
  );
  const selectRows = (filter: ObjectLiteral[]) => {
    const select = database.manager.createQueryBuilder(entity, 'row').where(filter);
    if (columns) {
      select.select(`row.${columns[0]}`, columns[0]);
      for (const column of columns.slice(1)) select.addSelect(`row.${column}`, column);
    }
    return select;
  };
  const rowsOf = (select: SelectQueryBuilder<T>): Promise<ListedRow[]> =>
    columns ? select.getRawMany() : select.getMany();
  // The rows after an id, in id order. MySQL/MariaDB would rather read the live-rows index
  // (`deleted_at`, `id`) as `deleted_at IS NULL` and filter the ids, which scans every live
  // row before the cursor (a page deep in 1,000,000 invoices: 38 ms and 430 pages, against
  // 4 pages along the primary key). Told to walk the primary key, it reads just the page.
  const rowsAfter = (id: number, count: number) => {
    const after = options.upTo === undefined ? MoreThan(id) : Between(id + 1, options.upTo);
    const select = selectRows(conditions.map((condition) => ({ ...condition, id: after })))
      .orderBy('row.id', 'ASC')
      .limit(count);
    if (options.byPrimaryKey ?? true) select.useIndex('PRIMARY');
    return rowsOf(select);
  };

  if (request.kind === 'page') {
    const skip = (request.page - 1) * request.per_page;
    const [rows, total] = await database.read(async () => {
      if (!columns) {
        return database.manager.findAndCount(entity, {
          where,
          order,
          skip,
          take: request.per_page,
        });
      }
      // As findAndCount: the page (LIMIT … OFFSET), then the count of every matching row.
      const select = selectRows(conditions).orderBy('row.id', 'ASC');
      const page = await rowsOf(select.clone().offset(skip).limit(request.per_page));
      return [page, await select.getCount()] as const;
    });
    return { rows, meta: { page: request.page, per_page: request.per_page, total } };
  }

  if (request.kind === 'after') {
    // One row more than the page tells whether another page follows.
    const found = await database.read(() => rowsAfter(request.after, request.per_page + 1));
    const rows = found.slice(0, request.per_page);
    const more = found.length > request.per_page;
    const next_after = more ? String(rows[rows.length - 1].id) : null;
    return { rows, meta: { per_page: request.per_page, next_after } };
  }

  const batchAfter = (id: number) => database.read(() => rowsAfter(id, LIST_BATCH_SIZE));
  const first = await batchAfter(0);
  if (first.length < LIST_BATCH_SIZE) return new StreamedList(first, null);
  return new StreamedList(first, async function* () {
    let batch = first;
    while (batch.length === LIST_BATCH_SIZE) {
      batch = await batchAfter(batch[batch.length - 1].id);
      if (batch.length > 0) yield batch;
    }
  });
}

/** Every matching row in id order, in one statement: for short lists read inline (a client's documents). */
export function findAll<T extends ListedRow>(
  database: Database,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T>,
): Promise<T[]> {
  return database.read(() =>
    database.manager.find(entity, { where, order: { id: 'ASC' } as FindOptionsOrder<T> }),
  );
}

/** Maps each row to its output shape: the one place a list read becomes an answer. */
export function listResponse<T, O>(
  result: ListResult<T>,
  map: (row: T) => O,
): StreamedList<O> | { data: O[]; meta: PageMeta | CursorMeta } {
  if (result instanceof StreamedList) return result.map(map);
  return { data: result.rows.map(map), meta: result.meta };
}
