import { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS } from '../../src/app.options';
import { configureApp } from '../../src/app.setup';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/environment';
import { createTestDatabase, dropTestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  http: TestAgent;
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
}

/** The real AppModule on a throwaway database, migrated as at start-up. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  if (!options.sharedDatabase) await createTestDatabase();
  let builder = Test.createTestingModule({ imports: [AppModule] });
  if (options.env) {
    // Validated exactly as at start-up; every part of the app reads its settings from AppConfig.
    const environment = validateEnvironment({ ...process.env, ...options.env });
    builder = builder
      .overrideProvider(AppConfig)
      .useValue(new AppConfig(new ConfigService(environment)));
  }
  const moduleRef = await builder.compile();
  const app = configureApp(
    moduleRef.createNestApplication({ ...APP_OPTIONS, logger: ['error', 'warn'] }),
  );
  await app.init();
  return {
    app,
    http: request(app.getHttpServer()),
    async close() {
      await app.close();
      if (!options.sharedDatabase) await dropTestDatabase();
    },
  };
}
