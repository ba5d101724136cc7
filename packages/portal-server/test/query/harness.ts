// Test harness for the database routes: the kit's app factory with the routes registered on test
// implementations of the injected interfaces (session from x-test-user / x-test-role headers, an in-memory
// managed-datasource map, an array audit sink).
import { createApp, unauthorized } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ManagedDatasource } from '../../src/datasources/types.js';
import {
  type AuditEvent,
  createQueryDeps,
  type GovernanceHooks,
  type QueryDeps,
} from '../../src/execution/contracts.js';
import { registerConnectionOperationRoutes } from '../../src/http/db-connections.js';
import { registerScriptRoutes } from '../../src/http/db-scripts.js';
import { registerExportRoutes } from '../../src/http/export.js';
import { registerImportRoutes } from '../../src/http/import.js';
import { registerObjectRoutes } from '../../src/http/objects.js';
import { registerQueryRoutes } from '../../src/http/query.js';
import { registerTableDataRoutes } from '../../src/http/table-data.js';
import { registerTableDesignRoutes } from '../../src/http/table-design.js';

export interface Harness {
  app: FastifyInstance;
  deps: QueryDeps & { close(): Promise<void> };
  events: AuditEvent[];
  dataDir: string;
  post(
    url: string,
    body: unknown,
    user?: { username: string; role: 'admin' | 'user' } | null,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const ALICE = { username: 'alice', role: 'user' as const };
export const BOB = { username: 'bob', role: 'user' as const };
export const ADMIN = { username: 'root', role: 'admin' as const };

export async function harness(
  options: { managed?: ManagedDatasource[]; governance?: GovernanceHooks; transactionIdleMs?: number } = {},
): Promise<Harness> {
  const dataDir = tempDir('portal-query-');
  const events: AuditEvent[] = [];
  const managed = new Map((options.managed ?? []).map((m) => [m.id, m]));
  const deps = await createQueryDeps({
    dataDir,
    sessions: {
      requireSession(req) {
        const username = req.headers['x-test-user'];
        const role = req.headers['x-test-role'];
        if (typeof username !== 'string' || (role !== 'admin' && role !== 'user')) throw unauthorized();
        return { username, role };
      },
    },
    managed: { getManaged: (id) => managed.get(id) },
    audit: { record: (e) => void events.push(e) },
    governance: options.governance,
    transactionIdleMs: options.transactionIdleMs,
  });
  const app = createApp({
    service: 'database-portal',
    errorShape: 'portal',
    logger: false,
    bodyLimit: 8 * 1024 * 1024,
  });
  registerQueryRoutes(app, deps);
  registerScriptRoutes(app, deps);
  registerConnectionOperationRoutes(app, deps);
  registerObjectRoutes(app, deps);
  registerExportRoutes(app, deps);
  registerTableDataRoutes(app, deps);
  registerTableDesignRoutes(app, deps);
  registerImportRoutes(app, deps);
  await app.ready();
  return {
    app,
    deps,
    events,
    dataDir,
    post: (url, body, user = ALICE) =>
      app.inject({
        method: 'POST',
        url,
        payload: body as object,
        headers: user ? { 'x-test-user': user.username, 'x-test-role': user.role } : {},
      }),
    async close() {
      await app.close();
      await deps.close();
    },
  };
}

/** A connection descriptor for a server URL from the kit harness. */
export function descriptorFromUrl(url: string, type: 'postgres' | 'mysql', id = `${type}-test`) {
  const u = new URL(url);
  return {
    id,
    name: `${type} test`,
    type,
    host: u.hostname,
    port: Number(u.port),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
  };
}

/** Polls `check` until it is true (bounded): used to wait for a statement to be running on the server. */
export async function eventually(check: () => Promise<boolean>, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached');
}
