import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE, RouterModule } from '@nestjs/core';
import { ClientsModule } from './clients/clients.module';
import { BodyParsingMiddleware } from './http/body-parsing.middleware';
import { CommonModule } from './common/common.module';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { ErrorFilter } from './http/error.filter';
import { createValidationPipe } from './http/validation.pipe';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DeliveryModule } from './delivery/delivery.module';
import { EstimatesModule } from './estimates/estimates.module';
import { ExpensesModule } from './expenses/expenses.module';
import { InvoicesModule } from './invoices/invoices.module';

const API_MODULES = [ClientsModule, InvoicesModule, EstimatesModule, ExpensesModule];

@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    CommonModule,
    DeliveryModule,
    ...API_MODULES,
    RouterModule.register([{ path: 'v1', children: API_MODULES }]),
  ],
  providers: [
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: ErrorFilter },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
  ],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(BodyParsingMiddleware).forRoutes('{*path}');
  }
}
