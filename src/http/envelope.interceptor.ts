import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import { stringify } from 'lossless-json';
import { Observable, map } from 'rxjs';

/**
 * Wraps every handler's result as `{"status": "success", …result}` with HTTP 200, the one
 * success status of the specification (POST included). It serialises the body itself so that
 * decimals the mappers mark as JSON numbers go out digit for digit. A file (a PDF) goes out as
 * it is.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(
    context: ExecutionContext,
    next: CallHandler<object>,
  ): Observable<string | StreamableFile> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result) => {
        if (result instanceof StreamableFile) return result;
        // A handler that answered by itself (`@Res()`: the Prometheus text of /metrics).
        if (response.headersSent) return '';
        response.status(200).type('application/json');
        return stringify({ status: 'success', ...result }) ?? '{}';
      }),
    );
  }
}
