import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { ShutdownState } from './shutdown-state';

/** How often idle keep-alive connections are closed while in-flight requests finish. */
const IDLE_SWEEP_MS = 50;

/**
 * The first step of a shutdown, before Nest closes the server and the database pool
 * (`onApplicationShutdown`): readiness fails, then after the drain the listener stops taking
 * connections and the requests in flight finish.
 */
@Injectable()
export class GracefulShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    private readonly state: ShutdownState,
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.state.begin();
    // A close without a signal (a test, a script) has no load balancer to wait for.
    if (signal === undefined) return;
    const drainMs = this.config.shutdownDrainMs;
    this.logger.log(`${signal}: readiness fails now; the listener closes in ${drainMs} ms`);
    await delay(drainMs);
    await closeServer(this.adapterHost.httpAdapter.getHttpServer() as Server);
    this.logger.log('Listener closed and in-flight requests finished');
  }
}

/**
 * Stops taking connections and resolves once every request in flight is answered. `close()`
 * waits for every connection to end, and a keep-alive connection only ends when closed, so idle
 * ones are closed now and again as their responses finish.
 */
function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
  });
}
