import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Runs before each e2e file is loaded: points the app's configuration at a database of the
 * file's own. @nestjs/config reads the environment when AppModule is imported, so this has to
 * happen before any import of the app.
 */
declare const TEST_DIALECT: 'sqlite' | 'mariadb';

const suffix = randomBytes(6).toString('hex');
if (TEST_DIALECT === 'sqlite') {
  process.env.DATABASE_URL = `sqlite:${join(tmpdir(), `invoicing-test-${suffix}.sqlite`)}`;
} else {
  const server = process.env.TEST_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306';
  process.env.DATABASE_URL = `${server}/invoicing_test_${suffix}`;
}
process.env.NODE_ENV = 'test';
// Files send thousands of requests from one address; rate-limit.e2e-spec.ts sets its own limits.
process.env.RATE_LIMIT_PER_MINUTE = '0';
// The operator's settings of a developer's shell must not leak into the tests: each file that
// wants keys, Redis or another limit passes them to createTestApp({ env }).
for (const name of [
  'API_KEYS',
  'API_KEYS_READONLY',
  'AUTH_DISABLED',
  'REDIS_URL',
  'METRICS_PUBLIC',
  'BODY_LIMIT',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_QUERY_TIMEOUT_MS',
  'DEFAULT_CURRENCY',
  'LOG_LEVEL',
  'SMTP_URL',
  'MAIL_FROM',
  'MAIL_MAX_ATTEMPTS',
  'MAIL_RETRY_BASE_MS',
  'COMPANY_NAME',
  'COMPANY_ADDRESS',
  'COMPANY_EMAIL',
  'COMPANY_TAX_ID',
]) {
  delete process.env[name];
}
// Sent documents become .eml files in a folder of the file's own, never the checkout's data/.
process.env.MAIL_DIR = join(tmpdir(), `invoicing-test-mail-${suffix}`);
// No delivery worker: its statements would join the counted ones and its deliveries change the
// send logs other files compare. The delivery files start theirs with their own OUTBOX_POLL_MS.
process.env.OUTBOX_POLL_MS = '0';
