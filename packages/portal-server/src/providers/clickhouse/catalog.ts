// ClickHouse catalog reads over the system tables (databases, tables, columns, parts), health and monitoring
// from system.metrics, system.events, system.processes and (when the server keeps it) system.query_log, and
// the maintenance statements. Only columns present since ClickHouse 18.16 are read, so the oldest server the
// client library reaches answers every surface.

import { quoteStyles } from '../../sql/dialect.js';
import type { Catalog } from '../catalog.js';
import { configError } from '../errors.js';
import { objectTarget, requireTarget, unknownOperation } from '../targets.js';
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

const OBJECT_LIMIT = 10_000;
const SYSTEM_DBS = `('system', 'information_schema', 'INFORMATION_SCHEMA')`;

interface Runner {
  query(sql: string, params: [], opts: { maxRows: number }): Promise<ExecResult>;
  capabilities: { maintenanceOperations: ReadonlyArray<{ type: string }> };
  conn: { descriptor: { database?: string; user?: string } };
}

/** A ClickHouse string literal (backslash and quote escaped). */
export function chString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function kindOf(engine: string): string {
  if (engine === 'View') return 'view';
  if (engine === 'MaterializedView') return 'materialized view';
  if (engine === 'Dictionary') return 'dictionary';
  return 'table';
}

