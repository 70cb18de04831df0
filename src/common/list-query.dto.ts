import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { DomainException } from './domain.exception';
import { IsIdInput, IsWholeNumberInput, MAX_ID, parseId } from './input-rules';
import { Between, FindOperator, LessThanOrEqual, MoreThanOrEqual, Raw } from 'typeorm';

export const MAX_PER_PAGE = 500;
export const DEFAULT_PER_PAGE = 50;
/** Far past any real list; keeps the row offset a safe integer. */
export const MAX_PAGE = 999_999_999;

/**
 * Beyond the specification (docs/rules.md): a list without parameters answers every live
 * record; `page` or `per_page` select one page and add `meta`.
 */
export class ListQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE,
    description: 'Answer this page only (default 1 when per_page is given); adds meta',
  })
  @IsOptional()
  @IsWholeNumberInput(1, MAX_PAGE)
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PER_PAGE,
    description: `Records per page (default ${DEFAULT_PER_PAGE} when page is given); adds meta`,
  })
  @IsOptional()
  @IsWholeNumberInput(1, MAX_PER_PAGE)
  per_page?: number;

  @ApiPropertyOptional({
    type: 'string',
    pattern: '^[0-9]+$',
    example: '1050',
    description:
      'Keyset paging: the records after this id (the `next_after` of the previous page; 0 for the first); adds meta. Not with page',
  })
  @IsOptional()
  @IsIdInput('after must be an id: digits only')
  after?: string;
}

export interface Page {
  page: number;
  per_page: number;
}

/**
 * What a list request asks for: every record (streamed), one numbered page (with the total),
 * or the records after an id (keyset paging: as fast on the last page as on the first).
 */
export type ListRequest =
  { kind: 'all' } | ({ kind: 'page' } & Page) | { kind: 'after'; after: number; per_page: number };

/** The list request a query makes; `after` with `page` is refused (422). */
export function listRequest(query: ListQueryDto): ListRequest {
  if (query.after !== undefined) {
    if (query.page !== undefined) {
      throw DomainException.invalidField('after', 'after cannot be used together with page');
    }
    return {
      kind: 'after',
      after: cursorId(query.after),
      per_page: query.per_page ?? DEFAULT_PER_PAGE,
    };
  }
  if (query.page === undefined && query.per_page === undefined) return { kind: 'all' };
  return { kind: 'page', page: query.page ?? 1, per_page: query.per_page ?? DEFAULT_PER_PAGE };
}

/** `after` is an id under the id rule; 0 (or zeros) starts from the beginning. */
function cursorId(text: string): number {
  if (/^0+$/.test(text)) return 0;
  return parseId(text) ?? MAX_ID;
}

/**
 * An id filter (`client`, `invoice`, `object_id`) as a column value; digits that name no record
 * match nothing (no id is 0).
 */
export function idFilter(id: string | undefined): number | undefined {
  return id === undefined ? undefined : (parseId(id) ?? 0);
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
