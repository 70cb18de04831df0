import { Logger, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { StreamedList } from '../database/find-list';
import { describeUnexpectedError } from '../logging/loggable-error';
import { jsonText } from '../common/json-text';

const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/** An answer whose JSON text is final already (kept for Idempotency-Key): sent as it is. */
export class AnswerText {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}
}

/**
 * `{"status": "success", …result}`: a handler's result in the success envelope, as JSON text
 * in which the decimals the mappers mark as JSON numbers go out digit for digit.
 */
export function envelopeText(result: unknown): string {
  // A whole list that fit in its first batch goes out in one piece, with its length.
  const body = result instanceof StreamedList ? { data: result.first } : result;
  return jsonText({ status: 'success', ...(body as object) }) ?? '{}';
}

/**
 * Express, as @nestjs/platform-express adapts it, answering every handler's result in the
 * success envelope with HTTP 200, the one success status of the specification (POST
 * included). A file (a PDF) goes out as it is; a whole list goes out batch by batch as it is
 * read. Done where Nest writes a result, not in an interceptor: an interceptor puts an RxJS
 * chain around every request, and this needs none. Handlers that answer by themselves
 * (`@Res()`: the Prometheus text of /metrics) never reach it.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  private readonly envelopeLogger = new Logger('EnvelopeExpressAdapter');

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof StreamableFile) return super.reply(response, body, statusCode);
    if (body instanceof StreamedList && body.rest !== null) {
      return super.reply(response, this.streamed(body), statusCode);
    }
    if (body instanceof AnswerText) return sendJson(response, body.status, body.text);
    return sendJson(response, 200, envelopeText(body));
  }

  /** `{"status":"success","data":[…]}`, one chunk per batch of rows. */
  private streamed(list: StreamedList<unknown>): StreamableFile {
    const file = new StreamableFile(Readable.from(envelopeChunks(list)), {
      type: JSON_MEDIA_TYPE,
    });
    // The status line is gone by now: all that is left is to cut the answer short, so the
    // client sees a broken body rather than a list that looks complete.
    return file.setErrorHandler((error, response) => {
      this.envelopeLogger.error(
        { error: describeUnexpectedError(error) },
        'A streamed list failed part way',
      );
      response.destroy?.();
    });
  }
}

/**
 * The status and media type set on the response itself (Express's `status()` and `type()`
 * check and parse what is known already), then Express's `send`: length, ETag, HEAD, 304.
 */
function sendJson(response: Response, status: number, text: string): Response {
  response.statusCode = status;
  response.setHeader('Content-Type', JSON_MEDIA_TYPE);
  return response.send(text);
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
