import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS } from '../src/app.options';
import { configureApp, createHttpAdapter } from '../src/app.setup';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/environment';
import { createThrowawayDatabase } from './throwaway-database';

/*
 * Webhook deliveries per second to a local receiver (a plain node:http server on 127.0.0.1
 * answering 200 at once), through the whole path: claim, read of the endpoint and the event,
 * signing, the POST through request-filtering-agent, and the mark with its attempt row. First
 * an instance without a worker (OUTBOX_POLL_MS=0) adds one endpoint subscribed to ["*"] and
 * then BENCH_EVENTS clients, so as many deliveries queue; then a fresh instance with the
 * worker on starts on the same database and the clock runs from its start until the receiver
 * holds a request for every delivery. Each round uses a database of its own.
 *   npm run bench:webhooks                                   # SQLite, 2,000 deliveries, 3 rounds
 *   BENCH_MARIADB_URL=mariadb://root@127.0.0.1:3306 npm run bench:webhooks
 *   BENCH_INSTANCES=2 BENCH_MARIADB_URL=mariadb://root@127.0.0.1:3306 npm run bench:webhooks
 * On MariaDB, BENCH_INSTANCES=2 delivers with two instances (one process, so one CPU between
 * them, and the receiver shares it too). Options: BENCH_EVENTS (2000), BENCH_ROUNDS (3),
 * BENCH_INSTANCES (1). Writes bench/results/webhook-rate-<dialect>[-<N>-instances].json.
 */

const ROOT = resolve(__dirname, '..');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const MARIADB_SERVER = process.env.BENCH_MARIADB_URL;
const ADD_CONCURRENCY = 10;
/** A round that has not received every delivery by then is reported as failed. */
const DELIVERY_DEADLINE_MS = 180_000;

function progress(message: string): void {
  process.stderr.write(`[webhook-bench] ${message}\n`);
}

/** Answers 200 with an empty body as soon as a request's body has arrived. */
class Receiver {
  readonly ids = new Set<string>();
  requests = 0;
  first: { headers: Record<string, string>; body: string } | null = null;
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests++;
        const id = req.headers['webhook-id'];
        if (typeof id === 'string') this.ids.add(id);
        this.first ??= {
          headers: Object.fromEntries(
            ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
              name,
              String(req.headers[name]),
            ]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
        };
        res.writeHead(200, { 'content-length': '0' });
        res.end();
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
  }
}

async function createApp(env: Record<string, string>): Promise<INestApplication> {
  const environment = validateEnvironment({ ...process.env, LOG_LEVEL: 'error', ...env });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(new AppConfig(new ConfigService(environment)))
    .compile();
  const app = configureApp(moduleRef.createNestApplication(createHttpAdapter(), APP_OPTIONS));
  await app.init();
  return app;
}

async function count(app: INestApplication, sql: string): Promise<Record<string, number>> {
  const rows = await app.get(DataSource).query<Array<{ k: string; n: number | string }>>(sql);
  return Object.fromEntries(rows.map((row) => [row.k, Number(row.n)]));
}

const DELIVERIES_BY_STATUS =
  'SELECT status AS k, COUNT(*) AS n FROM webhook_deliveries GROUP BY status';

/**
 * On an instance without a worker: one endpoint on the receiver for every event type, then
 * EVENTS client adds. Answers the endpoint's secret and how many deliveries queued.
 */
async function queueDeliveries(
  env: Record<string, string>,
  receiver: Receiver,
): Promise<{ secret: string; queued: number; seconds: number }> {
  const app = await createApp({ ...env, OUTBOX_POLL_MS: '0' });
  try {
    const http = request(app.getHttpServer() as Server);
    const added = await http
      .post('/v1/webhook/add')
      .send({ url: receiver.url, events: ['*'], description: 'bench receiver' })
      .expect(200);
    const secret = (added.body as { webhook: Array<{ secret: string }> }).webhook[0].secret;
    const begin = performance.now();
    let next = 0;
    const adder = async (): Promise<void> => {
      while (next < EVENTS) {
        const index = next++;
        await http
          .post('/v1/client/add')
          .send({ names: `Bench Client ${index}`, email: `client${index}@example.com` })
          .expect(200);
      }
    };
    await Promise.all(Array.from({ length: ADD_CONCURRENCY }, adder));
    const seconds = (performance.now() - begin) / 1000;
    const statuses = await count(app, DELIVERIES_BY_STATUS);
    const queued = Object.values(statuses).reduce((total, n) => total + n, 0);
    if (queued !== (statuses.queued ?? 0)) {
      throw new Error(`deliveries not all queued: ${JSON.stringify(statuses)}`);
    }
    return { secret, queued, seconds };
  } finally {
    await app.close();
  }
}

interface Round {
  round: number;
  deliveries: number;
  seconds: number;
  deliveriesPerSecond: number;
  requestsReceived: number;
  duplicates: number;
  statusesAfter: Record<string, number>;
  signatureVerified: boolean;
  queueing: { clientAdds: number; seconds: number; addsPerSecond: number };
  loadAverage: { before: number[]; after: number[] };
}

