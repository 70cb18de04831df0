import { runUntilExit as start } from './setup/service-process';

/*
 * The built service (`npm test` builds it first; alone: `npx nest build`) refuses a bad
 * configuration before it opens a port or touches a database, naming what is wrong.
 */
describe('Start-up with a bad configuration', () => {
  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://db/invoicing' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: 'lots' }],
    ['API_KEYS', { API_KEYS: 'short' }],
    [
      'API_KEYS (or API_KEYS_READONLY) must be set when NODE_ENV=production',
      { NODE_ENV: 'production', API_KEYS: '', API_KEYS_READONLY: '' },
    ],
  ])('stops with a message naming %s', async (variable, env) => {
    const { code, output } = await start(env);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toContain(variable);
    expect(output).not.toContain('Listening on');
  });
});
