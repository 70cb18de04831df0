import { INestApplication } from '@nestjs/common';
import type { Express } from 'express';
import { Logger } from 'nestjs-pino';
import { BodyParsingMiddleware } from './http/body-parsing.middleware';
import { EnvelopeExpressAdapter } from './http/envelope-adapter';
import { inSequence } from './http/in-sequence';
import { MethodNotAllowedMiddleware } from './http/method-not-allowed.middleware';
import { RequestHook } from './http/request-hook';
import { hardenServer, refuseMalformedRequest } from './http/server-hardening';
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
  // Plain Express middleware in front of every route, as one layer (each layer is a turn of
  // the router's loop), in this order: what Node would answer badly, then a wrong method,
  // then the body (a refused request's body is never read). Nest's own middleware would also
  // match a wildcard path per request.
  const express = app.getHttpAdapter().getInstance() as Express;
  const methods = app.get(MethodNotAllowedMiddleware);
  const bodies = app.get(BodyParsingMiddleware);
  express.use(
    inSequence([
      refuseMalformedRequest,
      (request, response, next) => methods.use(request, response, next),
      (request, response, next) => bodies.use(request, response, next),
    ]),
  );
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
