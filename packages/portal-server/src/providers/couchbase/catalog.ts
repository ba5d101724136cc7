// What a Couchbase bucket shows besides query results: scopes as containers and collections as objects
// (GET /pools/default/buckets/<bucket>/scopes), a collection's fields sampled from its documents (the key
// projected as `__id`) and its indexes from system:indexes, health and monitoring from the cluster
// (/pools/default, the bucket's basicStats), the query service's /admin/vitals and system:active_requests /
// system:completed_requests, and the maintenance statements (UPDATE STATISTICS, BUILD INDEX, and DELETE FROM
// system:active_requests to kill a request).
import { ProviderError, unsupported } from '../errors.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  ExecResult,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';
import { prettyBytes, ratio } from '../values.js';
import type { CouchbaseClient, QueryReply } from './client.js';

type Run = (statement: string, args?: unknown[]) => Promise<QueryReply>;

const tick = (s: string) => `\`${s.replaceAll('`', '``')}\``;

/** `bucket`.`scope`.`collection`. */
export function keyspace(bucket: string, scope: string, collection: string): string {
  return `${tick(bucket)}.${tick(scope)}.${tick(collection)}`;
}

/** Parts of a maintenance target (`scope.collection`, `scope.collection.index`; backticks allowed). */
export function targetParts(target: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:`((?:[^`]|``)+)`|([A-Za-z0-9_%-]+))\s*(\.|$)/y;
  let m: RegExpExecArray | null = re.exec(target);
  while (m) {
    parts.push(m[1] !== undefined ? m[1].replaceAll('``', '`') : m[2]);
    if (m[3] === '') return parts;
    m = re.exec(target);
  }
  throw unsupported(`The target ${JSON.stringify(target)} is not a dotted name such as scope.collection`);
}

/** A Go duration as the query service writes it ("1.5s", "250ms", "1m2.5s") in milliseconds. */
export function durationMs(text: unknown): number {
  if (typeof text !== 'string') return 0;
  const units: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    µs: 0.001,
    us: 0.001,
    ns: 0.000001,
  };
  let total = 0;
  for (const m of text.matchAll(/([\d.]+)(h|ms|m|s|µs|us|ns)/g)) total += Number(m[1]) * (units[m[2]] ?? 0);
  return Math.round(total * 1000) / 1000;
}

interface Scopes {
  scopes?: Array<{ name: string; collections?: Array<{ name: string }> }>;
}

interface IndexRow {
  name?: string;
  index_key?: string[];
  is_primary?: boolean;
  state?: string;
  bucket_id?: string;
  scope_id?: string;
  keyspace_id?: string;
}

export class CouchbaseCatalog {
  constructor(
    private readonly client: CouchbaseClient,
    private readonly bucket: string,
    private readonly run: Run,
    private readonly user: string | undefined,
  ) {}

  async profile(): Promise<ConnectionProfile> {
    const pools = (await this.client.management('/pools')) as { implementationVersion?: string };
    // The query service must answer too: a cluster without it cannot run anything here.
    await this.client.queryService();
    return {
      engine: 'couchbase',
      serverVersion: pools.implementationVersion ?? 'unknown',
      currentUser: this.user,
      currentDatabase: this.bucket,
    };
  }

  async isEnterprise(): Promise<boolean> {
    const pools = (await this.client.management('/pools')) as { isEnterprise?: boolean };
    return pools.isEnterprise === true;
  }

  private async collections(): Promise<DatabaseObject[]> {
    const s = (await this.client.management(
      `/pools/default/buckets/${encodeURIComponent(this.bucket)}/scopes`,
    )) as Scopes;
    return (s.scopes ?? []).flatMap((scope) =>
      (scope.collections ?? []).map((c) => ({
        path: [scope.name, c.name],
        name: c.name,
        kind: 'collection',
      })),
    );
  }

  async listObjects(path: readonly string[] | undefined): Promise<DatabaseObject[]> {
    const all = await this.collections();
    if (!path || path.length === 0) return all;
    return all.filter((o) => o.path[0] === path[0]);
  }

