import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { executePrepared } from './prepared-statement';

/*
 * Reads a record, or a record and its child rows, in one statement, which sees one snapshot
 * and costs one round trip, with no transaction around it.
 *
 * A record with its children is a UNION ALL of plain selects (`union()`), one part per table:
 * each row says its part and holds that table's columns, NULL past them. MariaDB streams such a
 * union, with no temporary table. The JSON it replaced (each child table folded into
 * JSON_ARRAYAGG columns by a correlated subquery) made a temporary table per aggregate, 37 for
 * an invoice's read; the union of a 20-line mixed-rate invoice took about a third less of the
 * server's CPU than that JSON read of the same invoice, and less than the JSON read of a
 * 20-line invoice before taxes per line (bench/results/taxes-20-lines.md).
 *
 * Columns come from the entities' metadata, so the SQL and the decoding can never disagree with
 * the entity. Values are hydrated by TypeORM's own driver (prepareHydratedValue, transformers
 * included), handed what the driver would have read with a text query. On MySQL/MariaDB a union
 * answers every value as text, so that a column holds one type whatever the parts put in it:
 * integers and booleans are turned back into numbers and datetimes into Dates (the prepared
 * statement, see `read()`, gives datetimes as text too); decimals and dates are text in a text
 * query already.
 */

type SqlDialect = 'sqlite' | 'mysql' | 'mariadb';

/** Column types a read hydrates. A union on MySQL/MariaDB reads each as text. */
const READ_TYPES = new Set([
  'int',
  'integer',
  'varchar',
  'text',
  'boolean',
  'decimal',
  'date',
  'datetime',
]);
/** Those whose text a union on MySQL/MariaDB turns back into a number, as a text query gives it. */
const NUMERIC_TYPES = new Set(['int', 'integer', 'boolean']);

type StatementBuilder = (rows: RecordRows) => string;

/** A table's rows in a `union()` read: those `where` selects. */
export interface UnionPart {
  target: EntityTarget<ObjectLiteral>;
  alias: string;
  /** SQL the caller writes, never input (`line.invoice_id = ?`). */
  where: string;
  /** Further values of each row, after the entity's columns (SQL): read with `unionExtra()`. */
  extras?: string[];
}

const instances = new WeakMap<DataSource, RecordRows>();

/** The RecordRows of the manager's data source (built once per data source). */
export function recordRows(manager: EntityManager): RecordRows {
  const dataSource = manager.connection;
  let rows = instances.get(dataSource);
  if (!rows) {
    rows = new RecordRows(dataSource);
    instances.set(dataSource, rows);
  }
  return rows;
}

export class RecordRows {
  private readonly dialect: SqlDialect;
  private readonly statements = new Map<StatementBuilder, string>();

  constructor(private readonly dataSource: DataSource) {
    const options = dataSource.options;
    if (options.type === 'better-sqlite3') this.dialect = 'sqlite';
    else if (options.type === 'mysql' || options.type === 'mariadb') {
      // mysql2 reads DATETIME as UTC with this setting; toUtcDate below does the same.
      if (options.timezone !== 'Z') {
        throw new Error(`record-rows reads MySQL datetimes as UTC, not ${options.timezone}`);
      }
      this.dialect = options.type;
    } else throw new Error(`record-rows does not support ${options.type}`);
  }

  /** The statement `build` writes, built once. */
  statement(build: StatementBuilder): string {
    let sql = this.statements.get(build);
    if (sql === undefined) {
      sql = build(this);
      this.statements.set(build, sql);
    }
    return sql;
  }

  /**
   * The rows of the statement `build` writes (see `statement()`). MySQL/MariaDB: as a prepared
   * statement (prepared-statement.ts), which spares the server parsing and planning the long
   * text at every read, and the socket carrying it; its datetimes come as text, hydrated below
   * as a text query's. SQLite: as any TypeORM query.
   */
  read(
    manager: EntityManager,
    build: StatementBuilder,
    parameters: unknown[],
  ): Promise<Record<string, unknown>[]> {
    const sql = this.statement(build);
    if (this.dialect === 'sqlite') return manager.query(sql, parameters);
    return executePrepared(manager, sql, parameters);
  }

