import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/*
 * The built service (`npm test` builds it first; alone: `npx nest build`) refuses a bad
 * configuration before it opens a port or touches a database, naming what is wrong.
 */
const MAIN = join(__dirname, '..', 'dist', 'main.js');

async function start(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    // A port nobody listens on: a service that did start would be killed by the timeout below.
    env: { ...process.env, PORT: '1', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}

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
