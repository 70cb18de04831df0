import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyJanitor } from './idempotency-janitor';
import { IdempotencyStore } from './idempotency-store';

/**
 * Idempotency-Key on POST and PUT: each such route names the interceptor (`@Idempotent()`), so
 * every module with one must reach the store: global.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecord])],
  providers: [IdempotencyStore, IdempotencyJanitor, IdempotencyInterceptor],
  exports: [IdempotencyInterceptor, IdempotencyStore],
})
export class IdempotencyModule {}
