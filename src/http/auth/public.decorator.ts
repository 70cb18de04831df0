import { SetMetadata } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';

export const PUBLIC_ROUTE = 'invoicing:public-route';

/** Decides, from the configuration, whether a route is open. */
export type PublicWhen = (config: AppConfig) => boolean;

/**
 * The route needs no API key: the probes always, `/metrics` only when `METRICS_PUBLIC=true`
 * (pass `when`). The auth guard reads this; nothing else does.
 */
export const Public = (when: PublicWhen = () => true) => SetMetadata(PUBLIC_ROUTE, when);
