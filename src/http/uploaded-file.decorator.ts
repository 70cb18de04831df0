import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DomainException } from '../common/domain.exception';
import { UPLOAD_FIELD, UPLOAD_TYPES } from './body-parsing.middleware';

/**
 * The file an upload operation was sent, as bytes: the raw body in one of its media types or
 * the multipart field `file` (src/http/body-parsing.middleware.ts); 422 naming `file` when the
 * request carries neither.
 */
export const UploadedFileBytes = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const body = context.switchToHttp().getRequest<Request>().body as unknown;
  if (Buffer.isBuffer(body)) return body;
  throw DomainException.invalidField(
    UPLOAD_FIELD,
    `The e-invoice is required: the body as ${UPLOAD_TYPES.join(', ')}, or the multipart file field "${UPLOAD_FIELD}"`,
  );
});
