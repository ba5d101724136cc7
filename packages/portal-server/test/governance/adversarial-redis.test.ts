// The Redis adversarial corpus (issue 27): scripts and functions, expiries in the past, MOVE/SWAPDB,
// PFCOUNT (it rewrites the HyperLogLog), server administration, credential-revealing commands (CONFIG GET
// masterauth, ACL LIST), and reads that reach hidden keys (KEYS, SCAN, SORT_RO … GET, EVAL_RO) — each sent
// as a user to a read-only, a write-approval, a guardrails-only and an object-rules datasource on the real
// Redis the suite starts, the server read directly before and after; harmless reads run. Also: the
// read-only datasource's command filter, and a read-only ACL user the server itself holds to.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readOnlyProvider } from '../../src/governance/read-only.js';
import { createProvider } from '../../src/providers/redis/index.js';
import type { Provider } from '../../src/providers/types.js';
import type { BotHarness } from '../bot/harness.js';
import {
  change,
  corpusPortal,
  engineEntries,
  type Form,
  leak,
  listingsHide,
  read,
  runCorpus,
  w,
} from './adversarial-harness.js';

// Database indexes of their own, so other tests sharing the server never see these keys.
const DB = 11;
const OTHER = 13;
const MASTERAUTH = `adv-${randomBytes(8).toString('hex')}`;
const ACL_USER = `adv_ro_${process.pid}`;
const ACL_PASS = randomBytes(12).toString('hex');

