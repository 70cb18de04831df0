import { AsyncLocalStorage } from 'node:async_hooks';

/** Who the service works for while it handles a request; nothing outside one. */
const actors = new AsyncLocalStorage<string>();

/** Runs `work` (and everything it starts) on behalf of `actor`. */
export function actingFor<T>(actor: string, work: () => T): T {
  return actors.run(actor, work);
}

/** The actor of the request being handled, or `system` for what the service does by itself. */
export function currentActor(): string {
  return actors.getStore() ?? 'system';
}
