import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { ModuleKind, ScriptTarget, transpileModule } from 'typescript';
import { runLoad } from './api-load/load-run';
import { ChildServer, cpuTimeMs, freePort, mariadbPid } from './api-load/processes';

/*
 * The fixed cost of a request: process CPU per request (from /proc, before and after a load
 * run: the figure that holds on a noisy machine) of the built service with production settings
 * (API keys on, JSON request logs at info, rate limits off) on an empty MariaDB database, for
 * `GET /health` (no data) and `GET /v1/client/all` (one empty page), against an empty Nest
 * route on the same Express adapter; then the same with each stage of the request pipeline
 * alone removed (bench/pipeline/stage-launcher.ts), which is what that stage costs.
 *
 *   npm run bench:pipeline [-- --duration 5 --connections 8 --rounds 2 --only <stage regexp>]
 *
 * --dist names another build of the service than dist/ (a copy inside the repository, so that a
 * rebuild during the run does not pull the files from under it).
 *
 * Each configuration runs `rounds` times, alternating, and the lowest CPU per request of its
 * rounds is kept (what another process on the machine adds is never negative). Prints a table
 * and writes bench/results/pipeline-stages.json.
 */

const ROOT = resolve(__dirname, '..');
const API_KEY = 'bench-pipeline-key-0123456789abcdef';
const WARM_UP_SECONDS = 1;

/** Routes ahead of /health in the service (its operations); the routed empty app has as many. */
const ROUTES_AHEAD_OF_HEALTH = 52;

interface Configuration {
  name: string;
  /** A stage name of the launcher, '' for the whole service, null for an empty Nest app. */
  removed: string | null;
  /** For an empty Nest app: how many other routes are registered ahead of its one. */
  extraRoutes?: number;
}

interface Measured {
  /** Service CPU per request, µs, per path. */
  service: Record<string, number>;
  /** MariaDB CPU per request, µs, per path. */
  database: Record<string, number>;
  requestsPerSecond: Record<string, number>;
}