const FORMS: Form[] = [
  // Scripts and functions: their body can do anything.
  w('EVAL "return redis.call(\'flushdb\')" 0', 'drop'),
  w("EVAL 'return 1' 0", 'drop'),
  w('eval \'return redis.call("del", KEYS[1])\' 1 adv:str', 'drop'),
  w('EVALSHA e0e1f9fabfc9d4800c877a703b823ac0578ff831 0', 'drop'),
  w('FCALL f 0', 'drop'),
  w('SCRIPT FLUSH', 'drop'),
  w("SCRIPT LOAD 'return 1'", 'drop'),
  w('FUNCTION FLUSH', 'drop'),
  w('FUNCTION DELETE lib', 'drop'),
  w('FUNCTION LOAD \'#!lua name=lib\nredis.register_function("f", function() return 1 end)\'', 'drop'),
  w('{"command":"EVAL","args":["return redis.call(\'flushall\')","0"]}', 'drop'),
  // Server administration.
  w('CONFIG SET maxmemory 1', 'drop'),
  w('CONFIG REWRITE', 'drop'),
  w('CONFIG RESETSTAT', 'drop'),
  w('DEBUG SLEEP 0', 'drop'),
  w('DEBUG OBJECT adv:str', 'drop'),
  w('DEBUG RELOAD', 'drop'),
  w('MODULE LOAD /tmp/x.so', 'drop'),
  w('MODULE LIST', 'drop'),
  w('MIGRATE 127.0.0.1 1 adv:str 0 1000', 'drop'),
  w('SHUTDOWN NOSAVE', 'drop'),
  w('SAVE', 'drop'),
  w('BGSAVE', 'drop'),
  w('BGREWRITEAOF', 'drop'),
  w('REPLICAOF 127.0.0.1 1', 'drop'),
  w('SLAVEOF 127.0.0.1 1', 'drop'),
  w('FAILOVER', 'drop'),
  w('CLUSTER RESET', 'drop'),
  w('ACL SETUSER adv_x on', 'grant'),
  w('ACL DELUSER default', 'grant'),
  w('CLIENT KILL TYPE normal', 'drop'),
  w('CLIENT PAUSE 1000', 'drop'),
  w('SLOWLOG RESET', 'drop'),
  w('LATENCY RESET', 'drop'),
  w('PFDEBUG GETREG adv:hll', 'drop'),
  w('PFSELFTEST', 'drop'),
  w('SORT adv:list', 'drop'),
  w('SORT adv:list STORE adv:x', 'drop'),
  w('FROBNICATE x', 'drop'),
  w('TOUCH adv:str', 'drop'),
  // Deletes, expiries in the past, moves and swaps.
  w('FLUSHALL', 'drop'),
  w('FLUSHDB', 'drop'),
  w('flushdb async', 'drop'),
  w(`SWAPDB ${DB} ${OTHER}`, 'drop'),
  w('DEL adv:str', 'delete'),
  w('UNLINK adv:str', 'delete'),
  w('GETDEL adv:str', 'delete'),
  w('EXPIRE adv:str 0', 'delete'),
  w('expire adv:str -1', 'delete'),
  w('PEXPIRE adv:str 1', 'delete'),
  w('EXPIREAT adv:str 1', 'delete'),
  w('PEXPIREAT adv:str 1', 'delete'),
  w('GETEX adv:str PXAT 1', 'delete'),
  w('GETEX adv:str EX 1', 'delete'),
  w(`MOVE adv:str ${OTHER}`, 'delete'),
  w('RENAME adv:str adv:gone', 'delete'),
  w('RENAMENX adv:str adv:gone', 'delete'),
  w('COPY adv:str2 adv:str REPLACE', 'delete'),
  w('HDEL adv:h email', 'delete'),
  w('LTRIM adv:list 1 0', 'delete'),
  w('LPOP adv:list', 'delete'),
  w('SPOP adv:set', 'delete'),
  w('ZPOPMIN adv:z', 'delete'),
  w('SREM adv:set a', 'delete'),
  w('ZREMRANGEBYRANK adv:z 0 -1', 'delete'),
  w('{"command":"DEL","args":["adv:str"]}', 'delete'),
  // Ordinary writes, and PFCOUNT, which rewrites the HyperLogLog it counts.
  change('PFCOUNT adv:hll'),
  change('pfcount adv:hll'),
  change('SET adv:str 2'),
  change('HSET adv:h name x'),
  change('LPUSH adv:list z'),
  change('INCR adv:n'),
  change('PFADD adv:hll z'),
  change('APPEND adv:str x'),
  change('SADD adv:set z'),
  change('PERSIST adv:str'),
  // Credentials and reads that reach keys they do not name.
  leak('CONFIG GET masterauth'),
  leak('CONFIG GET *'),
  leak('config get MASTERAUTH'),
  leak('{"command":"CONFIG","args":["GET","masterauth"]}'),
  leak('ACL LIST'),
  leak('ACL GETUSER default'),
  leak('CLIENT LIST'),
  leak('SLOWLOG GET'),
  leak('KEYS *'),
  leak('KEYS hu*'),
  leak('SCAN 0 MATCH *'),
  leak('SCAN 0'),
  leak('RANDOMKEY'),
  leak('SORT_RO adv:list BY nosort GET hush'),
  leak('SORT_RO adv:list BY hush*'),
  leak("EVAL_RO \"return redis.call('get', 'hush')\" 0"),
  leak('FCALL_RO f 0'),
  leak('GET hush'),
  leak('MGET adv:str hush'),
  leak('DUMP hush'),
  leak('GETRANGE hush 0 -1'),
  leak('LCS hush adv:str'),
  leak('{"command":"GET","args":["hush"]}'),
  // Harmless reads run.
  read('GET adv:str'),
  read('MGET adv:str adv:str2'),
  read('HGETALL adv:h'),
  read('HGET adv:h name'),
  read('LRANGE adv:list 0 -1'),
  read('LLEN adv:list'),
  read('SMEMBERS adv:set'),
  read('SCARD adv:set'),
  read('ZRANGE adv:z 0 -1'),
  read('ZSCORE adv:z a'),
  read('TYPE adv:str'),
  read('TTL adv:str'),
  read('EXISTS adv:str'),
  read('STRLEN adv:str'),
  read('PING'),
  read('ECHO hi'),
  read('DBSIZE'),
  read('INFO server'),
  read('OBJECT ENCODING adv:str'),
  read('HLEN adv:h'),
  read('SISMEMBER adv:set a'),
  read('LINDEX adv:list 0'),
  read('{"command":"GET","args":["adv:str"]}'),
  read('COMMAND COUNT'),
];

let h: BotHarness;
let before = '';
let direct: Redis;
let url: URL;

async function snapshot(): Promise<string> {
  const out: string[] = [];
  for (const db of [DB, OTHER]) {
    await direct.select(db);
    const keys = (await direct.keys('*')).sort();
    out.push(`${db}:${keys.join(',')}`);
    for (const k of keys)
      out.push(`${k}=${(await direct.dumpBuffer(k))?.toString('hex')} ttl=${await direct.ttl(k)}`);
  }
  await direct.select(DB);
  out.push(JSON.stringify(await direct.call('CONFIG', 'GET', 'maxmemory')));
  out.push(JSON.stringify(((await direct.call('ACL', 'USERS')) as string[]).sort()));
  out.push(JSON.stringify(await direct.call('FUNCTION', 'LIST')));
  out.push(String(await direct.call('SCRIPT', 'EXISTS', 'e0e1f9fabfc9d4800c877a703b823ac0578ff831')));
  return out.join('\n');
}

