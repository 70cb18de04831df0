import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { executePrepared } from './prepared-statement';

/*
 * Reads a record and its child rows in one statement: the record's columns as they are, and
 * each child table folded into JSON by a correlated subquery. One statement sees one snapshot
 * and costs one round trip, with no transaction around it.
 *
 * A child table comes column by column, `{"count": n, "columns": {"id": [..], "email": [..]}}`,
 * not as an array of row objects: MariaDB keeps each aggregated value in a temporary table, and
 * a computed value that may pass 512 characters (a JSON object holding a description) puts
 * that table on disk; under load that measured at half the rate of the four plain selects it
 * replaces. A bare column does not. The arrays line up: one aggregation pass hands each row to
 * every aggregate in turn, and JSON_ARRAYAGG / json_group_array keep nulls.
 *
 * Columns come from the entities' metadata, so the SQL, the JSON keys and the decoding can
 * never disagree with the entity. Values are hydrated by TypeORM's own driver
 * (prepareHydratedValue, transformers included), handed what the driver would have read with a
 * text query: the only values that need turning back into that are MySQL datetimes, which JSON
 * and the prepared statement (see `read()`) carry as text where mysql2's text protocol gives Date.
 */

type SqlDialect = 'sqlite' | 'mysql' | 'mariadb';

/** Column types JSON carries as they are: numbers are whole, text is text, booleans are 0/1. */
const JSON_NATIVE = new Set(['int', 'integer', 'varchar', 'text', 'boolean']);
/** Column types whose JSON form is their text: a DECIMAL as a JSON number would come back a float. */
const JSON_AS_TEXT = new Set(['decimal', 'date', 'datetime']);

/**
 * What `children()` answers. The count is taken beside the arrays to prove nothing went
 * missing; MySQL and MariaDB give null for the arrays of no rows.
 */
interface ChildColumnsJson {
  count: number;
  columns: Record<string, unknown[] | null>;
}

type StatementBuilder = (rows: JsonRows) => string;

const instances = new WeakMap<DataSource, JsonRows>();

/** The JsonRows of the manager's data source (built once per data source). */
export function jsonRows(manager: EntityManager): JsonRows {
  const dataSource = manager.connection;
  let rows = instances.get(dataSource);
  if (!rows) {
    rows = new JsonRows(dataSource);
    instances.set(dataSource, rows);
  }
  return rows;
}

export class JsonRows {
  private readonly dialect: SqlDialect;
  private readonly statements = new Map<StatementBuilder, string>();

  constructor(private readonly dataSource: DataSource) {
    const options = dataSource.options;
    if (options.type === 'better-sqlite3') this.dialect = 'sqlite';
    else if (options.type === 'mysql' || options.type === 'mariadb') {
      // mysql2 reads DATETIME as UTC with this setting; toUtcDate below does the same.
      if (options.timezone !== 'Z') {
        throw new Error(`json-rows reads MySQL datetimes as UTC, not ${options.timezone}`);
      }
      this.dialect = options.type;
    } else throw new Error(`json-rows does not support ${options.type}`);
  }

