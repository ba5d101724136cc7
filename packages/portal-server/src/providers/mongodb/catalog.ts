// What a MongoDB database shows besides query results: its collections and views as objects (listCollections,
// with document counts and sizes from collStats), the datasource's database as the one container, a
// collection's layout inferred from a sample of its documents (dotted leaf paths with the BSON types seen,
// `_id` the primary key) with its real indexes (listIndexes), and health and monitoring from the server's own
// statistics (serverStatus, dbStats, currentOp). A statistic the server refuses is an error, never a zero.

import type { Db, MongoClient } from 'mongodb';
import { noMaintenance } from '../catalog.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';
import { prettyBytes, ratio } from '../values.js';
import { bsonToJson, flatten } from './documents.js';

/** Documents read to infer a collection's fields. */
export const SAMPLE_SIZE = 100;

type Doc = Record<string, unknown>;

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (typeof v === 'bigint') return 'long';
  if (typeof v === 'object') {
    const t = (v as { _bsontype?: string })._bsontype;
    return t ? t.toLowerCase() : 'object';
  }
  return typeof v;
}

/** Leaf paths of a raw document with their BSON type names (arrays and typed values are leaves). */
function leafTypes(doc: Doc, prefix: string, out: Map<string, Set<string>>): void {
  for (const [k, v] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${k}` : k;
    const t = typeName(v);
    if (t === 'object' && Object.keys(v as Doc).length > 0) leafTypes(v as Doc, path, out);
    else {
      const set = out.get(path) ?? new Set<string>();
      set.add(t);
      out.set(path, set);
    }
  }
}

export class MongoCatalog {
  constructor(
    private readonly client: MongoClient,
    private readonly dbName: string,
    private readonly user: string | undefined,
  ) {}

  maintenance = noMaintenance('MongoDB');

  private get db(): Db {
    return this.client.db(this.dbName);
  }

  async profile(): Promise<ConnectionProfile> {
    const info = await this.db.admin().command({ buildInfo: 1 });
    return {
      engine: 'mongodb',
      serverVersion: String(info.version ?? 'unknown'),
      ...(this.user ? { currentUser: this.user } : {}),
      currentDatabase: this.dbName,
    };
  }

  async collections(): Promise<DatabaseObject[]> {
    const list = await this.db.listCollections({}, { nameOnly: false }).toArray();
    const out: DatabaseObject[] = [];
    for (const c of list.sort((a, b) => a.name.localeCompare(b.name))) {
      if (c.name.startsWith('system.')) continue;
      const kind = c.type === 'view' ? 'view' : 'collection';
      const o: DatabaseObject = { path: [this.dbName, c.name], name: c.name, kind };
      if (kind === 'collection') {
        const stats = await this.db.command({ collStats: c.name });
        o.rowCount = Number(stats.count ?? 0);
        o.sizeBytes = Number(stats.size ?? 0);
      }
      out.push(o);
    }
    return out;
  }

  async listObjects(path: readonly string[] | undefined): Promise<DatabaseObject[]> {
    if (path && path.length > 0 && path[0] !== this.dbName) return [];
    return this.collections();
  }

  async inventory(): Promise<Inventory> {
    return {
      containers: [{ path: [this.dbName], name: this.dbName, kind: 'database' }],
      objects: await this.collections(),
      truncated: false,
    };
  }

  async counts(): Promise<KindCount[]> {
    const by = new Map<string, number>();
    for (const o of await this.collections()) by.set(o.kind, (by.get(o.kind) ?? 0) + 1);
    return [...by].map(([kind, count]) => ({ path: [this.dbName], kind, count }));
  }

  async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
    if (path.length !== 2 || path[0] !== this.dbName) return undefined;
    const name = path[1];
    const [info] = (await this.db.listCollections({ name }).toArray()) as Array<{
      name: string;
      type?: string;
      options?: Doc;
    }>;
    if (!info) return undefined;
    const kind = info.type === 'view' ? 'view' : 'collection';
    const sample = (await this.db.collection(name).find({}).limit(SAMPLE_SIZE).toArray()) as Doc[];
    const types = new Map<string, Set<string>>();
    for (const d of sample) leafTypes(d, '', types);
    const columns = [...types].map(([field, seen]) => ({
      name: field,
      type: [...seen].filter((t) => t !== 'null').join('|') || 'null',
      // A field is nullable when some sampled document lacks it or holds null.
      nullable: field !== '_id' && (seen.has('null') || sample.some((d) => !(field in flatten(d)))),
      isPrimary: field === '_id',
    }));
    const indexes =
      kind === 'collection'
        ? (await this.db.collection(name).listIndexes().toArray()).map((ix) => ({
            name: String(ix.name),
            columns: Object.keys(ix.key ?? {}),
            unique: ix.unique === true || ix.name === '_id_',
          }))
        : [];
    return {
      object: { path: [this.dbName, name], name, kind },
      columns,
      indexes,
      foreignKeys: [],
      ...(info.type === 'view' ? { definition: JSON.stringify(bsonToJson(info.options ?? {})) } : {}),
    };
  }

  async health(): Promise<HealthReading> {
    const admin = this.db.admin();
    const status = await admin.command({ serverStatus: 1 });
    const stats = await this.db.command({ dbStats: 1 });
    const ops = await admin.command({ currentOp: 1 });
    const cache = (status.wiredTiger?.cache ?? {}) as Record<string, unknown>;
    const requested = Number(cache['pages requested from the cache'] ?? 0);
    const read = Number(cache['pages read into cache'] ?? 0);
    const inprog = (ops.inprog ?? []) as Doc[];
    return {
      activeConnections: Number(status.connections?.current ?? 0),
      databaseSize: prettyBytes(Number(stats.storageSize ?? stats.dataSize ?? 0)),
      cacheHitRatio: requested > 0 ? ratio(Math.max(0, requested - read), requested) : 'n/a',
      // The profiler (system.profile) is off by default; the slowest running operations stand in.
      slowQueries: inprog
        .filter((o) => o.command)
        .map((o) => ({
          query: JSON.stringify(bsonToJson(o.command)),
          calls: 1,
          avgTime: Number(o.microsecs_running ?? 0) / 1000,
        }))
        .sort((a, b) => b.avgTime - a.avgTime)
        .slice(0, 10),
      activeSessions: inprog.map((o) => ({
        pid: String(o.opid ?? ''),
        user: String(((o.effectiveUsers as Doc[] | undefined)?.[0] as Doc | undefined)?.user ?? ''),
        database: String(o.ns ?? '').split('.')[0],
        state: o.active ? 'active' : 'idle',
        query: o.command ? JSON.stringify(bsonToJson(o.command)) : String(o.desc ?? ''),
        duration: Number(o.microsecs_running ?? 0) / 1000,
      })),
    };
  }

  async monitoring(): Promise<Record<string, unknown>> {
    const status = await this.db.admin().command({ serverStatus: 1 });
    const stats = await this.db.command({ dbStats: 1 });
    return bsonToJson({
      version: status.version,
      uptime: status.uptime,
      connections: status.connections,
      opcounters: status.opcounters,
      database: stats,
    }) as Record<string, unknown>;
  }
}
