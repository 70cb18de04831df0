import { currentRequest } from '../logging/request-context';

/**
 * Who the service works for: during a request, the API key it was let in with (`open` when the
 * API has no keys); `system` for what the service does by itself (workers, start-up).
 */
export function currentActor(): string {
  return currentRequest()?.actor ?? 'system';
}
