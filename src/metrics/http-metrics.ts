import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';
import { routePattern } from '../logging/route-pattern';

const LABELS = ['method', 'route', 'status'] as const;

/**
 * Counts every request and its duration by method, route pattern and status, the probes and
 * the scrapes included (they are told apart by route). It listens on the HTTP server itself,
 * ahead of Express, so requests refused before routing (413, 415, 404) are counted too.
 */
@Injectable()
export class HttpMetrics implements OnApplicationBootstrap {
  private readonly requests: Counter<(typeof LABELS)[number]>;
  private readonly durations: Histogram<(typeof LABELS)[number]>;

  constructor(
    registry: Registry,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: LABELS,
      registers: [registry],
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request arriving to the response being sent, in seconds',
      labelNames: LABELS,
      registers: [registry],
    });
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const stopTimer = this.durations.startTimer();
      response.once('finish', () => {
        const labels = {
          method: request.method ?? '',
          route: routePattern(request),
          status: String(response.statusCode),
        };
        this.requests.inc(labels);
        stopTimer(labels);
      });
    });
  }
}
