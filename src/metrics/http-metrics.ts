import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestObserver } from '../http/request-hook';

const LABELS = ['method', 'route', 'status'] as const;
type Label = (typeof LABELS)[number];

/** The counter and histogram of one method, route and status, looked up once. */
interface Series {
  requests: ReturnType<Counter<Label>['labels']>;
  durations: ReturnType<Histogram<Label>['labels']>;
}

/**
 * Counts every request and its duration by method, route pattern and status, the probes and
 * the scrapes included (they are told apart by route). The request hook reports each request
 * here once it has been answered, those refused before routing (413, 415, 404) included.
 */
@Injectable()
export class HttpMetrics implements RequestObserver {
  private readonly requests: Counter<Label>;
  private readonly durations: Histogram<Label>;
  /** prom-client hashes the labels on every call: each combination is looked up once. */
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
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

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      const labels = { method, route, status: String(status) };
      series = { requests: this.requests.labels(labels), durations: this.durations.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.durations.observe(seconds);
  }
}
