// The embedded key-value engine on real LevelDB folders under the portal's folder for embedded files,
// through the HTTP routes: the command grammar, read-only governance (data unchanged after a refusal),
// the bypass corpus, the DELETE guardrail, paths outside the folder, objects and health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from './harness.js';

const connection = { type: 'leveldb', database: 'kv-store' };
let h: GovernedHarness;

beforeAll(async () => {
  h = await governed(
    [
      managedDs('rw', connection, { guardrails: false }),
      managedDs('ro', connection, { readOnly: true }),
      managedDs('guarded', connection, {}),
    ],
    { storage: false },
  );
});

afterAll(async () => {
  await h?.close();
});

const query = (connectionId: string, sql: string) => h.post('/api/db/query', { connectionId, sql }, ADMIN);

describe('leveldb engine', () => {
  it('puts, gets, lists by prefix and range, deletes', async () => {
    for (const [k, v] of [
      ['user:1', 'Ada'],
      ['user:2', 'Grace'],
      ['user:3', 'two words'],
      ['zone:a', 'x'],
    ]) {
      const r = await query('rw', `PUT ${k} "${v}"`);
      expect(r.statusCode, r.body).toBe(200);
    }
    const get = await query('rw', 'get user:3');
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().rows).toEqual([{ key: 'user:3', value: 'two words' }]);
    const prefix = await query('rw', 'PREFIX user: LIMIT 2');
    expect(prefix.json().rows.map((r: { key: string }) => r.key)).toEqual(['user:1', 'user:2']);
    const range = await query('rw', 'RANGE user:2 zone:a');
    expect(range.json().rows.map((r: { key: string }) => r.key)).toEqual(['user:2', 'user:3']);
    const missing = await query('rw', 'GET nope');
    expect(missing.json().rows).toEqual([]);
    const del = await query('rw', 'DELETE zone:a');
    expect(del.statusCode, del.body).toBe(200);
    expect((await query('rw', 'GET zone:a')).json().rows).toEqual([]);
  });

  it('exports a reading command as json and csv; writes and sql formats are refused', async () => {
    const exp = (sql: string, format: string, id = 'rw') =>
      h.post('/api/db/export', { connectionId: id, sql, format, tabName: 'users' }, ADMIN);
    const json = await exp('PREFIX user:', 'json', 'ro');
    expect(json.statusCode, json.body).toBe(200);
    expect(json.headers['x-export-rows']).toBe('3');
    expect(JSON.parse(json.body)).toEqual([
      { key: 'user:1', value: 'Ada' },
      { key: 'user:2', value: 'Grace' },
      { key: 'user:3', value: 'two words' },
    ]);
    const csv = await exp('RANGE user:2 ""', 'csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.trim().split('\r\n')).toEqual(['key,value', 'user:2,Grace', 'user:3,two words']);
    const write = await exp('DELETE user:1', 'json');
    expect(write.statusCode).toBe(400);
    expect((await query('rw', 'GET user:1')).json().rows).toHaveLength(1);
  });

  it('answers malformed commands as 400', async () => {
    for (const sql of ['FETCH a', 'GET', 'PUT a', 'PREFIX a LIMIT x', 'GET "a']) {
      const r = await query('rw', sql);
      expect(r.statusCode, sql).toBe(400);
    }
  });

  it('a read-only datasource reads and refuses every write form; the data is unchanged', async () => {
    expect((await query('ro', 'GET user:1')).statusCode).toBe(200);
    for (const sql of [
      'PUT user:1 changed',
      'put user:1 changed',
      '  Put   user:1   changed ',
      'DELETE user:1',
      'GET user:1; PUT user:1 changed',
      'GET user:1\nDELETE user:1',
      'PUT "user:1" "changed"',
      'FROB user:1',
    ]) {
      const r = await query('ro', sql);
      expect(r.statusCode, sql).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, sql).toBeLessThan(500);
    }
    expect((await query('rw', 'GET user:1')).json().rows).toEqual([{ key: 'user:1', value: 'Ada' }]);
    const r = await query('ro', 'PUT user:1 changed');
    expect(r.body).toMatch(/READ_ONLY/);
  });

  it('classifies reads and writes; unknown text fails closed', async () => {
    const c = async (sql: string) => (await classifyScript(sql, 'leveldb')).statements[0];
    expect((await c('RANGE a b')).kind).toBe('read');
    expect((await c('PUT a b')).kind).toBe('write');
    expect((await c('DELETE a')).guardrails).toEqual(['delete']);
    expect(await c('DROP a')).toMatchObject({ kind: 'write', doubtful: true });
  });

  it('a guarded datasource holds DELETE', async () => {
    const r = await query('guarded', 'DELETE user:1');
    expect(r.statusCode, r.body).not.toBe(200);
    expect((await query('rw', 'GET user:1')).json().rows).toHaveLength(1);
  });

  it('refuses a folder outside the portal folder to a user', async () => {
    const r = await h.post(
      '/api/db/query',
      { connection: { id: 'escape', type: 'leveldb', database: '../../etc/x' }, sql: 'GET a' },
      ALICE,
    );
    expect(r.statusCode).toBe(400);
    expect(r.body).toMatch(/CONFIGURATION_ERROR/);
  });

  it('shows the key space as one object, health with the folder size, and truthful flags', async () => {
    const list = await h.post('/api/db/objects/list', { connectionId: 'rw' }, ADMIN);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().objects).toEqual([
      expect.objectContaining({ path: ['main', 'keys'], kind: 'keyspace' }),
    ]);
    const health = await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN);
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json().cacheHitRatio).toBe('n/a');
    const meta = await h.post('/api/db/provider-meta', { type: 'leveldb' }, ADMIN);
    expect(meta.statusCode, meta.body).toBe(200);
    expect(meta.json()).toMatchObject({ fileBased: true, capabilities: { supportsExplain: false } });
  });
});
