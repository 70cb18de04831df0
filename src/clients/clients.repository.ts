import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, In } from 'typeorm';
import { contains, ListQueryDto } from '../common/list-query.dto';
import { LIVE } from '../database/columns';
import { Database } from '../database/database';
import { findList, ListResult } from '../database/find-list';
import { Client } from './entities/client.entity';

/** How a read holds the row until the transaction ends; the service decides. */
export type RowLock = 'update' | 'share';

/** The clients table. Every method runs in the caller's transaction when there is one. */
@Injectable()
export class ClientsRepository {
  constructor(private readonly database: Database) {}

  /** A live client, or null; an archived one too when `includeArchived`. */
  findOne(
    id: number,
    options: { lock?: RowLock; includeArchived?: boolean } = {},
  ): Promise<Client | null> {
    const where = options.includeArchived ? { id } : { id, ...LIVE };
    return this.database.manager.findOne(Client, { where, lock: this.lockMode(options.lock) });
  }

  /** Live clients, all or a page; `search` matches names or e-mail, any case. */
  list(search: string | undefined, query: ListQueryDto): Promise<ListResult<Client>> {
    const where: FindOptionsWhere<Client> | FindOptionsWhere<Client>[] =
      search === undefined || search === ''
        ? LIVE
        : [
            { names: contains(search), ...LIVE },
            { email: contains(search), ...LIVE },
          ];
    return findList(this.database, Client, where, query);
  }

  /** Inserts the row; its id is set on it. */
  /** The names of these clients, archived ones included. */
  namesOf(ids: number[]): Promise<Array<Pick<Client, 'id' | 'names'>>> {
    return this.database.manager.find(Client, {
      select: { id: true, names: true },
      where: { id: In(ids) },
    });
  }

  async insert(client: Client): Promise<void> {
    await this.database.manager.insert(Client, client);
  }

  async update(id: number, changes: Partial<Omit<Client, 'id'>>): Promise<void> {
    await this.database.manager.update(Client, id, changes);
  }

  create(fields: Omit<Client, 'id'>): Client {
    return this.database.manager.create(Client, fields);
  }

  private lockMode(lock: RowLock | undefined) {
    if (lock === 'update') return this.database.lockForUpdate;
    if (lock === 'share') return this.database.lockForShare;
    return undefined;
  }
}
