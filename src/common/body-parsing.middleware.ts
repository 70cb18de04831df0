import {
  BadRequestException,
  Injectable,
  NestMiddleware,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { isSafeNumber, parse } from 'lossless-json';
import multer, { MulterError } from 'multer';
import { AppConfig } from '../config/app-config';

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';
const MULTIPART_TYPE = 'multipart/form-data';
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A JSON number becomes a JS number only when that loses nothing; otherwise (more digits than
 * a double holds, or exponent notation) its text is kept, and validation decides.
 */
function parseJsonNumber(text: string): number | string {
  return PLAIN_NUMBER.test(text) && isSafeNumber(text) ? Number(text) : text;
}

/**
 * Accepts the three encodings of CONTRACT.md (JSON, URL-encoded form, multipart fields) and
 * nothing else. Errors go to the error filter, which answers them in the error envelope.
 */
@Injectable()
export class BodyParsingMiddleware implements NestMiddleware {
  private readonly parsers: RequestHandler[];

  constructor(config: AppConfig) {
    const limit = config.bodyLimit;
    const fieldLimits = { fieldSize: 64 * 1024, fields: 10_000, parts: 10_000 };
    const multipart = multer({ limits: fieldLimits }).none();
    this.parsers = [
      express.text({ type: JSON_TYPES, limit }),
      parseJsonText,
      express.urlencoded({ extended: true, limit, parameterLimit: 10_000 }),
      (request, response, next) =>
        multipart(request, response, (error?: unknown) => next(describeMultipartError(error))),
    ];
  }

  use(request: Request, response: Response, next: NextFunction): void {
    if (hasBody(request) && !request.is([...JSON_TYPES, FORM_TYPE, MULTIPART_TYPE])) {
      next(
        new UnsupportedMediaTypeException(
          'Unsupported content type: send application/json, application/x-www-form-urlencoded or multipart/form-data',
        ),
      );
      return;
    }
    const run = (index: number, error?: unknown): void => {
      if (error !== undefined || index === this.parsers.length) {
        next(error);
        return;
      }
      this.parsers[index](request, response, (nextError?: unknown) => run(index + 1, nextError));
    };
    run(0);
  }
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
  let parsed: unknown;
  try {
    parsed = parse(request.body, null, parseJsonNumber);
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

/** Busboy reports a broken form as a plain Error; that is the client's fault, not ours. */
function describeMultipartError(error: unknown): unknown {
  if (error === undefined || error === null) return undefined;
  if (error instanceof MulterError) return error;
  return new BadRequestException('Malformed multipart body');
}
