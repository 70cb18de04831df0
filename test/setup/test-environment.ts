import { isolateFile } from './file-isolation';

/*
 * Runs before each e2e file (or group) is loaded: points the app's configuration at a database
 * of the file's own (a group points each member at its own again, test-group.ts), and clears
 * the settings of the shell. createTestApp reads the environment when it builds the app.
 */
isolateFile();
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
// No delivery worker: its statements would join the counted ones and its deliveries change the
// send logs other files compare. The delivery files start theirs with their own OUTBOX_POLL_MS.
process.env.OUTBOX_POLL_MS = '0';
