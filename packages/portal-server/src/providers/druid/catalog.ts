// Druid catalog reads through its SQL system tables: INFORMATION_SCHEMA for datasources (schema `druid`),
// lookups and views and their columns (Druid declares no keys or indexes), sys.segments for row counts and
// sizes of published segments, sys.tasks for the running ingestion tasks that health reports as sessions.
// Druid keeps no query log reachable over SQL, so health has no slow-query list; there is no cache figure.
import { type Catalog, noMaintenance } from '../catalog.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  ExecResult,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';
import { prettyBytes } from '../values.js';

const OBJECT_LIMIT = 10_000;
const SCHEMAS = `('druid', 'lookup', 'view')`;

interface Runner {
  query(sql: string, params: [], opts: { maxRows: number }): Promise<ExecResult>;
  status(): Promise<Record<string, unknown>>;
  conn: { descriptor: { user?: string } };
}

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
const KIND: Record<string, string> = { druid: 'datasource', lookup: 'lookup', view: 'view' };

export function druidCatalog(p: Runner): Catalog {
  const rows = async (sql: string) => (await p.query(sql, [], { maxRows: OBJECT_LIMIT })).rows;

  const segments = async () => {
    const res = await rows(
      `SELECT "datasource", SUM("num_rows") AS "rows", SUM("size") AS "bytes" FROM sys.segments
        WHERE is_published = 1 AND is_overshadowed = 0 GROUP BY "datasource"`,
    );
    return new Map(res.map((r) => [String(r.datasource), { rows: Number(r.rows), bytes: Number(r.bytes) }]));
  };

  const objects = async (schema: string | undefined): Promise<DatabaseObject[]> => {
    const tables = await rows(
      `SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES
        WHERE ${schema ? `TABLE_SCHEMA = ${lit(schema)}` : `TABLE_SCHEMA IN ${SCHEMAS}`}
        ORDER BY TABLE_SCHEMA, TABLE_NAME`,
    );
    const sizes = await segments();
    return tables.map((t) => {
      const s = String(t.TABLE_SCHEMA);
      const name = String(t.TABLE_NAME);
      const o: DatabaseObject = { path: [s, name], name, kind: KIND[s] ?? 'table' };
      const seg = s === 'druid' ? sizes.get(name) : undefined;
      if (seg) {
        o.rowCount = seg.rows;
        o.sizeBytes = seg.bytes;
      }
      return o;
    });
  };

  const catalog: Catalog = {
    maintenance: noMaintenance('Druid'),
    async profile(): Promise<ConnectionProfile> {
      const status = await p.status();
      return {
        engine: 'druid',
        serverVersion: String(status.version ?? 'unknown'),
        ...(p.conn.descriptor.user ? { currentUser: p.conn.descriptor.user } : {}),
        currentSchema: 'druid',
      };
    },

    listObjects: (path: readonly string[] | undefined) => objects(path?.[0]),

    async inventory(): Promise<Inventory> {
      const list = await objects(undefined);
      const schemas = [...new Set(list.map((o) => o.path[0]))];
      return {
        containers: schemas.map((s) => ({ path: [s], name: s, kind: 'schema' })),
        objects: list,
        truncated: list.length >= OBJECT_LIMIT,
      };
    },

    async counts(): Promise<KindCount[]> {
      const counts = new Map<string, KindCount>();
      for (const o of await objects(undefined)) {
        const key = `${o.path[0]}\u0000${o.kind}`;
        const c = counts.get(key) ?? { path: [o.path[0]], kind: o.kind, count: 0 };
        c.count++;
        counts.set(key, c);
      }
      return [...counts.values()];
    },

    async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
      const schema = path.length >= 2 ? path[path.length - 2] : 'druid';
      const name = path[path.length - 1];
      if (!name) return undefined;
      const found = (await objects(schema)).find((o) => o.name === name);
      if (!found) return undefined;
      const columns = await rows(
        `SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM INFORMATION_SCHEMA.COLUMNS
          WHERE TABLE_SCHEMA = ${lit(schema)} AND TABLE_NAME = ${lit(name)} ORDER BY ORDINAL_POSITION`,
      );
      return {
        object: found,
        columns: columns.map((c) => ({
          name: String(c.COLUMN_NAME),
          type: String(c.DATA_TYPE),
          nullable: String(c.IS_NULLABLE) === 'YES',
          isPrimary: false,
        })),
        indexes: [],
        foreignKeys: [],
      };
    },

    async health(): Promise<HealthReading> {
      const tasks = await rows(
        `SELECT "task_id", "datasource", "type", "status", "duration" FROM sys.tasks WHERE "status" = 'RUNNING'`,
      );
      const sizes = await segments();
      const bytes = [...sizes.values()].reduce((n, s) => n + s.bytes, 0);
      return {
        activeConnections: tasks.length,
        databaseSize: prettyBytes(bytes),
        cacheHitRatio: 'n/a',
        slowQueries: [],
        activeSessions: tasks.map((t) => ({
          pid: String(t.task_id),
          user: '',
          database: String(t.datasource),
          state: String(t.status),
          query: String(t.type),
          duration: Number(t.duration ?? 0),
        })),
      };
    },

    async monitoring(): Promise<Record<string, unknown>> {
      const status = await p.status();
      const servers = await rows(
        `SELECT "server", "server_type", "tier", "curr_size", "max_size" FROM sys.servers`,
      );
      return { ...(await catalog.health()), version: status.version, memory: status.memory, servers };
    },
  };
  return catalog;
}
