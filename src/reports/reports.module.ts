import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/** The receivables reports: aging, profit and loss, tax summary, client statements. */
@Module({
  imports: [ClientsModule],
  controllers: [ReportsController],
  providers: [ReportsService, ReportsRepository],
})
export class ReportsModule {}
