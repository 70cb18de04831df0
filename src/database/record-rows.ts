import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { executePrepared } from './prepared-statement';

/*
 * Reads a record, or a record with its child rows (a family), in one statement, which sees one
 * snapshot and costs one round trip, with no transaction around it. A family takes the shape
 * each database reads fastest (bench/results/taxes-20-lines.md):
 *
 * - MySQL/MariaDB: a UNION ALL of plain selects, one part per table. Each row says its part and
 *   holds that table's columns as c0, c1, …, NULL past them, every value as text (CAST … AS
 *   CHAR) so that a column holds one type whatever the parts put in it; integers and booleans
 *   are turned back into numbers and datetimes into Dates, decimals and dates are text in a
 *   text query already. MariaDB streams the union with no temporary table. The JSON shape
 *   below made one per aggregate there (37 for an invoice's read): the union of a 20-line
 *   mixed-rate invoice took 0.43 ms of the server's CPU where that JSON took 0.73.
 * - SQLite: the record's row, each child table folded into JSON by a correlated subquery,
 *   column by column: `{"count": n, "columns": {"id": [..], "email": [..]}}`. The arrays line up
 *   (one aggregation pass hands each row to every aggregate in turn; json_group_array keeps
 *   nulls), and their lengths are checked against the count. better-sqlite3 builds a JS row
 *   object per row of a result: the union of that invoice read in 270 µs, the JSON in 70.
 *
 * Columns come from the entities' metadata, so the SQL and the decoding can never disagree with
 * the entity. Values are hydrated by TypeORM's own driver (prepareHydratedValue, transformers
 * included), handed what the driver would have read with a text query.
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

/** A record and its child tables, read by the record's id: `readFamily()`. */
export interface Family {
  record: {
    target: EntityTarget<ObjectLiteral>;
    alias: string;
    /** SQL the caller writes, never input, binding the id once (`document.id = ?`). */
    where: string;
    /** Further values read with the record (SQL, its alias in scope): `FamilyRows.extras`. */
    extras: string[];
  };
  /** Each child table, and its column naming the record (`invoice_id`). */
  children: Array<{ target: EntityTarget<ObjectLiteral>; parentColumn: string }>;
  /** Holds the record's row locked until the transaction ends (see `forUpdate()`). */
  forUpdate: boolean;
}

/** A family as read: the record, its extras, and each child table's rows in no particular order. */
export interface FamilyRows {
  record: ObjectLiteral;
  extras: unknown[];
  children: ObjectLiteral[][];
}

type FamilyBuilder = (rows: RecordRows) => Family;

/** A child table's JSON column in a family read on SQLite (see the top). */
interface ChildColumnsJson {
  count: number;
  columns: Record<string, unknown[] | null>;
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
  private readonly families = new Map<
    FamilyBuilder,
    { family: Family; statement: StatementBuilder }
  >();

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
   * family, the record's. Its children are read without locks, as committed when the read
   * gets to them, which is after the lock was granted. '' on SQLite, whose writes queue in the
   * process.
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
   * The family `build` names, read by the record's id in one statement (see the top); null when
   * no record matches. Its statement is built once.
   */
  async readFamily(
    manager: EntityManager,
    build: FamilyBuilder,
    id: number,
  ): Promise<FamilyRows | null> {
    let built = this.families.get(build);
    if (!built) {
      const family = build(this);
      const sql = this.dialect === 'sqlite' ? this.jsonFamily(family) : this.unionFamily(family);
      built = { family, statement: () => sql };
      this.families.set(build, built);
    }
    const { family, statement } = built;
    if (this.dialect === 'sqlite') {
      const [row] = await this.read(manager, statement, [id]);
      if (!row) return null;
      return {
        record: this.entity(family.record.target, row),
        extras: family.record.extras.map((_, index) => row[`extra_${index}`]),
        children: family.children.map(({ target }, index) =>
          this.childEntities(target, row[`child_${index}`]),
        ),
      };
    }
    const parts = 1 + family.children.length;
    const rows = await this.read(manager, statement, new Array<number>(parts).fill(id));
    const byPart = Array.from({ length: parts }, () => [] as typeof rows);
    for (const row of rows) byPart[Number(row.part)].push(row);
    const [recordRow] = byPart[0];
    if (!recordRow) return null;
    const recordColumns = selected(this.metadata(family.record.target)).length;
    return {
      record: this.unionEntity(family.record.target, recordRow),
      extras: family.record.extras.map((_, index) => recordRow[`c${recordColumns + index}`]),
      children: family.children.map(({ target }, index) =>
        byPart[1 + index].map((row) => this.unionEntity(target, row)),
      ),
    };
  }

