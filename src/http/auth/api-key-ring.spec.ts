import crypto from 'node:crypto';
import { apiKeyId, ApiKeyRing } from './api-key-ring';

const FULL = 'full-key-0123456789';
const OTHER_FULL = 'other-full-key-0123456789';
const READ_ONLY = 'read-only-key-0123456789';

describe('ApiKeyRing', () => {
  const ring = new ApiKeyRing([FULL, OTHER_FULL], [READ_ONLY]);

  afterEach(() => jest.restoreAllMocks());

  it('identifies each configured key with its access', () => {
    expect(ring.identify(FULL)).toEqual({ id: apiKeyId(FULL), access: 'full' });
    expect(ring.identify(OTHER_FULL)).toEqual({ id: apiKeyId(OTHER_FULL), access: 'full' });
    expect(ring.identify(READ_ONLY)).toEqual({ id: apiKeyId(READ_ONLY), access: 'read-only' });
  });

  it.each([
    ['an unknown key', 'unknown-key-0123456789'],
    ['the empty string', ''],
    ['a prefix of a key', FULL.slice(0, -1)],
    ['a key with one more character', `${FULL}9`],
    ['a key in another case', FULL.toUpperCase()],
    ['a key with spaces around it', ` ${FULL} `],
    ['a far longer text', FULL.repeat(100)],
  ])('identifies no one for %s', (_, presented) => {
    expect(ring.identify(presented)).toBeUndefined();
  });

  it('identifies no one when no key is configured', () => {
    expect(new ApiKeyRing([], []).identify(FULL)).toBeUndefined();
  });

  it('compares equal-length digests against every key, even after a match', () => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    for (const presented of [FULL, READ_ONLY, 'x', FULL.repeat(20)]) {
      compare.mockClear();
      ring.identify(presented);
      expect(compare).toHaveBeenCalledTimes(3);
      for (const [configured, given] of compare.mock.calls) {
        expect([configured.byteLength, given.byteLength]).toEqual([32, 32]);
      }
    }
  });
});

describe('apiKeyId', () => {
  it('is 12 hex digits of the SHA-256 of the key, the same every time', () => {
    const expected = crypto.createHash('sha256').update(FULL).digest('hex').slice(0, 12);
    expect(apiKeyId(FULL)).toBe(expected);
    expect(apiKeyId(FULL)).toMatch(/^[0-9a-f]{12}$/);
  });

  it('differs between keys and shows nothing of the key', () => {
    expect(apiKeyId(FULL)).not.toBe(apiKeyId(OTHER_FULL));
    expect(FULL).not.toContain(apiKeyId(FULL));
  });
});
