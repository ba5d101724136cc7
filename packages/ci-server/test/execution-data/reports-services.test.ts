// Test reports and service runs on SQLite and PostgreSQL: a run's aggregated tests (totals, per job and
// suite, failures first, latest attempt only, resends replace) and its service rows (lifecycle, no moving
// backwards, failed is final), through the stores and the HTTP routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceEventError } from '../../src/services/service-runs.js';
import { newId } from '../../src/store/ids.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, startDataFixture } from './fixture.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const junit = (suite: string, statuses: string[], prefix = 't') =>
  statuses.map((status, i) => ({
    suite,
    classname: `${suite}.Class`,
    name: `${prefix}${i + 1}`,
    status,
    durationS: 0.25,
    message: status === 'failed' ? `expected ${i} to be ${i + 1}` : undefined,
  }));

describe.each(STORES)('test reports on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  it('aggregates the reports of a run: totals, jobs, suites and failures first', async () => {
    const { runId, compile, lint } = await f.newRun();
    const reports = f.server.execution.reports;
    await reports.storeTestReport({
      jobRunId: compile,
      cases: [...junit('core', ['passed', 'passed', 'failed']), ...junit('api', ['skipped', 'error'])],
      unreadableFiles: ['reports/broken.xml: unexpected end of input'],
    });
    await reports.storeTestReport({ jobRunId: lint, cases: junit('lint', ['passed', 'failed']) });

    const res = await f.api.get(`/api/v1/runs/${runId}/tests`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tests: 7,
      passed: 3,
      failed: 2,
      errors: 1,
      skipped: 1,
      duration_s: 1.75,
    });
    expect(res.body.jobs).toEqual([
      {
        job_run_id: compile,
        job_name: 'compile',
        attempt: 1,
        tests: 5,
        passed: 2,
        failed: 1,
        errors: 1,
        skipped: 1,
        duration_s: 1.25,
        unreadable_files: ['reports/broken.xml: unexpected end of input'],
      },
      expect.objectContaining({ job_run_id: lint, tests: 2, failed: 1, unreadable_files: [] }),
    ]);
    expect(res.body.suites.map((s: { name: string; tests: number }) => [s.name, s.tests])).toEqual([
      ['api', 2],
      ['core', 3],
      ['lint', 2],
    ]);
    expect(res.body.cases).toHaveLength(7);
    expect(
      res.body.cases
        .slice(0, 3)
        .map((c: { status: string }) => c.status)
        .sort(),
    ).toEqual(['error', 'failed', 'failed']);
    expect(res.body.cases[0]).toEqual({
      job_run_id: compile,
      job_name: 'compile',
      suite: 'core',
      classname: 'core.Class',
      name: 't3',
      status: 'failed',
      duration_s: 0.25,
      message: 'expected 2 to be 3',
    });
    expect(res.body.cases_truncated).toBe(false);

    const limited = await f.api.get(`/api/v1/runs/${runId}/tests?limit=2`);
    expect(limited.body.cases).toHaveLength(2);
    expect(limited.body.cases_truncated).toBe(true);
    expect(limited.body.tests).toBe(7);
    const failedOnly = await f.api.get(`/api/v1/runs/${runId}/tests?status=failed`);
    expect(failedOnly.body.cases.map((c: { name: string }) => c.name).sort()).toEqual(['t2', 't3']);
    expect((await f.api.get(`/api/v1/runs/${runId}/tests?status=bogus`)).status).toBe(400);
  });

  it('counts only the latest attempt of a job, and a resent report replaces the earlier one', async () => {
    const { runId, compile } = await f.newRun();
    const reports = f.server.execution.reports;
    await reports.storeTestReport({ jobRunId: compile, cases: junit('core', ['failed', 'failed']) });
    await reports.storeTestReport({ jobRunId: compile, cases: junit('core', ['failed', 'passed']) });
    let res = await f.api.get(`/api/v1/runs/${runId}/tests`);
    expect(res.body).toMatchObject({ tests: 2, passed: 1, failed: 1 });

    // A retry: a second attempt row of the same job run position.
    const row = await f.db
      .selectFrom('job_runs')
      .selectAll()
      .where('id', '=', compile)
      .executeTakeFirstOrThrow();
    const retry = newId();
    await f.db
      .insertInto('job_runs')
      .values({ ...row, id: retry, attempt: 2, status: 'queued' })
      .execute();
    await reports.storeTestReport({ jobRunId: retry, cases: junit('core', ['passed', 'passed', 'passed']) });
    res = await f.api.get(`/api/v1/runs/${runId}/tests`);
    expect(res.body).toMatchObject({ tests: 3, passed: 3, failed: 0 });
    expect(res.body.jobs.map((j: { attempt: number }) => j.attempt)).toEqual([2]);
  });

  it('gives zero totals for a run without reports and 404 for an unknown run', async () => {
    const { runId } = await f.newRun();
    const res = await f.api.get(`/api/v1/runs/${runId}/tests`);
    expect(res.body).toEqual({
      tests: 0,
      passed: 0,
      failed: 0,
      errors: 0,
      skipped: 0,
      duration_s: 0,
      jobs: [],
      suites: [],
      cases: [],
      cases_truncated: false,
    });
    expect((await f.api.get(`/api/v1/runs/${UNKNOWN}/tests`)).status).toBe(404);
    await expect(
      f.server.execution.reports.storeTestReport({ jobRunId: UNKNOWN, cases: [] }),
    ).rejects.toThrow(/does not exist/);
  });
});

