import { Module } from '@nestjs/common';
import { EstimatesModule } from '../estimates/estimates.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { ClientOverviewService } from './client-overview.service';
import { ClientsController } from './clients.controller';
import { ClientsModule } from '../clients/clients.module';

/**
 * The `/client` routes. Above clients, invoices and estimates, because reading a client
 * answers its invoices and estimates, while those features need clients (ClientsModule) for
 * the client of a document: so every arrow runs one way.
 */
@Module({
  imports: [ClientsModule, InvoicesModule, EstimatesModule],
  controllers: [ClientsController],
  providers: [ClientOverviewService],
})
export class ClientsApiModule {}
