import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule } from '../clients/clients.module';
import { DocumentDrafts } from '../documents/document-drafts';
import { InvoicesModule } from '../invoices/invoices.module';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';
import { EstimateLinesRepository } from './estimate-lines.repository';
import { EstimatesController } from './estimates.controller';
import { EstimatesRepository } from './estimates.repository';
import { EstimatesService } from './estimates.service';

/** Estimates; asks the clients feature for the client, and invoices for a conversion. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Estimate, EstimateLineItem, EstimateSendLogEntry]),
    ClientsModule,
    InvoicesModule,
  ],
  controllers: [EstimatesController],
  providers: [EstimatesService, EstimatesRepository, EstimateLinesRepository, DocumentDrafts],
  exports: [EstimatesService],
})
export class EstimatesModule {}