async function compile(source: string, workDir: string): Promise<string> {
  const { outputText } = transpileModule(await readFile(resolve(ROOT, source), 'utf8'), {
    compilerOptions: {
      module: ModuleKind.CommonJS,
      target: ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  const script = join(workDir, source.replace(/\W/g, '_') + '.js');
  await writeFile(script, outputText);
  return script;
}

async function start(
  configuration: Configuration,
  dist: string,
  scripts: { launcher: string; empty: string },
  databaseUrl: string,
  workDir: string,
): Promise<ChildServer> {
  const port = await freePort();
  const isEmpty = configuration.removed === null;
  const child = spawn(process.execPath, [isEmpty ? scripts.empty : scripts.launcher], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_PATH: resolve(ROOT, 'node_modules'),
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      API_KEYS: API_KEY,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'info',
      OUTBOX_POLL_MS: '0',
      MAIL_DIR: join(workDir, 'mail'),
      SHUTDOWN_DRAIN_MS: '0',
      BENCH_DIST: dist,
      BENCH_REMOVE: configuration.removed ?? '',
      EXTRA_ROUTES: String(configuration.extraRoutes ?? 0),
    },
  });
  return ChildServer.adopt(
    configuration.name,
    child,
    `http://127.0.0.1:${port}`,
    isEmpty ? '/empty' : '/health',
  );
}

async function measure(
  server: ChildServer,
  paths: string[],
  options: { duration: number; connections: number },
): Promise<Measured> {
  const target = { baseUrl: server.baseUrl, headers: { authorization: `Bearer ${API_KEY}` } };
  const measured: Measured = { service: {}, database: {}, requestsPerSecond: {} };
  const database = mariadbPid();
  for (const path of paths) {
    const next = () => ({ method: 'GET' as const, path });
    await runLoad(target, next, { connections: options.connections, seconds: WARM_UP_SECONDS });
    const before = [await cpuTimeMs(server.pid), database && (await cpuTimeMs(database))];
    const result = await runLoad(target, next, {
      connections: options.connections,
      seconds: options.duration,
    });
    const after = [await cpuTimeMs(server.pid), database && (await cpuTimeMs(database))];
    if (result.non2xx > 0 || result.responses === 0) {
      throw new Error(`${server.name} ${path}: ${result.non2xx} answers were not 2xx`);
    }
    const perRequest = (index: number) =>
      ((Number(after[index]) - Number(before[index])) * 1000) / result.responses;
    measured.service[path] = perRequest(0);
    measured.database[path] = database ? perRequest(1) : NaN;
    measured.requestsPerSecond[path] = result.requestsPerSecond;
  }
  return measured;
}

export interface PipelineOptions {
  duration: number;
  connections: number;
  rounds: number;
  /** Only the stages whose names match. */
  only: RegExp | null;
  /** The build to run: dist/, or a copy (see --dist). */
  dist: string;
}

/** Measures the configurations, writes bench/results/pipeline-stages.json, answers the table. */
export async function measurePipeline(options: PipelineOptions): Promise<string> {
  const { dist, only } = options;
  const workDir = join(tmpdir(), `invoicing-pipeline-${randomBytes(4).toString('hex')}`);
  await mkdir(join(workDir, 'mail'), { recursive: true });
  const scripts = {
    launcher: await compile('bench/pipeline/stage-launcher.ts', workDir),
    empty: await compile('bench/pipeline/empty-nest.ts', workDir),
  };
  const stages = JSON.parse(
    execFileSync(process.execPath, [scripts.launcher, '--list'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH: resolve(ROOT, 'node_modules') },
    }),
  ) as string[];
  const configurations: Configuration[] = [
    { name: 'empty Nest route', removed: null },
    {
      name: `empty Nest route behind ${ROUTES_AHEAD_OF_HEALTH} others`,
      removed: null,
      extraRoutes: ROUTES_AHEAD_OF_HEALTH,
    },
    { name: 'service', removed: '' },
    ...stages
      .filter((stage) => only === null || only.test(stage))
      .map((stage) => ({ name: `without ${stage}`, removed: stage })),
  ];

  const database = `invoicing_pipeline_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection('mysql://root@127.0.0.1:3306');
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = `mysql://root@127.0.0.1:3306/${database}`;
  const results = new Map<string, Measured[]>();
  try {
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const configuration of configurations) {
        const server = await start(configuration, dist, scripts, databaseUrl, workDir);
        try {
          const paths = configuration.removed === null ? ['/empty'] : ['/health', '/v1/client/all'];
          const measured = await measure(server, paths, options);
          results.set(configuration.name, [...(results.get(configuration.name) ?? []), measured]);
          console.error(
            `round ${round}: ${configuration.name}: ${paths
              .map((path) => `${path} ${measured.service[path].toFixed(0)} µs`)
              .join(', ')}`,
          );
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.end();
    await rm(workDir, { recursive: true, force: true });
  }

  const lowest = (name: string, side: 'service' | 'database', path: string) =>
    Math.min(...(results.get(name) ?? []).map((each) => each[side][path]));
  const floor = lowest('empty Nest route', 'service', '/empty');
  const health = lowest('service', 'service', '/health');
  const list = lowest('service', 'service', '/v1/client/all');
  const routed = lowest(configurations[1].name, 'service', '/empty');
  const rows = configurations.slice(3).map((configuration) => {
    const name = configuration.name;
    const withoutHealth = lowest(name, 'service', '/health');
    const withoutList = lowest(name, 'service', '/v1/client/all');
    return {
      stage: configuration.removed ?? '',
      healthSaved: health - withoutHealth,
      listSaved: list - withoutList,
    };
  });
  const us = (value: number) => `${value.toFixed(0)} µs`;
  const lines = [
    `Service CPU per request, lowest of ${options.rounds} rounds of ${options.duration} s at ${options.connections} connections:`,
    `  empty Nest route (GET /empty):        ${us(floor)}`,
    `  the same behind ${ROUTES_AHEAD_OF_HEALTH} other routes:    ${us(routed)} (what Express's router costs to walk the service's routes to /health)`,
    `  service GET /health:                  ${us(health)} (${us(health - floor)} over the empty route)`,
    `  service GET /v1/client/all (empty):   ${us(list)}, MariaDB ${us(lowest('service', 'database', '/v1/client/all'))}`,
    '',
    '| stage removed | /health saves | /v1/client/all saves |',
    '|---|--:|--:|',
    ...rows.map((row) => `| ${row.stage} | ${us(row.healthSaved)} | ${us(row.listSaved)} |`),
  ];
  await writeFile(
    resolve(ROOT, 'bench/results/pipeline-stages.json'),
    `${JSON.stringify({ options: { ...options, only: only?.source ?? null }, floor, routed, health, list, stages: rows, raw: Object.fromEntries(results) }, null, 2)}\n`,
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '2' },
      only: { type: 'string' },
      dist: { type: 'string', default: 'dist' },
    },
  });
  const table = await measurePipeline({
    duration: Number(values.duration),
    connections: Number(values.connections),
    rounds: Number(values.rounds),
    only: values.only === undefined ? null : new RegExp(values.only),
    dist: resolve(ROOT, values.dist),
  });
  console.log(table);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
