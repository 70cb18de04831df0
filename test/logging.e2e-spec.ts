import { DataSource } from 'typeorm';
import { createClient } from './factories/clients';
import { createTestApp, TestApp } from './setup/create-app';
import { expectError } from './setup/expectations';
import { testDialect } from './setup/test-database';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Every key of a request line: what pino adds, then the request's own. Nothing else. */
const REQUEST_LINE_KEYS = [
  'durationMs',
  'hostname',
  'level',
  'method',
  'msg',
  'pid',
  'requestId',
  'route',
  'status',
  'time',
];

type LogEntry = Record<string, unknown>;

describe('Logging', () => {
  let test: TestApp;

  beforeAll(async () => {
    // Webhook URLs on loopback (the address rule lifted); no delivery worker runs.
    test = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });

  afterAll(async () => {
    await test.close();
  });

  /** The lines logged while handling the request with this id; the request line is the last. */
  const linesOf = (requestId: string): LogEntry[] =>
    test.logs.entries().filter((entry) => entry.requestId === requestId);

  const requestLineOf = (requestId: string): LogEntry => {
    const lines = linesOf(requestId).filter((entry) => entry.durationMs !== undefined);
    expect(lines).toHaveLength(1);
    return lines[0];
  };

  it('logs every line as JSON with a level name and an ISO time', () => {
    expect(test.logs.lines.length).toBeGreaterThan(0);
    for (const entry of test.logs.entries()) {
      expect(entry).toMatchObject({
        level: expect.stringMatching(/^(trace|debug|info|warn|error|fatal)$/),
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        msg: expect.any(String),
      });
    }
  });

  describe('one line per request', () => {
    it('holds the method, the route pattern, the status, the duration and the request id', async () => {
      const id = await createClient(test.http);
      const response = await test.http
        .get(`/v1/client/${id}`)
        .set('X-Request-Id', 'trace-42.a_b')
        .expect(200);

      expect(response.headers['x-request-id']).toBe('trace-42.a_b');
      const line = requestLineOf('trace-42.a_b');
      expect(Object.keys(line).sort()).toEqual(REQUEST_LINE_KEYS);
      expect(line).toMatchObject({
        level: 'info',
        msg: 'request completed',
        method: 'GET',
        route: '/v1/client/:id',
        status: 200,
        durationMs: expect.any(Number),
      });
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('names the route, not the path: the query string and the ids stay out', async () => {
      const response = await test.http
        .get('/v1/client/all?q=Bartholomew%20Quince&per_page=7')
        .expect(200);

      const requestId = response.headers['x-request-id'];
      expect(requestLineOf(requestId)).toMatchObject({ route: '/v1/client/all', status: 200 });
      expect(test.logs.lines.some((line) => line.includes('Bartholomew'))).toBe(false);
      expect(test.logs.lines.some((line) => line.includes('per_page'))).toBe(false);
    });

    it('logs a failure at info with its status, and a path no route matched as unmatched', async () => {
      const unknown = await test.http.get('/v1/no-such-thing/ada@example.com');
      expectError(unknown, 404);
      expect(requestLineOf(unknown.headers['x-request-id'])).toMatchObject({
        level: 'info',
        method: 'GET',
        route: 'unmatched',
        status: 404,
      });

      const refused = await test.http
        .post('/v1/client/add')
        .set('Content-Type', 'text/plain')
        .send('names=Ada');
      expectError(refused, 415);
      // Refused before routing: no handler took it.
      expect(requestLineOf(refused.headers['x-request-id'])).toMatchObject({
        method: 'POST',
        route: 'unmatched',
        status: 415,
      });

      const invalid = await test.http.post('/v1/client/add').send({ email: 'not-an-address' });
      expectError(invalid, 422);
      expect(requestLineOf(invalid.headers['x-request-id'])).toMatchObject({
        route: '/v1/client/add',
        status: 422,
      });
    });

    it('logs a successful probe or scrape at debug, so not at info', async () => {
      const probes = ['/health', '/health/ready', '/metrics'];
      const answers = await Promise.all(probes.map((path) => test.http.get(path).expect(200)));
      for (const answer of answers) expect(linesOf(answer.headers['x-request-id'])).toEqual([]);
    });

    it('never logs the body: names, e-mail, phone and address stay out', async () => {
      const response = await test.http
        .post('/v1/client/add')
        .set('X-Request-Id', 'body-check')
        .send({
          names: 'Philippa Marchbanks',
          email: 'philippa@example.org',
          phone: '+44 20 7946 0111',
          address: '7 Juniper Row, Leeds',
        })
        .expect(200);

      expect(response.headers['x-request-id']).toBe('body-check');
      const everything = test.logs.lines.join('\n');
      for (const value of ['Philippa', 'philippa@', '7946 0111', 'Juniper']) {
        expect(everything).not.toContain(value);
      }
      expect(requestLineOf('body-check')).toMatchObject({ route: '/v1/client/add', status: 200 });
    });

    it('never logs a webhook URL or signing secret, nor an event', async () => {
      type Hook = { id: string; secret: string };
      const urls = [
        'http://127.0.0.1:9/hooks/Quillfeather?token=Zephyrine42',
        'http://127.0.0.1:9/hooks/Marrowind',
      ];
      const added = await test.http
        .post('/v1/webhook/add')
        .set('X-Request-Id', 'hook-add')
        .send({ url: urls[0], events: ['*'], description: 'Ledger sync for Ottoline' })
        .expect(200);
      const [hook] = (added.body as { webhook: Hook[] }).webhook;
      await test.http
        .put(`/v1/webhook/${hook.id}`)
        .set('X-Request-Id', 'hook-update')
        .send({ url: urls[1] })
        .expect(200);
      const rotated = await test.http
        .post(`/v1/webhook/${hook.id}/rotate-secret`)
        .set('X-Request-Id', 'hook-rotate')
        .expect(200);
      const secrets = [hook.secret, (rotated.body as { webhook: Hook[] }).webhook[0].secret];
      // A change the endpoint receives: an event with a delivery.
      await createClient(test.http);
      await test.http.get('/v1/event/all').set('X-Request-Id', 'hook-events').expect(200);
      await test.http
        .delete(`/v1/webhook/${hook.id}`)
        .set('X-Request-Id', 'hook-delete')
        .expect(200);

      const routes = ['hook-add', 'hook-update', 'hook-rotate', 'hook-events', 'hook-delete'].map(
        (requestId) => requestLineOf(requestId).route,
      );
      expect(routes).toEqual([
        '/v1/webhook/add',
        '/v1/webhook/:id',
        '/v1/webhook/:id/rotate-secret',
        '/v1/event/all',
        '/v1/webhook/:id',
      ]);
      const everything = test.logs.lines.join('\n');
      for (const value of [
        ...urls,
        'Quillfeather',
        'Zephyrine42',
        'Marrowind',
        'Ottoline',
        'whsec_',
        ...secrets.map((secret) => secret.slice('whsec_'.length)),
      ]) {
        expect(everything).not.toContain(value);
      }
    });
  });

  describe('X-Request-Id', () => {
    it.each([
      ['a dotted id', 'client.request-1_A'],
      ['one character', 'x'],
      ['128 characters', 'a'.repeat(128)],
    ])('keeps the one the caller sends: %s', async (_name, sent) => {
      const response = await test.http.get('/v1/client/all').set('X-Request-Id', sent);

      expect(response.headers['x-request-id']).toBe(sent);
      expect(requestLineOf(sent)).toMatchObject({ status: 200 });
    });

    it.each([
      ['too long', 'a'.repeat(129)],
      ['a space', 'two words'],
      ['a slash', 'a/b'],
      ['an e-mail address', 'someone@example.com'],
      ['a newline escape', 'line%0Abreak'],
      ['empty', ''],
    ])('replaces an unacceptable one with a new UUID: %s', async (_name, sent) => {
      const response = await test.http.get('/v1/client/all').set('X-Request-Id', sent);

      const answered = response.headers['x-request-id'];
      expect(answered).toMatch(UUID);
      expect(requestLineOf(answered)).toMatchObject({ status: 200 });
      if (sent !== '') expect(test.logs.lines.some((line) => line.includes(sent))).toBe(false);
    });

    it('generates a new UUID for every request that sends none', async () => {
      const first = await test.http.get('/v1/client/all');
      const second = await test.http.get('/v1/client/all');

      expect(first.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).toMatch(UUID);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('is answered on errors too', async () => {
      const notFound = await test.http.get('/v1/client/999999').set('X-Request-Id', 'err-1');
      expectError(notFound, 404);
      expect(notFound.headers['x-request-id']).toBe('err-1');

      const malformed = await test.http
        .post('/v1/client/add')
        .set('Content-Type', 'application/json')
        .set('X-Request-Id', 'err-2')
        .send('{"names":');
      expectError(malformed, 400);
      expect(malformed.headers['x-request-id']).toBe('err-2');
      expect(requestLineOf('err-2')).toMatchObject({ method: 'POST', status: 400 });
    });
  });

  describe('an unexpected error', () => {
    const LEAKED_EMAIL = 'leak.trigger@example.net';

    beforeAll(async () => {
      // A database error whose message quotes a value the request sent, as driver messages do
      // (`Duplicate entry '…'`): a trigger that refuses this e-mail and names it.
      const dataSource = test.app.get(DataSource);
      await dataSource.query(
        testDialect() === 'sqlite'
          ? `CREATE TRIGGER refuse_leak BEFORE INSERT ON clients WHEN NEW.email = '${LEAKED_EMAIL}'
             BEGIN SELECT RAISE(ABORT, 'refused ${LEAKED_EMAIL}'); END`
          : `CREATE TRIGGER refuse_leak BEFORE INSERT ON clients FOR EACH ROW
             IF NEW.email = '${LEAKED_EMAIL}' THEN
               SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused ${LEAKED_EMAIL}';
             END IF`,
      );
    });

    it('is logged with its class, code and stack frames, but not its message', async () => {
      const response = await test.http
        .post('/v1/client/add')
        .set('X-Request-Id', 'boom-1')
        .send({ names: 'Trigger Happy', email: LEAKED_EMAIL });

      expectError(response, 500);
      const [errorLine] = linesOf('boom-1').filter((entry) => entry.msg === 'Unexpected error');
      expect(errorLine).toMatchObject({
        level: 'error',
        context: 'ErrorFilter',
        error: {
          type: 'QueryFailedError',
          code: expect.any(String),
          frames: expect.arrayContaining([expect.stringMatching(/^at /)]),
        },
      });
      expect(requestLineOf('boom-1')).toMatchObject({ level: 'error', status: 500 });
      expect(test.logs.lines.some((line) => line.includes('leak.trigger'))).toBe(false);
      expect(test.logs.lines.some((line) => line.includes('refused'))).toBe(false);
    });
  });

  describe('the check of the whole run', () => {
    it('finds a value a request sent, or any e-mail address, if a line holds one', async () => {
      await test.http.get('/v1/client/all?q=Wilhelmina').expect(200);
      test.logs.assertNoPersonalData();

      for (const planted of ['{"msg":"found Wilhelmina"}', '{"msg":"mail x.y@example.com"}']) {
        test.logs.write(planted);
        expect(() => test.logs.assertNoPersonalData()).toThrow(/personal data/);
        test.logs.lines.pop();
      }
      test.logs.assertNoPersonalData();
    });
  });
});
