import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/*
 * Child rows (a document's lines, its VAT breakdown) written as one multi-row INSERT whose text
 * comes from the entity's metadata, with each value prepared as TypeORM's insert prepares it
 * (the driver's persistent form, after the column's transformer). TypeORM's insert builder does
 * the same with a named parameter per value, checked against every one named before, and
 * rewrites the statement's text for each insert: for 20 lines of 10 columns that was most of
 * the JavaScript an add spends on its rows. The rows' generated ids are not read back (nothing
 * reads them from the written objects; reads go to the database).
 */

const statements = new WeakMap<EntityMetadata, Map<number, string>>();

/** Inserts `rows` (entities of `target`) in one statement; nothing for no rows. */
export async function insertRows(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  rows: ObjectLiteral[],
): Promise<void> {
  if (rows.length === 0) return;
  const metadata = manager.connection.getMetadata(target);
  const columns = written(metadata);
  const driver = manager.connection.driver;
  const parameters: unknown[] = [];
  for (const row of rows) {
    for (const column of columns) {
      // The driver applies the column's transformer.
      const value: unknown = column.getEntityValue(row);
      if (value === undefined) {
        throw new Error(`${metadata.tableName}.${column.databaseName}: no value to insert`);
      }
      parameters.push(driver.preparePersistentValue(value, column));
    }
  }
  await manager.query(statement(manager, metadata, columns, rows.length), parameters);
}

/** The columns an insert gives: all but a generated id and computed columns. */
function written(metadata: EntityMetadata): ColumnMetadata[] {
  return metadata.columns.filter(
    (column) =>
      column.isInsert && !column.isVirtual && !column.generatedType && !column.isGenerated,
  );
}

function statement(
  manager: EntityManager,
  metadata: EntityMetadata,
  columns: ColumnMetadata[],
  count: number,
): string {
  let byCount = statements.get(metadata);
  if (!byCount) {
    byCount = new Map();
    statements.set(metadata, byCount);
  }
  let sql = byCount.get(count);
  if (sql === undefined) {
    const driver = manager.connection.driver;
    const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
    const row = `(${columns.map(() => '?').join(', ')})`;
    sql = `INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES ${Array(count).fill(row).join(', ')}`;
    byCount.set(count, sql);
  }
  return sql;
}
