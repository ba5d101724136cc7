// What a search cluster shows besides SQL results, read from the engines' own REST APIs (identical in
// Elasticsearch and OpenSearch): indices as tables (`GET /_cat/indices?format=json&bytes=b`: document count
// and store size), mapped fields as columns (`GET /<index>/_mapping`, object and nested fields flattened to
// dotted names, multi-fields such as `name.keyword` listed too), the profile from `GET /`, health from
// `GET /_cluster/health` and `GET /_nodes/stats`, running searches from `GET /_tasks`. A statistic the
// engine does not report is an error, never a zero.
import { type Catalog, noMaintenance } from '../catalog.js';
import { configError, ProviderError, queryError } from '../errors.js';
import type {
  ActiveSession,
  ColumnSchema,
  ConnectionProfile,
  DatabaseObject,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';
import { prettyBytes, ratio } from '../values.js';
import type { SearchClient } from './client.js';
import type { SearchFlavor } from './flavor.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** A number the engine reported, or an error naming what is missing (health readings are never zero-filled). */
function reported(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw queryError(`The engine's statistics do not report ${what}`);
  return n;
}

/** Mapped fields as columns: leaves of `properties` (dotted through object/nested fields) and multi-fields. */
export function mappedColumns(properties: unknown, prefix = ''): ColumnSchema[] {
  const out: ColumnSchema[] = [];
  for (const [name, raw] of Object.entries(obj(properties))) {
    const field = obj(raw);
    const full = `${prefix}${name}`;
    const type = typeof field.type === 'string' ? field.type : field.properties ? 'object' : 'unknown';
    if (field.properties) {
      // A nested field is a column of its own in both SQL dialects; a plain object is only its leaves.
      if (type === 'nested') out.push({ name: full, type, nullable: true, isPrimary: false });
      out.push(...mappedColumns(field.properties, `${full}.`));
      continue;
    }
    out.push({ name: full, type, nullable: true, isPrimary: false });
    for (const [sub, subRaw] of Object.entries(obj(field.fields))) {
      const t = obj(subRaw).type;
      out.push({
        name: `${full}.${sub}`,
        type: typeof t === 'string' ? t : 'unknown',
        nullable: true,
        isPrimary: false,
      });
    }
  }
  return out;
}

export class SearchCatalog {
  constructor(
    private readonly client: SearchClient,
    private readonly flavor: SearchFlavor,
    private readonly user: string | undefined,
  ) {
    this.maintenance = noMaintenance(flavor.product);
  }

  readonly maintenance: Catalog['maintenance'];

  private get(path: string, signal?: AbortSignal): Promise<unknown> {
    return this.client.request({ method: 'GET', path, ...(signal ? { signal } : {}) });
  }

  /** The server's root answer; a server of the other product is refused (its SQL endpoint differs). */
  async profile(signal?: AbortSignal): Promise<ConnectionProfile> {
    const root = obj(await this.get('/', signal));
    const version = obj(root.version);
    const distribution = typeof version.distribution === 'string' ? version.distribution : undefined;
    if (distribution !== this.flavor.distribution) {
      throw configError(
        `The server at this address is ${distribution ?? 'Elasticsearch'}, not ${this.flavor.product}; choose the ${distribution ?? 'elasticsearch'} engine`,
      );
    }
    return {
      engine: this.flavor.engine,
      serverVersion: typeof version.number === 'string' ? version.number : 'unknown',
      ...(this.user ? { currentUser: this.user } : {}),
      ...(typeof root.cluster_name === 'string' ? { currentDatabase: root.cluster_name } : {}),
    };
  }

  /** User indices (hidden and system ones, whose names start with a dot, are left out), by name. */
  async indices(signal?: AbortSignal): Promise<DatabaseObject[]> {
    const rows = await this.get(
      '/_cat/indices?format=json&bytes=b&h=index,health,status,docs.count,store.size',
      signal,
    );
    if (!Array.isArray(rows)) throw queryError('The engine answered the index list in an unexpected shape');
    return rows
      .map(obj)
      .filter((r) => typeof r.index === 'string' && !(r.index as string).startsWith('.'))
      .map((r) => {
        const docs = Number(r['docs.count']);
        const size = Number(r['store.size']);
        const o: DatabaseObject = {
          path: [r.index as string],
          name: r.index as string,
          kind: 'index',
          ...(typeof r.health === 'string' ? { status: r.health } : {}),
          // A closed index reports no figures: they are left out rather than shown as 0.
          ...(r['docs.count'] != null && Number.isFinite(docs) ? { rowCount: docs } : {}),
          ...(r['store.size'] != null && Number.isFinite(size) ? { sizeBytes: size } : {}),
        };
        return o;
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Indices have no containers: every index is listed at the top (any other path has nothing). */
  async listObjects(path: readonly string[] | undefined, signal?: AbortSignal): Promise<DatabaseObject[]> {
    if (path && path.length > 0) return [];
    return this.indices(signal);
  }

  async inventory(signal?: AbortSignal): Promise<Inventory> {
    return { containers: [], objects: await this.indices(signal), truncated: false };
  }

  async counts(signal?: AbortSignal): Promise<KindCount[]> {
    const n = (await this.indices(signal)).length;
    return n > 0 ? [{ path: [], kind: 'index', count: n }] : [];
  }

  async describe(path: readonly string[], signal?: AbortSignal): Promise<ObjectDetail | undefined> {
    if (path.length !== 1 || path[0].startsWith('.')) return undefined;
    const index = path[0];
    let mapping: unknown;
    try {
      mapping = await this.get(`/${encodeURIComponent(index)}/_mapping`, signal);
    } catch (err) {
      if (err instanceof ProviderError && err.engineCode === 'index_not_found_exception') return undefined;
      throw err;
    }
    // The answer is keyed by the concrete index (an alias resolves to its indices: the first one is shown).
    const entry = obj(obj(mapping)[index] ?? Object.values(obj(mapping))[0]);
    const listed = (await this.indices(signal)).find((o) => o.name === index);
    return {
      object: listed ?? { path: [index], name: index, kind: 'index' },
      columns: mappedColumns(obj(entry.mappings).properties),
      indexes: [],
      foreignKeys: [],
    };
  }

  async health(signal?: AbortSignal): Promise<HealthReading> {
    const stats = obj(await this.get('/_nodes/stats/indices,http', signal));
    const nodes = Object.values(obj(stats.nodes)).map(obj);
    if (nodes.length === 0) throw queryError('The engine reported no node statistics');
    let open = 0;
    let size = 0;
    let hits = 0;
    let misses = 0;
    for (const n of nodes) {
      const indices = obj(n.indices);
      open += reported(obj(n.http).current_open, 'open HTTP connections (http.current_open)');
      size += reported(obj(indices.store).size_in_bytes, 'the store size (indices.store.size_in_bytes)');
      const cache = obj(indices.query_cache);
      hits += reported(cache.hit_count, 'query cache hits (indices.query_cache.hit_count)');
      misses += reported(cache.miss_count, 'query cache misses (indices.query_cache.miss_count)');
    }
    return {
      activeConnections: open,
      databaseSize: prettyBytes(size),
      cacheHitRatio: ratio(hits, hits + misses),
      // Slow searches are written to the engines' slow-log files, which no API serves.
      slowQueries: [],
      activeSessions: await this.searches(signal),
    };
  }

  /** Running searches (SQL statements among them) from the task API. */
  async searches(signal?: AbortSignal): Promise<ActiveSession[]> {
    const tasks = obj(await this.get('/_tasks?detailed=true&actions=*search*,*sql*', signal));
    const out: ActiveSession[] = [];
    for (const node of Object.values(obj(tasks.nodes)).map(obj)) {
      for (const [id, raw] of Object.entries(obj(node.tasks))) {
        const t = obj(raw);
        const headers = obj(t.headers);
        out.push({
          pid: id,
          user: typeof headers['X-Opaque-Id'] === 'string' ? (headers['X-Opaque-Id'] as string) : '',
          database: typeof node.name === 'string' ? node.name : '',
          state: t.cancelled === true ? 'cancelling' : 'running',
          query: typeof t.description === 'string' ? t.description : String(t.action ?? ''),
          duration: Math.round(Number(t.running_time_in_nanos ?? 0) / 1e6),
        });
      }
    }
    return out;
  }

  async monitoring(signal?: AbortSignal): Promise<Record<string, unknown>> {
    const cluster = obj(await this.get('/_cluster/health', signal));
    if (typeof cluster.status !== 'string') throw queryError('The engine reported no cluster health');
    const stats = obj(await this.get('/_nodes/stats/indices,http,jvm,os', signal));
    const nodes = Object.entries(obj(stats.nodes)).map(([id, raw]) => {
      const n = obj(raw);
      const indices = obj(n.indices);
      const search = obj(indices.search);
      return {
        id,
        name: n.name,
        docs: obj(indices.docs).count,
        storeBytes: obj(indices.store).size_in_bytes,
        queryTotal: search.query_total,
        queryTimeMs: search.query_time_in_millis,
        queriesRunning: search.query_current,
        httpOpen: obj(n.http).current_open,
        heapUsedPercent: obj(obj(n.jvm).mem).heap_used_percent,
        cpuPercent: obj(obj(n.os).cpu).percent,
      };
    });
    if (nodes.length === 0) throw queryError('The engine reported no node statistics');
    return { cluster, nodes };
  }
}
