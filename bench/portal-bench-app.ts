// The portal stack the portal benchmarks drive over real HTTP (portal-query, portal-import): the query
// dependencies with one managed PostgreSQL datasource `bench`, a session that admits only the header
// `x-bench-user: bench` as an admin, no audit sink, and the routes the benchmark registers. Kept in one place
// so both measure the same governed path, and a peak-memory sampler both report with.
import { createApp, unauthorized } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import type { FastifyInstance } from 'fastify';
import { normalizePolicy } from '../packages/portal-server/src/datasources/policy.js';
import { createQueryDeps, type QueryDeps } from '../packages/portal-server/src/execution/contracts.js';

export interface BenchPortal {
  port: number;
  close(): Promise<void>;
}

/** Starts the portal's routes on an ephemeral loopback port over the PostgreSQL database at `url`. */
export async function startBenchPortal(
  url: string,
  options: {
    policy?: Parameters<typeof normalizePolicy>[0];
    bodyLimit?: number;
    register: (app: FastifyInstance, deps: QueryDeps) => void;
  },
): Promise<BenchPortal> {
  const u = new URL(url);
  const connection = {
    host: u.hostname,
    port: Number(u.port),
    user: u.username,
    database: u.pathname.slice(1),
  };
  const deps = await createQueryDeps({
    dataDir: tempDir('bench-portal-'),
    sessions: {
      requireSession: (req) => {
        if (req.headers['x-bench-user'] !== 'bench') throw unauthorized();
        return { username: 'bench', role: 'admin' };
      },
    },
    managed: {
      getManaged: (id) =>
        id === 'bench'
          ? {
              id,
              name: 'bench',
              type: 'postgres',
              roles: ['admin', 'user'],
              connection,
              policy: normalizePolicy(options.policy ?? {}, { managed: true }),
            }
          : undefined,
    },
    audit: { record: () => undefined },
  });
  const app = createApp({
    service: 'database-portal',
    errorShape: 'portal',
    logger: false,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
  });
  options.register(app, deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: (app.server.address() as { port: number }).port,
    close: async () => {
      await app.close();
      await deps.close();
    },
  };
}

/** Samples RSS and heap every 20 ms while `fn` runs; answers the peaks. */
export async function peakMemory<T>(fn: () => Promise<T>): Promise<{ value: T; rss: number; heap: number }> {
  let rss = process.memoryUsage().rss;
  let heap = process.memoryUsage().heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  try {
    const value = await fn();
    sample();
    return { value, rss, heap };
  } finally {
    clearInterval(timer);
  }
}
