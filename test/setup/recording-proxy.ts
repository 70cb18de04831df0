import { once } from 'node:events';
import { createServer, request, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readServedDocument, recordAnswer } from './process-answers';

/*
 * A loopback HTTP proxy in front of a service, for a client that runs elsewhere (a child
 * process): every answer passes through it whole and is recorded for the check against the
 * OpenAPI document when the file ends (process-answers.ts), like the answers a file reads
 * itself.
 */
export class RecordingProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** A proxy to `target` (`http://127.0.0.1:<port>`), once the target's document is read. */
  static async start(target: string): Promise<RecordingProxy> {
    await readServedDocument(target);
    const { hostname, port } = new URL(target);
    const server = createServer((incoming, outgoing) => {
      const forwarded = request(
        {
          host: hostname,
          port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat(chunks);
            recordAnswer(incoming.method ?? 'GET', incoming.url ?? '/', {
              status: answer.statusCode ?? 0,
              contentType: answer.headers['content-type'],
              text: body.toString('utf8'),
            });
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(body);
          });
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port: own } = server.address() as AddressInfo;
    return new RecordingProxy(server, `http://127.0.0.1:${own}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
