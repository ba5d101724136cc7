// The value-stream map follows the declared materials (one node per repository and branch, whatever the URL
// spelling; material and upstream edges; latest runs and has_services), and the admin views of SCM
// integrations and health say what is configured without showing a secret. SQLite and PostgreSQL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitFingerprint } from '../../src/domain/index.js';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client, STORES } from '../api-helpers.js';
import { FakeClock, startTriggerServer, storeUrl } from './helpers.js';

const DOCS = [
  `name: build
materials:
  - git: { url: "https://git.example.com/acme/app.git", branch: main }
  - git: { url: "https://git.example.com/acme/lib.git", branch: stable }
stages: [build, test]
services:
  - name: cache
    command: [redis-server, --port, "6399"]
jobs:
  compile: { stage: build, script: [make], services: [cache] }
  unit: { stage: test, script: [make test] }`,
  `name: lint
materials:
  - git: { url: "git@git.example.com:acme/app", branch: main }
stages: [check]
jobs: { lint: { stage: check, script: [make lint] } }`,
  `name: deploy
materials:
  - upstream: { pipeline: build, stage: test }
  - upstream: { pipeline: lint, stage: check }
  - cron: { expression: "0 3 * * *" }
stages: [ship]
jobs: { ship: { stage: ship, script: [./ship.sh] } }`,
];

describe.each(STORES)('value-stream map and admin views on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  beforeAll(async () => {
    const config = join(tempDir('ci-config-'), 'ci.yaml');
    writeFileSync(config, 'webhooks:\n  bitbucket:\n    secret: bb-global-secret\n');
    server = await startTriggerServer(await storeUrl(store), new FakeClock(Date.now()), {
      CI_CONFIG: config,
      CI_PUBLIC_URL: 'https://ci.example.com',
      CI_WEBHOOK_SECRET: 'env-global-secret',
    });
    api = client(server);
    expect((await api.apply(bundle('vsm', DOCS))).status).toBe(200);
    const detail = await api.get('/api/v1/projects/vsm');
    ids = Object.fromEntries(detail.body.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]));
    await api.post('/api/v1/projects/vsm/secrets', { name: 'WEBHOOK_SECRET', value: 'project-secret-value' });
  });
  afterAll(async () => server?.close());

  it('has one node per git material and per pipeline, and edges for materials and upstreams', async () => {
    const run = await api.post(`/api/v1/pipelines/${ids.build}/trigger`, {});
    const res = await api.get('/api/v1/projects/vsm/vsm');
    expect(res.status).toBe(200);
    const { nodes, edges } = res.body;
    const app = gitFingerprint('https://git.example.com/acme/app.git', 'main');
    const lib = gitFingerprint('https://git.example.com/acme/lib.git', 'stable');
    const gits = nodes.filter((n: { kind: string }) => n.kind === 'git');
    expect(gits.map((n: { fingerprint: string }) => n.fingerprint).sort()).toEqual([app, lib].sort());
    expect(gits.find((n: { fingerprint: string }) => n.fingerprint === lib)).toMatchObject({
      id: `material:${lib}`,
      url: 'https://git.example.com/acme/lib.git',
      branch: 'stable',
      latest_modification: null,
    });
    const pipelines = nodes.filter((n: { kind: string }) => n.kind === 'pipeline');
    expect(pipelines.map((p: { name: string }) => p.name)).toEqual(['build', 'lint', 'deploy']);
    const build = pipelines.find((p: { name: string }) => p.name === 'build');
    expect(build).toMatchObject({
      id: `pipeline:${ids.build}`,
      has_services: true,
      stages: ['build', 'test'],
    });
    expect(build.latest_run).toMatchObject({ id: run.body.run_id, status: 'queued', counter: 1 });
    const deploy = pipelines.find((p: { name: string }) => p.name === 'deploy');
    expect(deploy).toMatchObject({ has_services: false, latest_run: null, crons: ['0 3 * * *'] });
    const norm = (e: { from: string; to: string; kind: string; stage?: string; status?: string }) =>
      [e.from, e.to, e.kind, e.stage ?? '', e.status ?? ''].join(' ');
    expect(edges.map(norm).sort()).toEqual(
      [
        `material:${app} pipeline:${ids.build} material  `,
        `material:${lib} pipeline:${ids.build} material  `,
        `material:${app} pipeline:${ids.lint} material  `,
        `pipeline:${ids.build} pipeline:${ids.deploy} upstream test success`,
        `pipeline:${ids.lint} pipeline:${ids.deploy} upstream check success`,
      ].sort(),
    );
    expect((await api.get('/api/v1/projects/nope/vsm')).status).toBe(404);
  });

  it('lists the SCM integrations with their webhook URLs, never a secret', async () => {
    const res = await api.get('/api/v1/admin/integrations');
    expect(res.status).toBe(200);
    const byHost = Object.fromEntries(res.body.integrations.map((i: { host: string }) => [i.host, i]));
    expect(Object.keys(byHost)).toEqual(['github', 'gitlab', 'bitbucket']);
    expect(byHost.github).toMatchObject({
      configured: true,
      webhook_url: 'https://ci.example.com/api/webhooks/github',
      global_secret_configured: true,
      projects_with_secret: 1,
      signature_header: 'x-hub-signature-256',
      delivery_header: 'x-github-delivery',
    });
    expect(byHost.gitlab.signature_header).toBe('x-gitlab-token');
    const text = JSON.stringify(res.body);
    for (const secret of ['bb-global-secret', 'env-global-secret', 'project-secret-value'])
      expect(text).not.toContain(secret);
    const one = await api.get('/api/v1/admin/integrations/bitbucket');
    expect(one.body).toMatchObject({
      host: 'bitbucket',
      event_header: 'x-event-key',
      deliveries: { accepted: 0 },
    });
    expect((await api.get('/api/v1/admin/integrations/gitea')).status).toBe(404);
  });

  it('reports database, scheduler and agent fleet health', async () => {
    const res = await api.get('/api/v1/admin/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      database: { ok: true, dialect: store },
      scheduler: { running: false, leader: false, tick_interval_ms: 50 },
      agents: { total: 0, online: 0 },
    });
    expect(res.body.database.latency_ms).toBeGreaterThanOrEqual(0);
    await server.triggers.tick();
    const after = await api.get('/api/v1/admin/health');
    expect(after.body.scheduler).toMatchObject({ leader: true, last_error: null });
    expect(after.body.scheduler.last_tick_at).toEqual(expect.any(String));
  });
});
