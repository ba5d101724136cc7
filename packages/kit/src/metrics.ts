// A prom-client registry per service, with the standard process and runtime metrics.
import { collectDefaultMetrics, Registry } from 'prom-client';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export type { Registry } from 'prom-client';
