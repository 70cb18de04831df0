import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS } from '../src/app.options';
import { configureApp, createHttpAdapter } from '../src/app.setup';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/environment';
import { createThrowawayDatabase } from './throwaway-database';

/*
 * Whether the event feed and a record's history cost the same at any depth: EVENTS events are
 * written straight into the table (SQL, not requests: 1,000,000 requests would take an hour),
 * then REQUESTS keyset pages are read after an id at the start, the middle and the end, and a
 * record's history is read, one request at a time, through HTTP into the app (no network).
 *   npm run bench:feed                                           # SQLite, 1,000,000 events
 *   BENCH_MARIADB_URL=mariadb://root@127.0.0.1:3306 npm run bench:feed
 */

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const MARIADB_SERVER = process.env.BENCH_MARIADB_URL;
const PER_PAGE = 100;
/** Events per client in the seed: a record's history is this long. */
const PER_RECORD = 10;

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

/**
 * EVENTS events, a minute apart up to now, each about client (n / PER_RECORD). On MariaDB over
 * a connection of its own: the app's statements are bounded by DATABASE_QUERY_TIMEOUT_MS.
 */
async function seed(dataSource: DataSource, mysqlUrl: string | undefined): Promise<void> {
  const data = `'{"data":[{"id":"1","names":"Northwind Trading","email":"ap@northwind.example"}]}'`;
  if (mysqlUrl) {
    const connection = await createConnection(mysqlUrl);
    await connection.query(
      `INSERT INTO events (type, created_at, actor, object, object_id, data, changes)
       SELECT 'client.updated', UTC_TIMESTAMP() - INTERVAL (${EVENTS} - seq) MINUTE, 'open',
              'client', 1 + seq DIV ${PER_RECORD}, ${data}, '{}'
       FROM seq_1_to_${EVENTS}`,
    );
    await connection.query('ANALYZE TABLE events');
    await connection.end();
    return;
  }
  await dataSource.query(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${EVENTS})
     INSERT INTO events (type, created_at, actor, object, object_id, data, changes)
     SELECT 'client.updated', strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (${EVENTS} - n) || ' minutes'),
            'open', 'client', 1 + n / ${PER_RECORD}, ${data}, '{}'
     FROM seq`,
  );
  await dataSource.query('ANALYZE');
}

async function timed(http: ReturnType<typeof request>, path: string): Promise<number> {
  await http.get(path).expect(200);
  const started = performance.now();
  for (let index = 0; index < REQUESTS; index++) await http.get(path).expect(200);
  return (performance.now() - started) / REQUESTS;
}

async function main(): Promise<void> {
  const database = await createThrowawayDatabase(MARIADB_SERVER);
  const env = {
    DATABASE_URL: database.url,
    RATE_LIMIT_PER_MINUTE: '0',
    OUTBOX_POLL_MS: '0',
  };
  try {
    const app = await createApp(env);
    const seeding = performance.now();
    await seed(app.get(DataSource), database.mysqlUrl);
    const seeded = (performance.now() - seeding) / 1000;
    const http = request(app.getHttpServer() as Server);
    const rows: Array<[string, number]> = [];
    for (const [label, after] of [
      ['feed page after 0 (the start)', 0],
      ['feed page after the middle', Math.floor(EVENTS / 2)],
      ['feed page after the end less one page', EVENTS - PER_PAGE],
    ] as const) {
      rows.push([label, await timed(http, `/v1/event/all?after=${after}&per_page=${PER_PAGE}`)]);
    }
    for (const [label, record] of [
      ['history of the first record', 1],
      ['history of the last record', Math.floor(EVENTS / PER_RECORD)],
    ] as const) {
      rows.push([label, await timed(http, `/v1/event/all?object=client&object_id=${record}`)]);
    }
    await app.close();
    console.log(
      `${EVENTS} events (${MARIADB_SERVER ? 'MariaDB' : 'SQLite'}, seeded in ${seeded.toFixed(0)} s, ` +
        `Node ${process.version}); mean of ${REQUESTS} sequential requests:`,
    );
    console.log('| read | ms per request |\n|---|--:|');
    for (const [label, ms] of rows) console.log(`| ${label} | ${ms.toFixed(2)} |`);
  } finally {
    await database.drop();
  }
}

void main();
