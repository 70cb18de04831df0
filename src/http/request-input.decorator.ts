import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { parse } from 'qs';

/**
 * The operation's parameters from the query string and the body together; a body value wins
 * over a query value (CONTRACT.md, Transport). Validated against the parameter's DTO class.
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
        });
  const body: unknown = request.body;
  const bodyFields = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
  return { ...query, ...bodyFields };
});
