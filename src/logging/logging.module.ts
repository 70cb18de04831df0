import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { DestinationStream, Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { LOG_DESTINATION, standardOutput } from './log-destination';
import { logOptions } from './request-log';

/**
 * Structured JSON logs (pino) for the whole app: Nest's own logger is replaced in
 * configureApp. nestjs-pino is given one pino logger and no middleware of its own: the request
 * hook (http/request-hook.ts) writes each request's line and puts the request's context, which
 * stamps its id on every line logged while handling it, where nestjs-pino reads it.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      providers: [{ provide: LOG_DESTINATION, useFactory: standardOutput }],
      inject: [AppConfig, LOG_DESTINATION],
      useFactory: (config: AppConfig, destination: DestinationStream) => ({
        pinoHttp: { logger: pino(logOptions(config.logLevel), destination) },
        useExisting: true,
        forRoutes: [],
      }),
    }),
  ],
})
export class LoggingModule {}

/** The logger given to nestjs-pino, out of its parameters. */
export function rootLoggerOf(params: { pinoHttp?: unknown }): Logger {
  const logger = (params.pinoHttp as { logger?: Logger } | undefined)?.logger;
  if (logger === undefined) throw new Error('nestjs-pino was given no logger');
  return logger;
}
