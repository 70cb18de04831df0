import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvoicesModule } from '../invoices/invoices.module';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';
import { EstimatesController } from './estimates.controller';
import { EstimatesService } from './estimates.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Estimate, EstimateLineItem, EstimateSendLogEntry]),
    InvoicesModule,
  ],
  controllers: [EstimatesController],
  providers: [EstimatesService],
  exports: [EstimatesService],
})
export class EstimatesModule {}
