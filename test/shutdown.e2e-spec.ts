import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, ClientRequest, IncomingMessage, request } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { LogCapture } from './setup/log-capture';
import { readServedDocument, recordAnswer } from './setup/process-answers';
import { createTestDatabase, dropTestDatabase } from './setup/test-database';

/*
 * The built service (`npm test` builds it first; alone: `npx nest build`), started as in
 * production on the file's throwaway database, and stopped with SIGTERM.
 */
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const DRAIN_MS = 400;
const TIMEOUT_MS = 5000;

interface Answer {
  status: number;
  body: string;
}

interface Service {
  child: ChildProcess;
  port: number;
  logs: LogCapture;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const services: Service[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `node dist/main.js` and resolves once it listens. */
async function startService(env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs = new LogCapture();
  const exit = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const service = { child, port, logs, exit };
  services.push(service);
  const listening = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      logs.write(line);
      if (line.includes('"msg":"Listening on')) resolve();
    });
    void exit.then(({ code }) =>
      reject(new Error(`The service exited (${code}) before listening`)),
    );
  });
  await listening;
  await readServedDocument(`http://127.0.0.1:${port}`);
  return service;
}

/**
 * One request on a connection of its own; `null` when the connection is refused, or reset
 * because the listener closed while it waited to be accepted.
 */
function get(service: Service, path: string, agent: Agent | false = false): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: service.port, path, agent });
    outgoing.on('response', (response) => resolve(readAnswer(response, 'GET', path)));
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      ['ECONNREFUSED', 'ECONNRESET'].includes(error.code ?? '') ? resolve(null) : reject(error),
    );
    outgoing.end();
  });
}

/** Reads an answer whole, and records it for the check against the document. */
async function readAnswer(
  response: IncomingMessage,
  method: string,
  path: string,
): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const answer = { status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() };
  recordAnswer(method, path, {
    status: answer.status,
    contentType: response.headers['content-type'],
    text: answer.body,
  });
  return answer;
}

/**
 * A client add whose body arrives in two parts: it is in flight (the service has its headers,
 * as its `100 Continue` shows) until `finish()` sends the rest.
 */
async function startSlowRequest(
  service: Service,
  body: string,
  agent: Agent | false = false,
): Promise<{ finish(): void; answer: Promise<Answer> }> {
  const outgoing: ClientRequest = request({
    host: '127.0.0.1',
    port: service.port,
    method: 'POST',
    path: '/v1/client/add',
    agent,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      Expect: '100-continue',
    },
  });
  const answer = once(outgoing, 'response').then(([response]) =>
    readAnswer(response as IncomingMessage, 'POST', '/v1/client/add'),
  );
  // A request left unfinished fails when the service exits; the test that cares awaits it.
  void answer.catch(() => undefined);
  await once(outgoing, 'continue');
  const half = Math.floor(body.length / 2);
  outgoing.write(body.slice(0, half));
  return { finish: () => outgoing.end(body.slice(half)), answer };
}

/** Asks again, without waiting, until the answer is what `done` wants. */
async function until(
  ask: () => Promise<Answer | null>,
  done: (answer: Answer | null) => boolean,
): Promise<Answer | null> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const answer = await ask();
    if (done(answer)) return answer;
  }
  throw new Error('The service never answered as expected');
}

describe('Shutdown on SIGTERM', () => {
  beforeAll(async () => {
    await createTestDatabase();
  });

  afterEach(() => {
    for (const service of services.splice(0)) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGKILL');
      }
    }
  });

  afterAll(async () => {
    await dropTestDatabase();
  });

  it('fails readiness, drains, closes the listener, finishes the request in flight and exits 0', async () => {
    const service = await startService({
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      SHUTDOWN_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    expect(await get(service, '/health/ready')).toMatchObject({ status: 200 });
    // The request in flight comes on a keep-alive connection: once answered, that connection
    // is idle and must not hold the exit open until the server's keep-alive timeout.
    const keepAlive = new Agent({ keepAlive: true });
    const input = { names: 'Slow Lane Ltd', email: 'slow.lane@example.com' };
    const slow = await startSlowRequest(service, JSON.stringify(input), keepAlive);

    const signalled = Date.now();
    service.child.kill('SIGTERM');

    const notReady = await until(
      () => get(service, '/health/ready'),
      (answer) => answer?.status !== 200,
    );
    expect(notReady).toEqual({
      status: 503,
      body: JSON.stringify({ status: 'error', message: 'Not ready: shutting down' }),
    });
    expect(await get(service, '/health')).toMatchObject({ status: 200 });

    const refused = await until(
      () => get(service, '/health'),
      (answer) => answer === null,
    );
    expect(refused).toBeNull();
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_MS - 50);

    // The listener is closed; the request that was in flight still gets its answer.
    slow.finish();
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'success', data: [input] });

    expect(await service.exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(TIMEOUT_MS);
    keepAlive.destroy();

    const entries = service.logs.entries();
    expect(entries.find((entry) => entry.route === '/v1/client/add')).toMatchObject({
      method: 'POST',
      status: 200,
    });
    expect(entries.map((entry) => entry.msg)).toEqual(
      expect.arrayContaining([
        `SIGTERM: readiness fails now; the listener closes in ${DRAIN_MS} ms`,
        'Listener closed and in-flight requests finished',
      ]),
    );
    service.logs.forbid(Object.values(input));
    service.logs.assertNoPersonalData();
  });

  it('exits 1 with a log line when the shutdown outlasts SHUTDOWN_TIMEOUT_MS', async () => {
    const service = await startService({ SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '1000' });
    // Never finished: the listener's close waits for it past the bound.
    const stuck = await startSlowRequest(service, JSON.stringify({ names: 'Never Done Ltd' }));
    const outcome = stuck.answer.then(
      () => 'answered',
      (error: Error) => error.message,
    );

    const signalled = Date.now();
    service.child.kill('SIGTERM');

    expect(await service.exit).toEqual({ code: 1, signal: null });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1000 - 50);
    expect(await outcome).toBe('socket hang up');
    expect(service.logs.entries().at(-1)).toMatchObject({
      level: 'error',
      context: 'Shutdown',
      msg: 'Shutdown took longer than 1000 ms; exiting',
    });
  });
});
