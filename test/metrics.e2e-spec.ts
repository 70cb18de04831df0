import { randomBytes } from 'node:crypto';
import { createClient } from './factories/clients';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError } from './setup/expectations';

const KEY = `metrics-${randomBytes(12).toString('hex')}`;

/** One sample of the Prometheus text format: `name{label="value",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\["\\\\n])*"';
// Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case: prom-client
// writes an empty event-loop histogram's mean as `Nan`.
const SAMPLE_LINE = new RegExp(
  `^(${METRIC_NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?\\})? (-?[0-9.e+-]+|[Nn][Aa][Nn]|[+-][Ii][Nn][Ff])( -?\\d+)?$`,
);
const COMMENT_LINE = new RegExp(
  `^# (?:HELP ${METRIC_NAME} .*|TYPE ${METRIC_NAME} (counter|gauge|histogram|summary|untyped))$`,
);

/** Parses the exposition text, failing on any line that is not a sample, comment or blank. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || COMMENT_LINE.test(line)) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`Not a Prometheus text line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(
      /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g,
    )) {
      labels[name] = value;
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
}

describe('GET /metrics', () => {
  describe('with no key configured', () => {
    let test: TestApp;
    let samples: Sample[];

    beforeAll(async () => {
      test = await createTestApp();
      const id = await createClient(test.http);
      await test.http.get(`/v1/client/${id}`).expect(200);
      await test.http.get(`/v1/client/${id}`).expect(200);
      await test.http.get('/v1/client/999999').expect(404);
      await test.http.get('/v1/nowhere').expect(404);
      const response = await test.http.get('/metrics').expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain;.*\bversion=0\.0\.4\b/);
      samples = parseExposition(response.text);
    });

    afterAll(async () => {
      await test.close();
    });

    it('answers the Prometheus text format, outside /v1', async () => {
      expect(samples.length).toBeGreaterThan(20);
      expectError(await test.http.get('/v1/metrics'), 404);
    });

    it('counts requests by method, route pattern and status', () => {
      const route = '/v1/client/:id';
      expect(find(samples, 'http_requests_total', { method: 'GET', route, status: '200' })).toEqual(
        [expect.objectContaining({ value: 2 })],
      );
      expect(find(samples, 'http_requests_total', { method: 'GET', route, status: '404' })).toEqual(
        [expect.objectContaining({ value: 1 })],
      );
      expect(
        find(samples, 'http_requests_total', { route: '/v1/client/add', status: '200' }),
      ).toEqual([expect.objectContaining({ value: 1 })]);
      // A path no route matched is one label value, whatever the path was.
      expect(find(samples, 'http_requests_total', { route: 'unmatched', status: '404' })).toEqual([
        expect.objectContaining({ value: 1 }),
      ]);
      expect(samples.some((sample) => sample.labels.route?.includes('999999'))).toBe(false);
    });

    it('times them in a histogram with the same labels', () => {
      const labels = { method: 'GET', route: '/v1/client/:id', status: '200' };
      expect(find(samples, 'http_request_duration_seconds_count', labels)).toEqual([
        expect.objectContaining({ value: 2 }),
      ]);
      expect(find(samples, 'http_request_duration_seconds_sum', labels)[0].value).toBeGreaterThan(
        0,
      );
      const buckets = find(samples, 'http_request_duration_seconds_bucket', labels);
      expect(buckets.find((bucket) => bucket.labels.le === '+Inf')?.value).toBe(2);
    });

    it('reports the database connections in use and idle', () => {
      const [inUse] = find(samples, 'db_pool_connections_in_use');
      const [idle] = find(samples, 'db_pool_connections_idle');
      // Nothing else runs during the scrape; the requests before it left connections open.
      expect(inUse.value).toBe(0);
      expect(idle.value).toBeGreaterThanOrEqual(1);
    });

    it('reports the process metrics', () => {
      for (const name of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_seconds',
      ]) {
        expect(find(samples, name)).toEqual([expect.objectContaining({ name })]);
      }
    });

    it('counts itself on the next scrape', async () => {
      const response = await test.http.get('/metrics').expect(200);
      const labels = { method: 'GET', route: '/metrics', status: '200' };
      expect(find(parseExposition(response.text), 'http_requests_total', labels)).toEqual([
        expect.objectContaining({ value: 1 }),
      ]);
    });
  });

  describe('with keys configured', () => {
    it('needs a key', async () => {
      const test = await createTestApp({ env: { API_KEYS: KEY } });
      try {
        expectError(await test.http.get('/metrics'), 401);
        expectError(await test.http.get('/metrics').set('X-API-Key', `${KEY}x`), 401);
        const response = await test.http.get('/metrics').set('Authorization', `Bearer ${KEY}`);
        expect(response.status).toBe(200);
        expect(find(parseExposition(response.text), 'db_pool_connections_idle')).toHaveLength(1);
      } finally {
        await test.close();
      }
    });

    it('is open with METRICS_PUBLIC=true, while the API still needs a key', async () => {
      const test = await createTestApp({ env: { API_KEYS: KEY, METRICS_PUBLIC: 'true' } });
      try {
        expectError(await test.http.get('/v1/client/all'), 401);
        const response = await test.http.get('/metrics');
        expect(response.status).toBe(200);
        const labels = { route: '/v1/client/all', status: '401' };
        expect(find(parseExposition(response.text), 'http_requests_total', labels)).toEqual([
          expect.objectContaining({ value: 1 }),
        ]);
      } finally {
        await test.close();
      }
    });
  });
});
