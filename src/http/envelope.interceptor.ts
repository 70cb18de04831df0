import {
  CallHandler,
  ExecutionContext,
  Injectable,
  Logger,
  NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { Observable, map } from 'rxjs';
import { StreamedList } from '../database/find-list';
import { describeUnexpectedError } from '../logging/loggable-error';
import { jsonText } from './json-text';

const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/**
 * Wraps every handler's result as `{"status": "success", …result}` with HTTP 200, the one
 * success status of the specification (POST included). It serialises the body itself so that
 * decimals the mappers mark as JSON numbers go out digit for digit. A file (a PDF) goes out as
 * it is; a whole list goes out batch by batch as it is read.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly logger = new Logger(EnvelopeInterceptor.name);

  intercept(
    context: ExecutionContext,
    next: CallHandler<object>,
  ): Observable<string | StreamableFile> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result) => {
        if (result instanceof StreamableFile) return result;
        if (result instanceof StreamedList && result.rest !== null) return this.streamed(result);
        // A handler that answered by itself (`@Res()`: the Prometheus text of /metrics).
        if (response.headersSent) return '';
        response.status(200).type('application/json');
        // A whole list that fit in its first batch goes out in one piece, with its length.
        const body = result instanceof StreamedList ? { data: result.first } : result;
        return jsonText({ status: 'success', ...body }) ?? '{}';
      }),
    );
  }

  /** `{"status":"success","data":[…]}`, one chunk per batch of rows. */
  private streamed(list: StreamedList<unknown>): StreamableFile {
    const file = new StreamableFile(Readable.from(envelopeChunks(list)), {
      type: JSON_MEDIA_TYPE,
    });
    // The status line is gone by now: all that is left is to cut the answer short, so the
    // client sees a broken body rather than a list that looks complete.
    return file.setErrorHandler((error, response) => {
      this.logger.error(
        { error: describeUnexpectedError(error) },
        'A streamed list failed part way',
      );
      response.destroy?.();
    });
  }
}

async function* envelopeChunks(list: StreamedList<unknown>): AsyncGenerator<string> {
  yield '{"status":"success","data":[';
  let empty = list.first.length === 0;
  yield batchText(list.first, true);
  for await (const batch of list.rest?.() ?? []) {
    if (batch.length === 0) continue;
    yield batchText(batch, empty);
    empty = false;
  }
  yield ']}';
}

/** Rows as JSON, comma-separated; a comma in front unless they open the array. */
function batchText(batch: unknown[], opensArray: boolean): string {
  const text = batch.map((row) => jsonText(row) ?? 'null').join(',');
  return opensArray || text === '' ? text : `,${text}`;
}