  /** The statement `build` writes, built once. MariaDB: lifted out of group_concat_max_len. */
  statement(build: StatementBuilder): string {
    let sql = this.statements.get(build);
    if (sql === undefined) {
      sql = build(this);
      // MariaDB's JSON_ARRAYAGG is GROUP_CONCAT underneath and cuts its result at
      // group_concat_max_len (1 MB by default). No result can pass max_allowed_packet; what
      // that still cuts, the count check in childEntities refuses.
      if (this.dialect === 'mariadb') {
        sql = `SET STATEMENT group_concat_max_len = @@max_allowed_packet FOR ${sql}`;
      }
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
   * What ends a read that row-locks what it selects from its FROM table (MySQL/MariaDB): the
   * correlated subqueries of `children()` take no locks and read the rows committed when they
   * run, which is after the lock was granted. '' on SQLite, whose writes queue in the process.
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
   * A correlated subquery answering `{"count": n, "columns": {column: [value, …], …}}` for the
   * rows of the entity's table that match `where` (SQL the caller writes, never input:
   * `line.invoice_id = invoice.id`), in no particular order; read back with `childEntities()`.
   */
  children(target: EntityTarget<ObjectLiteral>, alias: string, where: string): string {
    const metadata = this.metadata(target);
    const sqlite = this.dialect === 'sqlite';
    const arrayOf = sqlite ? 'json_group_array' : 'JSON_ARRAYAGG';
    const object = sqlite ? 'json_object' : 'JSON_OBJECT';
    const arrays = selected(metadata)
      .map((column) => `'${column.databaseName}', ${arrayOf}(${this.jsonValue(column, alias)})`)
      .join(', ');
    const table = this.escape(metadata.tableName);
    return `(SELECT ${object}('count', COUNT(*), 'columns', ${object}(${arrays})) FROM ${table} ${alias} WHERE ${where})`;
  }

  /** The entity a row of `columns()` holds, hydrated as TypeORM's find would. */
  entity<T extends ObjectLiteral>(target: EntityTarget<T>, row: Record<string, unknown>): T {
    return this.hydrate(this.metadata(target), row) as T;
  }

  /**
   * The entities a `children()` value holds, in the order the database gave (sort them).
   * Throws when an array holds fewer values than were counted: an aggregate cut short must
   * fail, not answer a shorter list.
   */
  childEntities<T extends ObjectLiteral>(target: EntityTarget<T>, value: unknown): T[] {
    const metadata = this.metadata(target);
    // mysql2 parses JSON results itself (MySQL's JSON type, MariaDB's JSON-format text).
    const json = (typeof value === 'string' ? JSON.parse(value) : value) as ChildColumnsJson | null;
    if (!json || typeof json.count !== 'number') {
      throw new Error(`${metadata.tableName}: no child rows JSON`);
    }
    const { count } = json;
    const columns = selected(metadata).map((column) => {
      const values = json.columns?.[column.databaseName] ?? (count === 0 ? [] : null);
      if (values?.length !== count) {
        throw new Error(
          `${metadata.tableName}.${column.databaseName}: ${values?.length ?? 0} values read of ${count}`,
        );
      }
      return { column, values };
    });
    const plan = hydration(metadata);
    const entities: T[] = [];
    for (let index = 0; index < count; index++) {
      const entity = metadata.create(undefined, { fromDeserializer: true }) as ObjectLiteral;
      for (let at = 0; at < plan.length; at++)
        this.assign(entity, plan[at], columns[at].values[index]);
      entities.push(entity as T);
    }
    return entities;
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

  /** The column as it goes into its JSON array: bare where it can be (see the top). */
  private jsonValue(column: ColumnMetadata, alias: string): string {
    const type = columnType(column);
    const expression = `${alias}.${this.escape(column.databaseName)}`;
    if (JSON_NATIVE.has(type)) return expression;
    if (JSON_AS_TEXT.has(type)) {
      // SQLite keeps these as TEXT already (see columns.ts).
      return this.dialect === 'sqlite' ? expression : `CAST(${expression} AS CHAR)`;
    }
    throw new Error(`json-rows has no JSON form for ${column.databaseName} (${type})`);
  }

  /** A MySQL datetime read as text (JSON, a prepared read) as a text query reads it: a Date. */
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

const readings = new WeakMap<
  EntityMetadata,
  { columns: ColumnMetadata[]; hydration: ColumnHydration[] }
>();

/** The selected columns of an entity, worked out once: a detail read hydrates a few hundred values. */
function reading(metadata: EntityMetadata): {
  columns: ColumnMetadata[];
  hydration: ColumnHydration[];
} {
  let found = readings.get(metadata);
  if (!found) {
    const columns = metadata.columns.filter((column) => column.isSelect);
    found = {
      columns,
      hydration: columns.map((column) => ({
        column,
        plain: !column.embeddedMetadata && !(column.isVirtual && column.referencedColumn),
      })),
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
