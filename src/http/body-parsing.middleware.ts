import {
  BadRequestException,
  Injectable,
  NestMiddleware,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { parse as parseBytes } from 'bytes';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'lossless-json';
import multer, { MulterError } from 'multer';
import { AppConfig } from '../config/app-config';
import { JsonNumberText } from '../common/json-number-text';
import { inSequence } from './in-sequence';

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';
const MULTIPART_TYPE = 'multipart/form-data';

/**
 * The one operation that takes a file as its body (docs/einvoices.md, Import): as the raw body
 * in one of these types, or as the multipart file field `file`. Matched as Express routes it:
 * any letter case, with or without a final slash.
 */
export const UPLOAD_ROUTE = { method: 'POST', path: '/v1/expense/import' } as const;
export const UPLOAD_TYPES = ['application/xml', 'text/xml', 'application/pdf'] as const;
export const UPLOAD_FIELD = 'file';
/**
 * The largest upload: a Factur-X PDF carries its fonts and perhaps a logo; a few MB is
 * generous. A larger body is refused with 413 as it arrives (by its Content-Length, or when
 * chunked once the limit is passed), never held whole.
 */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** A UTF-16 surrogate that is not half of a pair: a `\ud800` escape names no character. */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * No parameter nests deeper than a line item inside `items`; a body nested far deeper would
 * only exhaust the stack of the recursive steps after parsing. The form parser's limit too.
 */
const MAX_JSON_DEPTH = 32;

/**
 * A JSON number becomes a JS number only when that loses nothing; otherwise (more digits than
 * a double holds, exponent notation, or places a double drops, as in `1.50`) its text is kept,
 * still marked as a number, and validation decides: a numeric parameter reads the text as
 * written, a text parameter refuses a number.
 */
function parseJsonNumber(text: string): number | JsonNumberText {
  return PLAIN_NUMBER.test(text) && String(Number(text)) === text
    ? Number(text)
    : new JsonNumberText(text);
}

/** JSON text is Unicode text: a string or key with a lone surrogate makes the body malformed. */
function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value))) {
    throw new SyntaxError('a string holds an unpaired surrogate escape');
  }
  return value;
}

/** Whether the JSON text opens more than `limit` arrays or objects inside each other. */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '[' || char === '{') {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === ']' || char === '}') {
      depth -= 1;
    }
  }
  return false;
}

/**
 * A body declared UTF-8 must be UTF-8: decoding would silently swap bad bytes for U+FFFD and
 * store text the client never sent. Other charsets are decoded as declared.
 */
function verifyUtf8(
  _request: IncomingMessage,
  _response: ServerResponse,
  body: Buffer,
  charset: string | null,
): void {
  if ((charset === 'utf-8' || charset === 'utf8') && !isUtf8(body)) {
    throw Object.assign(new Error('The request body is not valid UTF-8'), {
      type: 'charset.invalid',
    });
  }
}

/**
 * Accepts the three encodings of docs/rules.md (JSON, URL-encoded form, multipart fields) and
 * nothing else. Errors go to the error filter, which answers them in the error envelope.
 */
@Injectable()
export class BodyParsingMiddleware implements NestMiddleware {
  /** The parsers in turn: each takes the body only if it is its type. */
  private readonly parse: RequestHandler;
  /** The upload route's parsers: the raw file, or the multipart form with its file. */
  private readonly parseUpload: RequestHandler;

  constructor(config: AppConfig) {
    const limit = config.bodyLimit;
    const fieldLimits = { fieldSize: 64 * 1024, fields: 10_000, parts: 10_000 };
    const multipart = multer({ limits: fieldLimits }).none();
    this.parse = inSequence([
      express.text({ type: JSON_TYPES, limit, verify: verifyUtf8 }),
      parseJsonText,
      express.urlencoded({ extended: true, limit, parameterLimit: 10_000, verify: verifyUtf8 }),
      limitMultipartBody(parseBytes(limit) ?? 0),
      (request, response, next) =>
        multipart(request, response, (error?: unknown) => next(describeMultipartError(error))),
    ]);
    const uploadForm = multer({
      storage: multer.memoryStorage(),
      limits: { ...fieldLimits, fields: 100, parts: 101, files: 1, fileSize: UPLOAD_LIMIT_BYTES },
    }).any();
    this.parseUpload = inSequence([
      express.raw({ type: [...UPLOAD_TYPES], limit: UPLOAD_LIMIT_BYTES }),
      limitMultipartBody(UPLOAD_LIMIT_BYTES),
      (request, response, next) =>
        uploadForm(request, response, (error?: unknown) => next(describeMultipartError(error))),
      takeUploadedFile,
    ]);
  }

