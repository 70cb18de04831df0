import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppConfig } from '../config/app-config';
import { isPublicAddress } from './domain/destination';

/** The most of an answer read and kept: the rest is never read. */
export const RESPONSE_BODY_LIMIT = 1024;

/** How long a kept-alive connection may stay idle before the agent closes it. */
const IDLE_CONNECTION_MS = 2_000;

/** What one POST came to. */
export interface WebhookAttempt {
  /** The receiver's status; null when no answer came. */
  statusCode: number | null;
  /** An error code when no (complete) answer came: never a message, which may quote the URL. */
  error: string;
  /** At most RESPONSE_BODY_LIMIT bytes of the answer, as text. */
  responseBody: string;
  durationMs: number;
}

/**
 * POSTs webhooks. Connections go through request-filtering-agent, which checks the address a
 * host resolves to at connection time (so DNS cannot be changed between the check and the
 * request) and refuses every non-public one unless WEBHOOK_ALLOW_PRIVATE=true; the agents here
 * put the service's own address rule (isPublicAddress, the one the add check asks) in front of
 * its check, since ipaddr.js alone takes `::127.0.0.1` for public. Redirects are not followed
 * (node:http never does); the whole attempt, connection to last byte, has one deadline; the
 * answer is read up to 1 KiB.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly config: AppConfig) {
    const options = {
      keepAlive: true,
      // An idle connection is closed well before a receiver would close it (Node's own
      // server: 5 s), so a request rarely goes out on a connection closing under it.
      timeout: IDLE_CONNECTION_MS,
      allowPrivateIPAddress: config.webhookAllowPrivate,
      allowMetaIPAddress: false,
    };
    this.httpAgent = config.webhookAllowPrivate
      ? new RequestFilteringHttpAgent(options)
      : new PublicOnlyHttpAgent(options);
    this.httpsAgent = config.webhookAllowPrivate
      ? new RequestFilteringHttpsAgent(options)
      : new PublicOnlyHttpsAgent(options);
  }

  /** After the runner has stopped (module destroy), so no job still uses it. */
  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * One attempt. A kept-alive connection the receiver closed just as it was reused fails before
   * the request reached it (ECONNRESET on a reused socket): that is tried once more at once, on
   * a new connection, within the same deadline.
   */
  async post(
    url: string,
    body: string,
    headers: Record<string, string>,
    cutOff: AbortSignal,
  ): Promise<WebhookAttempt> {
    const signal = AbortSignal.any([cutOff, AbortSignal.timeout(this.config.webhookTimeoutMs)]);
    const first = await this.send(url, body, headers, signal);
    if (!first.staleConnection) return first.attempt;
    const second = await this.send(url, body, headers, signal);
    return { ...second.attempt, durationMs: first.attempt.durationMs + second.attempt.durationMs };
  }

  private send(
    url: string,
    body: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<{ attempt: WebhookAttempt; staleConnection: boolean }> {
    const started = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (fields: Omit<WebhookAttempt, 'durationMs'>, staleConnection = false) => {
        if (settled) return;
        settled = true;
        const durationMs = Math.round(performance.now() - started);
        resolve({ attempt: { ...fields, durationMs }, staleConnection });
      };
      const secure = url.startsWith('https:');
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        signal,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'invoicing-webhooks/1',
        },
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          settle({
            statusCode: response.statusCode ?? null,
            error: '',
            // A character cut at the limit is left out whole, not turned into U+FFFD.
            responseBody: new TextDecoder().decode(Buffer.concat(chunks), { stream: true }),
          });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_BODY_LIMIT) {
            const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - kept);
            chunks.push(part);
            kept += part.length;
          }
          // Enough is read: the status is what counts, and the rest is not waited for.
          if (kept >= RESPONSE_BODY_LIMIT) done();
        });
        response.on('end', done);
        response.on('error', () => done());
      });
      request.on('error', (error) => {
        const code = errorCode(error, signal);
        const stale = code === 'ECONNRESET' && request.reusedSocket && !signal.aborted;
        settle({ statusCode: null, error: code, responseBody: '' }, stale);
      });
      request.end(body);
    });
  }
}

type ConnectionOptions = net.TcpNetConnectOpts;
type ConnectionCallback = (error: Error | null, socket: Duplex) => void;

/** Refuses a connection to a non-public IP literal, and a host that resolves to one. */
class PublicOnlyHttpAgent extends RequestFilteringHttpAgent {
  override createConnection(options: ConnectionOptions, callback?: ConnectionCallback) {
    return refusedSocket(options, callback) ?? super.createConnection(checked(options), callback);
  }
}

class PublicOnlyHttpsAgent extends RequestFilteringHttpsAgent {
  override createConnection(options: ConnectionOptions, callback?: ConnectionCallback) {
    return refusedSocket(options, callback) ?? super.createConnection(checked(options), callback);
  }
}

function addressRefused(address: string): Error {
  return new Error(`The address ${address} is not allowed: it is not a public address`);
}

/** A socket that fails at once, as request-filtering-agent answers a refused address. */
function refusedSocket(
  options: ConnectionOptions,
  callback?: ConnectionCallback,
): net.Socket | undefined {
  const host = options.host;
  if (typeof host !== 'string' || net.isIP(host) === 0 || isPublicAddress(host)) return undefined;
  const socket = new net.Socket();
  if (callback) callback(addressRefused(host), socket);
  else socket.destroy(addressRefused(host));
  return socket;
}

/** The connection's options with a lookup that refuses any non-public address it resolves to. */
function checked(options: ConnectionOptions): ConnectionOptions {
  const resolve = (options.lookup ?? dns.lookup) as typeof dns.lookup;
  const lookup = (
    hostname: string,
    lookupOptions: dns.LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | dns.LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    resolve(hostname, lookupOptions, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = Array.isArray(address) ? address.map((found) => found.address) : [address];
      const refused = addresses.find((found) => !isPublicAddress(found));
      if (refused !== undefined) return callback(addressRefused(refused), address, family);
      callback(null, address, family);
    });
  };
  return { ...options, lookup };
}

/** A short code for why no answer came; never the error's message, which may quote the URL. */
function errorCode(error: Error, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof DOMException && reason.name === 'TimeoutError' ? 'TIMEOUT' : 'ABORTED';
  }
  if (/is not allowed/.test(error.message)) return 'ADDRESS_REFUSED';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'REQUEST_FAILED';
}