async function oneRound(round: number): Promise<Round> {
  const database = await createThrowawayDatabase(MARIADB_SERVER);
  const receiver = new Receiver();
  await receiver.start();
  const env = {
    DATABASE_URL: database.url,
    RATE_LIMIT_PER_MINUTE: '0',
    COMPANY_NAME: 'Acme Ltd',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  try {
    progress(`round ${round}: queueing ${EVENTS} client adds…`);
    const queued = await queueDeliveries(env, receiver);
    if (receiver.requests > 0) throw new Error('a delivery was made while queueing');
    progress(
      `round ${round}: ${queued.queued} deliveries queued in ${queued.seconds.toFixed(1)} s; delivering`,
    );
    const before = loadavg();
    // The clock starts once the first instance is up: its worker first polls 20 ms later.
    const apps = [await createApp({ ...env, OUTBOX_POLL_MS: '20' })];
    const started = performance.now();
    let seconds: number;
    let statusesAfter: Record<string, number>;
    try {
      while (apps.length < (MARIADB_SERVER ? INSTANCES : 1)) {
        apps.push(await createApp({ ...env, OUTBOX_POLL_MS: '20' }));
      }
      const deadline = Date.now() + DELIVERY_DEADLINE_MS;
      while (receiver.ids.size < queued.queued && Date.now() < deadline) await delay(5);
      seconds = (performance.now() - started) / 1000;
      if (receiver.ids.size < queued.queued) {
        throw new Error(
          `only ${receiver.ids.size} of ${queued.queued} deliveries arrived within ${DELIVERY_DEADLINE_MS / 1000} s`,
        );
      }
      // The last marks follow the last answers: wait for them before reading the outcome.
      const settleBy = Date.now() + 10_000;
      do {
        statusesAfter = await count(apps[0], DELIVERIES_BY_STATUS);
        if ((statusesAfter.delivered ?? 0) === queued.queued) break;
        await delay(50);
      } while (Date.now() < settleBy);
    } finally {
      for (const app of apps) await app.close();
    }
    const after = loadavg();
    let signatureVerified = false;
    try {
      const first = receiver.first!;
      new Webhook(queued.secret).verify(first.body, first.headers);
      signatureVerified = true;
    } catch {
      signatureVerified = false;
    }
    const result: Round = {
      round,
      deliveries: queued.queued,
      seconds,
      deliveriesPerSecond: queued.queued / seconds,
      requestsReceived: receiver.requests,
      duplicates: receiver.requests - receiver.ids.size,
      statusesAfter,
      signatureVerified,
      queueing: {
        clientAdds: EVENTS,
        seconds: queued.seconds,
        addsPerSecond: EVENTS / queued.seconds,
      },
      loadAverage: { before, after },
    };
    progress(
      `round ${round}: ${result.deliveries} deliveries in ${seconds.toFixed(2)} s: ` +
        `${result.deliveriesPerSecond.toFixed(0)} deliveries/s (load ${before[0].toFixed(2)} → ${after[0].toFixed(2)}, ` +
        `${result.duplicates} duplicate request(s), statuses ${JSON.stringify(statusesAfter)})`,
    );
    return result;
  } finally {
    await receiver.stop();
    await database.drop();
  }
}

function git(...args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const dialect = MARIADB_SERVER ? 'mariadb' : 'sqlite';
  const instances = MARIADB_SERVER ? INSTANCES : 1;
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) rounds.push(await oneRound(round));
  const rates = rounds.map((round) => round.deliveriesPerSecond).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)];
  const database = MARIADB_SERVER ? `MariaDB (${instances} instance(s))` : 'SQLite';
  console.log(
    `${EVENTS} webhook deliveries per round, ${ROUNDS} round(s): median ${median.toFixed(0)} deliveries/s ` +
      `(${rates.map((rate) => rate.toFixed(0)).join(', ')}; ${database}, Node ${process.version})`,
  );
  const processors = cpus();
  const report = {
    benchmark: 'webhook deliveries per second to a local receiver',
    database,
    dialect,
    instances,
    events: EVENTS,
    medianDeliveriesPerSecond: median,
    rounds,
    notes: [
      'One endpoint subscribed to ["*"] on a node:http receiver on 127.0.0.1 that answers 200 with an empty body once the request body has arrived; the receiver runs in the same process as the instance(s), as the SMTP sink of bench/delivery-rate.ts does.',
      `Each round: a fresh database; an instance with OUTBOX_POLL_MS=0 adds the endpoint and ${EVENTS} clients (client.created events, one delivery each); then ${instances} fresh instance(s) with OUTBOX_POLL_MS=20 and the clock from the first one's start until the receiver has a request for every delivery (counted by distinct webhook-id).`,
      'loadAverage: the 1-, 5- and 15-minute load averages when the delivering instance was started and when the last delivery had arrived.',
    ],
    machine: {
      cpus: processors.length,
      cpuModel: processors[0]?.model,
      memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
      os: `${type()} ${release()}`,
      node: process.version,
      commit: git('rev-parse', '--short', 'HEAD'),
      uncommittedChanges: (git('status', '--porcelain') ?? '').split('\n').filter(Boolean).length,
      // ts-node runs src/ as it is: name what differs from the commit there.
      uncommittedSrc: (git('status', '--porcelain', '--', 'src') ?? '').split('\n').filter(Boolean),
      date: new Date().toISOString(),
    },
  };
  const name = `webhook-rate-${dialect}${instances > 1 ? `-${instances}-instances` : ''}.json`;
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(join(ROOT, 'bench/results', name), `${JSON.stringify(report, null, 2)}\n`);
  progress(`results written to bench/results/${name}`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
