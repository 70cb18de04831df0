import { NestApplication } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError, expectSuccess } from './setup/expectations';
import { TcpProxy } from './setup/tcp-proxy';
import { testDialect } from './setup/test-database';

const KEY = `health-${randomBytes(12).toString('hex')}`;

describe('Health probes', () => {
  describe('with keys configured', () => {
    let test: TestApp;

    beforeAll(async () => {
      test = await createTestApp({ env: { API_KEYS: KEY } });
    });

    afterAll(async () => {
      await test.close();
    });

    it('GET /health answers 200 without a key, uncached', async () => {
      const response = await test.http.get('/health');

      expect(expectSuccess(response)).toEqual({ status: 'success' });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('GET /health/ready answers 200 without a key once the database answers SELECT 1', async () => {
      const response = await test.http.get('/health/ready');

      expect(expectSuccess(response)).toEqual({
        status: 'success',
        checks: { database: { status: 'up', responseTime: expect.any(Number) } },
      });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('lives outside /v1, which still needs a key', async () => {
      expectError(await test.http.get('/v1/health'), 404);
      expectError(await test.http.get('/v1/health/ready'), 404);
      expectError(await test.http.get('/v1/client/all'), 401);
    });
  });

  describe('once shutdown begins', () => {
    it('fails readiness with a 503 while the process is still alive', async () => {
      const test = await createTestApp({ env: { SHUTDOWN_DRAIN_MS: '500' } });
      try {
        await test.http.get('/health/ready').expect(200);

        // What SIGTERM does (Nest's shutdown hooks with the signal), minus the exit.
        let closed = false;
        const closing = (test.app as NestApplication).close('SIGTERM').then(() => {
          closed = true;
        });
        let ready = await test.http.get('/health/ready');
        while (ready.status === 200 && !closed) ready = await test.http.get('/health/ready');
        const alive = await test.http.get('/health');
        await closing;

        expectError(ready, 503);
        expect(ready.body).toEqual({ status: 'error', message: 'Not ready: shutting down' });
        expectSuccess(alive);
        const logged = test.logs.entries();
        expect(logged).toContainEqual(
          expect.objectContaining({
            context: 'Shutdown',
            msg: 'SIGTERM: readiness fails now; the listener closes in 500 ms',
          }),
        );
        // A failing probe is news: a warning, where a passing one is only logged at debug.
        expect(logged).toContainEqual(
          expect.objectContaining({
            level: 'warn',
            requestId: ready.headers['x-request-id'],
            route: '/health/ready',
            status: 503,
          }),
        );
      } finally {
        await test.close();
      }
    });
  });

  // "Unreachable" is a MariaDB matter: SQLite is a file the process holds open, and SELECT 1
  // on it does not even read the file. So this runs on MariaDB only.
  if (testDialect() === 'mysql') {
    describe('when the database stops answering', () => {
      let proxy: TcpProxy;
      let test: TestApp;

      beforeAll(async () => {
        proxy = await TcpProxy.start(3306);
        const database = new URL(process.env.DATABASE_URL ?? '').pathname;
        test = await createTestApp({
          env: {
            DATABASE_URL: `mariadb://root@127.0.0.1:${proxy.port}${database}`,
            HEALTH_DATABASE_TIMEOUT_MS: '500',
          },
        });
      });

      afterAll(async () => {
        await test.close();
        await proxy.stop();
      });

      it('answers 503 within the timeout, then 200 again once it is back', async () => {
        await test.http.get('/health/ready').expect(200);

        await proxy.stop();
        const started = Date.now();
        const down = await test.http.get('/health/ready');
        expectError(down, 503);
        expect(down.body).toEqual({
          status: 'error',
          message: 'Not ready: the database does not answer',
        });
        expect(Date.now() - started).toBeLessThan(500 + 1000);
        expectSuccess(await test.http.get('/health'));

        await proxy.resume();
        expectSuccess(await test.http.get('/health/ready'));
        // Logged when readiness changes, not at every probe.
        const changes = test.logs.entries().filter((entry) => entry.context === 'Readiness');
        expect(changes).toEqual([
          expect.objectContaining({
            level: 'warn',
            msg: 'Not ready: the database does not answer',
            checks: { database: expect.objectContaining({ status: 'down' }) },
          }),
          expect.objectContaining({ level: 'info', msg: 'Ready: the database answers again' }),
        ]);
      });

      it('answers 503 when the database accepts connections but does not answer', async () => {
        await test.http.get('/health/ready').expect(200);

        proxy.stall();
        const started = Date.now();
        const down = await test.http.get('/health/ready');
        const elapsed = Date.now() - started;
        expectError(down, 503);
        expect(elapsed).toBeGreaterThanOrEqual(450);
        expect(elapsed).toBeLessThan(500 + 1000);

        await proxy.stop();
        await proxy.resume();
        expectSuccess(await test.http.get('/health/ready'));
      });
    });
  }
});
