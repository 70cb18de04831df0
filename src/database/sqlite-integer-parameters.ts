import type { Driver } from 'typeorm';

type Escape = Driver['escapeQueryWithParameters'];

/**
 * TypeORM's SQLite drivers write a number parameter into the statement's text (`WHERE id = 42`),
 * because better-sqlite3 binds a JavaScript number as a REAL (42.0, which a TEXT column would
 * keep as '42.0'). So each id makes a statement text of its own: TypeORM's statement cache never
 * hits, every read by id is prepared again, and the discarded statements hold their native
 * memory until V8 happens to collect them (docs/measured.md, the recurring scan: RSS grew by
 * 870 MiB over 10,000 invoices). Here a whole number is bound instead, as a BigInt, which
 * better-sqlite3 binds as an INTEGER: one text per statement shape, prepared once. Fractions
 * are written into the text as before (decimals never get here: they are strings).
 */
export function bindWholeNumbers(driver: Driver): void {
  const escape: Escape = driver.escapeQueryWithParameters.bind(driver);
  driver.escapeQueryWithParameters = (sql, parameters, nativeParameters) => {
    const bound = Object.fromEntries(
      Object.entries(parameters ?? {}).map(([name, value]) => [name, asBound(value)]),
    );
    return escape(sql, bound, nativeParameters);
  };
}

function asBound(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (Array.isArray(value)) return value.map(asBound);
  return value;
}
