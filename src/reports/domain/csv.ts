import { stringify } from 'csv-stringify/sync';

/**
 * A column of a report's CSV. `text` is what a stranger may have typed (a client's name, a
 * number): a spreadsheet must show it, never run it. Everything else (amounts, counts, dates,
 * codes) is written as it is.
 */
export interface CsvColumn {
  name: string;
  text?: boolean;
}

/** Characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet could run, with a leading `'` so it shows as text. */
export function inertText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180: a header row, then one row per line, CRLF line ends, a field quoted when it holds
 * a comma, a quote or a line break (quotes doubled). Text cells made inert.
 */
export function toCsv(columns: CsvColumn[], rows: string[][]): string {
  const guarded = rows.map((row) =>
    row.map((cell, index) => (columns[index].text ? inertText(cell) : cell)),
  );
  return stringify([columns.map((column) => column.name), ...guarded], {
    record_delimiter: 'windows',
  });
}
