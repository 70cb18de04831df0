import { Module } from '@nestjs/common';
import { Registry } from 'prom-client';
import { DatabasePoolMetrics } from './database-pool-metrics';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { createMetricsRegistry } from './metrics.registry';

@Module({
  controllers: [MetricsController],
  providers: [
    { provide: Registry, useFactory: createMetricsRegistry },
    HttpMetrics,
    DatabasePoolMetrics,
  ],
  exports: [HttpMetrics],
})
export class MetricsModule {}
