import { UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The route takes `Idempotency-Key` (CONTRACT.md, Extensions): every POST and PUT route has
 * it, and no other (test/idempotency.e2e-spec.ts walks the routes). A route interceptor, not a
 * global one: a global interceptor would put Nest's RxJS chain around every GET for nothing.
 */
export const Idempotent = () => UseInterceptors(IdempotencyInterceptor);
