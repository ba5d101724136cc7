// Project secrets on SQLite and PostgreSQL: set (201/200), list without values, delete, validation, values
// encrypted at rest and bound to their row, never in a response.
import { createSecretBox } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { openProjectSecrets } from '../../src/services/secrets.js';
import {
  applyAndGetPipelines,
  BUILD_PIPELINE,
  type Client,
  client,
  STORES,
  startApiServer,
} from '../api-helpers.js';
import { dbOf } from './agent-sim.js';

const VALUE = 'hunter2-very-secret';

describe.each(STORES)('project secrets on %s', (store) => {
  let server: CiServer;
  let api: Client;
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
    await applyAndGetPipelines(api, 'shop', [BUILD_PIPELINE]);
  });
  afterAll(async () => server?.close());

  it('creates, replaces, lists and deletes secrets without ever returning a value', async () => {
    const created = await api.post('/api/v1/projects/shop/secrets', { name: 'NPM_TOKEN', value: VALUE });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'NPM_TOKEN',
      created_at: expect.any(String),
      updated_at: created.body.created_at,
    });
    const replaced = await api.post('/api/v1/projects/shop/secrets', {
      name: 'NPM_TOKEN',
      value: `${VALUE}-2`,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.created_at).toBe(created.body.created_at);
    expect(replaced.body.updated_at >= created.body.updated_at).toBe(true);
    await api.post('/api/v1/projects/shop/secrets', { name: 'A_FIRST', value: 'x' });

    const list = await api.get('/api/v1/projects/shop/secrets');
    expect(list.status).toBe(200);
    expect(list.body.secrets.map((s: { name: string }) => s.name)).toEqual(['A_FIRST', 'NPM_TOKEN']);
    for (const s of list.body.secrets)
      expect(Object.keys(s).sort()).toEqual(['created_at', 'name', 'updated_at']);
    for (const res of [created, replaced, list]) expect(JSON.stringify(res.body)).not.toContain(VALUE);

    const del = await api.delete('/api/v1/projects/shop/secrets/A_FIRST');
    expect(del.status).toBe(204);
    expect((await api.delete('/api/v1/projects/shop/secrets/A_FIRST')).status).toBe(404);
    expect((await api.get('/api/v1/projects/shop/secrets')).body.secrets).toHaveLength(1);
  });

  it('keeps values encrypted at rest, bound to their project and name', async () => {
    await api.post('/api/v1/projects/shop/secrets', { name: 'DEPLOY_KEY', value: VALUE });
    const db = dbOf(server);
    const project = await db
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', 'shop')
      .executeTakeFirstOrThrow();
    const row = await db
      .selectFrom('project_secrets')
      .selectAll()
      .where('name', '=', 'DEPLOY_KEY')
      .executeTakeFirstOrThrow();
    expect(row.value_sealed).not.toContain(VALUE);
    expect(row.value_sealed).toMatch(/^v1\./);
    const box = createSecretBox('0'.repeat(64));
    const opened = await openProjectSecrets(db, box, project.id, ['DEPLOY_KEY', 'MISSING']);
    expect([...opened]).toEqual([['DEPLOY_KEY', VALUE]]);
    // A sealed value copied under another name does not open.
    await db
      .insertInto('project_secrets')
      .values({ ...row, name: 'COPIED' })
      .execute();
    await expect(openProjectSecrets(db, box, project.id, ['COPIED'])).rejects.toThrow(/authentication/);
    await db.deleteFrom('project_secrets').where('name', '=', 'COPIED').execute();
  });

  it('answers 400 for bad names, values and bodies, and 404 for unknown projects', async () => {
    const bad: [unknown, RegExp][] = [
      [{ name: '1ABC', value: 'x' }, /not a valid secret name/],
      [{ name: 'has-dash', value: 'x' }, /not a valid secret name/],
      [{ name: 'N'.repeat(201), value: 'x' }, /at most 200/],
      [{ name: 'EMPTY', value: '' }, /empty/],
      [{ name: 'BIG', value: 'x'.repeat(64 * 1024 + 1) }, /larger than/],
      [{ name: 'X' }, /value/],
      [{ name: 'X', value: 5 }, /value must be string/],
      [{ name: 'X', value: 'y', extra: true }, /unknown field "extra"/],
    ];
    for (const [body, message] of bad) {
      const res = await api.post('/api/v1/projects/shop/secrets', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await api.delete('/api/v1/projects/shop/secrets/bad-name')).status).toBe(400);
    expect((await api.get('/api/v1/projects/nobody/secrets')).status).toBe(404);
    expect((await api.post('/api/v1/projects/nobody/secrets', { name: 'A', value: 'b' })).status).toBe(404);
    expect((await api.delete('/api/v1/projects/nobody/secrets/A')).status).toBe(404);
    expect((await api.get('/api/v1/projects/No_Slug/secrets')).status).toBe(400);
  });
});
