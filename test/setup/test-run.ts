/*
 * `npm test` and `npm run test:slow` (TEST_SLOW=1, which CI runs after it; jest.config.js).
 * A file the slow run takes again on MariaDB (competing instances, larger runs) declares the
 * parts `npm test` already proved with `describeOutsideSlowRun`, so they run once.
 */

export const SLOW_RUN = process.env.TEST_SLOW === '1';

/** `describe` in `npm test`; in the slow run the block is not declared (nothing is skipped). */
export function describeOutsideSlowRun(name: string, body: () => void): void {
  if (!SLOW_RUN) describe(name, body);
}
