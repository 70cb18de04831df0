import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS } from '../src/app.options';
import { configureApp, createHttpAdapter } from '../src/app.setup';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/environment';
import { SmtpSink } from '../test/setup/smtp-sink';
import { createThrowawayDatabase } from './throwaway-database';

/*
 * Messages delivered per second to a local SMTP server (smtp-server on the loopback), through
 * the whole path: outbox claim, PDF render, nodemailer over the pooled SMTP transport, mark
 * sent. First an instance without a worker queues the sends; then a fresh instance starts
 * on the same database and the clock runs from its start until the server holds every message.
 *   npm run bench:delivery                                   # SQLite, 500 messages
 *   BENCH_MESSAGES=1000 BENCH_MARIADB_URL=mariadb://root@127.0.0.1:3306 npm run bench:delivery
 * On MariaDB, BENCH_INSTANCES=2 delivers with two instances (one process, so one CPU between them).
 */

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 500);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const MARIADB_SERVER = process.env.BENCH_MARIADB_URL;
const SEND_CONCURRENCY = 10;

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

/** Queues MESSAGES sends of one invoice on an instance without a worker. */
async function queueSends(env: Record<string, string>): Promise<void> {
  const app = await createApp({ ...env, OUTBOX_POLL_MS: '0' });
  const http = request(app.getHttpServer() as Server);
  const client = await http
    .post('/v1/client/add')
    .send({ names: 'Northwind Trading', email: 'ap@northwind.example' })
    .expect(200);
  const invoice = await http
    .post('/v1/invoice/add')
    .send({
      client: (client.body as { data: Array<{ id: string }> }).data[0].id,
      invoice_no: 'INV-BENCH-1',
      payment_status: 'Not Paid',
      tax_rate: '8.25',
      items: [
        { description: 'On-site support', quantity: 2, rate: '45.50' },
        { description: 'Configuration of the equipment', quantity: 1, rate: '120.00' },
      ],
    })
    .expect(200);
  const id = (invoice.body as { invoice: Array<{ id: string }> }).invoice[0].id;
  let next = 0;
  const sender = async (): Promise<void> => {
    while (next < MESSAGES) {
      const index = next++;
      await http
        .post('/v1/invoice/send')
        .send({ id, email: `to${index}@example.com` })
        .expect(200);
    }
  };
  await Promise.all(Array.from({ length: SEND_CONCURRENCY }, sender));
  await app.close();
}

async function main(): Promise<void> {
  const database = await createThrowawayDatabase(MARIADB_SERVER);
  const sink = new SmtpSink();
  await sink.start();
  const env = {
    DATABASE_URL: database.url,
    SMTP_URL: sink.url,
    RATE_LIMIT_PER_MINUTE: '0',
    COMPANY_NAME: 'Acme Ltd',
  };
  const databaseLabel = MARIADB_SERVER ? `MariaDB (${INSTANCES} instance(s))` : 'SQLite';
  try {
    await queueSends(env);
    // The clock starts once the first instance is up: its worker first polls 20 ms later.
    const apps = [await createApp({ ...env, OUTBOX_POLL_MS: '20' })];
    const started = performance.now();
    while (apps.length < (MARIADB_SERVER ? INSTANCES : 1)) {
      apps.push(await createApp({ ...env, OUTBOX_POLL_MS: '20' }));
    }
    while (sink.received.length < MESSAGES) await delay(5);
    const seconds = (performance.now() - started) / 1000;
    for (const app of apps) await app.close();
    console.log(
      `${MESSAGES} messages delivered in ${seconds.toFixed(2)} s: ` +
        `${(MESSAGES / seconds).toFixed(0)} messages/s (${databaseLabel}, Node ${process.version}, ` +
        `PDF of 2 lines, ${(sink.received[0].raw.length / 1024).toFixed(0)} KiB per message)`,
    );
  } finally {
    await sink.stop();
    await database.drop();
  }
}

void main();
