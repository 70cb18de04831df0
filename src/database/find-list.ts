import { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere } from 'typeorm';
import { Page } from '../common/list-query.dto';
import { ArchivableRecord } from './archivable-record';

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
}

/**
 * A list in id order (oldest first): every matching row in one query, or one page of them
 * with the total count (two queries).
 */
export async function findList<T extends ArchivableRecord>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T> | FindOptionsWhere<T>[],
  page: Page | null,
): Promise<{ rows: T[]; meta?: PageMeta }> {
  const order = { id: 'ASC' } as FindOptionsOrder<T>;
  if (page === null) return { rows: await manager.find(entity, { where, order }) };
  const [rows, total] = await manager.findAndCount(entity, {
    where,
    order,
    skip: (page.page - 1) * page.per_page,
    take: page.per_page,
  });
  return { rows, meta: { ...page, total } };
}