beforeAll(async () => {
  url = new URL(inject('services').redisUrl);
  direct = new Redis({ host: url.hostname, port: Number(url.port), db: DB });
  await direct.flushdb();
  await direct.select(OTHER);
  await direct.flushdb();
  await direct.select(DB);
  await direct.set('adv:str', '1');
  await direct.set('adv:str2', 'two');
  await direct.set('hush', 'TOP-SECRET-ROW');
  await direct.hset('adv:h', { name: 'n', email: 'ann@corp.example' });
  await direct.rpush('adv:list', 'a', 'b');
  await direct.sadd('adv:set', 'a', 'b');
  await direct.zadd('adv:z', 1, 'a', 2, 'b');
  await direct.pfadd('adv:hll', 'a', 'b', 'c');
  await direct.set('adv:n', '1');
  // A credential CONFIG GET would hand out (masterauth is unused on a primary).
  await direct.call('CONFIG', 'SET', 'masterauth', MASTERAUTH);
  const entry = (id: string, policy: string) =>
    [
      `  - id: ${id}`,
      '    type: redis',
      `    host: ${url.hostname}`,
      `    port: ${url.port}`,
      `    database: "${DB}"`,
      '    roles: [admin, user]',
      `    policy: ${policy}`,
      '',
    ].join('\n');
  h = await corpusPortal(
    engineEntries('rd', entry, { hidden: [`db${DB}.hush`], defaultSchema: `db${DB}`, masked: '*.email' }),
  );
  before = await snapshot();
}, 120_000);
afterAll(async () => {
  await h?.close();
  await direct?.call('CONFIG', 'SET', 'masterauth', '').catch(() => undefined);
  await direct?.call('ACL', 'DELUSER', ACL_USER).catch(() => undefined);
  direct?.disconnect();
});

describe('redis adversarial corpus', () => {
  it('object listings name no hidden object to a user', async () => {
    expect(await listingsHide(h, 'rd', 'hush')).toEqual([]);
  });

  it('holds at least one hundred forms across the classes', () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(100);
  });

  it('refuses or holds every write and leak, runs every harmless read; the server is unchanged', async () => {
    const out = await runCorpus(h, 'rd', FORMS, { anywhere: [MASTERAUTH], rules: ['TOP-SECRET-ROW'] });
    expect(out.failures).toEqual([]);
    expect(await snapshot()).toBe(before);
    console.log(`redis corpus: ${JSON.stringify({ ...out, failures: out.failures.length })}`);
  }, 300_000);
});

describe('redis read-only enforcement', () => {
  const conn = (extra: Record<string, unknown> = {}) =>
    ({
      descriptor: {
        type: 'redis',
        host: url.hostname,
        port: Number(url.port),
        database: String(DB),
        ...extra,
      },
      host: url.hostname,
      port: Number(url.port),
      connectTimeoutMs: 10_000,
      queryTimeoutMs: 30_000,
    }) as unknown as Parameters<typeof createProvider>[0];
  const ctx = {} as Parameters<typeof createProvider>[1];
  let provider: Provider;
  beforeAll(async () => {
    provider = await createProvider(conn(), ctx);
  });
  afterAll(async () => provider?.close());

  it('the read-only view filters commands by the read allowlist before they reach the server', async () => {
    const ro = readOnlyProvider(provider);
    for (const sql of [
      'SET adv:str 9',
      'PFCOUNT adv:hll',
      'EVAL "return 1" 0',
      'CONFIG GET masterauth',
      'DEL adv:str',
    ])
      await expect(ro.query(sql, [], { maxRows: 10 }), sql).rejects.toThrow(
        /read-only command filter|refused/,
      );
    expect((await ro.query('GET adv:str', [], { maxRows: 10 })).rows[0].value).toBe('1');
    expect(await snapshot()).toBe(before);
  });

  it('a read-only ACL user (docs/portal-governance.md) is held to reads by the server itself', async () => {
    await direct.call(
      'ACL',
      'SETUSER',
      ACL_USER,
      'reset',
      'on',
      `>${ACL_PASS}`,
      '~*',
      'resetchannels',
      '-@all',
      '+@read',
      '+@connection',
      '+info',
      '-@dangerous',
      '-@scripting',
      '-pfcount',
    );
    const p = await createProvider(conn({ user: ACL_USER, password: ACL_PASS }), ctx);
    try {
      expect((await p.query('GET adv:str', [], { maxRows: 10 })).rows[0].value).toBe('1');
      for (const sql of [
        'SET adv:str 9',
        'FLUSHDB',
        'CONFIG GET masterauth',
        'KEYS *',
        'EVAL_RO "return 1" 0',
        'PFCOUNT adv:hll',
      ])
        await expect(p.query(sql, [], { maxRows: 10 }), sql).rejects.toThrow(/NOPERM|permission/i);
    } finally {
      await p.close();
      await direct.call('ACL', 'DELUSER', ACL_USER);
    }
    expect(await snapshot()).toBe(before);
  });
});
