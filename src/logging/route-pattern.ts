import type { IncomingMessage } from 'node:http';

/** The route label of a request that no handler took: an unknown path, or one refused earlier. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The pattern of the route that handled the request (`/v1/invoice/:id`), never the path itself:
 * paths and query strings can carry what a client typed. Read once the response is finished.
 * Express leaves in `req.route` the last route it matched; middleware is mounted on wildcard
 * routes (`/{*path}`), which no handler has, so such a route means no handler took the request.
 */
export function routePattern(request: IncomingMessage): string {
  const { route, baseUrl } = request as IncomingMessage & {
    route?: { path?: unknown };
    baseUrl?: string;
  };
  const path = route?.path;
  return typeof path === 'string' && !path.includes('*')
    ? `${baseUrl ?? ''}${path}`
    : UNMATCHED_ROUTE;
}
