import { Column, Entity, PrimaryColumn } from 'typeorm';
import { InstantColumn } from '../database/columns';

/** `running`: claimed by a request still being answered. `completed`: its answer is kept. */
export type IdempotencyState = 'running' | 'completed';

/**
 * One `Idempotency-Key` of one API key: the request it was first used for (a digest) and,
 * once that request has completed, the answer to replay. Neither the key nor the API key is
 * stored, only their digests.
 */
@Entity('idempotency_keys')
export class IdempotencyRecord {
  /** The API key's id (12 hex digits of its SHA-256), or '' while the API is open. */
  @PrimaryColumn({ type: 'varchar', length: 12 })
  scope: string;

  /** SHA-256 of the Idempotency-Key, hex. */
  @PrimaryColumn({ name: 'key_digest', type: 'varchar', length: 64 })
  keyDigest: string;

  /** SHA-256 of the request: method, path and every parameter (see request-fingerprint.ts). */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 9 })
  state: IdempotencyState;

  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus: number | null;

  /** The answer's JSON text, exactly as it was sent. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  /** When the current claim was taken: with the key it names that claim. */
  @InstantColumn('taken_at')
  takenAt: Date;

  /** Running: when the claim lapses (its instance died). Completed: the end of the 24 hours. */
  @InstantColumn('expires_at')
  expiresAt: Date;
}
