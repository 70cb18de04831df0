import type { Logger } from 'pino';
import { storage } from 'nestjs-pino/storage';

/**
 * What the service knows about the request being handled, wherever it is in its work: the
 * request's id, the logger that stamps it on every line (nestjs-pino's `Logger` reads it from
 * here), and who the request acts for (the events it records name them). One context per
 * request, made by the request hook; nothing outside a request has one.
 */
export class RequestContext {
  /** The API key's id once the key guard let the request in; `open` when none is needed. */
  actor = 'open';
  /** nestjs-pino reads this too; the request line is written by the hook, not through it. */
  readonly responseLogger = undefined;
  private child: Logger | undefined;

  constructor(
    readonly requestId: string,
    private readonly root: Logger,
  ) {}

  /** Made on first use: most requests log nothing but their request line. */
  get logger(): Logger {
    this.child ??= this.root.child({ requestId: this.requestId });
    return this.child;
  }

  /** Runs `work` (and everything it starts) inside this context. */
  run<T>(work: () => T): T {
    return storage.run(this, work);
  }
}

/** The context of the request being handled, if any. */
export function currentRequest(): RequestContext | undefined {
  const store = storage.getStore() as unknown;
  return store instanceof RequestContext ? store : undefined;
}
