import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The app's own registry, not prom-client's global one: two apps in one process (the e2e
 * tests) never share or double-register a metric. Process metrics (CPU, memory, event loop,
 * GC) are collected into it at each scrape.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
