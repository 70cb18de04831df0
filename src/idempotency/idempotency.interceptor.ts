import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainException } from '../common/domain.exception';
import { Database } from '../database/database';
import { apiKeyOf } from '../http/auth/api-key.guard';
import { AnswerText, envelopeText } from '../http/envelope-adapter';
import { IdempotencyStore } from './idempotency-store';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const MAX_KEY_LENGTH = 255;
const KEYED_METHODS = new Set(['POST', 'PUT']);

/** What of a route's answer is kept for a replay: its handler's result, less what may not be. */
export type KeptAnswer = (answer: never) => unknown;

/** Where `@Idempotent({ keep })` leaves its KeptAnswer for the interceptor to read. */
export const KEPT_ANSWER = 'idempotency:kept-answer';

/** The claim lapsed while the request ran and a retry took the key over: this one rolls back. */
class LostClaim extends DomainException {
  constructor() {
    super('IDEMPOTENCY_CONFLICT', 'A retry with this Idempotency-Key took it over; try again');
  }
}

/**
 * `Idempotency-Key` on POST and PUT (docs/api.md). The first request with a key
 * claims it; the request then runs in one transaction with the write of its answer, so a
 * crash leaves either both or neither. The same key with the same request replays that
 * answer; with another request, or while the first runs, it answers 409. A failed request
 * (validation, 404, 409, 503, …) gives its key back.
 *
 * It keeps and replays the answer's final text (the envelope's, see envelope-adapter.ts), or
 * of the part a route keeps (`@Idempotent({ keep })`: a webhook's answer without its secret).
 * Only POST and PUT routes have it (`@Idempotent()`): a GET pays nothing for it.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly database: Database,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const key = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    if (!KEYED_METHODS.has(request.method) || key === undefined) return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    const keep = this.reflector.get<KeptAnswer | undefined>(KEPT_ANSWER, context.getHandler());
    return from(this.answer(request, response, readKey(key), next, keep));
  }

  private async answer(
    request: Request,
    response: Response,
    key: string,
    next: CallHandler<unknown>,
    keep: KeptAnswer | undefined,
  ): Promise<unknown> {
    const id = {
      scope: apiKeyOf(request)?.id ?? '',
      keyDigest: createHash('sha256').update(key, 'utf8').digest('hex'),
    };
    const outcome = await this.store.claim(id, requestFingerprint(request));
    if (outcome.kind === 'conflict') {
      throw new DomainException(
        'IDEMPOTENCY_CONFLICT',
        outcome.reason === 'running'
          ? 'A request with this Idempotency-Key is still running; retry once it has answered'
          : 'This Idempotency-Key was used for a different request',
      );
    }
    if (outcome.kind === 'replay') {
      response.setHeader(REPLAYED_HEADER, 'true');
      return new AnswerText(outcome.status, outcome.body);
    }
    const { claim } = outcome;
    try {
      return await this.database.transaction(async () => {
        const result = await lastValueFrom(next.handle());
        // Every POST and PUT answers the envelope; anything else (a file) is not kept, only run.
        if (result instanceof StreamableFile || response.headersSent) return result;
        const answer = new AnswerText(200, envelopeText(result));
        const kept = keep ? envelopeText(keep(result as never)) : answer.text;
        if (!(await this.store.complete(claim, answer.status, kept))) throw new LostClaim();
        return answer;
      });
    } catch (error) {
      if (!(error instanceof LostClaim)) {
        // Best effort: if the database is gone, the claim lapses on its own.
        await this.store.release(claim).catch(() => undefined);
      }
      throw error;
    }
  }
}

/** The key as sent, 1 to 255 characters; anything else answers 422 naming the header. */
function readKey(header: string | string[]): string {
  // Sent twice, Node joins the values with ", ": a request cannot name two keys.
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw DomainException.invalidField(
      IDEMPOTENCY_KEY_HEADER,
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_KEY_LENGTH} characters`,
    );
  }
  return key;
}
