import { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import type TestAgent from 'supertest/lib/agent';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/common/clock';
import { APP_OPTIONS } from '../../src/app.options';
import { configureApp, createHttpAdapter } from '../../src/app.setup';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/environment';
import { LOG_DESTINATION } from '../../src/logging/log-destination';
import { LogCapture } from './log-capture';
import { ResponseRecorder } from './response-recorder';
import { createTestDatabase, dropTestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  http: TestAgent;
  /** An agent sending `headers` with every request; its answers are checked like `http`'s. */
  agent(headers?: Record<string, string>): TestAgent;
  /** Checks the answers so far against the OpenAPI document now (close() checks the rest). */
  checkAnswers(): Promise<void>;
  /** Every line the app logged; close() checks that none holds personal data or a key. */
  logs: LogCapture;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables for this app on top of the process's (API_KEYS, REDIS_URL, …). */
  env?: Record<string, string>;
  /**
   * Use the file's database as another app already created it (a second instance on one
   * database); this app neither creates nor drops it.
   */
  sharedDatabase?: boolean;
  /** The service's clock, in place of the real one (test/setup/test-clock.ts). */
  clock?: Clock;
}

/** The real AppModule on a throwaway database, migrated as at start-up. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  if (!options.sharedDatabase) await createTestDatabase();
  const logs = new LogCapture();
  // Validated exactly as at start-up; every part of the app reads its settings from AppConfig.
  // The app logs at info (unless told otherwise) into the capture, not to the console.
  const environment = validateEnvironment({ ...process.env, LOG_LEVEL: 'info', ...options.env });
  const config = new AppConfig(new ConfigService(environment));
  // nestjs-pino logs lines outside a request with the first app's logger: use this app's.
  __resetOutOfContextForTests();
  let builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .overrideProvider(LOG_DESTINATION)
    .useValue(logs);
  if (options.clock) builder = builder.overrideProvider(Clock).useValue(options.clock);
  const moduleRef = await builder.compile();
  const app = configureApp(moduleRef.createNestApplication(createHttpAdapter(), APP_OPTIONS));
  // Listening once, on loopback, spares supertest a listen and a close around every request
  // (it uses a server that listens already as it is): about 1 ms a request, measured.
  await app.listen(0, '127.0.0.1');
  logs.watch(app.getHttpServer());
  // Every answer is checked against the OpenAPI document when the app closes.
  const recorder = new ResponseRecorder(app.getHttpServer());
  logs.forbid([...config.apiKeys, ...config.readOnlyApiKeys]);
  return {
    app,
    http: recorder.http,
    agent: (headers) => recorder.agent(headers),
    async checkAnswers() {
      const disagreement = await recorder.check();
      if (disagreement) throw disagreement;
    },
    logs,
    async close() {
      const disagreement = await recorder.check();
      await app.close();
      if (!options.sharedDatabase) await dropTestDatabase();
      logs.assertNoPersonalData();
      if (disagreement) throw disagreement;
    },
  };
}
