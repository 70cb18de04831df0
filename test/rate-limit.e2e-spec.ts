import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import Redis from 'ioredis';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { apiKeyId } from '../src/http/auth/api-key-ring';
import { RATE_LIMIT_KEY_PREFIX } from '../src/http/rate-limit/rate-limit.storage';
import { clientInput } from './factories/clients';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError } from './setup/expectations';
import { describeWithoutDatabase } from './setup/test-database';

const REDIS_URL = 'redis://127.0.0.1:6379';
const LIMIT = 5;
/** Keys of their own per test: the Redis counters outlive an app and other runs share Redis. */
const newKey = () => `rate-${randomBytes(12).toString('hex')}`;

function agentWith(test: TestApp, key?: string): TestAgent {
  return test.agent(key === undefined ? {} : { 'X-API-Key': key });
}

/** Sends `count` reads, across routes, and answers their statuses. */
async function readTimes(agent: TestAgent, count: number): Promise<number[]> {
  const paths = ['/v1/client/all', '/v1/invoice/all', '/v1/estimate/all', '/v1/expense/all'];
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) {
    statuses.push((await agent.get(paths[index % paths.length])).status);
  }
  return statuses;
}

/** A 429 in the error envelope whose Retry-After is a whole number of seconds within the minute. */
function expectRateLimited(response: request.Response): void {
  expectError(response, 429);
  expect(response.body).toEqual({ status: 'error', message: 'Too many requests, try again later' });
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  const seconds = Number(response.headers['retry-after']);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
}

/**
 * A TCP relay to the test Redis that can drop out and come back on the same port, so that an
 * outage can be staged without stopping the Redis other test files use.
 */
interface RedisRelay {
  url: string;
  /** Refuses new connections and cuts the open ones, as a Redis going down would. */
  stop(): Promise<void>;
  restart(): Promise<void>;
}

async function startRedisRelay(): Promise<RedisRelay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(6379, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restart: () => listen(port),
  };
}

