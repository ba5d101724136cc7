// Shared setup of the governance tests: the database routes of test/query/harness.ts wired to the real
// policy hooks, an ApprovalService over a real SQLite store (with a clock the test moves) and an array
// audit sink, plus small helpers to build managed datasources.
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import type { ManagedDatasource, MaskingRule } from '../../src/datasources/types.js';
import type { AuditEvent } from '../../src/execution/contracts.js';
import { type ApprovalDirectory, ApprovalService } from '../../src/governance/approvals.js';
import { ConcurrencyLimiter } from '../../src/governance/concurrency.js';
import { PolicyHooks } from '../../src/governance/session-governance.js';
import { ApprovalRepository } from '../../src/storage/approvals.js';
import { openPortalStore, type PortalStore } from '../../src/storage/store.js';
import { declared } from '../datasources/declare.js';
import { type Harness, harness } from '../query/harness.js';

export const MASKING_KEY = Buffer.alloc(32, 7);

export interface Clock {
  now: Date;
  advanceMinutes(m: number): void;
}

export function clock(start = '2030-01-01T00:00:00Z'): Clock {
  const c = {
    now: new Date(start),
    advanceMinutes(m: number) {
      c.now = new Date(c.now.getTime() + m * 60_000);
    },
  };
  return c;
}

export async function sqliteStore(): Promise<PortalStore> {
  const dataDir = tempDir('portal-gov-store-');
  const store = await openPortalStore(
    {
      storageProvider: 'sqlite',
      storageSqlitePath: join(dataDir, 'portal.db'),
      dataDir,
    },
    { jwtSecret: 'a-test-jwt-secret-that-is-long-enough-0123456789' },
  );
  if (!store) throw new Error('no store');
  return store;
}

export function directoryFor(managed: ManagedDatasource[]): ApprovalDirectory {
  const view = (m: ManagedDatasource) => ({
    id: m.id,
    name: m.name,
    approvalsRequired: m.policy.approvalsRequired,
    approverRoles: m.policy.approverRoles,
  });
  return {
    get: (id) => {
      const m = managed.find((x) => x.id === id);
      return m ? view(m) : undefined;
    },
    list: () => managed.map(view),
  };
}

export interface GovernedHarness extends Harness {
  approvals: ApprovalService;
  concurrency: ConcurrencyLimiter;
  hooks: PolicyHooks;
  clock: Clock;
  store: PortalStore | undefined;
}

/** The database routes with the real policy hooks; `storage: false` runs without server storage. */
export async function governed(
  managed: ManagedDatasource[],
  options: { storage?: boolean; ttlHours?: number } = {},
): Promise<GovernedHarness> {
  const c = clock();
  const store = options.storage === false ? undefined : await sqliteStore();
  // Hook events and route events land in one list, in order: the harness's own.
  let events: AuditEvent[] = [];
  const audit = { record: (e: AuditEvent) => void events.push(e) };
  const approvals = new ApprovalService({
    repository: store ? new ApprovalRepository(store.db, () => c.now) : undefined,
    ttlHours: options.ttlHours ?? 24,
    directory: directoryFor(managed),
    audit,
    now: () => c.now,
  });
  const concurrency = new ConcurrencyLimiter();
  const hooks = new PolicyHooks({ approvals, concurrency, audit, maskingKey: MASKING_KEY, now: () => c.now });
  const h = await harness({ managed, governance: hooks });
  events = h.events;
  const closeRoutes = h.close;
  return Object.assign(h, {
    approvals,
    concurrency,
    hooks,
    clock: c,
    store,
    async close() {
      await closeRoutes();
      await store?.close();
    },
  });
}

export function managedDs(
  id: string,
  connection: Record<string, unknown>,
  policy: Record<string, unknown> & { masking?: MaskingRule[] } = {},
): ManagedDatasource {
  return declared(id, connection, policy);
}
