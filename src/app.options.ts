import { ConsoleLogger, NestApplicationOptions } from '@nestjs/common';

/**
 * Options every instance of the app is created with, in production and in tests alike. Body
 * parsing is the AppModule's own middleware (three encodings, exact JSON numbers), so Nest's
 * default parser stays off. Logs are held until configureApp hands Nest the JSON logger (pino);
 * should the app fail to start before that, Nest's own logger writes them, as JSON too.
 */
export const APP_OPTIONS: NestApplicationOptions = {
  bodyParser: false,
  bufferLogs: true,
  logger: new ConsoleLogger({ json: true }),
};
