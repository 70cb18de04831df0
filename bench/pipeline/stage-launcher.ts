import 'reflect-metadata';
import { resolve } from 'node:path';

/*
 * Starts the built service (dist/main.js) with one stage of its request pipeline taken out,
 * for the per-stage table of bench/pipeline-stages.ts: a stage's cost is what the service saves
 * without it. Each stage is removed by changing the built code before main.js runs (a provider
 * dropped from AppModule, a prototype method made to do nothing), so the service itself carries
 * no switch for this. A name that no longer matches the code fails the start.
 *
 *   BENCH_DIST=<repo>/dist BENCH_REMOVE=<stage> node <compiled stage-launcher.js>
 *   node <compiled stage-launcher.js> --list
 */

type Patch = (load: (path: string) => Record<string, unknown>) => void;

const dist = process.env.BENCH_DIST ?? resolve(__dirname, '../../dist');
const load = (path: string): Record<string, unknown> =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(resolve(dist, path)) as Record<string, unknown>;

function classOf(path: string, name: string): { prototype: Record<string, unknown> } {
  const found = load(path)[name] as { prototype: Record<string, unknown> } | undefined;
  if (typeof found !== 'function') throw new Error(`${name} is not exported by ${path}`);
  return found;
}

function replaceMethod(path: string, name: string, method: string, by: unknown): void {
  const prototype = classOf(path, name).prototype;
  if (typeof prototype[method] !== 'function') throw new Error(`${name} has no ${method}`);
  prototype[method] = by;
}

/** Takes an APP_GUARD / APP_INTERCEPTOR / APP_PIPE / APP_FILTER provider out of AppModule. */
function dropAppProvider(className: string): void {
  const appModule = classOf('app.module', 'AppModule');
  const providers = Reflect.getMetadata('providers', appModule) as Array<{
    useClass?: { name: string };
    useExisting?: { name: string };
    useFactory?: { name: string };
  }>;
  const kept = providers.filter(
    (provider) =>
      ![provider.useClass, provider.useExisting, provider.useFactory].some(
        (each) => each?.name === className,
      ),
  );
  if (kept.length !== providers.length - 1) throw new Error(`no app provider ${className}`);
  Reflect.defineMetadata('providers', kept, appModule);
}

const passThrough = function (
  this: unknown,
  _request: unknown,
  _response: unknown,
  next: () => void,
) {
  next();
};

/** The stages, in the order a request meets them. */
export const STAGES: Record<string, Patch> = {
  'request hook, all of it (id, headers, context, log line, metrics)': () =>
    replaceMethod(
      'http/request-hook',
      'RequestHook',
      'observe',
      function (this: unknown, _request: unknown, _response: unknown, handle: () => void) {
        handle();
      },
    ),
  'security headers': () => {
    load('http/server-hardening').securityHeaders = () => [];
  },
  'request log line': () => {
    load('logging/request-log').logRequest = () => undefined;
  },
  metrics: () => replaceMethod('metrics/http-metrics', 'HttpMetrics', 'observe', () => undefined),
  '405 check (method table)': () =>
    replaceMethod(
      'http/method-not-allowed.middleware',
      'MethodNotAllowedMiddleware',
      'use',
      passThrough,
    ),
  'body parsing middleware': () =>
    replaceMethod('http/body-parsing.middleware', 'BodyParsingMiddleware', 'use', passThrough),
  'API key guard': () => dropAppProvider('ApiKeyGuard'),
  'rate-limit guard': () => dropAppProvider('RateLimitGuard'),
  'validation pipe': () => dropAppProvider('createValidationPipe'),
  // What is left of the envelope once gone: Express's own res.json of the result.
  'success envelope (adapter)': () =>
    replaceMethod(
      'http/envelope-adapter',
      'EnvelopeExpressAdapter',
      'reply',
      function (this: unknown, response: { json: (body: unknown) => unknown }, body: unknown) {
        return response.json(body);
      },
    ),
};

if (process.argv.includes('--list')) {
  process.stdout.write(JSON.stringify(Object.keys(STAGES)));
} else {
  const removed = process.env.BENCH_REMOVE;
  if (removed) {
    const patch = STAGES[removed];
    if (!patch) throw new Error(`unknown stage ${removed}`);
    patch(load);
  }
  load('main');
}
