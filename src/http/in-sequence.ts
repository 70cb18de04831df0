import type { RequestHandler } from 'express';

/** Middleware run one after the other as one; the first error ends the run. */
export function inSequence(middleware: RequestHandler[]): RequestHandler {
  return (request, response, next) => {
    const run = (index: number, error?: unknown): void => {
      if (error !== undefined || index === middleware.length) {
        next(error);
        return;
      }
      void middleware[index](request, response, (nextError?: unknown) => run(index + 1, nextError));
    };
    run(0);
  };
}
