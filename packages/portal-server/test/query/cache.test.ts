// The provider cache: keyed by the full connection identity, opened once under concurrent first use, evicted
// after 30 minutes idle but never while leased; plus the deadline that enforces queryTimeout on any engine.
import { describe, expect, it } from 'vitest';
import { IDLE_EVICTION_MS, ProviderCache } from '../../src/providers/cache.js';
import { withDeadline } from '../../src/providers/deadline.js';
import { sqlEditor } from '../../src/providers/editor-facts.js';
import { sqliteDialect } from '../../src/providers/sqlite/dialect.js';
import { sqliteCapabilities } from '../../src/providers/sqlite/index.js';
import type { Provider, ProviderFactory } from '../../src/providers/types.js';

function fakeRegistry() {
  const opened: string[] = [];
  const closed: string[] = [];
  const factory: ProviderFactory = {
    engine: 'sqlite',
    label: 'SQLite',
    editor: sqlEditor('sql', 'sqlite'),
    dialect: 'sqlite',
    sqlDialect: sqliteDialect,
    capabilities: sqliteCapabilities,
    async create(conn) {
      await new Promise((r) => setTimeout(r, 5));
      opened.push(String(conn.descriptor.database));
      return {
        poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
        close: async () => void closed.push(String(conn.descriptor.database)),
      } as unknown as Provider;
    },
  };
  // The cache's engine lookup: this one engine, or the registry's refusal of any other type.
  const registry = (type: unknown) => {
    if (type !== 'sqlite') throw new Error(`Unsupported connection type ${String(type)}`);
    return factory;
  };
  return { registry, opened, closed };
}

describe('ProviderCache', () => {
  const ctx = { embeddedDir: '/tmp', sshProfiles: () => undefined };

  it('keys providers by the full identity, never by the client id alone', async () => {
    const { registry, opened } = fakeRegistry();
    const cache = new ProviderCache(registry, ctx);
    const a = await cache.acquire({ id: 'same', type: 'sqlite', database: 'a.db' });
    const b = await cache.acquire({ id: 'same', type: 'sqlite', database: 'b.db' });
    expect(a.provider).not.toBe(b.provider);
    expect(opened).toEqual(['a.db', 'b.db']);
    a.release();
    b.release();
    await cache.closeAll();
  });

  it('opens once under concurrent first use and reuses the pool', async () => {
    const { registry, opened } = fakeRegistry();
    const cache = new ProviderCache(registry, ctx);
    const conn = { id: 'x', type: 'sqlite', database: 'c.db', color: 'red' };
    const leases = await Promise.all([
      cache.acquire(conn),
      cache.acquire(conn),
      cache.acquire({ ...conn, color: 'blue' }),
    ]);
    expect(new Set(leases.map((l) => l.provider)).size).toBe(1);
    expect(opened).toEqual(['c.db']);
    for (const l of leases) l.release();
    await cache.closeAll();
  });

  it('evicts after 30 minutes idle, never while leased', async () => {
    const { registry, closed } = fakeRegistry();
    let now = 1_000_000;
    const cache = new ProviderCache(registry, ctx, IDLE_EVICTION_MS, () => now);
    const busy = await cache.acquire({ id: 'busy', type: 'sqlite', database: 'busy.db' });
    const idle = await cache.acquire({ id: 'idle', type: 'sqlite', database: 'idle.db' });
    idle.release();
    now += IDLE_EVICTION_MS - 1;
    expect(await cache.sweep()).toBe(0);
    now += 2;
    expect(await cache.sweep()).toBe(1);
    expect(closed).toEqual(['idle.db']);
    now += IDLE_EVICTION_MS * 2;
    expect(await cache.sweep()).toBe(0);
    busy.release();
    now += IDLE_EVICTION_MS + 1;
    expect(await cache.sweep()).toBe(1);
    expect(cache.stats()).toEqual([]);
    await cache.closeAll();
  });

  it('refuses an unknown engine and an unknown SSH profile', async () => {
    const { registry } = fakeRegistry();
    const cache = new ProviderCache(registry, ctx);
    await expect(cache.acquire({ id: 'x', type: 'nosuch' })).rejects.toThrow(/Unsupported connection type/);
    await expect(
      cache.acquire({ id: 'x', type: 'sqlite', database: 'a', sshProfile: 'bastion' }),
    ).rejects.toThrow(/Unknown SSH profile/);
    await cache.closeAll();
  });
});

describe('withDeadline', () => {
  it('asks the engine to stop and answers a timeout', async () => {
    let cancelled = false;
    let stop: () => void = () => undefined;
    const run = new Promise<string>((_, reject) => {
      stop = () => reject(new Error('canceling statement due to user request'));
    });
    const err = await withDeadline(run, {
      timeoutMs: 10,
      cancel: () => {
        cancelled = true;
        stop();
      },
    }).catch((e) => e);
    expect(cancelled).toBe(true);
    expect(err.kind).toBe('timeout');
  });

  it('answers a timeout even when the engine answers normally after the cancel', async () => {
    let finish: (v: string) => void = () => undefined;
    const run = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const err = await withDeadline(run, { timeoutMs: 10, cancel: () => finish('1') }).catch((e) => e);
    expect(err.kind).toBe('timeout');
  });

  it('passes results and errors through before the deadline', async () => {
    expect(await withDeadline(Promise.resolve(5), { timeoutMs: 1000, cancel: () => undefined })).toBe(5);
    await expect(
      withDeadline(Promise.reject(new Error('boom')), { timeoutMs: 1000, cancel: () => undefined }),
    ).rejects.toThrow('boom');
  });
});