  use(request: Request, response: Response, next: NextFunction): void {
    // Most requests (every GET) have no body: nothing to parse, and each parser would only
    // find that out for itself.
    if (!hasBody(request)) {
      next();
      return;
    }
    if (isUploadRoute(request)) {
      if (!request.is([...UPLOAD_TYPES, MULTIPART_TYPE])) {
        next(
          new UnsupportedMediaTypeException(
            `Unsupported content type: send the e-invoice as ${UPLOAD_TYPES.join(', ')}, or as the file field "${UPLOAD_FIELD}" of multipart/form-data`,
          ),
        );
        return;
      }
      void this.parseUpload(request, response, next);
      return;
    }
    if (!request.is([...JSON_TYPES, FORM_TYPE, MULTIPART_TYPE])) {
      next(
        new UnsupportedMediaTypeException(
          'Unsupported content type: send application/json, application/x-www-form-urlencoded or multipart/form-data',
        ),
      );
      return;
    }
    void this.parse(request, response, next);
  }
}

function isUploadRoute(request: Request): boolean {
  return (
    request.method === UPLOAD_ROUTE.method &&
    request.path.replace(/\/+$/, '').toLowerCase() === UPLOAD_ROUTE.path
  );
}

/**
 * The body of an upload becomes the file's bytes, whichever way it came; a form without the
 * `file` field keeps its fields, and the operation answers 422 naming `file`.
 */
function takeUploadedFile(request: Request, _response: Response, next: NextFunction): void {
  const files = request.files;
  if (Array.isArray(files)) {
    const file = files.find((entry) => entry.fieldname === UPLOAD_FIELD);
    if (file) request.body = file.buffer;
  }
  next();
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

function parseJsonText(request: Request, _response: Response, next: NextFunction): void {
  if (typeof request.body !== 'string') {
    next();
    return;
  }
  if (request.body.trim() === '') {
    request.body = {};
    next();
    return;
  }
  if (nestedDeeperThan(request.body, MAX_JSON_DEPTH)) {
    next(new BadRequestException(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`));
    return;
  }
  let parsed: unknown;
  try {
    parsed = parse(request.body, refuseLoneSurrogates, parseJsonNumber);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    next(new BadRequestException(`Malformed JSON body${detail}`));
    return;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    next(new BadRequestException('The JSON body must be an object'));
    return;
  }
  request.body = parsed;
  next();
}

/**
 * Multer caps each field and the number of fields, not the whole body: a multipart body is
 * held to BODY_LIMIT like the other encodings, by its declared length or, when chunked, by the
 * bytes that arrive. Past the limit the form is abandoned and the request answers 413.
 */
function limitMultipartBody(limit: number): RequestHandler {
  return (request, _response, next) => {
    if (!request.is(MULTIPART_TYPE)) {
      next();
      return;
    }
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limit) {
      next(bodyTooLarge());
      return;
    }
    let received = 0;
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        request.off('data', count);
        // Multer listens for this: it stops the form, drains the rest and hands the error on.
        request.emit('error', bodyTooLarge());
      }
    };
    request.on('data', count);
    request.once('end', () => request.off('data', count));
    next();
  };
}

function isBodyTooLarge(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'entity.too.large';
}

function bodyTooLarge(): Error {
  return Object.assign(new Error('Request body is too large'), { type: 'entity.too.large' });
}

/** Busboy reports a broken form as a plain Error; that is the client's fault, not ours. */
function describeMultipartError(error: unknown): unknown {
  if (error === undefined || error === null) return undefined;
  if (error instanceof MulterError || isBodyTooLarge(error)) return error;
  return new BadRequestException('Malformed multipart body');
}
