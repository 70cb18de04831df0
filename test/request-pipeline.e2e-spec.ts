import { ApplicationConfig } from '@nestjs/core';
import { ApiKeyGuard } from '../src/http/auth/api-key.guard';
import { RateLimitGuard } from '../src/http/rate-limit/rate-limit.guard';
import { createTestApp, TestApp } from './setup/create-app';

/*
 * What every request passes through, kept to what it needs (docs/architecture.md, "The request
 * pipeline"): any global interceptor, even one that does nothing, makes Nest wrap every request
 * in an RxJS chain, so there is none; the global guards are the service's own two.
 */
describe('Request pipeline', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test.close();
  });

  it('has no global interceptor (nestjs-cls registers a no-op one: it is left out)', () => {
    expect(test.app.get(ApplicationConfig).getGlobalInterceptors()).toEqual([]);
    expect(test.app.get(ApplicationConfig).getGlobalRequestInterceptors()).toEqual([]);
  });

  it('has the API key guard then the rate-limit guard as its only global guards', () => {
    const guards = [
      ...test.app.get(ApplicationConfig).getGlobalGuards(),
      ...test.app
        .get(ApplicationConfig)
        .getGlobalRequestGuards()
        .map((each) => each.instance),
    ];
    expect(guards.map((guard) => guard?.constructor)).toEqual([ApiKeyGuard, RateLimitGuard]);
  });

  it('still answers the envelope, the request id and the security headers on every route', async () => {
    for (const path of ['/health', '/v1/client/all', '/v1/no-such-thing']) {
      const response = await test.http.get(path);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body.status).toBe(response.status === 200 ? 'success' : 'error');
    }
  });
});
