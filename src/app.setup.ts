import { INestApplication } from '@nestjs/common';
import { EnvelopeExpressAdapter } from './http/envelope-adapter';
import { Logger } from 'nestjs-pino';
import { RequestHook } from './http/request-hook';
import { hardenServer } from './http/server-hardening';
import { setupOpenApi } from './openapi/openapi-document';

/**
 * What the Nest application needs beyond AppModule and before it listens: the parts that act
 * on the Express instance or the Node HTTP server rather than on routes. main.ts and the e2e
 * tests both call this, so a test app behaves exactly like production.
 */
export function configureApp(app: INestApplication): INestApplication {
  app.useLogger(app.get(Logger));
  hardenServer(app);
  app.get(RequestHook).install(app);
  setupOpenApi(app);
  return app;
}

/**
 * The HTTP adapter every instance is created with: Express, answering results in the success
 * envelope (see EnvelopeExpressAdapter).
 */
export function createHttpAdapter(): EnvelopeExpressAdapter {
  return new EnvelopeExpressAdapter();
}
