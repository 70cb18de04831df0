import { Module } from '@nestjs/common';
import { NumberSeriesController } from './number-series.controller';
import { NumberSeries } from './number-series.service';

/** Number series: their API, and the numbers documents take from them. */
@Module({
  controllers: [NumberSeriesController],
  providers: [NumberSeries],
  exports: [NumberSeries],
})
export class NumberingModule {}
