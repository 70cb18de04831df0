import { Inject, Injectable, INestApplication } from '@nestjs/common';
import { PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { rootLoggerOf } from '../logging/logging.module';
import { RequestContext } from '../logging/request-context';
import { assignRequestId } from '../logging/request-id';
import { logRequest } from '../logging/request-log';
import { routePattern } from '../logging/route-pattern';
import { securityHeaders } from './server-hardening';

/**
 * Told of each request once it has been answered (the metrics count it). An abstract class, so
 * it is also the token: MetricsModule provides it, and http needs to know nothing of metrics.
 */
export abstract class RequestObserver {
  abstract observe(method: string, route: string, status: number, seconds: number): void;
}

/**
 * What every request gets, done once, before Express sees it: its id (answered in
 * `X-Request-Id`), the security headers, a context that carries the id to every line logged
 * while handling it, and, once it is answered, its request line and its metrics. One listener
 * on the HTTP server does it all, so a request refused before routing (404, 413, 415) is
 * logged and counted like any other. It costs one closure and one listener per request.
 */
@Injectable()
export class RequestHook {
  private readonly logger: Logger;
  private readonly headers = securityHeaders();

  constructor(
    @Inject(PARAMS_PROVIDER_TOKEN) params: Params,
    private readonly observer: RequestObserver,
  ) {
    this.logger = rootLoggerOf(params);
  }

  /** Puts the hook between the HTTP server and Express. */
  install(app: INestApplication): void {
    const server = app.getHttpServer() as Server;
    const express = app.getHttpAdapter().getInstance() as RequestListener;
    server.removeListener('request', express);
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      this.observe(request, response, () => express(request, response)),
    );
  }

  observe(request: IncomingMessage, response: ServerResponse, handle: () => void): void {
    const started = performance.now();
    const requestId = assignRequestId(request, response);
    for (const [name, value] of this.headers) response.setHeader(name, value);
    // Once, when the answer is sent or the client goes away first.
    const answered = (): void => {
      response.off('finish', answered).off('close', answered);
      const milliseconds = performance.now() - started;
      const route = routePattern(request);
      logRequest(this.logger, { requestId, route, request, response }, Math.round(milliseconds));
      // A response cut short is logged, but only answers are counted.
      if (response.writableFinished) {
        const method = request.method ?? '';
        this.observer.observe(method, route, response.statusCode, milliseconds / 1000);
      }
    };
    response.on('finish', answered).on('close', answered);
    new RequestContext(requestId, this.logger).run(handle);
  }
}
