import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** What of a route's answer is kept for a replay: its handler's result, less what may not be. */
export type KeptAnswer = (answer: never) => unknown;

export const KEPT_ANSWER = 'idempotency:kept-answer';

/**
 * The route takes `Idempotency-Key` (docs/api.md): every POST and PUT route has it, and no
 * other (test/idempotency.e2e-spec.ts walks the routes). A route interceptor, not a global
 * one: a global interceptor would put Nest's RxJS chain around every GET for nothing.
 *
 * `keep` names what of the answer is stored and replayed, when part of it may exist only once
 * (a webhook secret): the first answer is sent whole, a replay gets the kept part.
 */
export const Idempotent = (options: { keep?: KeptAnswer } = {}) =>
  applyDecorators(
    ...(options.keep ? [SetMetadata(KEPT_ANSWER, options.keep)] : []),
    UseInterceptors(IdempotencyInterceptor),
  );
