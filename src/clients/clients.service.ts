import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { Database } from '../database/database';
import { EventLog } from '../events/event-log';
import { listResponse } from '../database/find-list';
import { ClientsRepository } from './clients.repository';
import { toDetail, toListItem } from './clients.mapper';
import { ClientDto, ClientWriteResponseDto } from './dto/client-response.dto';
import { CreateClientDto } from './dto/create-client.dto';
import { ListClientsDto } from './dto/list-clients.dto';
import { UpdateClientDto } from './dto/update-client.dto';

/** What a document copies from its client. */
export interface DocumentClient {
  id: number;
  names: string;
  phone: string;
  address: string;
  taxId: string;
  country: string;
  /** Where reminders go; '' when none was given. */
  email: string;
  /** The language its documents print in ('' for the DOCUMENT_LOCALE setting). */
  language: string;
  /** What its new invoices take as their buyer reference when given none ('' for none). */
  buyerReference: string;
}

/** Ids per statement when names are read for a report. */
const NAMES_PER_READ = 1000;

@Injectable()
export class ClientsService {
  constructor(
    private readonly database: Database,
    private readonly clients: ClientsRepository,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {
    events.registerReader('client', async (id) => ({ data: [await this.get(id)] }));
  }

  async list(query: ListClientsDto) {
    return listResponse(await this.clients.list(query.q, query), toListItem);
  }

  /** One live client, or 404. */
  /** Each client's current name by id, archived clients included (for reports). */
  async namesOf(ids: number[]): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    for (let start = 0; start < ids.length; start += NAMES_PER_READ) {
      const rows = await this.database.read(() =>
        this.clients.namesOf(ids.slice(start, start + NAMES_PER_READ)),
      );
      for (const row of rows) names.set(row.id, row.names);
    }
    return names;
  }

  get(id: number): Promise<ClientDto> {
    return this.database.read(async () => toDetail(await this.liveClient(id)));
  }

  /**
   * The client a document is being written for, held with a shared row lock until the
   * caller's transaction ends, so it cannot be archived under the new document. A document
   * that keeps the client it has may keep an archived one (`allowArchived`). Null when there
   * is no such client. Only inside a transaction.
   */
  async holdForDocument(
    id: number,
    options: { allowArchived: boolean },
  ): Promise<DocumentClient | null> {
    const client = await this.clients.findOne(id, {
      lock: 'share',
      includeArchived: options.allowArchived,
    });
    if (!client) return null;
    return {
      id: client.id,
      names: client.names,
      phone: client.phone,
      address: client.address,
      taxId: client.taxId,
      country: client.country,
      email: client.email,
      language: client.language,
      buyerReference: client.buyerReference,
    };
  }

  /**
   * Where a document's client receives e-invoices (`einvoice_address`, '' for none) and the
   * format it asks for ('' for none); archived clients too, as their documents stay readable.
   * Null when there is no such client.
   */
  async einvoiceRecipient(id: number): Promise<{ address: string; format: string } | null> {
    const client = await this.database.read(() =>
      this.clients.findOne(id, { includeArchived: true }),
    );
    return client && { address: client.einvoiceAddress, format: client.einvoiceFormat };
  }

  create(input: CreateClientDto): Promise<ClientWriteResponseDto> {
    return this.database.transaction(async () => {
      const now = this.clock.now();
      const client = this.clients.create({
        names: input.names,
        email: input.email ?? '',
        phone: input.phone ?? '',
        address: input.address ?? '',
        taxId: input.tax_id ?? '',
        country: input.country ?? '',
        language: input.language ?? '',
        einvoiceAddress: input.einvoice_address ?? '',
        einvoiceFormat: input.einvoice_format ?? '',
        buyerReference: input.buyer_reference ?? '',
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await this.clients.insert(client);
      const answer = { data: [toDetail(client)] };
      await this.events.record({
        type: 'client.created',
        object: 'client',
        id: client.id,
        before: null,
        after: answer,
      });
      return answer;
    });
  }

  update(id: number, input: UpdateClientDto): Promise<ClientWriteResponseDto> {
    return this.database.transaction(async () => {
      const client = await this.liveClient(id, true);
      const before = { data: [toDetail(client)] };
      const changes = {
        names: input.names,
        email: input.email ?? client.email,
        phone: input.phone ?? client.phone,
        address: input.address ?? client.address,
        taxId: input.tax_id ?? client.taxId,
        country: input.country ?? client.country,
        language: input.language ?? client.language,
        einvoiceAddress: input.einvoice_address ?? client.einvoiceAddress,
        einvoiceFormat: input.einvoice_format ?? client.einvoiceFormat,
        buyerReference: input.buyer_reference ?? client.buyerReference,
        updatedAt: this.clock.now(),
      };
      await this.clients.update(id, changes);
      const answer = { data: [toDetail(Object.assign(client, changes))] };
      await this.events.record({
        type: 'client.updated',
        object: 'client',
        id,
        before,
        after: answer,
      });
      return answer;
    });
  }

  /** DELETE: the row stays, marked archived; its documents stay with it. */
  archive(id: number): Promise<{ id: string }> {
    return this.database.transaction(async () => {
      const client = await this.liveClient(id, true);
      await this.clients.update(client.id, { deletedAt: this.clock.now() });
      const before = { data: [toDetail(client)] };
      await this.events.record({
        type: 'client.deleted',
        object: 'client',
        id,
        before,
        after: before,
      });
      return { id: String(client.id) };
    });
  }

  /** A live client, or 404; `forUpdate` holds its row until the transaction ends. */
  private async liveClient(id: number, forUpdate = false) {
    const client = await this.clients.findOne(id, { lock: forUpdate ? 'update' : undefined });
    if (!client) throw DomainException.notFound('Client', String(id));
    return client;
  }
}
