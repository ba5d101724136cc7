// What a Redis server shows besides command results: keys as objects (found with SCAN and TYPE, never
// KEYS *, which blocks the server), one container per logical database (`db<n>`), the layout of one key as
// columns, and health and monitoring read from INFO, SLOWLOG and CLIENT LIST.

import type { Redis } from 'ioredis';
import { noMaintenance } from '../catalog.js';
import type {
  ActiveSession,
  ConnectionProfile,
  DatabaseObject,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';
import { prettyBytes, ratio } from '../values.js';

/** At most this many keys are listed (the object surface's bound). */
export const MAX_OBJECTS = 10_000;

/** INFO text as {section: {field: value}}. */
export function parseInfo(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let section = 'default';
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('# ')) {
      section = line.slice(2).trim().toLowerCase();
      out[section] = {};
    } else if (line.includes(':')) {
      const i = line.indexOf(':');
      const fields = out[section] ?? {};
      fields[line.slice(0, i)] = line.slice(i + 1);
      out[section] = fields;
    }
  }
  return out;
}

export class RedisCatalog {
  constructor(
    private readonly client: () => Redis,
    private readonly db: number,
    private readonly user: string | undefined,
  ) {}

  maintenance = noMaintenance('Redis');

  private get container(): string {
    return `db${this.db}`;
  }

  async profile(): Promise<ConnectionProfile> {
    const info = parseInfo(await this.client().info('server'));
    return {
      engine: 'redis',
      serverVersion: info.server?.redis_version ?? 'unknown',
      currentUser: this.user || 'default',
      currentDatabase: this.container,
    };
  }

  /** Keys with their type, by SCAN (bounded by MAX_OBJECTS). */
  async keys(): Promise<{ objects: DatabaseObject[]; truncated: boolean }> {
    const c = this.client();
    const names: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await c.scan(cursor, 'COUNT', 500);
      cursor = next;
      names.push(...batch);
    } while (cursor !== '0' && names.length <= MAX_OBJECTS);
    const unique = [...new Set(names)].sort();
    const truncated = unique.length > MAX_OBJECTS;
    const kept = unique.slice(0, MAX_OBJECTS);
    const pipe = c.pipeline();
    for (const k of kept) pipe.type(k);
    const types = (await pipe.exec()) ?? [];
    const objects = kept.map((name, i) => ({
      path: [this.container, name],
      name,
      kind: String(types[i]?.[1] ?? 'none'),
    }));
    return { objects: objects.filter((o) => o.kind !== 'none'), truncated };
  }

  async listObjects(path: readonly string[] | undefined): Promise<DatabaseObject[]> {
    if (path && path.length > 0 && path[0] !== this.container) return [];
    return (await this.keys()).objects;
  }

  async inventory(): Promise<Inventory> {
    const { objects, truncated } = await this.keys();
    return {
      containers: [{ path: [this.container], name: this.container, kind: 'database' }],
      objects,
      truncated,
    };
  }

  async counts(): Promise<KindCount[]> {
    const by = new Map<string, number>();
    for (const o of (await this.keys()).objects) by.set(o.kind, (by.get(o.kind) ?? 0) + 1);
    return [...by].map(([kind, count]) => ({ path: [this.container], kind, count }));
  }

  async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
    if (path.length !== 2 || path[0] !== this.container) return undefined;
    const key = path[1];
    const kind = await this.client().type(key);
    if (kind === 'none') return undefined;
    const col = (name: string, type: string, isPrimary = false) => ({
      name,
      type,
      nullable: false,
      isPrimary,
    });
    const layouts: Record<string, ReturnType<typeof col>[]> = {
      string: [col('value', 'string')],
      list: [col('index', 'integer', true), col('value', 'string')],
      set: [col('member', 'string', true)],
      zset: [col('member', 'string', true), col('score', 'double')],
      hash: [col('field', 'string', true), col('value', 'string')],
      stream: [col('id', 'stream-id', true), col('fields', 'json')],
    };
    return {
      object: { path: [this.container, key], name: key, kind },
      columns: layouts[kind] ?? [col('value', kind)],
      indexes: [],
      foreignKeys: [],
    };
  }

  async health(): Promise<HealthReading> {
    const c = this.client();
    const info = parseInfo(await c.info());
    const stats = info.stats ?? {};
    const hits = Number(stats.keyspace_hits ?? 0);
    const misses = Number(stats.keyspace_misses ?? 0);
    const slow = ((await c.call('SLOWLOG', 'GET', '10')) as unknown[][]) ?? [];
    const clients = String(await c.call('CLIENT', 'LIST'));
    return {
      activeConnections: Number(info.clients?.connected_clients ?? 0),
      databaseSize: prettyBytes(Number(info.memory?.used_memory ?? 0)),
      cacheHitRatio: hits + misses === 0 ? 'n/a' : ratio(hits, hits + misses),
      slowQueries: slow.map((e) => ({
        query: Array.isArray(e[3]) ? (e[3] as unknown[]).map(String).join(' ') : '',
        calls: 1,
        avgTime: Number(e[2] ?? 0) / 1000,
      })),
      activeSessions: clients
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((line) => {
          const f = Object.fromEntries(
            line
              .trim()
              .split(' ')
              .map((p) => [p.split('=')[0], p.slice(p.indexOf('=') + 1)]),
          );
          const s: ActiveSession = {
            pid: f.id ?? '',
            user: f.user ?? '',
            database: `db${f.db ?? '0'}`,
            state: f.cmd === 'NULL' || f.cmd === undefined ? 'idle' : 'active',
            query: f.cmd ?? '',
            duration: Number(f.age ?? 0) * 1000,
          };
          return s;
        }),
    };
  }

  async monitoring(): Promise<Record<string, unknown>> {
    return parseInfo(await this.client().info('everything'));
  }
}
