import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, RouterModule } from '@nestjs/core';
import { ClientsApiModule } from './clients-api/clients-api.module';
import { CreditNotesModule } from './credit-notes/credit-notes.module';
import { BodyParsingMiddleware } from './http/body-parsing.middleware';
import { MethodNotAllowedMiddleware } from './http/method-not-allowed.middleware';
import { CommonModule } from './common/common.module';
import { RequestHook } from './http/request-hook';
import { ErrorFilter } from './http/error.filter';
import { ApiKeyGuard } from './http/auth/api-key.guard';
import { RateLimitGuard } from './http/rate-limit/rate-limit.guard';
import { RateLimitModule } from './http/rate-limit/rate-limit.module';
import { createValidationPipe } from './http/validation.pipe';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DeliveryModule } from './delivery/delivery.module';
import { EstimatesModule } from './estimates/estimates.module';
import { EventsModule } from './events/events.module';
import { ExpensesModule } from './expenses/expenses.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { NumberingModule } from './numbering/numbering.module';
import { ReportsModule } from './reports/reports.module';
import { RemindersModule } from './reminders/reminders.module';
import { RecurringInvoicesModule } from './recurring-invoices/recurring-invoices.module';
import { InvoicesModule } from './invoices/invoices.module';
import { LedgerModule } from './ledger/ledger.module';
import { JobsModule } from './jobs/jobs.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';

// The ledger first: its routes are registered before the rest of /invoice (see LedgerController).
const API_MODULES = [
  LedgerModule,
  ClientsApiModule,
  InvoicesModule,
  EstimatesModule,
  CreditNotesModule,
  ExpensesModule,
  EventsModule,
  WebhooksModule,
  NumberingModule,
  RecurringInvoicesModule,
  ReportsModule,
];

@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    DatabaseModule,
    CommonModule,
    EventsModule,
    JobsModule,
    DeliveryModule,
    RateLimitModule,
    IdempotencyModule,
    ...API_MODULES,
    RemindersModule,
    RouterModule.register([{ path: 'v1', children: API_MODULES }]),
    // Outside /v1: /health, /health/ready, /metrics.
    HealthModule,
    MetricsModule,
  ],
  providers: [
    RequestHook,
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: ErrorFilter },
    // Express middleware, installed by configureApp in front of the routes.
    MethodNotAllowedMiddleware,
    BodyParsingMiddleware,
    // No global interceptor: the envelope is written by the adapter (EnvelopeExpressAdapter),
    // and Idempotency-Key is on the POST and PUT routes only (@Idempotent()).
    // In this order: the key is known (or refused with 401) before it is counted.
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
})
export class AppModule {}
