import { Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { Database, isUniqueViolation } from '../database/database';
import { IdempotencyRecord } from './idempotency-record.entity';

/** How long a completed answer is kept (docs/api.md: 24 hours). */
export const RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long a running claim holds its key before another request may take it over. Only a
 * crashed instance lets one lapse: a live request ends well within it (query timeouts and the
 * request timeout bound it). A request that outlives its claim cannot complete: see complete().
 */
export const CLAIM_LEASE_MS = 2 * 60 * 1000;

export interface IdempotencyKeyId {
  scope: string;
  keyDigest: string;
}

/** What to do with a keyed request. */
export type ClaimOutcome =
  | { kind: 'execute'; claim: IdempotencyKeyId & { takenAt: Date } }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'conflict'; reason: 'running' | 'different-request' };

/**
 * The Idempotency-Key records. A claim is committed on its own, before the request runs, so
 * that a second request with the key sees it running; the answer is written in the request's
 * own transaction, so the record a request writes and its key commit together or not at all.
 */
@Injectable()
export class IdempotencyStore {
  constructor(private readonly database: Database) {}

  async claim(id: IdempotencyKeyId, fingerprint: string): Promise<ClaimOutcome> {
    if (await this.runningElsewhere(id)) return { kind: 'conflict', reason: 'running' };
    return this.database.transaction(async () => {
      const manager = this.database.manager;
      const now = new Date();
      const claim: IdempotencyRecord = {
        ...id,
        fingerprint,
        state: 'running',
        responseStatus: null,
        responseBody: null,
        takenAt: now,
        expiresAt: new Date(now.getTime() + CLAIM_LEASE_MS),
      };
      const execute: ClaimOutcome = { kind: 'execute', claim: { ...id, takenAt: now } };
      try {
        await manager.insert(IdempotencyRecord, claim);
        return execute;
      } catch (error) {
        if (!isUniqueViolation(error, 'PRIMARY', 'idempotency_keys.')) throw error;
      }
      // Locked: two retries of a lapsed key must not both take it over.
      const record = await manager.findOne(IdempotencyRecord, {
        where: id,
        lock: this.database.lockForUpdate,
      });
      // Gone between the insert and the read: the clean-up removed an expired record.
      if (record === null) {
        await manager.insert(IdempotencyRecord, claim);
        return execute;
      }
      if (record.expiresAt.getTime() <= now.getTime()) {
        await manager.update(IdempotencyRecord, id, claim);
        return execute;
      }
      if (record.fingerprint !== fingerprint)
        return { kind: 'conflict', reason: 'different-request' };
      if (record.state === 'running' || record.responseBody === null) {
        return { kind: 'conflict', reason: 'running' };
      }
      return { kind: 'replay', status: record.responseStatus ?? 200, body: record.responseBody };
    });
  }

  /**
   * SQLite runs one unit of work at a time, and a keyed request holds the queue until it has
   * answered: a second request with its key would wait its turn and replay. docs/api.md asks
   * for 409 while the first runs, so the claim is looked at first without waiting. Its
   * `running` state was committed before the request began, so the read cannot see a state
   * that may yet roll back.
   */
  private async runningElsewhere(id: IdempotencyKeyId): Promise<boolean> {
    if (this.database.dialect !== 'sqlite' || this.database.inTransaction) return false;
    const record = await this.database.manager.findOne(IdempotencyRecord, { where: id });
    return record?.state === 'running' && record.expiresAt.getTime() > Date.now();
  }

  /**
   * Keeps the answer, in the transaction that wrote the request's records. False when the
   * claim is no longer this request's (it lapsed and a retry took the key over): the caller
   * must then roll back, so that the key stands for one execution only.
   */
  async complete(
    claim: IdempotencyKeyId & { takenAt: Date },
    status: number,
    body: string,
  ): Promise<boolean> {
    const now = new Date();
    const result = await this.database.manager.update(
      IdempotencyRecord,
      { scope: claim.scope, keyDigest: claim.keyDigest, takenAt: claim.takenAt, state: 'running' },
      {
        state: 'completed',
        responseStatus: status,
        responseBody: body,
        expiresAt: new Date(now.getTime() + RETENTION_MS),
      },
    );
    return result.affected === 1;
  }

  /** Gives the key back: nothing is kept for a request that failed, so a corrected one runs. */
  async release(claim: IdempotencyKeyId & { takenAt: Date }): Promise<void> {
    await this.database.transaction(() =>
      this.database.manager.delete(IdempotencyRecord, {
        scope: claim.scope,
        keyDigest: claim.keyDigest,
        takenAt: claim.takenAt,
        state: 'running',
      }),
    );
  }

  /** Removes every record past its expiry; answers how many. */
  async deleteExpired(now = new Date()): Promise<number> {
    const result = await this.database.transaction(() =>
      this.database.manager.delete(IdempotencyRecord, { expiresAt: LessThan(now) }),
    );
    return result.affected ?? 0;
  }
}
