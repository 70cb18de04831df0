import { ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { readServedDocument } from './process-answers';

/*
 * The built service as its own process (`npm test` builds it first; alone: `npx nest build`),
 * for the tests a process of its own is the point of: kill -9, two instances on one database.
 */
const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

export interface ServiceProcess {
  /** `http://127.x.y.z:<port>`: an address of its own on loopback. */
  readonly url: string;
  readonly port: number;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Sends the signal and waits for the exit (SIGKILL: no shutdown code runs). */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A port free right now on `host`. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts dist/main.js with the test's environment plus `env`, and answers once
 * `/health/ready` does (within `readyWithinMs`), or throws with what it printed.
 */
export async function startService(
  env: Record<string, string> = {},
  readyWithinMs = 30_000,
): Promise<ServiceProcess> {
  // An address of its own in 127.0.0.0/8: a port found free can be taken by another process
  // before the service binds it, and /health/ready would then be answered by that process.
  // No other test listens beyond 127.0.0.1, so on this address only the service can answer.
  const host = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const port = await freePort(host);
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: host },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://${host}:${port}`;
  const service: ServiceProcess = {
    url,
    port,
    output: () => output,
    kill: (signal = 'SIGKILL') => stop(child, signal),
  };
  const deadline = Date.now() + readyWithinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const response = await fetch(`${url}/health/ready`);
      if (response.status === 200) {
        await readServedDocument(url);
        return service;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop(child, 'SIGKILL');
  throw new Error(`The service did not become ready:\n${output}`);
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/**
 * Starts dist/main.js with the test's environment plus `env`, on a port nobody listens on, and
 * waits for it to stop by itself (a service that did start is killed after `withinMs`, and
 * answers code null): for start-ups that must refuse.
 */
export async function runUntilExit(
  env: Record<string, string>,
  withinMs = 15_000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '1', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), withinMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}