/** Polls `check` every 50 ms, for up to 3 s, until it holds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met within 3 s');
}

const ok = (count: number) => Array<number>(count).fill(200);

describe('Rate limits', () => {
  const keys = {
    exhausted: newKey(),
    another: newKey(),
    afterWrongKeys: newKey(),
    checker: newKey(),
    shared: newKey(),
    unlimited: newKey(),
    readOnly: newKey(),
  };
  const fullKeys = [keys.exhausted, keys.another, keys.afterWrongKeys, keys.checker].join(',');
  /** Owns the file's database; the other apps are further instances on it. */
  let keyed: TestApp;

  beforeAll(async () => {
    keyed = await createTestApp({
      env: {
        API_KEYS: fullKeys,
        API_KEYS_READONLY: keys.readOnly,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
      },
    });
  });

  afterAll(async () => {
    await keyed.close();
  });

  describe('per API key, in memory', () => {
    it('answers the request past the limit 429 with Retry-After, over all routes together', async () => {
      const agent = agentWith(keyed, keys.exhausted);
      const allowed = await agent.get('/v1/client/all');
      expect(allowed.status).toBe(200);
      expect(allowed.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(allowed.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
      expect(await readTimes(agent, LIMIT - 1)).toEqual(ok(LIMIT - 1));
      expectRateLimited(await agent.get('/v1/client/all'));
      expectRateLimited(await agent.get('/v1/expense/all'));
    });

    it('refuses a write past the limit without doing it', async () => {
      const agent = agentWith(keyed, keys.exhausted);
      const input = clientInput();
      expectRateLimited(await agent.post('/v1/client/add').send(input));
      const listed = await agentWith(keyed, keys.checker).get('/v1/client/all').expect(200);
      const names = (listed.body as { data: Array<{ names: string }> }).data.map((c) => c.names);
      expect(names).not.toContain(input.names);
    });

    it('counts each key on its own', async () => {
      expect(await readTimes(agentWith(keyed, keys.another), LIMIT)).toEqual(ok(LIMIT));
      expect(await readTimes(agentWith(keyed, keys.readOnly), LIMIT)).toEqual(ok(LIMIT));
      expectRateLimited(await agentWith(keyed, keys.another).get('/v1/client/all'));
    });

    it('checks the key first: a wrong key answers 401, never 429, and uses no one’s limit', async () => {
      const wrong = agentWith(keyed, newKey());
      const statuses = await readTimes(wrong, LIMIT * 2);
      expect(statuses).toEqual(Array<number>(LIMIT * 2).fill(401));
      expect(await readTimes(agentWith(keyed, keys.afterWrongKeys), LIMIT)).toEqual(ok(LIMIT));
    });
  });

  it('leaves the probes alone, even for a caller past its limit', async () => {
    const exhausted = agentWith(keyed, keys.exhausted);
    expectRateLimited(await exhausted.get('/v1/client/all'));
    for (let index = 0; index < LIMIT * 2; index += 1) {
      const response = await exhausted.get('/health');
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    for (let index = 0; index < LIMIT * 2; index += 1) await keyed.http.get('/health').expect(200);
  });

  describe('per client address when the API is open', () => {
    let open: TestApp;

    beforeAll(async () => {
      open = await createTestApp({
        env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) },
        sharedDatabase: true,
      });
    });

    afterAll(async () => {
      await open.close();
    });

    it('limits the address', async () => {
      expect(await readTimes(open.http, LIMIT)).toEqual(ok(LIMIT));
      expectRateLimited(await open.http.get('/v1/client/all'));
    });
  });

  // The limiter counts in memory or in Redis, never in the database: 650 requests prove it
  // once, in the SQLite run.
  describeWithoutDatabase('RATE_LIMIT_PER_MINUTE=0', () => {
    let unlimited: TestApp;

    beforeAll(async () => {
      unlimited = await createTestApp({
        env: { API_KEYS: keys.unlimited, RATE_LIMIT_PER_MINUTE: '0' },
        sharedDatabase: true,
      });
    });

    afterAll(async () => {
      await unlimited.close();
    });

    it('never limits: more requests than the default limit of 600 all pass', async () => {
      const agent = agentWith(unlimited, keys.unlimited);
      const statuses: number[] = [];
      for (let batch = 0; batch < 13; batch += 1) {
        const responses = await Promise.all(
          Array.from({ length: 50 }, () => agent.get('/v1/expense/all')),
        );
        statuses.push(...responses.map((response) => response.status));
        expect(responses[0].headers['x-ratelimit-limit']).toBeUndefined();
      }
      expect(statuses).toEqual(ok(650));
    });
  });

  describe('with REDIS_URL', () => {
    const env = {
      API_KEYS: keys.shared,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      REDIS_URL,
    };
    let instanceA: TestApp;
    let instanceB: TestApp;
    let redis: Redis;

    beforeAll(async () => {
      instanceA = await createTestApp({ env, sharedDatabase: true });
      instanceB = await createTestApp({ env, sharedDatabase: true });
      redis = new Redis(REDIS_URL);
    });

    afterAll(async () => {
      await instanceA.close();
      await instanceB.close();
      await redis.quit();
    });

    it('shares one limit between instances', async () => {
      const key = keys.shared;
      expect(await readTimes(agentWith(instanceA, key), 3)).toEqual(ok(3));
      expect(await readTimes(agentWith(instanceB, key), 2)).toEqual(ok(2));
      expectRateLimited(await agentWith(instanceB, key).get('/v1/client/all'));
      expectRateLimited(await agentWith(instanceA, key).get('/v1/client/all'));
    });

    it('still counts each key on its own', async () => {
      const key = newKey();
      const other = await createTestApp({
        env: { ...env, API_KEYS: key, API_KEYS_READONLY: newKey() },
        sharedDatabase: true,
      });
      try {
        expect(await readTimes(agentWith(other, key), LIMIT)).toEqual(ok(LIMIT));
        expectRateLimited(await agentWith(other, key).get('/v1/client/all'));
      } finally {
        await other.close();
      }
    });

    it('keeps the counters under the fixed prefix, by key id, never by the key', async () => {
      const stored = await redis.keys(`${RATE_LIMIT_KEY_PREFIX}*key:${apiKeyId(keys.shared)}*`);
      expect(stored.length).toBeGreaterThan(0);
      expect(await redis.keys(`*${keys.shared}*`)).toEqual([]);
    });
  });

  describe('when Redis cannot be reached', () => {
    let redis: Redis;

    beforeAll(() => {
      redis = new Redis(REDIS_URL);
    });

    afterAll(async () => {
      await redis.quit();
    });

    /** The hits Redis holds for a key (0: none). */
    const hitsInRedis = async (key: string) => {
      const [name] = await redis.keys(`${RATE_LIMIT_KEY_PREFIX}*key:${apiKeyId(key)}*hits`);
      return name === undefined ? 0 : Number(await redis.get(name));
    };

    it('starts anyway, serves, limits per instance, and closes promptly', async () => {
      const key = newKey();
      const unreachable = await createTestApp({
        env: {
          API_KEYS: key,
          RATE_LIMIT_PER_MINUTE: String(LIMIT),
          // Nothing listens on port 1: every connection attempt is refused.
          REDIS_URL: 'redis://127.0.0.1:1',
        },
        sharedDatabase: true,
      });
      try {
        expect(await readTimes(agentWith(unreachable, key), LIMIT)).toEqual(ok(LIMIT));
        expectRateLimited(await agentWith(unreachable, key).get('/v1/client/all'));
        // Checked against the document now: the closing below is timed alone.
        await unreachable.checkAnswers();
      } finally {
        const started = Date.now();
        await unreachable.close();
        expect(Date.now() - started).toBeLessThan(2_000);
      }
    });

    it('keeps serving through an outage and shares the counters again once Redis is back', async () => {
      // Spied on rather than read from the app's log capture: lines logged outside a request go
      // to the first app of the file (nestjs-pino keeps one such logger per process).
      const warn = jest.spyOn(Logger.prototype, 'warn');
      const log = jest.spyOn(Logger.prototype, 'log');
      /** How many times the spied method was called with a message holding `text`. */
      const said = (spy: jest.SpyInstance, text: string): number =>
        spy.mock.calls.filter(([message]) => typeof message === 'string' && message.includes(text))
          .length;
      const relay = await startRedisRelay();
      const [before, during, after] = [newKey(), newKey(), newKey()];
      const app = await createTestApp({
        env: {
          API_KEYS: [before, during, after].join(','),
          RATE_LIMIT_PER_MINUTE: String(LIMIT),
          REDIS_URL: relay.url,
        },
        sharedDatabase: true,
      });
      try {
        expect(await readTimes(agentWith(app, before), 2)).toEqual(ok(2));
        expect(await hitsInRedis(before)).toBe(2);

        await relay.stop();
        expect(await readTimes(agentWith(app, during), LIMIT)).toEqual(ok(LIMIT));
        expectRateLimited(await agentWith(app, during).get('/v1/client/all'));
        expect(await hitsInRedis(during)).toBe(0);

        await relay.restart();
        await eventually(async () => {
          await agentWith(app, after).get('/v1/client/all').expect(200);
          return (await hitsInRedis(after)) > 0;
        });
        // Once per outage, not once per request or reconnection attempt.
        expect(said(warn, 'Redis unreachable')).toBe(1);
        expect(said(log, 'Redis reachable again')).toBe(1);
      } finally {
        warn.mockRestore();
        log.mockRestore();
        await app.close();
        await relay.stop();
      }
    });
  });
});
