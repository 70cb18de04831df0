import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor, KEPT_ANSWER, KeptAnswer } from './idempotency.interceptor';

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
