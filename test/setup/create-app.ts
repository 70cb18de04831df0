import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS } from '../../src/app.options';
import { configureApp } from '../../src/app.setup';
import { createTestDatabase, dropTestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  http: TestAgent;
  close(): Promise<void>;
}

/** The real AppModule on a throwaway database, migrated as at start-up. */
export async function createTestApp(): Promise<TestApp> {
  await createTestDatabase();
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = configureApp(
    moduleRef.createNestApplication({ ...APP_OPTIONS, logger: ['error', 'warn'] }),
  );
  await app.init();
  return {
    app,
    http: request(app.getHttpServer()),
    async close() {
      await app.close();
      await dropTestDatabase();
    },
  };
}
