import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { ClsModule } from 'nestjs-cls';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { Database } from './database';

const TypeOrmRoot = TypeOrmModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig) => ({
    ...buildDataSourceOptions(config.databaseUrl, { logging: config.databaseLogging }),
    autoLoadEntities: true,
    retryAttempts: 3,
    retryDelay: 1000,
  }),
});

/**
 * nestjs-cls registers a global guard and a global interceptor even when neither is mounted,
 * each doing nothing (`canActivate: () => true`, `next.handle()`); but any global interceptor
 * makes Nest put an RxJS chain around every request. The context here is made where a
 * transaction begins, so neither is needed: they are left out of its modules.
 */
function withoutRequestEnhancers(module: DynamicModule): DynamicModule {
  const enhancer = (provider: unknown) =>
    typeof provider === 'object' &&
    provider !== null &&
    'provide' in provider &&
    (provider.provide === APP_GUARD || provider.provide === APP_INTERCEPTOR);
  // Only the modules that hold one are copied: a copy of any other (TypeORM's root, which the
  // transactional plugin imports too) would be a second module, with a second connection.
  const holdsOne = (imported: unknown): imported is DynamicModule =>
    typeof imported === 'object' &&
    imported !== null &&
    'module' in imported &&
    ((imported as DynamicModule).providers ?? []).some(enhancer);
  return {
    ...module,
    providers: module.providers?.filter((provider) => !enhancer(provider)),
    imports: module.imports?.map((imported) =>
      holdsOne(imported) ? withoutRequestEnhancers(imported) : imported,
    ),
  };
}

@Global()
@Module({
  imports: [
    TypeOrmRoot,
    // Carries the open transaction to the repositories (Database.manager). A context is made
    // where a transaction begins, so no per-request middleware is needed.
    withoutRequestEnhancers(
      ClsModule.forRoot({
        global: true,
        plugins: [
          new ClsPluginTransactional({
            imports: [TypeOrmRoot],
            adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
          }),
        ],
      }),
    ),
  ],
  providers: [Database],
  exports: [Database],
})
export class DatabaseModule {}
