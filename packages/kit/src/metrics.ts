// A prom-client registry per service, with the standard process and runtime metrics.
import { Registry, collectDefaultMetrics } from 'prom-client';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export type { Registry } from 'prom-client';
