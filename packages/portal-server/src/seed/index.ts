// Wires the seed-data feature into a portal server: the service over the run store and job queue (absent
// without server storage, where the routes answer 503).
import type { PortalStore } from '../storage/store.js';
import { SeedService, type SeedServiceDeps } from './service.js';
import { SeedRunRepository } from './store.js';

export { SEED_JOB, SeedService } from './service.js';

export function createSeedService(
  store: PortalStore | undefined,
  deps: Omit<SeedServiceDeps, 'runs' | 'jobs'>,
): SeedService | undefined {
  if (!store) return undefined;
  return new SeedService({ ...deps, runs: new SeedRunRepository(store.db), jobs: store.jobs });
}