  /**
   * What ends a read that row-locks what it selects from its FROM table (MySQL/MariaDB); in a
   * `union()`, the first part's. The other parts take no locks and read the rows committed
   * when they run, which is after the lock was granted. '' on SQLite, whose writes queue in
   * the process.
   */
  forUpdate(): string {
    return this.dialect === 'sqlite' ? '' : ' FOR UPDATE';
  }

  /**
   * What ends a read that holds its row as read until commit with a shared lock (MySQL/MariaDB:
   * LOCK IN SHARE MODE, which both servers read alike); '' on SQLite, as `forUpdate()`.
   */
  forShare(): string {
    return this.dialect === 'sqlite' ? '' : ' LOCK IN SHARE MODE';
  }

  /** `alias.column AS column, …` for every column of the entity; read back with `entity()`. */
  columns(target: EntityTarget<ObjectLiteral>, alias: string): string {
    return selected(this.metadata(target))
      .map((column) => {
        const name = this.escape(column.databaseName);
        return `${alias}.${name} AS ${name}`;
      })
      .join(', ');
  }

  /** The entity's table name, escaped for the statement. */
  table(target: EntityTarget<ObjectLiteral>): string {
    return this.escape(this.metadata(target).tableName);
  }

  /**
   * One statement reading the rows of several tables, each part after the other (UNION ALL):
   * each row says its part (`part`, the index in `parts`) and holds the part's columns, then its
   * extras, as `c0`, `c1`, … in the entity's order, NULL past its own. MySQL/MariaDB answer
   * every value as text (CAST … AS CHAR), so that each column has one type whatever the parts
   * put in it; `unionEntity()` turns them back. With `forUpdate`, the first part's rows are
   * locked (see `forUpdate()`).
   */
  union(parts: UnionPart[], { forUpdate }: { forUpdate: boolean }): string {
    const mysql = this.dialect !== 'sqlite';
    const cellsOf = parts.map(({ target, alias, extras }) => [
      ...selected(this.metadata(target)).map((column) => {
        if (!READ_TYPES.has(columnType(column))) {
          throw new Error(`record-rows reads no ${columnType(column)} (${column.databaseName})`);
        }
        const value = `${alias}.${this.escape(column.databaseName)}`;
        return mysql ? `CAST(${value} AS CHAR)` : value;
      }),
      ...(extras ?? []),
    ]);
    const width = Math.max(...cellsOf.map((cells) => cells.length));
    return parts
      .map(({ target, alias, where }, index) => {
        const cells = Array.from({ length: width }, (_, at) => {
          const cell = cellsOf[index][at] ?? 'NULL';
          return index === 0 ? `${cell} AS c${at}` : cell;
        });
        const lock = index === 0 && forUpdate ? this.forUpdate() : '';
        const select = `SELECT ${index} AS part, ${cells.join(', ')} FROM ${this.table(target)} ${alias} WHERE ${where}${lock}`;
        // MySQL/MariaDB lock in a part only when it is in parentheses; SQLite takes none.
        return mysql ? `(${select})` : select;
      })
      .join('\nUNION ALL ');
  }

  /** The entity a row of a `union()` part holds, hydrated as TypeORM's find would. */
  unionEntity<T extends ObjectLiteral>(target: EntityTarget<T>, row: Record<string, unknown>): T {
    const metadata = this.metadata(target);
    const { hydration: plan, cells } = reading(metadata);
    const entity = metadata.create(undefined, { fromDeserializer: true }) as ObjectLiteral;
    for (let at = 0; at < plan.length; at++) {
      const read = row[cells[at]];
      if (read === undefined) throw new Error(`${metadata.tableName}: ${cells[at]} not read`);
      this.assign(entity, plan[at], this.fromUnionText(plan[at].column, read));
    }
    return entity as T;
  }

  /** The `index`th extra value of a row of a `union()` part. */
  unionExtra(target: EntityTarget<ObjectLiteral>, row: Record<string, unknown>, index: number) {
    return row[`c${selected(this.metadata(target)).length + index}`];
  }

  /** The entity a row of `columns()` holds, hydrated as TypeORM's find would. */
  entity<T extends ObjectLiteral>(target: EntityTarget<T>, row: Record<string, unknown>): T {
    return this.hydrate(this.metadata(target), row) as T;
  }

