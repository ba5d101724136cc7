// The plugin catalog, project log-archive/notifications/caches and admin retention/storage routes, each on
// SQLite and on a fresh PostgreSQL database, with a CI_CONFIG naming manifest folders and retention values.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openAuthorizer } from '../../src/http/access.js';
import type { CiServer } from '../../src/index.js';
import { BUILD_PIPELINE, bundle, type Client, client, STORES } from '../api-helpers.js';
import { startTestCiServer } from '../helpers.js';

function writeConfig(): string {
  const root = tempDir('ci-operator-');
  const first = join(root, 'plugins-a');
  const second = join(root, 'plugins-b');
  mkdirSync(first);
  mkdirSync(second);
  writeFileSync(
    join(first, '01-slack.yaml'),
    'name: slack\nversion: 1.0.0\nkind: notifier\ndescription: Posts to Slack\nconfig_schema: {type: object}\n',
  );
  // Replaces the built-in git manifest.
  writeFileSync(
    join(first, '02-git.json'),
    JSON.stringify({
      name: 'git',
      version: '2.0.0',
      kind: 'material',
      description: 'fork',
      config_schema: {},
    }),
  );
  writeFileSync(join(first, '03-broken.yaml'), 'name: [unclosed\n');
  writeFileSync(join(first, '04-invalid.yaml'), 'name: bad\nversion: 1\nkind: rocket\n');
  writeFileSync(join(first, 'README.txt'), 'not a manifest');
  // A later folder overrides an earlier one; a file may hold an array.
  writeFileSync(
    join(second, 'more.yml'),
    [
      '- {name: slack, version: 1.1.0, kind: notifier, description: Posts to Slack v1.1, config_schema: {}}',
      '- {name: shell, version: 0.1.0, kind: task, description: Runs a script, config_schema: {}}',
    ].join('\n'),
  );
  const config = join(root, 'ci.yaml');
  writeFileSync(
    config,
    [
      'plugins:',
      `  manifest_dirs: [${JSON.stringify(first)}, ${JSON.stringify(second)}, ${JSON.stringify(join(root, 'missing'))}]`,
      'retention:',
      '  log_days: 7',
      '  cache_idle_days: oops',
      '  log_archive: {enabled: true, after_days: 60}',
    ].join('\n'),
  );
  return config;
}

async function startServer(kind: (typeof STORES)[number]): Promise<CiServer> {
  const url =
    kind === 'sqlite'
      ? `sqlite:${tempDir('ci-operator-db-')}/ci.db`
      : await createPostgresDatabase(inject('services').postgresUrl, 'ci_operator');
  return startTestCiServer({ CI_DATABASE_URL: url, CI_AUTH_ENABLED: 'false', CI_CONFIG: writeConfig() });
}

async function* chunks(text: string) {
  yield Buffer.from(text);
}

