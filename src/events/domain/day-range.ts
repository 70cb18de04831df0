import { Between, FindOperator, LessThan, MoreThanOrEqual } from 'typeorm';

/** `from`/`to` dates (inclusive, UTC) as a range of instants on a datetime column. */
export function dayRange(from?: string, to?: string): FindOperator<Date> | undefined {
  const start = from === undefined ? undefined : new Date(`${from}T00:00:00.000Z`);
  const end = to === undefined ? undefined : new Date(`${to}T23:59:59.000Z`);
  if (start && end) return Between(start, end);
  if (start) return MoreThanOrEqual(start);
  if (end) return LessThan(new Date(end.getTime() + 1000));
  return undefined;
}
