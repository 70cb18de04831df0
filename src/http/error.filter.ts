import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { MulterError } from 'multer';
import { DOMAIN_ERROR_STATUS, DomainException, FieldErrors } from '../common/domain.exception';
import { CONNECTION_WAIT_TIMEOUT, QUERY_TIMEOUT } from '../database/mysql-pool-bounds';
import { describeUnexpectedError } from '../logging/loggable-error';

interface ErrorBody {
  status: 'error';
  message: string;
  errors?: FieldErrors;
}

/**
 * Driver error codes that mean "the database is not there, or not now", not "this request is
 * wrong": unreachable, too slow (a bound of ours ran out), or still locked after the retries.
 */
const DATABASE_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  QUERY_TIMEOUT,
  'PROTOCOL_SEQUENCE_TIMEOUT',
  CONNECTION_WAIT_TIMEOUT,
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_QUERY_INTERRUPTED',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
]);

/** body-parser's error types and what the client did wrong. */
const BODY_PARSER_ERRORS: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'Malformed request body'],
  'entity.too.large': [413, 'Request body is too large'],
  'entity.verify.failed': [400, 'Malformed request body'],
  'request.aborted': [400, 'Request body was not received in full'],
  'request.size.invalid': [400, 'Request body length does not match Content-Length'],
  'parameters.too.many': [413, 'Too many parameters in the request body'],
  'charset.unsupported': [415, 'Unsupported charset'],
  'charset.invalid': [400, 'The request body is not valid UTF-8'],
  'encoding.unsupported': [415, 'Unsupported content encoding'],
  'stream.encoding.set': [500, 'Internal server error'],
};

/**
 * Turns every failure into the error envelope `{"status": "error", "message", "errors"?}`.
 * Anything not recognised is a bug: it is logged and answered as a bare 500.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const [status, body] = this.describe(exception);
    if (status >= 500 && status !== 503) {
      // Class, code and frames only: a driver's message quotes the request's values.
      this.logger.error({ error: describeUnexpectedError(exception) }, 'Unexpected error');
    }
    if (response.headersSent) return;
    response.status(status).json(body);
  }

  private describe(exception: unknown): [number, ErrorBody] {
    if (exception instanceof DomainException) {
      const body: ErrorBody = { status: 'error', message: exception.message };
      if (exception.errors) body.errors = exception.errors;
      return [DOMAIN_ERROR_STATUS[exception.code], body];
    }
    if (exception instanceof MulterError) {
      const status =
        exception.code.startsWith('LIMIT_') && exception.code !== 'LIMIT_UNEXPECTED_FILE'
          ? 413
          : 400;
      const message =
        exception.code === 'LIMIT_UNEXPECTED_FILE'
          ? 'File uploads are not accepted'
          : exception.message;
      return [status, { status: 'error', message }];
    }
    if (exception instanceof HttpException) {
      return [exception.getStatus(), { status: 'error', message: httpExceptionMessage(exception) }];
    }
    const bodyParserError = describeBodyParserError(exception);
    if (bodyParserError) return bodyParserError;
    if (isDatabaseUnavailable(exception)) {
      return [503, { status: 'error', message: 'Database unavailable, try again later' }];
    }
    return [500, { status: 'error', message: 'Internal server error' }];
  }
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return exception.message;
}

function describeBodyParserError(exception: unknown): [number, ErrorBody] | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const { type, status } = exception as { type?: unknown; status?: unknown };
  if (typeof type === 'string' && type in BODY_PARSER_ERRORS) {
    const [code, message] = BODY_PARSER_ERRORS[type];
    return [code, { status: 'error', message }];
  }
  // Busboy (multipart) reports a truncated or broken form as a plain Error with a 4xx status.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return [status, { status: 'error', message: 'Malformed request body' }];
  }
  return null;
}

function isDatabaseUnavailable(exception: unknown): boolean {
  const candidates = [exception, (exception as { driverError?: unknown })?.driverError];
  return candidates.some((candidate) => {
    const { code, fatal } = (candidate ?? {}) as { code?: unknown; fatal?: unknown };
    // mysql2 marks an error that broke its connection as fatal, some without a code.
    if (fatal === true) return true;
    if (typeof code !== 'string') return false;
    // SQLite: the file's write lock outlasted busy_timeout (SQLITE_BUSY and its extended codes).
    return DATABASE_UNAVAILABLE.has(code) || code.startsWith('SQLITE_BUSY');
  });
}
