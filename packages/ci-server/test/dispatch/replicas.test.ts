// Two control-plane processes on one PostgreSQL database, each with its own agents, both trying to hand out
// the same queued jobs: the conditional claim gives every job to exactly one agent, and every run finishes.
import { openDatabase } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { claimJob } from '../../src/store/agent-leases.js';
import type { StoreSchema } from '../../src/store/database.js';
import {
  applyPipeline,
  databaseUrl,
  jobsOf,
  PIPE,
  SimAgent,
  startServer,
  trigger,
  waitRun,
} from './helpers.js';

// This test is about claims, not leases: with 12 agents, two servers and a resync every 5 ms in one process,
// the 800 ms lease of the other dispatch tests can run out on a loaded machine and fail a healthy job.
const RELAXED = { heartbeatMs: 500, leaseMs: 20_000, sweepMs: 500 };

describe('two server replicas on one PostgreSQL', () => {
  it('never give one job to two agents', async () => {
    const url = await databaseUrl('postgres');
    const a = await startServer(url, RELAXED);
    const b = await startServer(url, RELAXED);
    const agents = [
      ...Array.from(
        { length: 6 },
        (_, i) => new SimAgent(a.grpcPort, `a${i}`, { capacity: 3, auto: 'success' }),
      ),
      ...Array.from(
        { length: 6 },
        (_, i) => new SimAgent(b.grpcPort, `b${i}`, { capacity: 3, auto: 'success' }),
      ),
    ];
    try {
      const pipeline = await applyPipeline(
        a,
        'replicas',
        PIPE(`  work:
    stage: build
    matrix: { N: [${Array.from({ length: 30 }, (_, i) => `"${i}"`).join(', ')}] }
    script: [work]`),
      );
      // Runs are created on both replicas; each learns the other's jobs from the store.
      const runs = [];
      for (let i = 0; i < 4; i++) runs.push(await trigger(i % 2 === 0 ? a : b, pipeline));
      // Both dispatchers know every queued job before any agent connects, so both go for the same ones.
      await a.server.control.dispatcher.resync();
      await b.server.control.dispatcher.resync();
      expect(a.server.control.dispatcher.pendingCount).toBe(120);
      expect(b.server.control.dispatcher.pendingCount).toBe(120);
      for (const agent of agents) agent.start();
      const racing = setInterval(() => {
        void a.server.control.dispatcher.resync().catch(() => undefined);
        void b.server.control.dispatcher.resync().catch(() => undefined);
      }, 5);
      try {
        for (const runId of runs) expect((await waitRun(a, runId)).status).toBe('success');
      } finally {
        clearInterval(racing);
      }
      const received = agents.flatMap((g) => g.assignments.map((x) => x.jobRunId));
      expect(received).toHaveLength(120);
      expect(new Set(received).size).toBe(120);
      const run = await waitRun(b, runs[0]);
      expect(jobsOf(run).every((j) => j.attempt === 1)).toBe(true);
      // Both replicas handed out work.
      expect(agents.slice(0, 6).some((g) => g.assignments.length > 0)).toBe(true);
      expect(agents.slice(6).some((g) => g.assignments.length > 0)).toBe(true);
      // Every won claim is a distinct job: 120 in all, whatever the split between the replicas.
      expect(a.server.control.dispatcher.stats.claimed + b.server.control.dispatcher.stats.claimed).toBe(120);
    } finally {
      await Promise.all(agents.map((g) => g.stop()));
      await a.server.close();
      await b.server.close();
    }
  }, 60_000);
});

describe('the claim', () => {
  it('is won by exactly one of two connections racing for the same jobs', async () => {
    const url = await databaseUrl('postgres');
    const s = await startServer(url);
    const other = openDatabase<StoreSchema>(url);
    try {
      const pipeline = await applyPipeline(
        s,
        'claims',
        PIPE(`  work:
    stage: build
    matrix: { N: [${Array.from({ length: 50 }, (_, i) => `"${i}"`).join(', ')}] }
    tags: [nobody]
    script: [work]`),
      );
      await trigger(s, pipeline);
      const db = s.server.database.db;
      const jobs = await db.selectFrom('job_runs').select('id').where('status', '=', 'queued').execute();
      expect(jobs).toHaveLength(50);
      const results = await Promise.all(
        jobs.map(({ id }) =>
          Promise.all([
            claimJob(db, id, { id: '00000000-0000-7000-8000-00000000000a', name: 'one' }, 30_000),
            claimJob(other.db, id, { id: '00000000-0000-7000-8000-00000000000b', name: 'two' }, 30_000),
          ]),
        ),
      );
      for (const [x, y] of results) expect(Number(x) + Number(y)).toBe(1);
      const held = await db.selectFrom('job_runs').select(['agent', 'lease_agent_id']).execute();
      expect(held.every((r) => (r.agent === 'one') === r.lease_agent_id?.endsWith('a'))).toBe(true);
    } finally {
      await other.close();
      await s.server.close();
    }
  });
});
