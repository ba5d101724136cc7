// PostgreSQL catalog reads (object surface, profile, health, monitoring) and maintenance statements. Each
// surface is one query over pg_catalog, never one per object.

import { quoteStyles } from '../../sql/dialect.js';
import type { Catalog } from '../catalog.js';
import { integerTarget, objectTarget, unknownOperation } from '../targets.js';
import type {
  ColumnSchema,
  ConnectionProfile,
  DatabaseObject,
  ExecResult,
  ForeignKeySchema,
  HealthReading,
  IndexSchema,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';

export const OBJECT_LIMIT = 10_000;

interface Runner {
  query(sql: string, params: unknown[], opts: { maxRows: number }): Promise<ExecResult>;
  capabilities: { maintenanceOperations: ReadonlyArray<{ type: string }> };
}

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
  AND n.nspname NOT LIKE 'pg_temp_%' AND n.nspname NOT LIKE 'pg_toast_temp_%'`;

const RELKIND: Record<string, string> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  S: 'sequence',
};

const RELATIONS = `
SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS relkind,
       CASE WHEN c.relkind IN ('r','m','p') AND c.reltuples >= 0 THEN c.reltuples::bigint END AS rows,
       CASE WHEN c.relkind IN ('r','m') THEN pg_total_relation_size(c.oid) END AS size
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind IN ('r','p','v','m','f','S') AND NOT c.relispartition AND ${USER_SCHEMAS}
   AND ($1::text IS NULL OR n.nspname = $1)
UNION ALL
SELECT n.nspname, p.proname, CASE p.prokind WHEN 'p' THEN 'P' ELSE 'F' END, NULL, NULL
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE p.prokind IN ('f','p') AND ${USER_SCHEMAS} AND ($1::text IS NULL OR n.nspname = $1)
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
 ORDER BY 1, 2`;

function toObject(r: Record<string, unknown>): DatabaseObject {
  const relkind = String(r.relkind);
  const kind = relkind === 'P' ? 'procedure' : relkind === 'F' ? 'function' : (RELKIND[relkind] ?? relkind);
  const o: DatabaseObject = { path: [String(r.schema), String(r.name)], name: String(r.name), kind };
  if (relkind === 'p') o.status = 'partitioned';
  if (r.rows !== null && r.rows !== undefined) o.rowCount = Number(r.rows);
  if (r.size !== null && r.size !== undefined) o.sizeBytes = Number(r.size);
  return o;
}

export function pgCatalog(p: Runner): Catalog {
  const rows = async (sql: string, params: unknown[] = [], maxRows = OBJECT_LIMIT) =>
    (await p.query(sql, params, { maxRows })).rows;

  const catalog = {
    async profile(): Promise<ConnectionProfile> {
      const [r] = await rows(
        'SELECT version() AS version, current_user AS "user", current_database() AS db, current_schema() AS schema',
      );
      return {
        engine: 'postgres',
        serverVersion: String(r.version),
        currentUser: String(r.user),
        currentDatabase: String(r.db),
        currentSchema: r.schema === null ? undefined : String(r.schema),
      };
    },

    async listObjects(path: readonly string[] | undefined): Promise<DatabaseObject[]> {
      return (await rows(RELATIONS, [path?.[0] ?? null])).map(toObject);
    },

    async inventory(): Promise<Inventory> {
      const res = await p.query(RELATIONS, [null], { maxRows: OBJECT_LIMIT });
      const schemas = await rows(
        `SELECT n.nspname AS name FROM pg_namespace n WHERE ${USER_SCHEMAS} ORDER BY 1`,
      );
      return {
        containers: schemas.map((s) => ({ path: [String(s.name)], name: String(s.name), kind: 'schema' })),
        objects: res.rows.map(toObject),
        truncated: res.truncated,
      };
    },

    async counts(): Promise<KindCount[]> {
      const res = await rows(
        `SELECT schema, relkind, count(*)::int AS n FROM (${RELATIONS}) x GROUP BY 1, 2 ORDER BY 1, 2`,
        [null],
      );
      const merged = new Map<string, KindCount>();
      for (const r of res) {
        const kind = toObject({ ...r, name: '' }).kind;
        const key = `${r.schema}\u0000${kind}`;
        const prev = merged.get(key);
        if (prev) prev.count += Number(r.n);
        else merged.set(key, { path: [String(r.schema)], kind, count: Number(r.n) });
      }
      return [...merged.values()];
    },

    async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
      const [schema, name] = path.length >= 2 ? path.slice(-2) : ['public', path[0]];
      const all = await rows(RELATIONS, [schema]);
      const found = all.find((r) => r.name === name);
      if (!found) return undefined;
      const object = toObject(found);
      if (object.kind === 'function' || object.kind === 'procedure') {
        const [def] = await rows(
          `SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = $1 AND p.proname = $2 LIMIT 1`,
          [schema, name],
        );
        return {
          object,
          columns: [],
          indexes: [],
          foreignKeys: [],
          definition: def ? String(def.def) : undefined,
        };
      }
      const rel = `${quoteStyles.double(schema)}.${quoteStyles.double(name)}`;
      const columns = await rows(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
                EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary
                         AND a.attnum = ANY(i.indkey)) AS pk,
                pg_get_expr(d.adbin, d.adrelid) AS def
           FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
        [rel],
      );
      const indexes = await rows(
        `SELECT ic.relname AS name, i.indisunique AS uniq,
                array(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts) k
                       ORDER BY k) AS cols
           FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
          WHERE i.indrelid = $1::regclass ORDER BY 1`,
        [rel],
      );
      const fks = await rows(
        `SELECT con.conname AS name, a.attname AS col, rn.nspname AS rschema, rc.relname AS rtable,
                ra.attname AS rcol, con.confupdtype AS upd, con.confdeltype AS del
           FROM pg_constraint con
           CROSS JOIN LATERAL unnest(con.conkey, con.confkey) AS k(col, rcol)
           JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.col
           JOIN pg_class rc ON rc.oid = con.confrelid JOIN pg_namespace rn ON rn.oid = rc.relnamespace
           JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = k.rcol
          WHERE con.contype = 'f' AND con.conrelid = $1::regclass ORDER BY 1`,
        [rel],
      );
      let definition: string | undefined;
      if (object.kind === 'view' || object.kind === 'materialized_view') {
        const [v] = await rows('SELECT pg_get_viewdef($1::regclass, true) AS def', [rel]);
        definition = v ? String(v.def) : undefined;
      }
      const action: Record<string, string> = {
        a: 'NO ACTION',
        r: 'RESTRICT',
        c: 'CASCADE',
        n: 'SET NULL',
        d: 'SET DEFAULT',
      };
      return {
        object,
        columns: columns.map(
          (c): ColumnSchema => ({
            name: String(c.name),
            type: String(c.type),
            nullable: Boolean(c.nullable),
            isPrimary: Boolean(c.pk),
            ...(c.def !== null ? { defaultValue: String(c.def) } : {}),
          }),
        ),
        indexes: indexes.map(
          (i): IndexSchema => ({
            name: String(i.name),
            columns: (i.cols as string[]) ?? [],
            unique: Boolean(i.uniq),
          }),
        ),
        foreignKeys: fks.map(
          (f): ForeignKeySchema => ({
            columnName: String(f.col),
            constraintName: String(f.name),
            referencedPath: [String(f.rschema), String(f.rtable)],
            referencedTable: String(f.rtable),
            referencedColumn: String(f.rcol),
            onUpdate: action[String(f.upd)],
            onDelete: action[String(f.del)],
          }),
        ),
        ...(definition ? { definition } : {}),
      };
    },

    async health(): Promise<HealthReading> {
      const [stats] = await rows(
        `SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS active,
                pg_size_pretty(pg_database_size(current_database())) AS size,
                (SELECT CASE WHEN blks_hit + blks_read = 0 THEN NULL
                             ELSE round(blks_hit * 100.0 / (blks_hit + blks_read), 2) END
                   FROM pg_stat_database WHERE datname = current_database()) AS ratio`,
      );
      const sessions = await rows(
        `SELECT pid, usename AS "user", datname AS database, state, query,
                COALESCE(EXTRACT(EPOCH FROM (now() - query_start)) * 1000, 0)::bigint AS duration
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
          ORDER BY query_start NULLS LAST LIMIT 100`,
      );
      let slow: Record<string, unknown>[] = [];
      const [ext] = await rows(`SELECT to_regclass('pg_stat_statements') IS NOT NULL AS present`);
      if (ext?.present) {
        slow = await rows(
          `SELECT query, calls::bigint AS calls, round(mean_exec_time::numeric, 2)::float8 AS avg
             FROM pg_stat_statements ORDER BY mean_exec_time DESC LIMIT 10`,
        ).catch(() => []);
      }
      return {
        activeConnections: Number(stats.active),
        databaseSize: String(stats.size),
        cacheHitRatio: stats.ratio === null ? 'n/a' : `${Number(stats.ratio).toFixed(2)}%`,
        slowQueries: slow.map((s) => ({
          query: String(s.query),
          calls: Number(s.calls),
          avgTime: Number(s.avg),
        })),
        activeSessions: sessions.map((s) => ({
          pid: Number(s.pid),
          user: String(s.user ?? ''),
          database: String(s.database ?? ''),
          state: String(s.state ?? ''),
          query: String(s.query ?? ''),
          duration: Number(s.duration),
        })),
      };
    },

    async monitoring(): Promise<Record<string, unknown>> {
      const [summary] = await rows(
        `SELECT (SELECT count(*)::int FROM pg_locks WHERE NOT granted) AS "waitingLocks",
                (SELECT count(*)::int FROM pg_stat_activity WHERE state = 'active') AS "activeQueries",
                (SELECT count(*)::int FROM pg_stat_activity WHERE state = 'idle in transaction') AS "idleInTransaction",
                (SELECT setting::int FROM pg_settings WHERE name = 'max_connections') AS "maxConnections",
                date_trunc('second', now() - pg_postmaster_start_time())::text AS uptime`,
      );
      const health = await catalog.health();
      // Sessions waiting for a lock, each with the sessions holding it up (pg_blocking_pids).
      const waiting = await rows(
        `SELECT a.pid, pg_blocking_pids(a.pid) AS blocked_by, l.locktype, l.mode,
                CASE WHEN l.relation IS NOT NULL THEN l.relation::regclass::text END AS relation,
                a.usename AS "user", a.query,
                COALESCE(EXTRACT(EPOCH FROM (now() - a.state_change)) * 1000, 0)::bigint AS waiting
           FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE NOT l.granted AND a.datname = current_database()
          ORDER BY waiting DESC LIMIT 100`,
      );
      const locks = waiting.map((w) => ({
        pid: Number(w.pid),
        blockedBy: ((w.blocked_by as unknown[]) ?? []).map(Number),
        lockType: String(w.locktype),
        mode: String(w.mode),
        relation: w.relation === null ? '' : String(w.relation),
        user: String(w.user ?? ''),
        query: String(w.query ?? ''),
        waitingMs: Number(w.waiting),
      }));
      return { ...health, ...summary, locks };
    },

    async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
      switch (type) {
        case 'vacuum':
          return p.query(target ? `VACUUM ${objectTarget(quoteStyles.double, type, target)}` : 'VACUUM', [], {
            maxRows: 0,
          });
        case 'analyze':
          return p.query(
            target ? `ANALYZE ${objectTarget(quoteStyles.double, type, target)}` : 'ANALYZE',
            [],
            {
              maxRows: 0,
            },
          );
        case 'reindex':
          return p.query(`REINDEX TABLE ${objectTarget(quoteStyles.double, type, target)}`, [], {
            maxRows: 0,
          });
        case 'cancel':
          return p.query('SELECT pg_cancel_backend($1) AS cancelled', [integerTarget(type, target)], {
            maxRows: 1,
          });
        case 'kill':
          return p.query('SELECT pg_terminate_backend($1) AS terminated', [integerTarget(type, target)], {
            maxRows: 1,
          });
        default:
          throw unknownOperation(type, p.capabilities.maintenanceOperations);
      }
    },
  };
  return catalog;
}