export function clickhouseCatalog(p: Runner): Catalog {
  const rows = async (sql: string, maxRows = OBJECT_LIMIT) => (await p.query(sql, [], { maxRows })).rows;
  const scope = (db: string | undefined, column = 'database') =>
    db !== undefined ? `${column} = ${chString(db)}` : `${column} NOT IN ${SYSTEM_DBS}`;

  const objects = async (db: string | undefined) => {
    const res = await p.query(
      `SELECT t.database AS db, t.name AS name, t.engine AS engine, p.rows AS row_count, p.bytes AS size
         FROM system.tables AS t
         ANY LEFT JOIN (SELECT database, table AS name, sum(rows) AS rows, sum(bytes_on_disk) AS bytes
                          FROM system.parts WHERE active GROUP BY database, table) AS p
         USING (database, name)
        WHERE ${scope(db, 't.database')} ORDER BY db, name`,
      [],
      { maxRows: OBJECT_LIMIT },
    );
    const list = res.rows.map((r): DatabaseObject => {
      const engine = String(r.engine);
      const o: DatabaseObject = {
        path: [String(r.db), String(r.name)],
        name: String(r.name),
        kind: kindOf(engine),
      };
      // Only MergeTree tables keep parts; other engines have no counted rows.
      if (/MergeTree$/.test(engine)) {
        o.rowCount = Number(r.row_count ?? 0);
        o.sizeBytes = Number(r.size ?? 0);
      }
      return o;
    });
    return { objects: list, truncated: res.truncated };
  };

  const catalog = {
    async profile(): Promise<ConnectionProfile> {
      const [r] = await rows('SELECT version() AS version, currentDatabase() AS db');
      return {
        engine: 'clickhouse',
        serverVersion: String(r.version),
        currentUser: p.conn.descriptor.user || 'default',
        currentDatabase: String(r.db),
        currentSchema: String(r.db),
      };
    },

    async listObjects(path: readonly string[] | undefined) {
      return (await objects(path?.[0] ?? p.conn.descriptor.database)).objects;
    },

    async inventory(): Promise<Inventory> {
      const db = p.conn.descriptor.database;
      const dbs = await rows(`SELECT name FROM system.databases WHERE ${scope(db, 'name')} ORDER BY name`);
      return {
        containers: dbs.map((d) => ({ path: [String(d.name)], name: String(d.name), kind: 'database' })),
        ...(await objects(db)),
      };
    },

    async counts(): Promise<KindCount[]> {
      const list = (await objects(p.conn.descriptor.database)).objects;
      const counts = new Map<string, KindCount>();
      for (const o of list) {
        const key = `${o.path[0]}\u0000${o.kind}`;
        const c = counts.get(key) ?? { path: [o.path[0]], kind: o.kind, count: 0 };
        c.count++;
        counts.set(key, c);
      }
      return [...counts.values()];
    },

    async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
      const db = path.length >= 2 ? path[path.length - 2] : p.conn.descriptor.database;
      const name = path[path.length - 1];
      if (!db || !name) return undefined;
      const found = (await objects(db)).objects.find((o) => o.name === name);
      if (!found) return undefined;
      const columns = await rows(
        `SELECT name, type, default_kind, default_expression, is_in_primary_key
           FROM system.columns WHERE database = ${chString(db)} AND table = ${chString(name)}`,
      );
      const [t] = await rows(
        `SELECT create_table_query AS def FROM system.tables WHERE database = ${chString(db)} AND name = ${chString(name)}`,
      );
      return {
        object: found,
        columns: columns.map((c) => ({
          name: String(c.name),
          type: String(c.type),
          nullable: String(c.type).startsWith('Nullable('),
          isPrimary: Number(c.is_in_primary_key) === 1,
          ...(c.default_kind ? { defaultValue: `${c.default_kind} ${c.default_expression}` } : {}),
        })),
        // Data-skipping indexes are not lookup indexes, and ClickHouse declares no foreign keys.
        indexes: [],
        foreignKeys: [],
        ...(found.kind !== 'table' && t?.def ? { definition: String(t.def) } : {}),
      };
    },

    async health(): Promise<HealthReading> {
      const metrics = await rows(
        `SELECT metric, value FROM system.metrics WHERE metric IN ('TCPConnection', 'HTTPConnection', 'MySQLConnection', 'PostgreSQLConnection', 'InterserverConnection')`,
      );
      const connections = metrics.reduce((n, r) => n + Number(r.value), 0);
      const [size] = await rows(
        `SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND ${scope(p.conn.descriptor.database)}`,
      );
      const events = await rows(
        `SELECT event, value FROM system.events WHERE event IN ('MarkCacheHits', 'MarkCacheMisses')`,
      );
      const ev = Object.fromEntries(events.map((r) => [String(r.event), Number(r.value)]));
      const sessions = await rows(
        'SELECT query_id, user, elapsed, query FROM system.processes ORDER BY elapsed DESC LIMIT 100',
      );
      // The query log is optional server configuration: without it there are no slow-query figures.
      const slow = await rows(
        `SELECT query, count() AS calls, avg(query_duration_ms) AS avg FROM system.query_log
          WHERE CAST(type AS UInt8) = 2 AND event_date >= today() - 1
          GROUP BY query ORDER BY avg DESC LIMIT 10`,
      ).catch(() => []);
      const hits = ev.MarkCacheHits ?? 0;
      return {
        activeConnections: connections,
        databaseSize: prettyBytes(Number(size?.bytes ?? 0)),
        cacheHitRatio: ratio(hits, hits + (ev.MarkCacheMisses ?? 0)),
        slowQueries: slow.map((r) => ({
          query: String(r.query),
          calls: Number(r.calls),
          avgTime: Number(r.avg),
        })),
        activeSessions: sessions.map((r) => ({
          pid: String(r.query_id),
          user: String(r.user),
          database: p.conn.descriptor.database ?? '',
          state: 'running',
          query: String(r.query),
          duration: Math.round(Number(r.elapsed) * 1000),
        })),
      };
    },

    async monitoring(): Promise<Record<string, unknown>> {
      const metrics = await rows('SELECT metric, value FROM system.metrics');
      const uptime = await rows(`SELECT value FROM system.asynchronous_metrics WHERE metric = 'Uptime'`);
      return {
        ...(await catalog.health()),
        metrics: Object.fromEntries(metrics.map((r) => [String(r.metric), Number(r.value)])),
        ...(uptime[0] ? { uptimeSeconds: Number(uptime[0].value) } : {}),
      };
    },

    async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
      switch (type) {
        case 'optimize':
          return p.query(`OPTIMIZE TABLE ${objectTarget(quoteStyles.backtick, type, target)} FINAL`, [], {
            maxRows: 1000,
          });
        case 'analyze': {
          const t = requireTarget(type, target);
          const parts = t.split('.');
          const [db, name] = parts.length === 2 ? parts : [p.conn.descriptor.database ?? 'default', t];
          if (parts.length > 2) throw configError('Maintenance analyze needs <table> or <database>.<table>');
          return p.query(
            `SELECT name AS column, type, data_compressed_bytes AS compressed_bytes,
                    data_uncompressed_bytes AS uncompressed_bytes,
                    round(data_uncompressed_bytes / greatest(data_compressed_bytes, 1), 2) AS ratio
               FROM system.columns WHERE database = ${chString(db)} AND table = ${chString(name)}`,
            [],
            { maxRows: 10_000 },
          );
        }
        case 'kill':
          return p.query(`KILL QUERY WHERE query_id = ${chString(requireTarget(type, target))} SYNC`, [], {
            maxRows: 1000,
          });
        default:
          throw unknownOperation(type, p.capabilities.maintenanceOperations);
      }
    },
  };
  return catalog;
}
