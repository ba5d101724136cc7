// The Redis engine against the real redis-server of the vitest global setup (packages/kit/src/testing),
// through the HTTP routes: command text and JSON, result shapes, read-only governance (data unchanged after
// a refusal), the bypass corpus (case, spacing, JSON tricks, multi-command text, scripts that write),
// guardrails, objects by SCAN, health, test-connection, provider-meta and the query deadline.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN } from './harness.js';

// A database index of its own, so other tests sharing the server never see these keys.
const DB = 7;
const url = new URL(inject('services').redisUrl);
const connection = { type: 'redis', host: url.hostname, port: Number(url.port), database: String(DB) };
let direct: Redis;
let h: GovernedHarness;

beforeAll(async () => {
  direct = new Redis({ host: url.hostname, port: Number(url.port), db: DB });
  await direct.flushdb();
  await direct.set('greeting', 'hello');
  await direct.hset('user:1', { name: 'Ada', lang: 'en' });
  await direct.rpush('queue', 'a', 'b', 'c');
  h = await governed(
    [
      managedDs('ro', connection, { readOnly: true }),
      managedDs('rw', connection, { guardrails: false }),
      managedDs('guarded', connection, {}),
    ],
    { storage: false },
  );
});

afterAll(async () => {
  await h?.close();
  await direct?.flushdb();
  direct?.disconnect();
});

const query = (connectionId: string, sql: string, extra: Record<string, unknown> = {}) =>
  h.post('/api/db/query', { connectionId, sql, ...extra }, ADMIN);

