import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsRepository } from './clients.repository';
import { ClientsService } from './clients.service';
import { Client } from './entities/client.entity';

/** Clients and their rules; invoices and estimates ask it for the client of a document. */
@Module({
  imports: [TypeOrmModule.forFeature([Client])],
  providers: [ClientsRepository, ClientsService],
  exports: [ClientsService],
})
export class ClientsModule {}
