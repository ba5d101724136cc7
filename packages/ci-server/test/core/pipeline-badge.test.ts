// The pipeline status badge (GET /api/v1/projects/{slug}/pipelines/{name}/badge.svg): the latest run's
// status as an SVG, per branch when asked, "unknown" alike for no run and for names that do not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeSvg } from '../../src/http/pipeline-badge.js';
import type { CiServer } from '../../src/index.js';
import { applyAndGetPipelines, type Client, client, startApiServer } from '../api-helpers.js';
import { finishJob, jobsOf, startJob } from './agent-sim.js';

const PIPELINE = `name: build
stages: [s]
jobs:
  j: {stage: s, script: [true]}`;

describe('pipeline badge', () => {
  let server: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  beforeAll(async () => {
    server = await startApiServer('sqlite');
    api = client(server);
    ids = await applyAndGetPipelines(api, 'badges', [PIPELINE]);
  });
  afterAll(async () => server?.close());

  const badge = (path: string) => api.get(`/api/v1/projects/${path}`);
  const run = async (ref: string, result: 'success' | 'failed') => {
    const id = (await api.post(`/api/v1/pipelines/${ids.build}/trigger`, { git_ref: ref })).body.run_id;
    const [job] = await jobsOf(server, id);
    await startJob(server, job.id);
    await finishJob(server, job.id, result, result === 'success' ? 0 : 1);
  };

  it('says unknown before any run and for names that do not exist, with the SVG type and no caching', async () => {
    for (const path of [
      'badges/pipelines/build/badge.svg',
      'nope/pipelines/build/badge.svg',
      'badges/pipelines/x/badge.svg',
    ]) {
      const res = await badge(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache, max-age=0');
      expect(res.body).toContain(': unknown</title>');
    }
  });

  it("shows the latest run's status, per branch when asked", async () => {
    await run('main', 'success');
    await run('dev', 'failed');
    expect((await badge('badges/pipelines/build/badge.svg')).body).toContain('<title>build: failing</title>');
    expect((await badge('badges/pipelines/build/badge.svg?branch=main')).body).toContain(
      '<title>build: passing</title>',
    );
    expect((await badge('badges/pipelines/build/badge.svg?branch=x')).body).toContain('build: unknown');
    expect((await badge('badges/pipelines/build/badge.svg?colour=red')).status).toBe(400);
  });

  it('escapes the name it prints', () => {
    expect(badgeSvg('a<b>&"c', 'success')).toContain('a&lt;b&gt;&amp;&quot;c: passing');
  });
});