  /** A family as a UNION ALL (MySQL/MariaDB; see the top). */
  private unionFamily({ record, children, forUpdate }: Family): string {
    const textOf = (target: EntityTarget<ObjectLiteral>, alias: string) =>
      readable(this.metadata(target)).map(
        (column) => `CAST(${alias}.${this.escape(column.databaseName)} AS CHAR)`,
      );
    const parts = [
      {
        target: record.target,
        alias: record.alias,
        where: record.where,
        cells: [...textOf(record.target, record.alias), ...record.extras],
      },
      ...children.map(({ target, parentColumn }, index) => {
        const alias = `child_${index}`;
        return {
          target,
          alias,
          where: `${alias}.${this.escape(parentColumn)} = ?`,
          cells: textOf(target, alias),
        };
      }),
    ];
    const width = Math.max(...parts.map(({ cells }) => cells.length));
    return parts
      .map(({ target, alias, where, cells }, index) => {
        const padded = Array.from({ length: width }, (_, at) => {
          const cell = cells[at] ?? 'NULL';
          return index === 0 ? `${cell} AS c${at}` : cell;
        });
        const lock = index === 0 && forUpdate ? this.forUpdate() : '';
        // In parentheses, a part may lock (MariaDB refuses FOR UPDATE before UNION otherwise).
        return `(SELECT ${index} AS part, ${padded.join(', ')} FROM ${this.table(target)} ${alias} WHERE ${where}${lock})`;
      })
      .join('\nUNION ALL ');
  }

  /** A family as a row with a JSON column per child table (SQLite; see the top). */
  private jsonFamily({ record, children }: Family): string {
    const recordMetadata = this.metadata(record.target);
    const id = `${record.alias}.${this.escape(recordMetadata.primaryColumns[0].databaseName)}`;
    const values = [
      this.columns(record.target, record.alias),
      ...record.extras.map((extra, index) => `${extra} AS extra_${index}`),
      ...children.map(({ target, parentColumn }, index) => {
        const alias = `child_${index}`;
        const arrays = readable(this.metadata(target))
          .map((column) => {
            const value = `${alias}.${this.escape(column.databaseName)}`;
            return `'${column.databaseName}', json_group_array(${value})`;
          })
          .join(', ');
        return `(SELECT json_object('count', COUNT(*), 'columns', json_object(${arrays})) FROM ${this.table(target)} ${alias} WHERE ${alias}.${this.escape(parentColumn)} = ${id}) AS child_${index}`;
      }),
    ];
    return `SELECT ${values.join(',\n      ')}\n    FROM ${this.table(record.target)} ${record.alias}\n    WHERE ${record.where}`;
  }

  /** The entity a row of a union part holds, hydrated as TypeORM's find would. */
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

  /**
   * The entities a JSON child column holds (SQLite), in the order the database gave. Throws
   * when an array holds fewer values than were counted: an aggregate cut short must fail, not
   * answer a shorter list.
   */
  childEntities<T extends ObjectLiteral>(target: EntityTarget<T>, value: unknown): T[] {
    const metadata = this.metadata(target);
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
      return values;
    });
    const plan = hydration(metadata);
    const entities: T[] = [];
    for (let index = 0; index < count; index++) {
      const entity = metadata.create(undefined, { fromDeserializer: true }) as ObjectLiteral;
      for (let at = 0; at < plan.length; at++) this.assign(entity, plan[at], columns[at][index]);
      entities.push(entity as T);
    }
    return entities;
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

  /** A MySQL integer or boolean a union read as text, as a text query reads it: a number. */
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

/** The selected columns of a family's table, each of a type it reads (READ_TYPES). */
function readable(metadata: EntityMetadata): ColumnMetadata[] {
  const columns = selected(metadata);
  for (const column of columns) {
    if (!READ_TYPES.has(columnType(column))) {
      throw new Error(`record-rows reads no ${columnType(column)} (${column.databaseName})`);
    }
  }
  return columns;
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
  /** The key of each column's value in a union's row: c0, c1, … */
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
