import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ClientsService } from './clients.service';
import { CreateClientDto } from './dto/create-client.dto';
import { ListClientsDto } from './dto/list-clients.dto';
import { UpdateClientDto } from './dto/update-client.dto';

@Controller('client')
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Get('all')
  list(@RequestInput() query: ListClientsDto) {
    return this.clients.list(query);
  }

  @Post('add')
  create(@RequestInput() input: CreateClientDto) {
    return this.clients.create(input);
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: number) {
    return this.clients.get(id);
  }

  @Put(':id')
  update(@Param('id', ParseIdPipe) id: number, @RequestInput() input: UpdateClientDto) {
    return this.clients.update(id, input);
  }

  @Delete(':id')
  archive(@Param('id', ParseIdPipe) id: number) {
    return this.clients.archive(id);
  }
}
