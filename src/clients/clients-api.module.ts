import { Module } from '@nestjs/common';
import { EstimatesModule } from '../estimates/estimates.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { ClientOverviewService } from './client-overview.service';
import { ClientsController } from './clients.controller';
import { ClientsModule } from './clients.module';

/**
 * The `/client` routes. Apart from ClientsModule because reading a client shows its invoices
 * and estimates, while those features need clients: one module each way would be a cycle.
 */
@Module({
  imports: [ClientsModule, InvoicesModule, EstimatesModule],
  controllers: [ClientsController],
  providers: [ClientOverviewService],
})
export class ClientsApiModule {}
