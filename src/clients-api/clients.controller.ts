import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { DeletedResponseDto } from '../openapi/dto/deleted-response.dto';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ListAnswer } from '../database/find-list';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { ClientOverviewService } from './client-overview.service';
import { ClientsService } from '../clients/clients.service';
import { ClientListResponseDto, ClientWriteResponseDto } from '../clients/dto/client-response.dto';
import { ClientReadResponseDto } from './dto/client-read-response.dto';
import { CreateClientDto } from '../clients/dto/create-client.dto';
import { ListClientsDto } from '../clients/dto/list-clients.dto';
import { UpdateClientDto } from '../clients/dto/update-client.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

const NOT_FOUND = 'No live client with this id';

@ApiResource('clients')
@Controller('client')
export class ClientsController {
  constructor(
    private readonly clients: ClientsService,
    private readonly overview: ClientOverviewService,
  ) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List clients',
    description: 'Live clients, oldest first; without updated_at.',
    query: ListClientsDto,
    success: ClientListResponseDto,
    errors: { 422: 'A malformed filter or page' },
  })
  list(@RequestInput() query: ListClientsDto): Promise<ListAnswer<ClientListResponseDto>> {
    return this.clients.list(query);
  }

  @Post('add')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Add a client',
    description:
      'A live client: names trimmed, e-mail checked; phone, address, tax_id, country and language optional.',
    body: CreateClientDto,
    success: ClientWriteResponseDto,
    errors: { 422: 'A missing or malformed parameter' },
  })
  create(@RequestInput() input: CreateClientDto): Promise<ClientWriteResponseDto> {
    return this.clients.create(input);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read a client',
    description: 'The client with its live invoices and estimates, each with timestamps.',
    pathId: 'Id of the client',
    success: ClientReadResponseDto,
    errors: { 404: NOT_FOUND },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<ClientReadResponseDto> {
    return this.overview.get(id);
  }

  @Put(':id')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Update a client',
    description:
      'Takes the parameters of add; an optional one left out keeps its value ("" clears it).',
    pathId: 'Id of the client',
    body: UpdateClientDto,
    success: ClientWriteResponseDto,
    errors: { 404: NOT_FOUND, 422: 'A missing or malformed parameter' },
  })
  update(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() input: UpdateClientDto,
  ): Promise<ClientWriteResponseDto> {
    return this.clients.update(id, input);
  }

  @Delete(':id')
  @ApiEndpoint({
    summary: 'Delete (archive) a client',
    description:
      'The client leaves every list and answers 404 from then on; its invoices and estimates stay.',
    pathId: 'Id of the client',
    success: DeletedResponseDto,
    errors: { 404: NOT_FOUND },
  })
  archive(@Param('id', ParseIdPipe) id: number): Promise<DeletedResponseDto> {
    return this.clients.archive(id);
  }
}
