import { Module } from '@nestjs/common';
import { NumberingModule } from '../numbering/numbering.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DocumentOperationsModule } from '../document-operations/document-operations.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateTaxGroup } from './entities/estimate-tax-group.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';
import { EstimateLinesRepository } from './estimate-lines.repository';
import { EstimatesController } from './estimates.controller';
import { EstimatesRepository } from './estimates.repository';
import { EstimatesService } from './estimates.service';

/** Estimates; drafts, sends and prints them with the document operations, asks invoices for a conversion. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Estimate, EstimateLineItem, EstimateSendLogEntry, EstimateTaxGroup]),
    DocumentOperationsModule,
    InvoicesModule,
    NumberingModule,
  ],
  controllers: [EstimatesController],
  providers: [EstimatesService, EstimatesRepository, EstimateLinesRepository],
  exports: [EstimatesService],
})
export class EstimatesModule {}
