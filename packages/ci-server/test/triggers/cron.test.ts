// Cron materials and project cron schedules with two control-plane replicas on one PostgreSQL: with both
// replicas' timers running, each firing starts exactly one run per pipeline (cause `cron`); concurrent ticks
// and a leader hand-over keep it so. The schedules' clock is fake, so firings happen when the test moves it;
// waits are bounded generously and only wait for something that must happen.
import { waitFor } from '@app/kit';
import { createPostgresDatabase } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client } from '../api-helpers.js';
import { dbOf } from '../core/agent-sim.js';
import { FakeClock, runsOf, startTriggerServer } from './helpers.js';

const DOCS = [
  `name: ticker
materials:
  - cron: { expression: "* * * * *" }
stages: [tick]
jobs: { tick: { stage: tick, script: [date] } }`,
  `name: report
stages: [report]
jobs: { report: { stage: report, script: [make report] } }`,
  `name: other
stages: [build]
jobs: { build: { stage: build, script: [make] } }`,
];

describe('cron with two replicas on one PostgreSQL', () => {
  const clock = new FakeClock(Date.parse('2030-01-01T10:00:30.000Z'));
  let a: CiServer;
  let b: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  const count = async (pipeline: string) =>
    (await runsOf(server(), { cause: 'cron' })).filter((r) => r.pipeline === pipeline).length;
  const server = () => a;
  const both = () =>
    Promise.all([a.triggers.tick(), b.triggers.tick(), b.triggers.tick(), a.triggers.tick()]);

  beforeAll(async () => {
    const url = await createPostgresDatabase(inject('services').postgresUrl, 'ci_cron');
    a = await startTriggerServer(url, clock, {}, 20);
    b = await startTriggerServer(url, clock, {}, 20);
    api = client(a);
    expect((await api.apply(bundle('nightly', DOCS))).status).toBe(200);
    const detail = await api.get('/api/v1/projects/nightly');
    ids = Object.fromEntries(detail.body.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('manages project cron schedules', async () => {
    const created = await api.post('/api/v1/projects/nightly/crons', {
      name: 'reports',
      expression: '*/5  * * * *',
      pipeline_ids: [ids.report],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'reports',
      expression: '*/5 * * * *',
      pipeline_ids: [ids.report],
      enabled: true,
      next_run_at: '2030-01-01T10:05:00.000Z',
    });
    const off = await api.post('/api/v1/projects/nightly/crons', {
      name: 'off',
      expression: '@hourly',
      enabled: false,
    });
    expect(off.body).toMatchObject({ enabled: false, next_run_at: null, pipeline_ids: [] });

    const bad = async (body: unknown, status = 400) => {
      const res = await api.post('/api/v1/projects/nightly/crons', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      return res.body.error as string;
    };
    expect(await bad({ name: 'x', expression: '61 * * * *' })).toMatch(/invalid cron expression/);
    expect(await bad({ name: 'x', expression: '* * * * * *' })).toMatch(/6 fields; expected 5/);
    expect(await bad({ name: 'x', expression: '@often' })).toMatch(/unknown cron nickname/);
    expect(
      await bad({ name: 'x', expression: '@daily', pipeline_ids: ['01900000-0000-7000-8000-000000000000'] }),
    ).toMatch(/not active in this project/);
    expect(await bad({ name: 'x', expression: '@daily', pipeline_ids: ['nope'] })).toMatch(/UUID/);
    expect(await bad({ name: 'x', expression: '@daily', enabled: 'yes' })).toMatch(/enabled/);
    expect(await bad({ expression: '@daily' })).toMatch(/name/);
    expect(await bad({ name: 'reports', expression: '@daily' }, 409)).toMatch(/already has/);
    expect((await api.post('/api/v1/projects/nope/crons', { name: 'x', expression: '@daily' })).status).toBe(
      404,
    );

    const put = await a.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/nightly/crons/${off.body.id}`,
      payload: { expression: '0 12 * * *' },
    });
    expect(put.json()).toMatchObject({ name: 'off', expression: '0 12 * * *', enabled: false });
    const list = await api.get('/api/v1/projects/nightly/crons');
    expect(list.body.crons.map((c: { name: string }) => c.name)).toEqual(['off', 'reports']);
    expect((await api.delete(`/api/v1/projects/nightly/crons/${off.body.id}`)).status).toBe(204);
    expect((await api.delete(`/api/v1/projects/nightly/crons/${off.body.id}`)).status).toBe(404);
  });

  it('fires each schedule once per firing with the timers of both replicas running', async () => {
    a.triggers.start();
    b.triggers.start();
    // Both schedules known to the scheduler (their next fire times computed) and one leader elected.
    await waitFor(
      async () => {
        const n = await dbOf(a)
          .selectFrom('cron_state' as never)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst();
        return (
          Number((n as { n: number }).n) >= 2 &&
          a.triggers.schedulerStatus().leader !== b.triggers.schedulerStatus().leader
        );
      },
      { timeoutMs: 20_000, what: 'cron schedules to be initialised' },
    );
    expect(await count('ticker')).toBe(0);

    clock.set('2030-01-01T10:01:00.500Z');
    await waitFor(async () => (await count('ticker')) === 1, { timeoutMs: 20_000, what: 'the 10:01 firing' });
    // Many more ticks of both replicas, also at once, add nothing for this minute.
    for (let i = 0; i < 5; i++) await both();
    expect(await count('ticker')).toBe(1);
    expect(await count('report')).toBe(0);
    expect(await count('other')).toBe(0);

    // 10:02–10:05 were missed while the clock stood still: one late firing, then the schedule goes on.
    clock.set('2030-01-01T10:05:00.500Z');
    await waitFor(async () => (await count('ticker')) === 2 && (await count('report')) === 1, {
      timeoutMs: 20_000,
      what: 'the 10:05 firings',
    });
    for (let i = 0; i < 5; i++) await both();
    expect([await count('ticker'), await count('report'), await count('other')]).toEqual([2, 1, 0]);
    const [run] = (await runsOf(a, { cause: 'cron' })).filter((r) => r.pipeline === 'report');
    expect(run.triggered_by).toBe('cron:reports');
  });

  it('when the leader stops, the other replica takes over and fires the next minute once', async () => {
    const [leader, follower] = a.triggers.schedulerStatus().leader ? [a, b] : [b, a];
    await leader.triggers.stop();
    clock.set('2030-01-01T10:06:00.500Z');
    await waitFor(async () => (await count('ticker')) === 3, { timeoutMs: 20_000, what: 'the 10:06 firing' });
    expect(follower.triggers.schedulerStatus().leader).toBe(true);
    for (let i = 0; i < 3; i++) await follower.triggers.tick();
    expect(await count('ticker')).toBe(3);
    const health = await client(follower).get('/api/v1/admin/health');
    expect(health.body.scheduler).toMatchObject({
      running: true,
      leader: true,
      last_cron_fired_at: '2030-01-01T10:06:00.000Z',
    });
  });
});
