import { randomBytes } from 'node:crypto';
import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the receiver answers one request. */
export interface Reply {
  /** HTTP status; 200 unless given. */
  status?: number;
  /** The answer's body; empty unless given. */
  body?: string;
  /** Waits this long before answering (the request is recorded at once). */
  delayMs?: number;
  /** Destroys the connection instead of answering. */
  destroy?: boolean;
}

/** One request as it arrived. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as the bytes came (UTF-8). */
  body: string;
  /** Wall-clock milliseconds when its body had arrived. */
  at: number;
  /** Whether its signature verified (standardwebhooks) with the secret its path expected. */
  verified: boolean;
  /** Why it did not verify; empty when it did. */
  verifyError: string;
  /** What the receiver answered. */
  reply: Reply;
}

/**
 * A webhook receiver on 127.0.0.1: a plain node:http server that records every request's
 * headers and raw body, checks each signature with the `standardwebhooks` package against the
 * secret set for its path, and answers as scripted per path (status, delay, or the connection
 * destroyed). It can be stopped and started again on the same port (a receiver that is down).
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  private server: Server | undefined;
  private portNumber = 0;
  private readonly secrets = new Map<string, string>();
  private readonly scripts = new Map<string, Reply[]>();
  private readonly defaults = new Map<string, Reply>();
  private readonly timers = new Set<NodeJS.Timeout>();

  get port(): number {
    return this.portNumber;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** A new path of its own: `/hooks/<name>-<random hex>`. */
  newPath(name: string): string {
    return `/hooks/${name}-${randomBytes(8).toString('hex')}`;
  }

  /** The URL of a path on this receiver (also while it is down: the port is kept). */
  url(path: string): string {
    return `http://127.0.0.1:${this.portNumber}${path}`;
  }

  /** The secret requests to `path` must be signed with from now on. */
  expectSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The next requests to `path` get these answers, in order; then the default. */
  script(path: string, ...replies: Reply[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...replies]);
  }

  /** What requests to `path` get once its script is spent (200 unless set). */
  answer(path: string, reply: Reply): void {
    this.defaults.set(path, reply);
  }

  /** The requests that came to `path`, in order of arrival. */
  requestsTo(path: string): ReceivedWebhook[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Starts listening: on `port` when given (the port it had), else on a free one. */
  async start(port = this.portNumber): Promise<void> {
    if (this.server) throw new Error('The receiver is already running');
    const server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.portNumber = (server.address() as AddressInfo).port;
  }

  /** Stops listening and drops every connection, answered or not: the port refuses. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0];
      const body = Buffer.concat(chunks).toString('utf8');
      const reply = this.scripts.get(path)?.shift() ?? this.defaults.get(path) ?? {};
      const { verified, verifyError } = this.verify(path, body, request.headers);
      this.requests.push({
        method: request.method ?? '',
        path,
        headers: request.headers,
        body,
        at: Date.now(),
        verified,
        verifyError,
        reply,
      });
      const respond = () => {
        if (reply.destroy) {
          request.socket.destroy();
          return;
        }
        if (response.destroyed || response.writableEnded) return;
        // No keep-alive: every attempt opens a connection of its own.
        response.writeHead(reply.status ?? 200, {
          'content-type': 'text/plain; charset=utf-8',
          connection: 'close',
        });
        response.end(reply.body ?? '');
      };
      if (!reply.delayMs) {
        respond();
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        respond();
      }, reply.delayMs);
      this.timers.add(timer);
    });
  }

  private verify(
    path: string,
    body: string,
    headers: IncomingHttpHeaders,
  ): { verified: boolean; verifyError: string } {
    const secret = this.secrets.get(path);
    if (!secret) return { verified: false, verifyError: 'no secret set for this path' };
    try {
      verifySignature(secret, body, headers);
      return { verified: true, verifyError: '' };
    } catch (error) {
      return { verified: false, verifyError: (error as Error).message };
    }
  }
}

/** Verifies a request with the `standardwebhooks` package; throws when it does not verify. */
export function verifySignature(secret: string, body: string, headers: IncomingHttpHeaders): void {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') plain[name] = value;
  }
  new Webhook(secret).verify(body, plain);
}

/** Whether a request verifies with `secret`. */
export function verifiesWith(request: ReceivedWebhook, secret: string): boolean {
  try {
    verifySignature(secret, request.body, request.headers);
    return true;
  } catch {
    return false;
  }
}
