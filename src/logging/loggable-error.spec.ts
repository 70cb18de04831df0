import { QueryFailedError } from 'typeorm';
import { describeUnexpectedError } from './loggable-error';

describe('describeUnexpectedError', () => {
  it('keeps the class, the driver code and the frames of a failed query, not its message', () => {
    const driverError = Object.assign(
      new Error("Duplicate entry 'ada@example.com' for key 'uq_clients_email'"),
      { code: 'ER_DUP_ENTRY' },
    );
    const error = new QueryFailedError('INSERT INTO clients …', ['ada@example.com'], driverError);

    const described = describeUnexpectedError(error);

    expect(described).toEqual({
      type: 'QueryFailedError',
      code: 'ER_DUP_ENTRY',
      frames: expect.arrayContaining([expect.stringMatching(/^at .*loggable-error\.spec/)]),
    });
    expect(JSON.stringify(described)).not.toContain('ada@');
  });

  it('never takes a line of the message for a frame', () => {
    const error = new TypeError('bad value\n    at ada@example.com\nend of message');

    const { frames } = describeUnexpectedError(error);

    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((frame) => frame.startsWith('at ') && !frame.includes('ada@'))).toBe(true);
  });

  it('names the kind of anything thrown that is not an Error', () => {
    expect(describeUnexpectedError('ada@example.com')).toEqual({ type: 'string', frames: [] });
    expect(describeUnexpectedError(null)).toEqual({ type: 'null', frames: [] });
  });
});
