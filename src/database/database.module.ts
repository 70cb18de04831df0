import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Global, Module } from '@nestjs/common';
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

@Global()
@Module({
  imports: [
    TypeOrmRoot,
    // Carries the open transaction to the repositories (Database.manager). A context is made
    // where a transaction begins, so no per-request middleware is needed.
    ClsModule.forRoot({
      global: true,
      plugins: [
        new ClsPluginTransactional({
          imports: [TypeOrmRoot],
          adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
        }),
      ],
    }),
  ],
  providers: [Database],
  exports: [Database],
})
export class DatabaseModule {}
