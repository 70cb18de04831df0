import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { parse } from 'qs';

/**
 * The operation's parameters from the query string and the body together; a body value wins
 * over a query value (docs/api.md). Validated against the parameter's DTO class.
 *
 * The query is parsed into objects without a prototype, so a key that names a property of
 * Object.prototype (`status[__proto__]=x`, `status[toString]=x`) is kept as given: `status` is
 * then an object, which its rule refuses (422 naming it), instead of vanishing and leaving the
 * list unfiltered. Such a key at the top level is an unknown parameter, ignored as any other
 * (class-transformer never copies `__proto__` or `constructor`).
 */
export const RequestInput = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<Request>();
  const queryStart = request.originalUrl.indexOf('?');
  const query =
    queryStart < 0
      ? {}
      : parse(request.originalUrl.slice(queryStart + 1), {
          arrayLimit: 500,
          parameterLimit: 10_000,
          plainObjects: true,
        });
  const body: unknown = request.body;
  const bodyFields = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
  return { ...query, ...bodyFields };
});
