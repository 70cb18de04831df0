import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppConfig } from '../config/app-config';
import { LOG_DESTINATION, standardOutput } from './log-destination';
import { requestLogOptions } from './request-log';

/**
 * Structured JSON logs (pino) for the whole app: Nest's own logger is replaced in
 * configureApp, and every request is logged once with its id. nestjs-pino's module is global,
 * so its middleware runs before the app's own (body parsing): a refused body is logged too.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      providers: [{ provide: LOG_DESTINATION, useFactory: standardOutput }],
      inject: [AppConfig, LOG_DESTINATION],
      useFactory: (config: AppConfig, destination: DestinationStream) => ({
        pinoHttp: [requestLogOptions(config.logLevel), destination],
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
      }),
    }),
  ],
})
export class LoggingModule {}
