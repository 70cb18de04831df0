import { setTimeout as delay } from 'node:timers/promises';

/**
 * Reads until `done` holds, at most `timeoutMs`, every 20 ms; fails with the last value read
 * (through `show`, to keep a large one short).
 */
export async function eventually<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
  show: (value: T) => unknown = (value) => value,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`Still not there after ${timeoutMs} ms: ${JSON.stringify(show(value))}`);
    }
    await delay(20);
  }
}
