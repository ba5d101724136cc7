// The agents read API on SQLite and PostgreSQL (shapes, computed status, held jobs, paging, 400/404) and the
// control plane's metrics in the /metrics exposition.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreSchema } from '../../src/store/database.js';
import { newId } from '../../src/store/ids.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, startDataFixture } from './fixture.js';

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

describe.each(STORES)('agents API on %s', (kind) => {
  let f: DataFixture;
  let db: Kysely<StoreSchema>;
  const ids = { idle: newId(), working: newId(), gone: newId(), silent: newId() };
  let held: { runId: string; compile: string; lint: string };
  beforeAll(async () => {
    f = await startDataFixture(kind);
    db = f.server.database.db;
    const row = (id: string, name: string, status: 'online' | 'busy' | 'offline', heartbeatAgo: number) => ({
      id,
      name,
      tags: JSON.stringify(['linux', 'docker']),
      capacity: 2,
      version: '0.2.0',
      hostname: `${name}.local`,
      status,
      last_heartbeat_at: iso(heartbeatAgo),
      registered_at: iso(3_600_000),
    });
    await db
      .insertInto('agents')
      .values([
        row(ids.idle, 'agent-a', 'online', 1_000),
        row(ids.working, 'agent-b', 'busy', 2_000),
        row(ids.gone, 'agent-c', 'offline', 120_000),
        row(ids.silent, 'agent-d', 'online', 600_000),
      ])
      .execute();
    held = await f.newRun();
    await db
      .updateTable('job_runs')
      .set({ lease_agent_id: ids.working, status: 'running', agent: 'agent-b', started_at: iso(5_000) })
      .where('id', '=', held.compile)
      .execute();
    await db
      .updateTable('job_runs')
      .set({ lease_agent_id: ids.working, agent: 'agent-b' })
      .where('id', '=', held.lint)
      .execute();
  });
  afterAll(() => f.server.close());

  it('lists the fleet by name with computed status and the jobs each agent holds', async () => {
    const res = await f.api.get('/api/v1/agents');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.limit).toBe(100);
    expect(res.body.offset).toBe(0);
    const byName = Object.fromEntries(res.body.agents.map((a: { name: string }) => [a.name, a]));
    expect(Object.keys(byName)).toEqual(['agent-a', 'agent-b', 'agent-c', 'agent-d']);
    expect(byName['agent-a']).toEqual({
      id: ids.idle,
      name: 'agent-a',
      tags: ['linux', 'docker'],
      capacity: 2,
      status: 'online',
      version: '0.2.0',
      hostname: 'agent-a.local',
      running_jobs: [],
      last_heartbeat_at: expect.any(String),
      registered_at: expect.any(String),
      // Set when an administrator revokes the agent (agent identity); a working agent has none.
      revoked_at: null,
    });
    expect(byName['agent-b'].status).toBe('busy');
    expect(byName['agent-b'].running_jobs).toEqual(
      expect.arrayContaining([
        {
          job_run_id: held.compile,
          run_id: held.runId,
          job_name: 'compile',
          status: 'running',
          started_at: expect.any(String),
        },
        { job_run_id: held.lint, run_id: held.runId, job_name: 'lint', status: 'queued', started_at: null },
      ]),
    );
    expect(byName['agent-c'].status).toBe('offline');
    // No heartbeat for ten minutes: offline even though its row was never updated.
    expect(byName['agent-d'].status).toBe('offline');

    const page = await f.api.get('/api/v1/agents?limit=2&offset=1');
    expect(page.body.agents.map((a: { name: string }) => a.name)).toEqual(['agent-b', 'agent-c']);
    expect(page.body.total).toBe(4);
  });

  it('shows one agent, 404 for an unknown id and 400 for bad input', async () => {
    const one = await f.api.get(`/api/v1/agents/${ids.working}`);
    expect(one.status).toBe(200);
    expect(one.body.name).toBe('agent-b');
    expect(one.body.running_jobs).toHaveLength(2);
    expect((await f.api.get('/api/v1/agents/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await f.api.get('/api/v1/agents/agent-b')).status).toBe(400);
    expect((await f.api.get('/api/v1/agents?limit=0')).status).toBe(400);
    expect((await f.api.get('/api/v1/agents?status=online')).status).toBe(400);
  });
});

describe('metrics', () => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture('sqlite');
  });
  afterAll(() => f.server.close());

  it('exposes the spec metrics with their labels on /metrics', async () => {
    const m = f.server.execution.metrics;
    m.jobScheduled({ project: 'shop', pipeline: 'build' });
    m.jobScheduled({ project: 'shop', pipeline: 'build' });
    m.jobStarted();
    m.jobStarted();
    m.jobFinished({ project: 'shop', pipeline: 'build', status: 'success', durationSeconds: 12.5 });
    m.setQueueDepth({ build: 3, test: 1 });
    m.setQueueDepth({ test: 2 });
    m.grpcCall('PushLogs', 'OK');
    m.grpcCall('Register', 'Unauthenticated');
    m.logArchiveJobs.inc({ result: 'success' });
    const res = await f.server.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    const text = res.body;
    expect(text).toContain('# TYPE service_jobs_scheduled_total counter');
    expect(text).toContain('service_jobs_scheduled_total{pipeline="build",project="shop"} 2');
    expect(text).toContain('# TYPE service_jobs_running gauge');
    expect(text).toMatch(/^service_jobs_running 1$/m);
    expect(text).toContain('# TYPE service_job_duration_seconds histogram');
    expect(text).toContain(
      'service_job_duration_seconds_count{pipeline="build",project="shop",status="success"} 1',
    );
    expect(text).toContain(
      'service_job_duration_seconds_sum{pipeline="build",project="shop",status="success"} 12.5',
    );
    expect(text).toContain('service_queue_depth{stage="test"} 2');
    expect(text).not.toContain('service_queue_depth{stage="build"}');
    expect(text).toContain('service_grpc_server_handled_total{grpc_method="PushLogs",code="OK"} 1');
    expect(text).toContain(
      'service_grpc_server_handled_total{grpc_method="Register",code="Unauthenticated"} 1',
    );
    expect(text).toContain('service_log_archive_jobs_total{result="success"} 1');
    expect(text).toContain('# TYPE service_retention_dropped_log_partitions_total counter');
    // Standard runtime metrics are still there.
    expect(text).toContain('process_cpu_seconds_total');
  });
});