describe.each(STORES)('service runs on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  it('follows the lifecycle per job and service, never backwards, failed final', async () => {
    const { runId, compile, lint } = await f.newRun();
    const services = f.server.execution.services;
    const at = Date.UTC(2025, 0, 1, 12);
    const ev = (jobRunId: string, serviceName: string, state: string, dt: number, message?: string) =>
      services.recordServiceEvent({ jobRunId, serviceName, state, atMs: at + dt, message });
    expect(await ev(compile, 'db', 'starting', 0)).toBe('starting');
    expect(await ev(compile, 'db', 'ready', 1000)).toBe('ready');
    expect(await ev(compile, 'db', 'ready', 1000)).toBe('ready');
    expect(await ev(compile, 'db', 'starting', 1500)).toBe('ready');
    expect(await ev(compile, 'db', 'stopped', 2000)).toBe('stopped');
    expect(await ev(compile, 'db', 'ready', 2500)).toBe('stopped');
    await ev(compile, 'cache', 'starting', 100);
    expect(
      await ev(
        compile,
        'cache',
        'failed',
        3000,
        'service cache was not ready within 30s (tcp 127.0.0.1:6379)',
      ),
    ).toBe('failed');
    expect(await ev(compile, 'cache', 'stopped', 4000)).toBe('failed');
    await ev(lint, 'db', 'starting', 200);

    const res = await f.api.get(`/api/v1/runs/${runId}/services`);
    expect(res.status).toBe(200);
    expect(res.body.services).toEqual([
      {
        id: expect.any(String),
        job_run_id: compile,
        job_name: 'compile',
        name: 'db',
        status: 'stopped',
        message: null,
        started_at: new Date(at).toISOString(),
        updated_at: new Date(at + 2000).toISOString(),
      },
      expect.objectContaining({
        name: 'cache',
        status: 'failed',
        message: 'service cache was not ready within 30s (tcp 127.0.0.1:6379)',
      }),
      expect.objectContaining({ job_run_id: lint, name: 'db', status: 'starting' }),
    ]);
  });

  it('refuses unknown states and job runs, and answers 404 for an unknown run', async () => {
    const { runId, compile } = await f.newRun();
    const services = f.server.execution.services;
    const bad = await services
      .recordServiceEvent({ jobRunId: compile, serviceName: 'db', state: 'exploded' })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(ServiceEventError);
    expect(bad.kind).toBe('invalid');
    const unknown = await services
      .recordServiceEvent({ jobRunId: UNKNOWN, serviceName: 'db', state: 'starting' })
      .catch((e) => e);
    expect(unknown.kind).toBe('not_found');
    expect((await f.api.get(`/api/v1/runs/${runId}/services`)).body).toEqual({ services: [] });
    expect((await f.api.get(`/api/v1/runs/${UNKNOWN}/services`)).status).toBe(404);
    expect((await f.api.get('/api/v1/runs/not-a-uuid/services')).status).toBe(400);
  });
});
