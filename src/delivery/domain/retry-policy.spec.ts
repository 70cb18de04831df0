import {
  afterFailedAttempt,
  describeFailure,
  MAX_RETRY_DELAY_MS,
  retryDelayMs,
} from './retry-policy';

describe('retryDelayMs', () => {
  it('waits the base after the first attempt and doubles it after each one', () => {
    expect([1, 2, 3, 4, 8].map((attempts) => retryDelayMs(attempts, 5000))).toEqual([
      5000, 10_000, 20_000, 40_000, 640_000,
    ]);
  });

  it('never waits longer than an hour, however many attempts', () => {
    expect(retryDelayMs(11, 5000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(100, 5000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1, 3_600_000)).toBe(MAX_RETRY_DELAY_MS);
  });
});

describe('afterFailedAttempt', () => {
  const policy = { maxAttempts: 3, baseMs: 100 };
  const transient = { reason: 'ECONNECTION', permanent: false };

  it('retries with backoff while attempts remain', () => {
    expect(afterFailedAttempt(transient, 1, policy)).toEqual({ retry: true, delayMs: 100 });
    expect(afterFailedAttempt(transient, 2, policy)).toEqual({ retry: true, delayMs: 200 });
  });

  it('gives up once the attempts reach the limit', () => {
    expect(afterFailedAttempt(transient, 3, policy)).toEqual({ retry: false });
    expect(afterFailedAttempt(transient, 4, policy)).toEqual({ retry: false });
  });

  it('gives up at once on a permanent failure', () => {
    expect(afterFailedAttempt({ reason: 'EENVELOPE 550', permanent: true }, 1, policy)).toEqual({
      retry: false,
    });
  });
});

describe('describeFailure', () => {
  it('keeps the code and the SMTP status, never the message', () => {
    const error = Object.assign(new Error('550 <ada@example.com>: no such user'), {
      code: 'EENVELOPE',
      responseCode: 550,
    });
    expect(describeFailure(error)).toEqual({ reason: 'EENVELOPE 550', permanent: true });
  });

  it('treats a 4xx reply and a refused connection as temporary', () => {
    const busy = Object.assign(new Error('451 try later'), {
      code: 'EENVELOPE',
      responseCode: 451,
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' });
    expect(describeFailure(busy)).toEqual({ reason: 'EENVELOPE 451', permanent: false });
    expect(describeFailure(refused)).toEqual({ reason: 'ESOCKET', permanent: false });
  });

  it('names the error type when there is no code', () => {
    expect(describeFailure(new SyntaxError('Unexpected token'))).toEqual({
      reason: 'SyntaxError',
      permanent: false,
    });
    expect(describeFailure('text')).toEqual({ reason: 'Error', permanent: false });
  });

  it('ignores a code that could carry anything', () => {
    const error = Object.assign(new Error('x'), { code: 'ada@example.com' });
    expect(describeFailure(error).reason).toBe('Error');
  });
});
