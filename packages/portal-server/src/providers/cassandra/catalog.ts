// Cassandra's object surface and readings, from its own tables: keyspaces, tables, columns, indexes and
// materialized views from system_schema; the node's identity from system.local and its peers from
// system.peers; connected clients from the system_views.clients virtual table (Cassandra 4.0+), falling back
// to the driver's own pool state on older servers. Cassandra keeps no row counts or sizes it can report
// cheaply, so objects carry neither and health says so in words rather than with zeros.
import { noMaintenance } from '../catalog.js';
import type {
  ActiveSession,
  ColumnSchema,
  ConnectionProfile,
  DatabaseObject,
  HealthReading,
  IndexSchema,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';

type Row = Record<string, unknown>;

/** Runs one catalog statement with bound values and answers its rows (values already normalised). */
export type CatalogRead = (cql: string, params: unknown[]) => Promise<Row[]>;

/** Keyspaces the server keeps for itself. */
const SYSTEM_KEYSPACES = new Set([
  'system',
  'system_schema',
  'system_auth',
  'system_distributed',
  'system_traces',
  'system_views',
  'system_virtual_schema',
]);

const NOT_REPORTED = 'not reported by Cassandra';

export class CassandraCatalog {
  constructor(
    private readonly read: CatalogRead,
    private readonly keyspace: string | undefined,
    private readonly driverState: () => { hosts: number; openConnections: number; inFlight: number },
    private readonly user: string | undefined,
  ) {}

  maintenance = noMaintenance('Cassandra');

  async profile(): Promise<ConnectionProfile> {
    const [local] = await this.read(
      'SELECT release_version, cluster_name, data_center FROM system.local WHERE key = ?',
      ['local'],
    );
    if (!local) throw new Error('system.local answered no row');
    return {
      engine: 'cassandra',
      serverVersion: `Cassandra ${String(local.release_version)} (cluster ${String(local.cluster_name)}, data center ${String(local.data_center)})`,
      ...(this.user ? { currentUser: this.user } : {}),
      ...(this.keyspace ? { currentDatabase: this.keyspace } : {}),
    };
  }

  private async userKeyspaces(): Promise<string[]> {
    const rows = await this.read('SELECT keyspace_name FROM system_schema.keyspaces', []);
    return rows
      .map((r) => String(r.keyspace_name))
      .filter((k) => !SYSTEM_KEYSPACES.has(k))
      .sort();
  }

  private async objectsOf(keyspace: string): Promise<DatabaseObject[]> {
    const tables = await this.read('SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?', [
      keyspace,
    ]);
    const views = await this.read('SELECT view_name FROM system_schema.views WHERE keyspace_name = ?', [
      keyspace,
    ]);
    return [
      ...tables.map((t) => ({
        path: [keyspace, String(t.table_name)],
        name: String(t.table_name),
        kind: 'table',
      })),
      ...views.map((v) => ({
        path: [keyspace, String(v.view_name)],
        name: String(v.view_name),
        kind: 'materialized_view',
      })),
    ].sort((a, b) => a.name.localeCompare(b.name));
  }

  async listObjects(path: readonly string[] | undefined): Promise<DatabaseObject[]> {
    const keyspaces = path?.[0] ? [path[0]] : this.keyspace ? [this.keyspace] : await this.userKeyspaces();
    const out: DatabaseObject[] = [];
    for (const ks of keyspaces) out.push(...(await this.objectsOf(ks)));
    return out;
  }

  async inventory(): Promise<Inventory> {
    const keyspaces = await this.userKeyspaces();
    const objects: DatabaseObject[] = [];
    for (const ks of keyspaces) objects.push(...(await this.objectsOf(ks)));
    return {
      containers: keyspaces.map((k) => ({ path: [k], name: k, kind: 'keyspace' })),
      objects,
      truncated: false,
    };
  }

  async counts(): Promise<KindCount[]> {
    const inv = await this.inventory();
    const byKey = new Map<string, KindCount>();
    for (const o of inv.objects) {
      const key = `${o.path[0]}\u0000${o.kind}`;
      const prev = byKey.get(key);
      if (prev) prev.count++;
      else byKey.set(key, { path: [o.path[0]], kind: o.kind, count: 1 });
    }
    return [...byKey.values()];
  }

  async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
    const [keyspace, name] = path.length >= 2 ? path.slice(-2) : [this.keyspace ?? '', path[0]];
    if (!keyspace || !name) return undefined;
    const object = (await this.objectsOf(keyspace)).find((o) => o.name === name);
    if (!object) return undefined;
    const cols = await this.read(
      'SELECT column_name, kind, position, type FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?',
      [keyspace, name],
    );
    // Partition key first, then clustering columns, each by position; regular columns by name (as cqlsh).
    const rank = (k: unknown) =>
      k === 'partition_key' ? 0 : k === 'clustering' ? 1 : k === 'static' ? 2 : 3;
    cols.sort(
      (a, b) =>
        rank(a.kind) - rank(b.kind) ||
        Number(a.position) - Number(b.position) ||
        String(a.column_name).localeCompare(String(b.column_name)),
    );
    const columns: ColumnSchema[] = cols.map((c) => {
      const key = c.kind === 'partition_key' || c.kind === 'clustering';
      return { name: String(c.column_name), type: String(c.type), nullable: !key, isPrimary: key };
    });
    let indexes: IndexSchema[] = [];
    let definition: string | undefined;
    if (object.kind === 'table') {
      const idx = await this.read(
        'SELECT index_name, options FROM system_schema.indexes WHERE keyspace_name = ? AND table_name = ?',
        [keyspace, name],
      );
      indexes = idx.map((i) => ({
        name: String(i.index_name),
        columns: [String((i.options as Record<string, unknown> | null)?.target ?? '')].filter(Boolean),
        unique: false,
      }));
    } else {
      const [v] = await this.read(
        'SELECT base_table_name, where_clause FROM system_schema.views WHERE keyspace_name = ? AND view_name = ?',
        [keyspace, name],
      );
      if (v) definition = `SELECT * FROM ${String(v.base_table_name)} WHERE ${String(v.where_clause)}`;
    }
    return { object, columns, indexes, foreignKeys: [], ...(definition ? { definition } : {}) };
  }

  /** Connected clients from system_views.clients, or undefined where the virtual table does not exist. */
  private async clients(): Promise<Row[] | undefined> {
    try {
      return await this.read(
        'SELECT address, port, username, connection_stage, driver_name, request_count FROM system_views.clients',
        [],
      );
    } catch {
      return undefined;
    }
  }

  async health(): Promise<HealthReading> {
    // system.local must answer: a node that cannot is an error, never a zero-filled reading.
    await this.profile();
    const clients = await this.clients();
    const state = this.driverState();
    const activeSessions: ActiveSession[] = (clients ?? []).map((c) => ({
      pid: `${String(c.address)}:${String(c.port)}`,
      user: String(c.username ?? ''),
      database: '',
      state: String(c.connection_stage ?? ''),
      query: '',
      duration: 0,
    }));
    return {
      activeConnections: clients ? clients.length : state.openConnections,
      databaseSize: NOT_REPORTED,
      cacheHitRatio: NOT_REPORTED,
      slowQueries: [],
      activeSessions,
    };
  }

  async monitoring(): Promise<Record<string, unknown>> {
    const [local] = await this.read(
      'SELECT release_version, cluster_name, data_center, rack, partitioner FROM system.local WHERE key = ?',
      ['local'],
    );
    if (!local) throw new Error('system.local answered no row');
    const peers = await this.read('SELECT peer, data_center FROM system.peers', []);
    const health = await this.health();
    const state = this.driverState();
    return {
      ...health,
      releaseVersion: local.release_version,
      clusterName: local.cluster_name,
      dataCenter: local.data_center,
      rack: local.rack,
      partitioner: local.partitioner,
      peers: peers.length,
      nodes: peers.length + 1,
      driver: {
        hosts: state.hosts,
        openConnections: state.openConnections,
        inFlightRequests: state.inFlight,
      },
    };
  }
}
