// Trino catalog reads: the connection's catalog (`database`) is browsed through its information_schema
// (schemas are containers, tables and views objects, columns with their types verbatim; Trino declares no
// keys or indexes), without a catalog the catalogs themselves are listed. Health comes from
// system.runtime.queries (running queries are the sessions; a federation has no storage size or cache
// figure of its own, reported as "n/a"), monitoring adds system.runtime.nodes; `kill` calls
// system.runtime.kill_query.
import type { Catalog } from '../catalog.js';
import { configError } from '../errors.js';
import { requireTarget, unknownOperation } from '../targets.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  ExecResult,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';

const OBJECT_LIMIT = 10_000;

interface Runner {
  query(sql: string, params: [], opts: { maxRows: number }): Promise<ExecResult>;
  version(): Promise<{ version: string }>;
  capabilities: { maintenanceOperations: ReadonlyArray<{ type: string }> };
  conn: { descriptor: { database?: string; schema?: string; user?: string } };
}

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
const ident = (v: string) => `"${v.replace(/"/g, '""')}"`;

export function trinoCatalog(p: Runner): Catalog {
  const rows = async (sql: string, maxRows = OBJECT_LIMIT) => (await p.query(sql, [], { maxRows })).rows;
  const catalogName = () => p.conn.descriptor.database;

  const objects = async (schema: string | undefined): Promise<DatabaseObject[]> => {
    const cat = catalogName();
    if (!cat) {
      return (await rows('SHOW CATALOGS')).map((r) => {
        const name = String(Object.values(r)[0]);
        return { path: [name], name, kind: 'catalog' };
      });
    }
    const res = await rows(
      `SELECT table_schema, table_name, table_type FROM ${ident(cat)}.information_schema.tables
        WHERE table_schema <> 'information_schema'${schema ? ` AND table_schema = ${lit(schema)}` : ''}
        ORDER BY table_schema, table_name`,
    );
    return res.map((r) => ({
      path: [String(r.table_schema), String(r.table_name)],
      name: String(r.table_name),
      kind: String(r.table_type) === 'VIEW' ? 'view' : 'table',
    }));
  };

  const catalog = {
    async profile(): Promise<ConnectionProfile> {
      const { version } = await p.version();
      const d = p.conn.descriptor;
      return {
        engine: 'trino',
        serverVersion: version,
        currentUser: d.user || 'portal',
        ...(d.database ? { currentDatabase: d.database } : {}),
        ...(d.schema ? { currentSchema: d.schema } : {}),
      };
    },

    listObjects: (path: readonly string[] | undefined) => objects(path?.[0] ?? p.conn.descriptor.schema),

    async inventory(): Promise<Inventory> {
      const cat = catalogName();
      const schemas = cat
        ? await rows(
            `SELECT schema_name FROM ${ident(cat)}.information_schema.schemata
              WHERE schema_name <> 'information_schema' ORDER BY schema_name`,
          )
        : [];
      const list = await objects(undefined);
      return {
        containers: schemas.map((s) => ({
          path: [String(s.schema_name)],
          name: String(s.schema_name),
          kind: 'schema',
        })),
        objects: list,
        truncated: list.length >= OBJECT_LIMIT,
      };
    },

    async counts(): Promise<KindCount[]> {
      const counts = new Map<string, KindCount>();
      for (const o of await objects(undefined)) {
        const container = o.path.length > 1 ? [o.path[0]] : [];
        const key = `${container.join('.')}\u0000${o.kind}`;
        const c = counts.get(key) ?? { path: container, kind: o.kind, count: 0 };
        c.count++;
        counts.set(key, c);
      }
      return [...counts.values()];
    },

    async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
      const cat = catalogName();
      const schema = path.length >= 2 ? path[path.length - 2] : p.conn.descriptor.schema;
      const name = path[path.length - 1];
      if (!cat || !schema || !name) return undefined;
      const found = (await objects(schema)).find((o) => o.name === name);
      if (!found) return undefined;
      const columns = await rows(
        `SELECT column_name, data_type, is_nullable, column_default FROM ${ident(cat)}.information_schema.columns
          WHERE table_schema = ${lit(schema)} AND table_name = ${lit(name)} ORDER BY ordinal_position`,
      );
      return {
        object: found,
        columns: columns.map((c) => ({
          name: String(c.column_name),
          type: String(c.data_type),
          nullable: String(c.is_nullable) === 'YES',
          isPrimary: false,
          ...(c.column_default !== null && c.column_default !== undefined
            ? { defaultValue: String(c.column_default) }
            : {}),
        })),
        indexes: [],
        foreignKeys: [],
      };
    },

    async health(): Promise<HealthReading> {
      const running = await rows(
        `SELECT query_id, "user", state, query, date_diff('millisecond', created, now()) AS ms
           FROM system.runtime.queries WHERE state NOT IN ('FINISHED', 'FAILED') ORDER BY created LIMIT 100`,
      );
      const slow = await rows(
        `SELECT query, count(*) AS calls, avg(date_diff('millisecond', created, "end")) AS avg_ms
           FROM system.runtime.queries WHERE state = 'FINISHED' AND "end" IS NOT NULL
          GROUP BY query ORDER BY avg_ms DESC LIMIT 10`,
      );
      return {
        activeConnections: running.length,
        databaseSize: 'n/a',
        cacheHitRatio: 'n/a',
        slowQueries: slow.map((r) => ({
          query: String(r.query),
          calls: Number(r.calls),
          avgTime: Number(r.avg_ms),
        })),
        activeSessions: running.map((r) => ({
          pid: String(r.query_id),
          user: String(r.user),
          database: p.conn.descriptor.database ?? '',
          state: String(r.state),
          query: String(r.query),
          duration: Number(r.ms),
        })),
      };
    },

    async monitoring(): Promise<Record<string, unknown>> {
      const nodes = await rows(
        'SELECT node_id, http_uri, node_version, coordinator, state FROM system.runtime.nodes',
      );
      return { ...(await catalog.health()), nodes };
    },

    async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
      if (type !== 'kill') throw unknownOperation(type, p.capabilities.maintenanceOperations);
      const id = requireTarget(type, target);
      if (!/^[A-Za-z0-9_]+$/.test(id)) throw configError('Maintenance kill needs a Trino query id as target');
      return p.query(
        `CALL system.runtime.kill_query(query_id => ${lit(id)}, message => 'Killed from the database portal')`,
        [],
        { maxRows: 10 },
      );
    },
  };
  return catalog;
}
