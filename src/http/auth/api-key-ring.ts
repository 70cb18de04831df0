import { createHash, timingSafeEqual } from 'node:crypto';

export type ApiKeyAccess = 'full' | 'read-only';

/** Who called: never the key itself, which is neither logged nor stored. */
export interface ApiKeyIdentity {
  /** The first 12 hex digits of the key's SHA-256: stable per key, and not the key. */
  id: string;
  access: ApiKeyAccess;
}

interface RingEntry {
  digest: Buffer;
  identity: ApiKeyIdentity;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The short id a key is known by in the rate limiter, logs and idempotency records. */
export function apiKeyId(key: string): string {
  return sha256(key).toString('hex').slice(0, 12);
}

/** The configured API keys, kept as SHA-256 digests. */
export class ApiKeyRing {
  private readonly entries: RingEntry[];

  constructor(fullKeys: readonly string[], readOnlyKeys: readonly string[]) {
    const entry = (key: string, access: ApiKeyAccess): RingEntry => ({
      digest: sha256(key),
      identity: { id: apiKeyId(key), access },
    });
    this.entries = [
      ...fullKeys.map((key) => entry(key, 'full')),
      ...readOnlyKeys.map((key) => entry(key, 'read-only')),
    ];
  }

  /**
   * The identity of the configured key equal to `presented`, if any. Digests of equal length
   * are compared in constant time, against every key without stopping at a match, so neither
   * the time taken nor its length tells how close a guess came or which key it hit.
   */
  identify(presented: string): ApiKeyIdentity | undefined {
    const digest = sha256(presented);
    let match: ApiKeyIdentity | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, digest)) match = entry.identity;
    }
    return match;
  }
}