  async inventory(): Promise<Inventory> {
    const objects = await this.collections();
    const scopes = [...new Set(objects.map((o) => o.path[0]))];
    return {
      containers: scopes.map((s) => ({ path: [s], name: s, kind: 'schema' })),
      objects,
      truncated: false,
    };
  }

  async counts(): Promise<KindCount[]> {
    const by = new Map<string, number>();
    for (const o of await this.collections()) by.set(o.path[0], (by.get(o.path[0]) ?? 0) + 1);
    return [...by].map(([scope, count]) => ({ path: [scope], kind: 'collection', count }));
  }

  /** Indexes of one collection, from system:indexes (the default collection's have no bucket_id). */
  async indexes(scope: string, collection: string): Promise<IndexRow[]> {
    const reply = await this.run(
      'SELECT name, index_key, is_primary, state, bucket_id, scope_id, keyspace_id FROM system:indexes',
    );
    return (reply.results as IndexRow[]).filter((i) =>
      i.bucket_id !== undefined
        ? i.bucket_id === this.bucket && i.scope_id === scope && i.keyspace_id === collection
        : i.keyspace_id === this.bucket && scope === '_default' && collection === '_default',
    );
  }

  async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
    if (path.length !== 2) return undefined;
    const [scope, collection] = path;
    const object = (await this.collections()).find((o) => o.path[0] === scope && o.path[1] === collection);
    if (!object) return undefined;
    const indexes = await this.indexes(scope, collection);
    const columns = [{ name: '__id', type: 'string', nullable: false, isPrimary: true }];
    const warnings: string[] = [];
    try {
      // Documents have no schema: the fields are those of a sample, typed as JSON types.
      const sample = await this.run(
        `SELECT META(d).id AS __id, d.* FROM ${keyspace(this.bucket, scope, collection)} AS d LIMIT 50`,
      );
      const types = new Map<string, Set<string>>();
      for (const doc of sample.results as Record<string, unknown>[]) {
        for (const [k, v] of Object.entries(doc ?? {})) {
          if (k === '__id') continue;
          const set = types.get(k) ?? new Set<string>();
          set.add(
            v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v,
          );
          types.set(k, set);
        }
      }
      const n = sample.results.length;
      for (const [name, set] of types) {
        const seen = (sample.results as Record<string, unknown>[]).filter((d) => d && name in d).length;
        columns.push({
          name,
          type: [...set].join(' | '),
          nullable: set.has('null') || seen < n,
          isPrimary: false,
        });
      }
    } catch (err) {
      // A collection without a usable index cannot be sampled; its indexes and key still describe it.
      if (!(err instanceof ProviderError && err.kind === 'query')) throw err;
      warnings.push(err.message);
    }
    return {
      object,
      columns,
      indexes: indexes.map((i) => ({
        name: i.name ?? '',
        columns: i.is_primary ? ['__id'] : (i.index_key ?? []).map((k) => k.replaceAll('`', '')),
        unique: i.is_primary === true,
      })),
      foreignKeys: [],
      ...(warnings.length ? { definition: warnings.join('\n') } : {}),
    };
  }

  private async vitals(): Promise<Record<string, unknown>> {
    const base = await this.client.queryService();
    const res = await fetch(`${base}/admin/vitals`, {
      headers: this.client.authHeaders(),
      signal: AbortSignal.timeout(10_000),
    }).catch((err: Error) => {
      throw new ProviderError('connection', `The query service's vitals are unreachable: ${err.message}`);
    });
    if (!res.ok)
      throw new ProviderError('connection', `The query service answered HTTP ${res.status} for its vitals`);
    return (await res.json()) as Record<string, unknown>;
  }

  private async bucketStats(): Promise<Record<string, number>> {
    const b = (await this.client.management(`/pools/default/buckets/${encodeURIComponent(this.bucket)}`)) as {
      basicStats?: Record<string, number>;
    };
    if (!b.basicStats)
      throw new ProviderError('connection', `The bucket ${this.bucket} reports no statistics`);
    return b.basicStats;
  }

  private async system(name: 'active_requests' | 'completed_requests'): Promise<Record<string, unknown>[]> {
    const reply = await this.run(`SELECT * FROM system:${name} LIMIT 50`);
    return (reply.results as Record<string, Record<string, unknown>>[]).map((r) => r[name] ?? r);
  }

  async health(): Promise<HealthReading> {
    const [vitals, stats, active, completed] = await Promise.all([
      this.vitals(),
      this.bucketStats(),
      this.system('active_requests'),
      this.system('completed_requests'),
    ]);
    const ops = Number(stats.opsPerSec);
    const fetches = Number(stats.diskFetches);
    const size = stats.diskUsed ?? stats.dataUsed;
    if (typeof vitals['request.active.count'] !== 'number')
      throw new ProviderError('connection', 'The query service vitals carry no request.active.count');
    return {
      activeConnections: vitals['request.active.count'] as number,
      databaseSize: size === undefined ? 'unknown' : prettyBytes(Number(size)),
      cacheHitRatio: ops > 0 && Number.isFinite(fetches) ? ratio(Math.max(0, ops - fetches), ops) : 'n/a',
      slowQueries: completed
        .map((r) => ({ query: String(r.statement ?? ''), calls: 1, avgTime: durationMs(r.elapsedTime) }))
        .sort((a, b) => b.avgTime - a.avgTime)
        .slice(0, 10),
      activeSessions: active.map((r) => ({
        pid: String(r.requestId ?? ''),
        user: String(r.users ?? ''),
        database: this.bucket,
        state: String(r.state ?? 'running'),
        query: String(r.statement ?? ''),
        duration: durationMs(r.elapsedTime),
      })),
    };
  }

  async monitoring(): Promise<Record<string, unknown>> {
    const [cluster, bucket, vitals] = await Promise.all([
      this.client.management('/pools/default') as Promise<Record<string, unknown>>,
      this.bucketStats(),
      this.vitals(),
    ]);
    return {
      cluster: { nodes: cluster.nodes, storageTotals: cluster.storageTotals, balanced: cluster.balanced },
      bucket,
      query: vitals,
    };
  }

  async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
    if (!target || target.trim() === '') throw unsupported(`${type} needs a target`);
    const message = (text: string, rowCount = 0): ExecResult => ({
      fields: ['result'],
      rows: [{ result: text }],
      rowCount,
      truncated: false,
    });
    if (type === 'kill') {
      const r = await this.run('DELETE FROM system:active_requests WHERE requestId = $1', [target.trim()]);
      const n = Number(r.metrics.mutationCount ?? 0);
      return message(n > 0 ? `request ${target.trim()} stopped` : `no running request ${target.trim()}`, n);
    }
    const parts = targetParts(target);
    if (type === 'analyze') {
      if (parts.length !== 2) throw unsupported('analyze needs a target `scope.collection`');
      if (!(await this.isEnterprise()))
        throw unsupported(
          'analyze (UPDATE STATISTICS) is an Enterprise Edition feature; this cluster runs Community Edition',
        );
      await this.run(`UPDATE STATISTICS FOR ${keyspace(this.bucket, parts[0], parts[1])} INDEX ALL`);
      return message(`statistics updated for ${parts.join('.')}`);
    }
    if (type === 'reindex') {
      if (parts.length !== 2 && parts.length !== 3)
        throw unsupported('reindex needs a target `scope.collection` or `scope.collection.index`');
      const ks = keyspace(this.bucket, parts[0], parts[1]);
      const names =
        parts.length === 3
          ? [parts[2]]
          : (await this.indexes(parts[0], parts[1]))
              .filter((i) => i.state === 'deferred' || i.state === 'created')
              .map((i) => i.name ?? '');
      if (names.length === 0) return message(`no deferred index on ${parts.join('.')}: nothing to build`);
      await this.run(`BUILD INDEX ON ${ks}(${names.map(tick).join(', ')})`);
      return message(`building ${names.join(', ')}`, names.length);
    }
    throw unsupported(`Couchbase offers analyze, reindex and kill; not ${type}`);
  }
}
