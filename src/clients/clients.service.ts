import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { contains, requestedPage } from '../common/list-query.dto';
import { LIVE } from '../database/columns';
import { Database } from '../database/database';
import { findList } from '../database/find-list';
import { EstimatesService } from '../estimates/estimates.service';
import { InvoicesService } from '../invoices/invoices.service';
import { toDetail, toListItem } from './clients.mapper';
import { ClientWriteResponseDto } from './dto/client-response.dto';
import { CreateClientDto } from './dto/create-client.dto';
import { ListClientsDto } from './dto/list-clients.dto';
import { UpdateClientDto } from './dto/update-client.dto';
import { Client } from './entities/client.entity';

@Injectable()
export class ClientsService {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly invoices: InvoicesService,
    private readonly estimates: EstimatesService,
  ) {}

  list(query: ListClientsDto) {
    const where =
      query.q === undefined || query.q === ''
        ? LIVE
        : [
            { names: contains(query.q), ...LIVE },
            { email: contains(query.q), ...LIVE },
          ];
    return this.database.read(async (manager) => {
      const { rows, meta } = await findList(manager, Client, where, requestedPage(query));
      return { data: rows.map(toListItem), ...(meta && { meta }) };
    });
  }

  /** The client with its live invoices and estimates: three queries. */
  get(id: number) {
    return this.database.read(async (manager) => {
      const client = await findLiveClient(manager, id);
      const invoices = await this.invoices.listForClient(manager, client.id);
      const estimates = await this.estimates.listForClient(manager, client.id);
      return { data: [toDetail(client)], invoices, estimates };
    });
  }

  create(input: CreateClientDto): Promise<ClientWriteResponseDto> {
    return this.database.transaction(async (manager) => {
      const now = this.clock.now();
      const client = manager.create(Client, {
        names: input.names,
        email: input.email ?? '',
        phone: input.phone ?? '',
        address: input.address ?? '',
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await manager.insert(Client, client);
      return { data: [toDetail(client)] };
    });
  }

  update(id: number, input: UpdateClientDto): Promise<ClientWriteResponseDto> {
    return this.database.transaction(async (manager) => {
      const client = await findLiveClient(manager, id, this.database.lockForUpdate);
      const changes = {
        names: input.names,
        email: input.email ?? client.email,
        phone: input.phone ?? client.phone,
        address: input.address ?? client.address,
        updatedAt: this.clock.now(),
      };
      await manager.update(Client, id, changes);
      return { data: [toDetail(Object.assign(client, changes))] };
    });
  }

  archive(id: number): Promise<{ id: string }> {
    return this.database.transaction(async (manager) => {
      const client = await findLiveClient(manager, id, this.database.lockForUpdate);
      await manager.update(Client, client.id, { deletedAt: this.clock.now() });
      return { id: String(client.id) };
    });
  }
}

/** A live (not archived) client, or 404. */
export async function findLiveClient(
  manager: EntityManager,
  id: number,
  lock?: { mode: 'pessimistic_write' },
): Promise<Client> {
  const client = await manager.findOne(Client, { where: { id, ...LIVE }, lock });
  if (!client) throw DomainException.notFound('Client', String(id));
  return client;
}
