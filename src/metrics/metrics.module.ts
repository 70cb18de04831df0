import { Module } from '@nestjs/common';
import { Registry } from 'prom-client';
import { RequestObserver } from '../http/request-hook';
import { DatabasePoolMetrics } from './database-pool-metrics';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { createMetricsRegistry } from './metrics.registry';

@Module({
  controllers: [MetricsController],
  providers: [
    { provide: Registry, useFactory: createMetricsRegistry },
    HttpMetrics,
    { provide: RequestObserver, useExisting: HttpMetrics },
    DatabasePoolMetrics,
  ],
  exports: [RequestObserver],
})
export class MetricsModule {}
