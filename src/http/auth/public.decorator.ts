import { ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { AppConfig } from '../../config/app-config';

export const PUBLIC_ROUTE = 'invoicing:public-route';

/** Decides, from the configuration, whether a route is open. */
export type PublicWhen = (config: AppConfig) => boolean;

/**
 * The route needs no API key: the probes always, `/metrics` only when `METRICS_PUBLIC=true`
 * (pass `when`). The auth guard reads this, and the rate limiter, which leaves such routes alone.
 */
export const Public = (when: PublicWhen = () => true) => SetMetadata(PUBLIC_ROUTE, when);

/** Whether the route being handled needs no API key under this configuration. */
export function isPublicRoute(
  reflector: Reflector,
  context: ExecutionContext,
  config: AppConfig,
): boolean {
  const when = reflector.getAllAndOverride<PublicWhen | undefined>(PUBLIC_ROUTE, [
    context.getHandler(),
    context.getClass(),
  ]);
  return when !== undefined && when(config);
}
