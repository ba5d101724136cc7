// A prom-client registry per service, with the standard process and runtime metrics.
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * prom-client's defaults include three gauges named like counters (`nodejs_active_handles_total`,
 * `nodejs_active_requests_total`, `nodejs_active_resources_total`), which `promtool check metrics` rejects
 * ("non-counter metrics should not have _total suffix"). Each is the sum over the `type` label of the gauge
 * of the same name without `_total`, which stays: `sum(nodejs_active_handles)` answers the same question.
 */
const MISNAMED_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_GAUGES) registry.removeSingleMetric(name);
  return registry;
}

export type { Registry } from 'prom-client';
