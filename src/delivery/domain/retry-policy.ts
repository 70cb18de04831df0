/** No wait between attempts is longer than this. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/**
 * How long to wait after the `attempts`-th failed attempt: the base, doubled for every attempt
 * after the first, capped at one hour.
 */
export function retryDelayMs(attempts: number, baseMs: number): number {
  // 2^42 × 1 ms is far past the cap already; a larger exponent only risks Infinity.
  const exponent = Math.min(Math.max(attempts - 1, 0), 42);
  return Math.min(baseMs * 2 ** exponent, MAX_RETRY_DELAY_MS);
}

/** What a failed attempt leaves behind: retry later, or give up. */
export type AttemptOutcome = { retry: true; delayMs: number } | { retry: false };

/**
 * A 5xx SMTP reply is permanent (RFC 5321 §4.2.1: the same request will fail again), so it
 * fails the message at once; anything else (refused connection, timeout, 4xx) is retried until
 * the attempts run out.
 */
export function afterFailedAttempt(
  failure: DeliveryFailure,
  attempts: number,
  policy: { maxAttempts: number; baseMs: number },
): AttemptOutcome {
  if (failure.permanent || attempts >= policy.maxAttempts) return { retry: false };
  return { retry: true, delayMs: retryDelayMs(attempts, policy.baseMs) };
}

export interface DeliveryFailure {
  /** Short and free of personal data: an error code and the SMTP status, e.g. `EENVELOPE 550`. */
  reason: string;
  permanent: boolean;
}

/**
 * The error of a failed attempt, without its message: an SMTP server's reply text often quotes
 * the recipient's address (`550 <ada@example.com>: mailbox unavailable`).
 */
export function describeFailure(error: unknown): DeliveryFailure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
  };
  const code =
    typeof fields.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(fields.code)
      ? fields.code
      : error instanceof Error
        ? error.constructor.name.slice(0, 40)
        : 'Error';
  const status = typeof fields.responseCode === 'number' ? fields.responseCode : undefined;
  return {
    reason: status === undefined ? code : `${code} ${status}`,
    permanent: status !== undefined && status >= 500 && status < 600,
  };
}
