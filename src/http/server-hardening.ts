import {
  BadRequestException,
  HttpException,
  HttpStatus,
  INestApplication,
  NotFoundException,
} from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppConfig } from '../config/app-config';

/**
 * Longer than the 60 s idle timeout of common load balancers (AWS ALB, GCP), so the balancer
 * closes an idle connection first and never sends a request on one this server is closing.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How often Node looks for requests past their timeouts (its default, 30 s, is too coarse). */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

/**
 * Failures Node answers itself, before Express sees a request: the parser's (HPE_*, 400 unless
 * listed) and the request timeouts.
 */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request line or headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
};
const MALFORMED_REQUEST: [number, string] = [400, 'Malformed HTTP request'];

/** Settings Node reads from the server object that its types know only as createServer options. */
type NodeServer = Server & { connectionsCheckingInterval: number; requireHostHeader: boolean };

/**
 * No `X-Powered-By`, request timeouts, and the error envelope for what the HTTP server refuses
 * on its own (the security headers are set by the request hook, see securityHeaders; what
 * Express would answer badly is refused by refuseMalformedRequest, which configureApp installs). Acts on the Express instance and the Node server, which exist
 * once the application is created.
 */
export function hardenServer(app: INestApplication): void {
  const config = app.get(AppConfig);
  const express = app.getHttpAdapter().getInstance() as Express;
  express.disable('x-powered-by');

  const server = app.getHttpServer() as NodeServer;
  server.requestTimeout = config.requestTimeoutMs;
  // Node requires headers to be due no later than the whole request.
  server.headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Read when the server starts listening.
  server.connectionsCheckingInterval = TIMEOUT_CHECK_INTERVAL_MS;
  answerClientErrorsInTheEnvelope(server);
  // Node would answer these with a bare status line; refuseMalformedRequest answers them instead.
  server.requireHostHeader = false;
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    server.emit('request', request, response),
  );
}

/**
 * The security headers of every answer, as helmet sets them, computed once: none depends on
 * the request. The request hook sets them.
 */
export function securityHeaders(): Array<[string, string]> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet({
    contentSecurityPolicy: {
      // The service speaks plain HTTP (TLS ends in front of it, or there is none on an
      // internal network): upgrading would send the /docs page's assets to an https:// that
      // does not answer.
      directives: { upgradeInsecureRequests: null },
    },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return [...headers];
}

/**
 * What Express would answer badly or Node with a bare status line, refused in the envelope: a
 * path whose percent-encoding does not decode (`/v1/invoice/%ZZ`) names no route and no record
 * (404, where Express would fail to decode the parameter and answer 400); HTTP/1.1 without
 * `Host` (400); an `Expect` other than `100-continue` (417).
 */
export function refuseMalformedRequest(
  request: Request,
  _response: Response,
  next: NextFunction,
): void {
  try {
    decodeURIComponent(request.path);
  } catch {
    next(new NotFoundException('No route or record at a path that is not valid percent-encoding'));
    return;
  }
  const expectation = request.headers.expect;
  if (request.httpVersion === '1.1' && request.headers.host === undefined) {
    next(new BadRequestException('The Host header is required'));
  } else if (expectation !== undefined && expectation.toLowerCase() !== '100-continue') {
    next(
      new HttpException('Only Expect: 100-continue is supported', HttpStatus.EXPECTATION_FAILED),
    );
  } else {
    next();
  }
}

/**
 * Node answers a malformed request, headers over its limit (16 KiB, request line included) or a
 * request timeout with a bare status line; this answers them with the JSON error envelope.
 * There is no request or response object yet: the answer is written to the socket, unless a
 * response on it has already begun (the bytes would corrupt it), and the connection closes.
 */
function answerClientErrorsInTheEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const code = error.code ?? '';
    const answer = CLIENT_ERRORS[code] ?? (code.startsWith('HPE_') ? MALFORMED_REQUEST : null);
    // Anything else (ECONNRESET, …) means the client is gone: nobody to answer.
    if (answer === null || !socket.writable || responseBegun(socket)) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(...answer), () => socket.destroy());
  });
}

/**
 * Whether a response is being written on the socket: the check Node's own clientError answer
 * makes (`_http_server.js`, socketOnError). Node keeps the response that owns the socket in
 * `_httpMessage`; a pipelined response behind it writes nothing until its turn.
 */
function responseBegun(socket: Duplex): boolean {
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  return current?.headersSent === true;
}

function rawErrorResponse(status: number, message: string): string {
  const body = JSON.stringify({ status: 'error', message });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Date: ${new Date().toUTCString()}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