for (const kind of STORES) {
  describe(`operator routes on ${kind}`, () => {
    let server: CiServer;
    let api: Client;
    const put = async (url: string, payload: unknown) => {
      const res = await server.app.inject({ method: 'PUT', url, payload: payload as object });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    };

    beforeAll(async () => {
      server = await startServer(kind);
      api = client(server);
      expect((await api.apply(bundle('shop', [BUILD_PIPELINE]))).status).toBe(200);
    });
    afterAll(() => server?.close());

    it('serves the plugin catalog: built-ins merged with manifest files, malformed files skipped', async () => {
      const res = await api.get('/api/v1/plugins');
      expect(res.status).toBe(200);
      const byName = Object.fromEntries(res.body.plugins.map((p: { name: string }) => [p.name, p]));
      expect(Object.keys(byName)).toEqual(['artifacts', 'cache', 'cron', 'git', 'junit', 'shell', 'slack']);
      expect(byName.git).toMatchObject({ version: '2.0.0', source: 'config', description: 'fork' });
      expect(byName.slack).toMatchObject({ version: '1.1.0', kind: 'notifier', source: 'config' });
      expect(byName.junit).toMatchObject({ kind: 'test-report', source: 'builtin' });
      expect(byName.cache.config_schema).toMatchObject({ required: ['key', 'paths'] });
    });

    it('keeps a log-archive override that falls back to the global setting', async () => {
      const url = '/api/v1/projects/shop/log-archive';
      const global = { enabled: true, after: '60d', after_days: 60 };
      expect((await api.get(url)).body).toEqual({ override: null, effective: global });
      const set = await put(url, { override: { enabled: false, after_days: 3 } });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({
        override: { enabled: false, after: '3d', after_days: 3 },
        effective: { enabled: false, after: '3d', after_days: 3 },
      });
      expect((await api.get(url)).body.effective).toEqual({ enabled: false, after: '3d', after_days: 3 });
      const hours = await put(url, { override: { enabled: true, after: '36h' } });
      expect(hours.body.effective).toEqual({ enabled: true, after: '1d12h', after_days: 1 });
      for (const bad of [
        { override: { enabled: true, after_days: 0 } },
        { override: { enabled: true, after_days: 1.5 } },
        { override: { enabled: 'yes', after_days: 3 } },
        { override: { enabled: true } },
        { enabled: true, after_days: 3 },
        {},
      ]) {
        const res = await put(url, bad);
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body.error).toEqual(expect.any(String));
      }
      expect((await put(url, { override: null })).body).toEqual({ override: null, effective: global });
      expect((await api.get('/api/v1/projects/nope/log-archive')).status).toBe(404);
    });

    it('stores a strictly validated notification config and hides URL targets from viewers', async () => {
      const url = '/api/v1/projects/shop/notifications';
      expect((await api.get(url)).body).toEqual({ channels: [], redacted: false, updated_at: null });
      const channels = [
        { kind: 'webhook', target: 'https://hooks.example.com/ci/secret-token', events: ['run.failed'] },
        { kind: 'email', target: 'team@example.com', events: ['run.failed', 'gate.waiting'] },
        { kind: 'chat', target: '#builds', events: ['run.succeeded', 'run.canceled'] },
      ];
      const saved = await put(url, { channels });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ channels, redacted: false, updated_at: expect.any(String) });
      expect((await api.get(url)).body.channels).toEqual(channels);

      server.setAuthorizer(async (request) => {
        request.principal = { kind: 'user', id: 'v', username: 'viewer', role: 'viewer' };
      });
      try {
        const seen = (await api.get(url)).body;
        expect(seen.redacted).toBe(true);
        expect(seen.channels[0].target).toBe('https://hooks.example.com/…');
        expect(seen.channels[1].target).toBe('team@example.com');
        expect(JSON.stringify(seen)).not.toContain('secret-token');
      } finally {
        server.setAuthorizer(openAuthorizer);
      }

      const bad = [
        { channels: [{ kind: 'pager', target: 'x', events: ['run.failed'] }] },
        { channels: [{ kind: 'email', target: 'x@example.com', events: ['run.exploded'] }] },
        { channels: [{ kind: 'email', target: 'x@example.com', events: [] }] },
        { channels: [{ kind: 'email', target: 'x@example.com', events: ['run.failed', 'run.failed'] }] },
        { channels: [{ kind: 'email', target: 'not-an-address', events: ['run.failed'] }] },
        { channels: [{ kind: 'webhook', target: 'ftp://example.com/x', events: ['run.failed'] }] },
        { channels: [{ kind: 'webhook', target: 'https://u:p@example.com/x', events: ['run.failed'] }] },
        { channels: [{ kind: 'chat', target: 'builds', events: ['run.failed'] }] },
        { channels: [{ kind: 'email', target: 'x@example.com', events: ['run.failed'], extra: 1 }] },
        { channels: 'all' },
        { channels: [], more: true },
      ];
      for (const body of bad) {
        const res = await put(url, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toEqual(expect.any(String));
      }
      expect((await api.get(url)).body.channels).toEqual(channels);
      expect((await put(url, { channels: [] })).body.channels).toEqual([]);
    });

    it('lists cache entries and purges one with its blob', async () => {
      await server.execution.caches.save('shop', 'npm-v1', chunks('aaaa'));
      await server.execution.caches.save('shop', 'npm-v2', chunks('bbbbbbbb'));
      const list = await api.get('/api/v1/projects/shop/caches');
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
      const byKey = Object.fromEntries(list.body.caches.map((c: { key: string }) => [c.key, c]));
      expect(byKey['npm-v2']).toEqual({
        id: expect.any(String),
        key: 'npm-v2',
        size_bytes: 8,
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      });
      const page = await api.get('/api/v1/projects/shop/caches?limit=1&offset=1');
      expect(page.body.caches).toHaveLength(1);
      expect((await api.get('/api/v1/projects/shop/caches?limit=0')).status).toBe(400);

      const victim = byKey['npm-v1'].id as string;
      const stored = await server.database.db
        .selectFrom('cache_entries' as any)
        .select('storage_key')
        .where('id', '=', victim)
        .executeTakeFirstOrThrow();
      const blob = join(server.execution.caches.root, (stored as { storage_key: string }).storage_key);
      expect(existsSync(blob)).toBe(true);
      expect((await api.delete(`/api/v1/projects/shop/caches/${victim}`)).status).toBe(204);
      expect(existsSync(blob)).toBe(false);
      expect((await api.get('/api/v1/projects/shop/caches')).body.total).toBe(1);
      expect((await server.execution.caches.lookup('shop', 'npm-v1')).found).toBe(false);
      const again = await api.delete(`/api/v1/projects/shop/caches/${victim}`);
      expect(again.status).toBe(404);
      expect(again.body.error).toEqual(expect.any(String));
      expect((await api.delete('/api/v1/projects/shop/caches/not-a-uuid')).status).toBe(400);
      expect((await api.get('/api/v1/projects/nope/caches')).status).toBe(404);
    });

    it('reports retention totals and quotas', async () => {
      const detail = await api.get('/api/v1/projects/shop');
      const trigger = await api.post(`/api/v1/pipelines/${detail.body.pipelines[0].id}/trigger`);
      expect(trigger.status).toBe(201);
      const res = await api.get('/api/v1/admin/retention');
      expect(res.status).toBe(200);
      expect(res.body.last_run_at).toBeNull();
      expect(res.body.totals).toEqual({
        runs: 1,
        log_lines: 0,
        log_archives: 0,
        log_archive_bytes: 0,
        artifacts: 0,
        artifact_bytes: 0,
        cache_entries: 1,
        cache_bytes: 8,
      });
      // Config values win; an invalid one falls back to its default.
      expect(res.body.quotas).toMatchObject({ log_days: 7, cache_idle_days: 14, runs_per_pipeline: 500 });
      expect(res.body.log_archive).toEqual({ enabled: true, after: '60d', after_days: 60 });
      expect(res.body.interval).toBe('1h');
      expect(res.body.last_run).toBeNull();
    });

    it('keeps the storage-backend config and says when a restart is needed', async () => {
      const url = '/api/v1/admin/storage';
      const initial = await api.get(url);
      expect(initial.body).toEqual({
        backend: 'local',
        path: server.settings.dataDir,
        source: 'default',
        restart_required: false,
      });
      const ftp = await put(url, { backend: 'ftp', path: '/data' });
      expect(ftp.status).toBe(400);
      expect(ftp.body.error).toMatch(/supported backends: local, s3/);
      expect((await put(url, { backend: 's3', path: '/data' })).status).toBe(400);
      expect((await put(url, { backend: 's3', s3: { bucket: 'Bad_Bucket' } })).status).toBe(400);
      expect(
        (await put(url, { backend: 's3', s3: { bucket: 'ci-blobs', endpoint: 'ftp://x' } })).status,
      ).toBe(400);
      const halfKey = await put(url, { backend: 's3', s3: { bucket: 'ci-blobs', access_key_id: 'AK' } });
      expect(halfKey.status).toBe(400);
      expect((await put(url, { backend: 's3', s3: { bucket: 'ci-blobs', region: 5 } })).status).toBe(400);
      const toS3 = await put(url, {
        backend: 's3',
        s3: {
          bucket: 'ci-blobs',
          endpoint: 'http://127.0.0.1:9',
          access_key_id: 'AK',
          secret_access_key: 'very-secret',
        },
      });
      expect(toS3.status).toBe(200);
      expect(toS3.headers['x-service-restart-required']).toBe('true');
      expect(toS3.body).toEqual({
        backend: 's3',
        s3: {
          bucket: 'ci-blobs',
          endpoint: 'http://127.0.0.1:9',
          region: 'us-east-1',
          prefix: '',
          force_path_style: true,
          access_key_id: 'AK',
          secret_access_key_set: true,
        },
        source: 'stored',
        restart_required: true,
      });
      expect(JSON.stringify((await api.get(url)).body)).not.toContain('very-secret');
      const storedRow = await server.database.db
        .selectFrom('server_settings' as any)
        .select('value')
        .where('key', '=', 'storage')
        .executeTakeFirstOrThrow();
      expect((storedRow as { value: string }).value).not.toContain('very-secret');
      expect((await put(url, { backend: 'local', path: 'relative/dir' })).status).toBe(400);
      expect((await put(url, { backend: 'local' })).status).toBe(400);
      expect((await put(url, { backend: 'local', path: '/x', extra: 1 })).status).toBe(400);

      const moved = await put(url, { backend: 'local', path: '/srv/ci-data' });
      expect(moved.status).toBe(200);
      expect(moved.headers['x-service-restart-required']).toBe('true');
      expect(moved.body).toEqual({
        backend: 'local',
        path: '/srv/ci-data',
        source: 'stored',
        restart_required: true,
      });
      expect((await api.get(url)).body.path).toBe('/srv/ci-data');

      const back = await put(url, { backend: 'local', path: server.settings.dataDir });
      expect(back.headers['x-service-restart-required']).toBeUndefined();
      expect(back.body.restart_required).toBe(false);

      const reset = await api.delete(url);
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({ source: 'default', path: server.settings.dataDir });
      expect(reset.headers['x-service-restart-required']).toBeUndefined();
    });

    it('drops project settings with the project', async () => {
      await put('/api/v1/projects/shop/log-archive', { override: { enabled: true, after_days: 5 } });
      expect((await api.delete('/api/v1/projects/shop')).status).toBe(204);
      const left = await server.database.db
        .selectFrom('project_settings' as any)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number((left as { n: unknown }).n)).toBe(0);
    });
  });
}
