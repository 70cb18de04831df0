import { INestApplication, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

const SIGNALS = ['SIGTERM', 'SIGINT'];

/**
 * On SIGTERM or SIGINT, Nest runs the shutdown hooks (GracefulShutdown first, then the server
 * and the database pool close) and exits 0. The whole of it is bounded: past
 * SHUTDOWN_TIMEOUT_MS the process logs and exits 1.
 */
export function enableGracefulShutdown(app: INestApplication): void {
  const { shutdownTimeoutMs } = app.get(AppConfig);
  let deadlineSet = false;
  const setDeadline = (): void => {
    if (deadlineSet) return;
    deadlineSet = true;
    setTimeout(() => {
      new Logger('Shutdown').error(`Shutdown took longer than ${shutdownTimeoutMs} ms; exiting`);
      process.exit(1);
    }, shutdownTimeoutMs);
  };
  // Registered before Nest's own listeners, so the deadline starts with the signal.
  for (const signal of SIGNALS) process.once(signal, setDeadline);
  app.enableShutdownHooks(SIGNALS, { useProcessExit: true });
}
