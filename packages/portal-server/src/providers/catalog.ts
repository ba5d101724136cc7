// What a provider knows about its database besides running statements: the one `Catalog` interface every
// engine's catalog implements (profile, health, monitoring, maintenance, objects, inventory, counts, describe),
// and the one wrapper that runs each of its calls under the engine's guard (deadline, error mapping), so no
// provider repeats a forwarding line per method.
import { unsupported } from './errors.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  ExecResult,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from './types.js';

/**
 * The catalog surface of a provider. The trailing `signal` is for the guard of `guardedCatalog`: an engine
 * whose catalog speaks to the server directly ends its requests when the guard's deadline fires; callers of
 * `provider.catalog` never pass one.
 */
export interface Catalog {
  /** Who and what the connection is (also the connectivity check of test-connection). */
  profile(signal?: AbortSignal): Promise<ConnectionProfile>;
  health(signal?: AbortSignal): Promise<HealthReading>;
  monitoring(signal?: AbortSignal): Promise<Record<string, unknown>>;
  maintenance(type: string, target: string | undefined, signal?: AbortSignal): Promise<ExecResult>;
  listObjects(containerPath: readonly string[] | undefined, signal?: AbortSignal): Promise<DatabaseObject[]>;
  inventory(signal?: AbortSignal): Promise<Inventory>;
  counts(signal?: AbortSignal): Promise<KindCount[]>;
  describe(path: readonly string[], signal?: AbortSignal): Promise<ObjectDetail | undefined>;
}

/** Runs one catalog call: bounds it by the query deadline (firing `signal`) and maps the driver's errors. */
export type CatalogGuard = <T>(work: (signal?: AbortSignal) => Promise<T>) => Promise<T>;

/** `catalog` with every call run through `guard`. */
export function guardedCatalog(catalog: Catalog, guard: CatalogGuard): Catalog {
  return {
    profile: () => guard((s) => catalog.profile(s)),
    health: () => guard((s) => catalog.health(s)),
    monitoring: () => guard((s) => catalog.monitoring(s)),
    maintenance: (type, target) => guard((s) => catalog.maintenance(type, target, s)),
    listObjects: (path) => guard((s) => catalog.listObjects(path, s)),
    inventory: () => guard((s) => catalog.inventory(s)),
    counts: () => guard((s) => catalog.counts(s)),
    describe: (path) => guard((s) => catalog.describe(path, s)),
  };
}

/** The `maintenance` of an engine that offers none (the routes refuse unknown operations first). */
export function noMaintenance(product: string): Catalog['maintenance'] {
  return async () => {
    throw unsupported(`${product} offers no maintenance operations here`);
  };
}