describe('redis engine: commands and results', () => {
  it('runs plain text and JSON commands and shapes replies as rows', async () => {
    const get = await query('rw', 'get greeting');
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().fields).toEqual(['value']);
    expect(get.json().rows).toEqual([{ value: 'hello' }]);
    const hash = await query('rw', JSON.stringify({ command: 'HGETALL', args: ['user:1'] }));
    expect(hash.statusCode, hash.body).toBe(200);
    expect(hash.json().fields).toEqual(['field', 'value']);
    expect(hash.json().rows).toEqual(
      expect.arrayContaining([
        { field: 'name', value: 'Ada' },
        { field: 'lang', value: 'en' },
      ]),
    );
    const list = await query('rw', 'LRANGE queue 0 -1');
    expect(list.json().rows).toEqual([
      { index: 0, value: 'a' },
      { index: 1, value: 'b' },
      { index: 2, value: 'c' },
    ]);
    const quoted = await query('rw', 'SET "spaced key" "two words"');
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(await direct.get('spaced key')).toBe('two words');
  });

  it('answers integer replies past 2^53 as their exact digits, smaller ones as numbers', async () => {
    await direct.set('big', '9007199254740992');
    const incr = await query('rw', 'INCR big');
    expect(incr.statusCode, incr.body).toBe(200);
    expect(incr.json().rows).toEqual([{ value: '9007199254740993' }]);
    expect(await direct.get('big')).toBe('9007199254740993');
    const small = await query('rw', 'STRLEN greeting');
    expect(small.json().rows).toEqual([{ value: 5 }]);
    // A bulk string of digits stays the text it is.
    const text = await query('rw', 'GET big');
    expect(text.json().rows).toEqual([{ value: '9007199254740993' }]);
    const list = await query('rw', 'LRANGE queue 0 -1');
    expect(list.json().rows.map((r: { value: unknown }) => r.value)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a sql-insert or sql-ddl export of a reply with 400 and the reason', async () => {
    for (const format of ['sql-insert', 'sql-ddl']) {
      const res = await h.post(
        '/api/db/export',
        { connectionId: 'ro', sql: 'LRANGE queue 0 -1', format, tabName: 'queue' },
        ADMIN,
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_FORMAT' });
    }
  });

  it('exports a reading command as json and csv; writes and scripts are refused, the data unchanged', async () => {
    const exp = (sql: string, format: string, id = 'rw') =>
      h.post('/api/db/export', { connectionId: id, sql, format, tabName: 'queue' }, ADMIN);
    const json = await exp('LRANGE queue 0 -1', 'json', 'ro');
    expect(json.statusCode, json.body).toBe(200);
    expect(json.headers['x-export-rows']).toBe('3');
    expect(JSON.parse(json.body)).toEqual([
      { index: 0, value: 'a' },
      { index: 1, value: 'b' },
      { index: 2, value: 'c' },
    ]);
    const csv = await exp(JSON.stringify({ command: 'HGETALL', args: ['user:1'] }), 'csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.trim().split('\r\n').sort()).toEqual(['field,value', 'lang,en', 'name,Ada']);
    for (const sql of ['DEL queue', "EVAL \"return redis.call('del', 'queue')\" 0", 'LPOP queue']) {
      const r = await exp(sql, 'json');
      expect(r.statusCode, sql).toBe(400);
    }
    expect(await direct.lrange('queue', 0, -1)).toEqual(['a', 'b', 'c']);
  });

  it('answers a server error reply and malformed text as 400 QUERY_ERROR', async () => {
    const wrong = await query('rw', 'HGETALL greeting');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code ?? wrong.json().error?.code ?? wrong.body).toMatch(/QUERY_ERROR/);
    const bad = await query('rw', '{"command": 5}');
    expect(bad.statusCode).toBe(400);
    const params = await query('rw', 'GET greeting', { params: ['x'] });
    expect(params.statusCode).toBe(400);
  });

  it('refuses connection-taking and transaction commands', async () => {
    for (const sql of ['SUBSCRIBE ch', 'SELECT 0', 'MULTI', '{"command":"multi"}']) {
      const r = await query('rw', sql);
      expect(r.statusCode, sql).toBe(400);
    }
  });

  it('stops a command at queryTimeout with 408', async () => {
    const r = await h.post(
      '/api/db/query',
      { connection: { id: 'slow', ...connection, queryTimeout: 200 }, sql: 'BLPOP no-such-list 5' },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(408);
    // The provider's connection was replaced and works again.
    const again = await h.post(
      '/api/db/query',
      { connection: { id: 'slow', ...connection, queryTimeout: 200 }, sql: 'GET greeting' },
      ADMIN,
    );
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('redis engine: governance', () => {
  it('a read-only datasource runs reads and refuses SET; the data is unchanged', async () => {
    expect((await query('ro', 'GET greeting')).statusCode).toBe(200);
    const r = await query('ro', 'SET greeting changed');
    expect(r.statusCode).toBe(403);
    expect(r.body).toMatch(/READ_ONLY/);
    expect(await direct.get('greeting')).toBe('hello');
  });

  const bypasses = [
    'set greeting changed',
    'SeT greeting changed',
    '   SET    greeting   changed  ',
    '\tSET\tgreeting changed',
    '{"command":"set","args":["greeting","changed"]}',
    '{"command":"SET","args":["greeting","changed"],"extra":1}',
    '{"args":["greeting"],"command":"DEL"}',
    '["SET","greeting","changed"]',
    'GET greeting\nSET greeting changed',
    'GET greeting; SET greeting changed',
    'GET "greeting"SET',
    "EVAL \"return redis.call('set','greeting','changed')\" 0",
    'EVALSHA 0123456789012345678901234567890123456789 0',
    'FCALL f 0',
    'FLUSHDB',
    'flushall',
    'DEL greeting',
    'UNLINK greeting',
    'CONFIG SET maxmemory 1',
    'ACL SETUSER mallory on >pw +@all',
    'NOSUCHCOMMAND greeting',
    'OBJECT FREQ greeting; FLUSHDB',
    '/* c */ FLUSHDB',
  ];
  it.each(bypasses)('read-only refuses %j and nothing changes', async (sql) => {
    const r = await query('ro', sql);
    expect(r.statusCode, r.body).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
    expect(await direct.get('greeting')).toBe('hello');
    expect(await direct.dbsize()).toBeGreaterThanOrEqual(3);
  });

  it('classifies by the command allowlist: _RO scripts read (reaching every key), the rest write, unknown fails closed', async () => {
    const kind = async (sql: string) => (await classifyScript(sql, 'redis')).statements[0];
    expect((await kind('EVAL_RO "return 1" 0')).kind).toBe('read');
    expect((await kind('FCALL_RO f 0')).kind).toBe('read');
    expect((await kind('EVAL "return 1" 0')).kind).toBe('write');
    // CONFIG GET answers requirepass (the datasource's own credential): the most dangerous class.
    expect((await kind('CONFIG GET maxmemory')).kind).toBe('write');
    expect((await kind('CONFIG SET maxmemory 1')).kind).toBe('write');
    const unknown = await kind('FROBNICATE x');
    expect(unknown.kind).toBe('write');
    expect(unknown.doubtful).toBe(true);
    expect((await kind('FLUSHALL')).guardrails).toEqual(expect.arrayContaining(['drop', 'truncate']));
    expect((await kind('DEL a b')).guardrails).toEqual(['delete']);
    expect((await kind('DEL a b')).objects.map((o) => o.name)).toEqual(['a', 'b']);
    expect((await kind('ACL DELUSER bob')).guardrails).toContain('grant');
    expect((await kind('FUNCTION FLUSH')).guardrails).toContain('unverifiable');
    expect((await kind('script flush')).guardrails).toContain('unverifiable');
    expect((await kind('MULTI')).transactionControl).toBe(true);
  });

  it('a guarded datasource holds FLUSHDB and DEL rather than running them', async () => {
    for (const sql of ['FLUSHDB', 'DEL greeting']) {
      const r = await query('guarded', sql);
      expect(r.statusCode, r.body).not.toBe(200);
    }
    expect(await direct.get('greeting')).toBe('hello');
  });
});

describe('redis engine: objects, health, connection', () => {
  it('lists keys with their type by SCAN and describes one', async () => {
    const list = await h.post('/api/db/objects/list', { connectionId: 'rw' }, ADMIN);
    expect(list.statusCode, list.body).toBe(200);
    const objects = list.json().objects as Array<{ name: string; kind: string; path: string[] }>;
    expect(objects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'greeting', kind: 'string', path: [`db${DB}`, 'greeting'] }),
        expect.objectContaining({ name: 'user:1', kind: 'hash' }),
        expect.objectContaining({ name: 'queue', kind: 'list' }),
      ]),
    );
    const d = await h.post(
      '/api/db/objects/describe',
      { connectionId: 'rw', path: [`db${DB}`, 'user:1'] },
      ADMIN,
    );
    expect(d.statusCode, d.body).toBe(200);
    expect(d.json().columns.map((c: { name: string }) => c.name)).toEqual(['field', 'value']);
  });

  it('answers health and test-connection from INFO', async () => {
    const health = await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN);
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json().activeConnections).toBeGreaterThanOrEqual(1);
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/\d+\.\d+/);
  });

  it('a server that is not there is 503 CONNECTION_ERROR', async () => {
    const r = await h.post(
      '/api/db/query',
      { connection: { id: 'down', type: 'redis', host: '127.0.0.1', port: 1 }, sql: 'PING' },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(503);
  });

  it('provider-meta states the truthful flags', async () => {
    const r = await h.post('/api/db/provider-meta', { connection: { id: 'pm', ...connection } }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.body).toMatch(/"supportsExplain":false/);
    expect(r.body).toMatch(/"supportsPositionalParams":false/);
  });
});
