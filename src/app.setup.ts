import { INestApplication } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
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
  setupOpenApi(app);
  return app;
}
