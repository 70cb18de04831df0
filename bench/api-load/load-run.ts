import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/*
 * One autocannon run, measured here rather than by autocannon's own histogram: autocannon keeps
 * latencies as whole milliseconds, too coarse for sub-millisecond reads, so every 2xx response
 * time is kept as it comes and the percentiles are taken from those.
 */

/** The part of autocannon's request object a setupRequest changes. */
interface AutocannonRequestData {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

type RequestContext = { request?: LoadRequest; sentAt?: number };

interface AutocannonRequest {
  setupRequest: (request: AutocannonRequestData, context: RequestContext) => AutocannonRequestData;
  onResponse: (status: number, body: string, context: RequestContext) => void;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  headers: Record<string, string>;
  requests: AutocannonRequest[];
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance {
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, milliseconds: number) => void,
  ): void;
  stop(): void;
}

type Autocannon = (
  options: AutocannonOptions,
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

// autocannon ships no type declarations: the shapes above are the parts this file uses.
const autocannon = createRequire(__filename)('autocannon') as Autocannon;

/** One request of a load run: a fresh one is asked for before every send. */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** JSON text. */
  body?: string;
}

/** The first answer that was not 2xx, with the request that got it. */
export interface FailedAnswer {
  status: number;
  request: LoadRequest;
  body: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Of 2xx answers, in milliseconds. */
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  responses: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  firstFailure?: FailedAnswer;
  /**
   * CPU time (user + system, from /proc) the server process spent during the run, per
   * response: less sensitive than requests/s to other work on the machine. Set by the caller.
   */
  cpuMsPerResponse?: number;
  /** The same for the database server (mariadbd; none for SQLite, which runs in the service). */
  databaseCpuMsPerResponse?: number;
}

export interface LoadTarget {
  /** http://127.0.0.1:port */
  baseUrl: string;
  headers: Record<string, string>;
}

export function runLoad(
  target: LoadTarget,
  next: () => LoadRequest,
  options: {
    connections: number;
    seconds: number;
    /**
     * Called with every answer, the request it answers and the milliseconds since that request
     * was handed to autocannon (the soak learns added ids and times each kind of request).
     */
    onAnswer?: (request: LoadRequest, status: number, body: string, milliseconds: number) => void;
  },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let firstFailure: FailedAnswer | undefined;
  const request: AutocannonRequest = {
    setupRequest: (data, context) => {
      const wanted = next();
      context.request = wanted;
      context.sentAt = performance.now();
      // autocannon writes Content-Length into the headers it is given: a request without a
      // body after one with a body would otherwise announce the earlier body's length and hang.
      const { ['Content-Length']: _length, ...headers } = data.headers;
      return { ...data, headers, method: wanted.method, path: wanted.path, body: wanted.body };
    },
    onResponse: (status, body, context) => {
      if (options.onAnswer && context.request) {
        options.onAnswer(
          context.request,
          status,
          body,
          performance.now() - (context.sentAt ?? performance.now()),
        );
      }
      if ((status < 200 || status > 299) && !firstFailure && context.request) {
        firstFailure = { status, request: context.request, body: body.slice(0, 2000) };
      }
    },
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.baseUrl,
        connections: options.connections,
        duration: options.seconds,
        timeout: 30,
        headers: { ...target.headers, 'content-type': 'application/json' },
        requests: [request],
      },
      (error, result) => {
        if (error) return reject(error);
        const statusCodes = Object.fromEntries(
          Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]),
        );
        const responses = Object.values(statusCodes).reduce((total, count) => total + count, 0);
        const sorted = Float64Array.from(latencies).sort();
        resolve({
          requestsPerSecond: responses / result.duration,
          latencyP50: percentile(sorted, 0.5),
          latencyP99: percentile(sorted, 0.99),
          latencyMax: sorted.length > 0 ? sorted[sorted.length - 1] : 0,
          responses,
          non2xx: responses - latencies.length,
          errors: result.errors,
          statusCodes,
          firstFailure,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, milliseconds) => {
      if (status >= 200 && status <= 299) latencies.push(milliseconds);
    });
  });
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil(fraction * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}
