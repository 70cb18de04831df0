import { ByteBoundedCache, OBJECT_BYTES, stringBytes } from './byte-bounded-cache';

/** What the cache counts for a key whose value `sizeOf` puts at `valueBytes`. */
const entryBytes = (key: string, valueBytes: number) =>
  stringBytes(key) + valueBytes + 3 * OBJECT_BYTES;

describe('ByteBoundedCache', () => {
  it('makes a value once and answers it again while it is kept', () => {
    const cache = new ByteBoundedCache<string>(10_000, (value) => stringBytes(value));
    const make = jest.fn(() => 'shaped');
    expect(cache.get('word', make)).toBe('shaped');
    expect(cache.get('word', make)).toBe('shaped');
    expect(make).toHaveBeenCalledTimes(1);
    expect(cache.bytes).toBe(entryBytes('word', stringBytes('shaped')));
  });

  it('never holds more bytes than its budget, letting entries not asked for again go first', () => {
    const perEntry = entryBytes('k0', 100);
    const cache = new ByteBoundedCache<number>(perEntry * 4, () => 100);
    for (const key of ['k0', 'k1', 'k2', 'k3']) cache.get(key, () => 1);
    // k0 asked for again: k1 is the oldest not asked for since.
    cache.get('k0', () => 2);
    cache.get('k4', () => 1);
    expect(cache.size).toBe(4);
    expect(cache.bytes).toBe(perEntry * 4);
    const made: string[] = [];
    for (const key of ['k0', 'k2', 'k3', 'k4', 'k1']) {
      cache.get(key, () => {
        made.push(key);
        return 0;
      });
    }
    expect(made).toEqual(['k1']);
  });

  it('keeps one key apart in each scope, under the one budget', () => {
    const cache = new ByteBoundedCache<string>(10_000, (value) => stringBytes(value));
    const regular = {};
    const bold = {};
    expect(cache.get('word', () => 'regular', regular)).toBe('regular');
    expect(cache.get('word', () => 'bold', bold)).toBe('bold');
    expect(cache.get('word', () => 'again', regular)).toBe('regular');
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(
      entryBytes('word', stringBytes('regular')) + entryBytes('word', stringBytes('bold')),
    );
  });

  it('answers an entry larger than a quarter of the budget without keeping it', () => {
    const cache = new ByteBoundedCache<string>(4_000, (value) => stringBytes(value));
    const long = 'x'.repeat(1_000);
    const make = jest.fn(() => long);
    expect(cache.get(long, make)).toBe(long);
    expect(cache.get(long, make)).toBe(long);
    expect(make).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('stays within its budget whatever it is asked for', () => {
    const budget = 50_000;
    const cache = new ByteBoundedCache<string>(budget, (value) => stringBytes(value));
    for (let index = 0; index < 5_000; index++) {
      const text = `word ${index} `.repeat(1 + (index % 40));
      cache.get(text, () => text.toUpperCase());
      expect(cache.bytes).toBeLessThanOrEqual(budget);
    }
    expect(cache.size).toBeGreaterThan(0);
  });
});
