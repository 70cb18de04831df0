import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Between, FindOperator, LessThanOrEqual, MoreThanOrEqual, Raw } from 'typeorm';

export const MAX_PER_PAGE = 500;
export const DEFAULT_PER_PAGE = 50;
/** Far past any real list; keeps the row offset a safe integer. */
export const MAX_PAGE = 999_999_999;

/** Whole numbers as digits only: "2" and 2, not "2.0", "0x2" or "". */
function toWholeNumber({ value }: { value: unknown }): unknown {
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return parseInt(value, 10);
  return value;
}

/**
 * CONTRACT.md, extensions: a list without parameters answers every live record; `page` or
 * `per_page` select one page and add `meta`.
 */
export class ListQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE,
    description: 'Answer this page only (default 1 when per_page is given); adds meta',
  })
  @IsOptional()
  @Transform(toWholeNumber)
  @Min(1)
  @Max(MAX_PAGE)
  @IsInt({ message: `page must be a whole number from 1 to ${MAX_PAGE}` })
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PER_PAGE,
    description: `Records per page (default ${DEFAULT_PER_PAGE} when page is given); adds meta`,
  })
  @IsOptional()
  @Transform(toWholeNumber)
  @Min(1)
  @Max(MAX_PER_PAGE)
  @IsInt({ message: `per_page must be a whole number from 1 to ${MAX_PER_PAGE}` })
  per_page?: number;
}

export interface Page {
  page: number;
  per_page: number;
}

/** The page asked for, or null when the caller wants the whole list. */
export function requestedPage(query: ListQueryDto): Page | null {
  if (query.page === undefined && query.per_page === undefined) return null;
  return { page: query.page ?? 1, per_page: query.per_page ?? DEFAULT_PER_PAGE };
}

/** A date range filter (`from`, `to`, both inclusive) on a date column. */
export function dateRange(from?: string, to?: string): FindOperator<string> | undefined {
  if (from !== undefined && to !== undefined) return Between(from, to);
  if (from !== undefined) return MoreThanOrEqual(from);
  if (to !== undefined) return LessThanOrEqual(to);
  return undefined;
}

/** Case-insensitive "contains", with %, _ and the escape character taken literally. */
export function contains(text: string): FindOperator<string> {
  const pattern = `%${text.replace(/[!%_]/g, '!$&')}%`;
  const operator = Raw<string>((column) => `LOWER(${column}) LIKE LOWER(:pattern) ESCAPE '!'`, {
    pattern,
  });
  return operator as FindOperator<string>;
}
