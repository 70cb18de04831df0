import { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere } from 'typeorm';
import { ListQueryDto, requestedPage } from '../common/list-query.dto';
import { ArchivableRecord } from './archivable-record';

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
}

/** Rows of a list and, for a page, where it sits. */
export interface ListResult<T> {
  rows: T[];
  meta?: PageMeta;
}

/** A list as the API answers it: `data`, and `meta` for a page. */
export interface ListResponse<O> {
  data: O[];
  meta?: PageMeta;
}

/**
 * A list in id order (oldest first): every matching row in one query, or the page the query
 * asks for with the total count (two queries).
 */
export async function findList<T extends ArchivableRecord>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T> | FindOptionsWhere<T>[],
  query: ListQueryDto,
): Promise<ListResult<T>> {
  const order = { id: 'ASC' } as FindOptionsOrder<T>;
  const page = requestedPage(query);
  if (page === null) return { rows: await manager.find(entity, { where, order }) };
  const [rows, total] = await manager.findAndCount(entity, {
    where,
    order,
    skip: (page.page - 1) * page.per_page,
    take: page.per_page,
  });
  return { rows, meta: { ...page, total } };
}

/** Maps each row to its output shape: the one place a list result becomes a response. */
export function listResponse<T, O>(result: ListResult<T>, map: (row: T) => O): ListResponse<O> {
  return { data: result.rows.map(map), ...(result.meta && { meta: result.meta }) };
}
