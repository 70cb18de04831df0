import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/*
 * Rows (a document's, its lines and its VAT breakdown) written as one INSERT whose text
 * comes from the entity's metadata, with each value prepared as TypeORM's insert prepares it
 * (the driver's persistent form, after the column's transformer). TypeORM's insert builder does
 * the same with a named parameter per value, checked against every one named before, and
 * rewrites the statement's text for each insert: for 20 lines of 10 columns that was most of
 * the JavaScript an add spends on its rows. Child rows' generated ids are not read back (nothing
 * reads them from the written objects; reads go to the database); a single row's is.
 */

/** How an entity's rows are inserted: the columns given, the statement up to VALUES, a row. */
interface InsertShape {
  columns: ColumnMetadata[];
  head: string;
  row: string;
}

const shapes = new WeakMap<EntityMetadata, InsertShape>();

/** Inserts `rows` (entities of `target`) in one statement; nothing for no rows. */
export async function insertRows(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  rows: ObjectLiteral[],
): Promise<void> {
  if (rows.length === 0) return;
  const metadata = manager.connection.getMetadata(target);
  const shape = shapeOf(manager, metadata);
  await manager.query(
    statement(shape, rows.length),
    rows.flatMap((row) => values(manager, metadata, shape.columns, row)),
  );
}

/**
 * Inserts one entity of `target` and sets its generated id on it (a document's row: TypeORM's
 * insert builder took longer over its 30 columns than the database did).
 */
export async function insertRow(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  row: ObjectLiteral,
): Promise<void> {
  const metadata = manager.connection.getMetadata(target);
  const shape = shapeOf(manager, metadata);
  const [primary, ...others] = metadata.primaryColumns;
  if (!primary?.isGenerated || others.length > 0) {
    throw new Error(`${metadata.tableName}: insertRow needs one generated primary key`);
  }
  const result: unknown = await manager.query(
    statement(shape, 1),
    values(manager, metadata, shape.columns, row),
  );
  // SQLite's driver answers better-sqlite3's lastInsertRowid, mysql2 its result header.
  const id =
    typeof result === 'number' || typeof result === 'bigint'
      ? Number(result)
      : Number((result as { insertId?: unknown } | null)?.insertId);
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new Error(`${metadata.tableName}: no id after the insert`);
  }
  primary.setEntityValue(row, id);
}

/** A row's values in the order of `columns`, as the driver stores them. */
function values(
  manager: EntityManager,
  metadata: EntityMetadata,
  columns: ColumnMetadata[],
  row: ObjectLiteral,
): unknown[] {
  const driver = manager.connection.driver;
  return columns.map((column): unknown => {
    // The driver applies the column's transformer.
    const value: unknown = column.getEntityValue(row);
    if (value === undefined) {
      throw new Error(`${metadata.tableName}.${column.databaseName}: no value to insert`);
    }
    return driver.preparePersistentValue(value, column);
  });
}

/** The entity's insert shape, built once: all columns but a generated id and computed ones. */
function shapeOf(manager: EntityManager, metadata: EntityMetadata): InsertShape {
  let shape = shapes.get(metadata);
  if (!shape) {
    const driver = manager.connection.driver;
    const columns = metadata.columns.filter(
      (column) =>
        column.isInsert && !column.isVirtual && !column.generatedType && !column.isGenerated,
    );
    const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
    shape = {
      columns,
      head: `INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES `,
      row: `(${columns.map(() => '?').join(', ')})`,
    };
    shapes.set(metadata, shape);
  }
  return shape;
}

/** The statement inserting `count` rows. */
function statement(shape: InsertShape, count: number): string {
  return shape.head + Array<string>(count).fill(shape.row).join(', ');
}
