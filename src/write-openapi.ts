import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/*
 * `npm run openapi` (and every `npm run build`): writes docs/openapi.json, the document the
 * service serves at /docs/openapi.json. The document depends on no setting, so the app is
 * built here on a throwaway in-memory SQLite database, without keys, Redis or MariaDB, whatever
 * the environment of the build holds. The environment is set before the app is imported:
 * its configuration reads it when its module is loaded.
 */
const BUILD_ENVIRONMENT: Record<string, string | undefined> = {
  DATABASE_URL: 'sqlite::memory:',
  NODE_ENV: 'development',
  REDIS_URL: undefined,
  API_KEYS: undefined,
  API_KEYS_READONLY: undefined,
  LOG_LEVEL: 'warn',
};

async function writeOpenApi(): Promise<void> {
  for (const [name, value] of Object.entries(BUILD_ENVIRONMENT)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const { NestFactory } = await import('@nestjs/core');
  const { AppModule } = await import('./app.module');
  const { APP_OPTIONS } = await import('./app.options');
  const { createOpenApiDocument, serializeOpenApiDocument } =
    await import('./openapi/openapi-document');
  const app = await NestFactory.create(AppModule, { ...APP_OPTIONS, logger: ['error', 'warn'] });
  try {
    const target = join(__dirname, '..', 'docs', 'openapi.json');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, serializeOpenApiDocument(createOpenApiDocument(app)));
    console.log(`Wrote ${target}`);
  } finally {
    await app.close();
  }
}

writeOpenApi().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