  private hydrate(metadata: EntityMetadata, row: Record<string, unknown>): ObjectLiteral {
    // As RawSqlResultsToEntityTransformer does it.
    const entity = metadata.create(undefined, { fromDeserializer: true }) as ObjectLiteral;
    for (const column of hydration(metadata)) {
      const value = row[column.column.databaseName];
      if (value === undefined)
        throw new Error(`${metadata.tableName}.${column.column.databaseName} not read`);
      this.assign(entity, column, value);
    }
    return entity;
  }

  /** A column's value as read, hydrated by the driver into the entity. */
  private assign(entity: ObjectLiteral, { column, plain }: ColumnHydration, read: unknown): void {
    const value: unknown = this.dataSource.driver.prepareHydratedValue(
      this.fromText(column, read),
      column,
    );
    if (plain) (entity as Record<string, unknown>)[column.propertyName] = value;
    else column.setEntityValue(entity, value);
  }

  /** A MySQL integer or boolean `union()` read as text as a text query reads it: a number. */
  private fromUnionText(column: ColumnMetadata, value: unknown): unknown {
    if (
      typeof value === 'string' &&
      this.dialect !== 'sqlite' &&
      NUMERIC_TYPES.has(columnType(column))
    ) {
      return Number(value);
    }
    return value;
  }

  /** A MySQL datetime read as text (a union, a prepared read) as a text query reads it: a Date. */
  private fromText(column: ColumnMetadata, value: unknown): unknown {
    if (
      this.dialect !== 'sqlite' &&
      columnType(column) === 'datetime' &&
      typeof value === 'string'
    ) {
      return toUtcDate(value);
    }
    return value;
  }

  private metadata(target: EntityTarget<ObjectLiteral>): EntityMetadata {
    return this.dataSource.getMetadata(target);
  }

  private escape(name: string): string {
    return this.dataSource.driver.escape(name);
  }
}

/** The columns a read hydrates: all but those marked `select: false` (a generated column). */
function selected(metadata: EntityMetadata): ColumnMetadata[] {
  return reading(metadata).columns;
}

/** How each selected column is hydrated (see `reading()`). */
function hydration(metadata: EntityMetadata): ColumnHydration[] {
  return reading(metadata).hydration;
}

interface ColumnHydration {
  column: ColumnMetadata;
  /** setEntityValue would only assign the property: not embedded, not a relation's virtual column. */
  plain: boolean;
}

interface Reading {
  columns: ColumnMetadata[];
  hydration: ColumnHydration[];
  /** The key of each column's value in a `union()` row: c0, c1, … */
  cells: string[];
}

const readings = new WeakMap<EntityMetadata, Reading>();

/** The selected columns of an entity, worked out once: a detail read hydrates a few hundred values. */
function reading(metadata: EntityMetadata): Reading {
  let found = readings.get(metadata);
  if (!found) {
    const columns = metadata.columns.filter((column) => column.isSelect);
    found = {
      columns,
      hydration: columns.map((column) => ({
        column,
        plain: !column.embeddedMetadata && !(column.isVirtual && column.referencedColumn),
      })),
      cells: columns.map((_, at) => `c${at}`),
    };
    readings.set(metadata, found);
  }
  return found;
}

function columnType(column: ColumnMetadata): string {
  return typeof column.type === 'string' ? column.type : '';
}

const MYSQL_DATETIME = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/;

/**
 * MySQL DATETIME text (`YYYY-MM-DD HH:MM:SS[.ffffff]`) as mysql2 reads it with timezone 'Z':
 * a UTC instant, milliseconds from the first three fraction digits, zero dates invalid.
 */
function toUtcDate(text: string): Date {
  const parts = MYSQL_DATETIME.exec(text);
  if (!parts) return new Date(NaN);
  const [year, month, day, hours, minutes, seconds] = parts.slice(1, 7).map(Number);
  if (month === 0 || day === 0 || month > 12 || day > 31) return new Date(NaN);
  // Date.UTC would read years 0-99 as 1900-1999; mysql2 hands those to the string parser.
  if (year < 100) return new Date(`${text}Z`);
  const milliseconds = Number((parts[7] ?? '').padEnd(3, '0').slice(0, 3));
  return new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds, milliseconds));
}
