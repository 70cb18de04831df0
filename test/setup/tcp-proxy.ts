import { AddressInfo, createServer, Server, Socket, connect } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of the MariaDB server, which the test can take down
 * (every connection cut, the port closed), bring back on the same port, or stall (connections
 * held open, nothing forwarded either way).
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private stalled = false;

  private constructor(
    private readonly target: number,
    public port = 0,
  ) {}

  static async start(target: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.resume();
    return proxy;
  }

  /** Listens again, on the same port once it has one. */
  async resume(): Promise<void> {
    this.stalled = false;
    const server = createServer((client) => this.forward(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Cuts every connection and stops listening. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.sockets.forEach((socket) => socket.destroy());
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Keeps every connection open, new ones too, but forwards nothing more either way. */
  stall(): void {
    this.stalled = true;
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target, '127.0.0.1');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(from);
      from.on('data', (chunk: Buffer) => {
        if (!this.stalled) to.write(chunk);
      });
      from.on('error', () => undefined);
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}
