// MySQL/MariaDB catalog reads over information_schema (one query per surface), health and monitoring from
// the server's status counters and process list, and the maintenance statements.

import { quoteStyles } from '../../sql/dialect.js';
import type { Catalog } from '../catalog.js';
import { integerTarget, objectTarget, unknownOperation } from '../targets.js';
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
const SYSTEM = `('information_schema', 'mysql', 'performance_schema', 'sys')`;

interface Runner {
  query(sql: string, params: never[] | unknown[], opts: { maxRows: number }): Promise<ExecResult>;
  capabilities: { maintenanceOperations: ReadonlyArray<{ type: string }> };
  conn: { descriptor: { database?: string } };
}

/** Objects of the connection's database (or of every user database when none is set). */
const OBJECTS = (scoped: boolean) => `
SELECT TABLE_SCHEMA AS db, TABLE_NAME AS name,
       CASE TABLE_TYPE WHEN 'VIEW' THEN 'view' WHEN 'SYSTEM VIEW' THEN 'view' WHEN 'SEQUENCE' THEN 'sequence' ELSE 'table' END AS kind,
       TABLE_ROWS AS row_count, DATA_LENGTH + INDEX_LENGTH AS size, ENGINE AS engine
  FROM information_schema.TABLES
 WHERE ${scoped ? 'TABLE_SCHEMA = ?' : `TABLE_SCHEMA NOT IN ${SYSTEM}`}
UNION ALL
SELECT ROUTINE_SCHEMA, ROUTINE_NAME, LOWER(ROUTINE_TYPE), NULL, NULL, NULL
  FROM information_schema.ROUTINES
 WHERE ${scoped ? 'ROUTINE_SCHEMA = ?' : `ROUTINE_SCHEMA NOT IN ${SYSTEM}`}
 ORDER BY 1, 2`;

function toObject(r: Record<string, unknown>): DatabaseObject {
  const o: DatabaseObject = {
    path: [String(r.db), String(r.name)],
    name: String(r.name),
    kind: String(r.kind),
  };
  if (r.kind === 'table' && r.row_count !== null && r.row_count !== undefined)
    o.rowCount = Number(r.row_count);
  if (r.kind === 'table' && r.size !== null && r.size !== undefined) o.sizeBytes = Number(r.size);
  return o;
}

export function mysqlCatalog(p: Runner): Catalog {
  const rows = async (sql: string, params: unknown[] = [], maxRows = OBJECT_LIMIT) =>
    (await p.query(sql, params, { maxRows })).rows;
  const objects = async (db: string | undefined) => {
    const res = await p.query(OBJECTS(db !== undefined), db !== undefined ? [db, db] : [], {
      maxRows: OBJECT_LIMIT,
    });
    return { objects: res.rows.map(toObject), truncated: res.truncated };
  };

  const catalog = {
    async profile(): Promise<ConnectionProfile> {
      const [r] = await rows('SELECT VERSION() AS version, CURRENT_USER() AS u, DATABASE() AS db');
      return {
        engine: 'mysql',
        serverVersion: String(r.version),
        currentUser: String(r.u),
        ...(r.db !== null ? { currentDatabase: String(r.db), currentSchema: String(r.db) } : {}),
      };
    },

    async listObjects(path: readonly string[] | undefined) {
      return (await objects(path?.[0] ?? p.conn.descriptor.database)).objects;
    },

    async inventory(): Promise<Inventory> {
      const db = p.conn.descriptor.database;
      const dbs = await rows(
        db
          ? 'SELECT ? AS name'
          : `SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN ${SYSTEM} ORDER BY 1`,
        db ? [db] : [],
      );
      const o = await objects(db);
      return {
        containers: dbs.map((d) => ({ path: [String(d.name)], name: String(d.name), kind: 'database' })),
        ...o,
      };
    },

    async counts(): Promise<KindCount[]> {
      const db = p.conn.descriptor.database;
      const res = await rows(
        `SELECT db, kind, COUNT(*) AS n FROM (${OBJECTS(db !== undefined)}) x GROUP BY db, kind ORDER BY db, kind`,
        db ? [db, db] : [],
      );
      return res.map((r) => ({ path: [String(r.db)], kind: String(r.kind), count: Number(r.n) }));
    },

    async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
      const db = path.length >= 2 ? path[path.length - 2] : p.conn.descriptor.database;
      const name = path[path.length - 1];
      if (!db || !name) return undefined;
      const found = (await objects(db)).objects.find((o) => o.name === name);
      if (!found) return undefined;
      if (found.kind === 'procedure' || found.kind === 'function') {
        const [r] = await rows(
          'SELECT ROUTINE_DEFINITION AS def FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ? AND ROUTINE_NAME = ?',
          [db, name],
        );
        return {
          object: found,
          columns: [],
          indexes: [],
          foreignKeys: [],
          ...(r?.def ? { definition: String(r.def) } : {}),
        };
      }
      const columns = await rows(
        `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE = 'YES' AS nullable, COLUMN_KEY = 'PRI' AS pk,
                COLUMN_DEFAULT AS def
           FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
        [db, name],
      );
      const idx = await rows(
        `SELECT INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS col
           FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
          ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
        [db, name],
      );
      const fks = await rows(
        `SELECT k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS col, k.REFERENCED_TABLE_SCHEMA AS rdb,
                k.REFERENCED_TABLE_NAME AS rtable, k.REFERENCED_COLUMN_NAME AS rcol, r.UPDATE_RULE AS upd, r.DELETE_RULE AS del
           FROM information_schema.KEY_COLUMN_USAGE k
           JOIN information_schema.REFERENTIAL_CONSTRAINTS r
             ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
          WHERE k.TABLE_SCHEMA = ? AND k.TABLE_NAME = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
          ORDER BY k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
        [db, name],
      );
      const indexes = new Map<string, { name: string; columns: string[]; unique: boolean }>();
      for (const r of idx) {
        const key = String(r.name);
        const entry = indexes.get(key) ?? { name: key, columns: [], unique: Number(r.non_unique) === 0 };
        entry.columns.push(String(r.col));
        indexes.set(key, entry);
      }
      let definition: string | undefined;
      if (found.kind === 'view') {
        const [v] = await rows(
          'SELECT VIEW_DEFINITION AS def FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
          [db, name],
        );
        definition = v?.def ? String(v.def) : undefined;
      }
      return {
        object: found,
        columns: columns.map((c) => ({
          name: String(c.name),
          type: String(c.type),
          nullable: Number(c.nullable) === 1,
          isPrimary: Number(c.pk) === 1,
          ...(c.def !== null && c.def !== undefined ? { defaultValue: String(c.def) } : {}),
        })),
        indexes: [...indexes.values()],
        foreignKeys: fks.map((f) => ({
          columnName: String(f.col),
          constraintName: String(f.name),
          referencedPath: [String(f.rdb), String(f.rtable)],
          referencedTable: String(f.rtable),
          referencedColumn: String(f.rcol),
          onUpdate: String(f.upd),
          onDelete: String(f.del),
        })),
        ...(definition ? { definition } : {}),
      };
    },

    async health(): Promise<HealthReading> {
      const status = await rows(
        `SHOW GLOBAL STATUS WHERE Variable_name IN ('Threads_connected', 'Innodb_buffer_pool_read_requests', 'Innodb_buffer_pool_reads')`,
      );
      const s = Object.fromEntries(status.map((r) => [String(r.Variable_name), Number(r.Value)]));
      const db = p.conn.descriptor.database;
      const [size] = await rows(
        `SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) AS bytes FROM information_schema.TABLES
          WHERE ${db ? 'TABLE_SCHEMA = ?' : `TABLE_SCHEMA NOT IN ${SYSTEM}`}`,
        db ? [db] : [],
      );
      const sessions = await rows(
        `SELECT ID AS pid, USER AS user, COALESCE(DB, '') AS db, COALESCE(NULLIF(STATE, ''), COMMAND) AS state,
                COALESCE(INFO, '') AS query, TIME * 1000 AS duration
           FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() ORDER BY TIME DESC LIMIT 100`,
      );
      const slow = await rows(
        `SELECT DIGEST_TEXT AS query, COUNT_STAR AS calls, ROUND(AVG_TIMER_WAIT / 1000000000, 2) AS avg
           FROM performance_schema.events_statements_summary_by_digest
          WHERE DIGEST_TEXT IS NOT NULL ORDER BY AVG_TIMER_WAIT DESC LIMIT 10`,
      ).catch(() => []);
      const requests = s.Innodb_buffer_pool_read_requests ?? 0;
      return {
        activeConnections: s.Threads_connected ?? 0,
        databaseSize: prettyBytes(Number(size.bytes)),
        cacheHitRatio: ratio(requests - (s.Innodb_buffer_pool_reads ?? 0), requests),
        slowQueries: slow.map((r) => ({
          query: String(r.query),
          calls: Number(r.calls),
          avgTime: Number(r.avg),
        })),
        activeSessions: sessions.map((r) => ({
          pid: Number(r.pid),
          user: String(r.user),
          database: String(r.db),
          state: String(r.state ?? ''),
          query: String(r.query),
          duration: Number(r.duration),
        })),
      };
    },

    async monitoring(): Promise<Record<string, unknown>> {
      const status = await rows(
        `SHOW GLOBAL STATUS WHERE Variable_name IN ('Uptime', 'Threads_running', 'Questions', 'Slow_queries', 'Aborted_connects')`,
      );
      const [vars] = await rows('SELECT @@max_connections AS max_connections');
      const locks = await lockWaits(rows);
      return {
        ...(await catalog.health()),
        status: Object.fromEntries(status.map((r) => [String(r.Variable_name), Number(r.Value)])),
        maxConnections: Number(vars.max_connections),
        ...(locks ? { locks } : {}),
      };
    },

    async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
      const table = () => objectTarget(quoteStyles.backtick, type, target);
      switch (type) {
        case 'optimize':
          return p.query(`OPTIMIZE TABLE ${table()}`, [], { maxRows: 1000 });
        case 'analyze':
          return p.query(`ANALYZE TABLE ${table()}`, [], { maxRows: 1000 });
        case 'check':
          return p.query(`CHECK TABLE ${table()}`, [], { maxRows: 1000 });
        case 'repair':
          return p.query(`REPAIR TABLE ${table()}`, [], { maxRows: 1000 });
        case 'cancel':
          return p.query(`KILL QUERY ${integerTarget(type, target)}`, [], { maxRows: 0 });
        case 'kill':
          return p.query(`KILL ${integerTarget(type, target)}`, [], { maxRows: 0 });
        default:
          throw unknownOperation(type, p.capabilities.maintenanceOperations);
      }
    },
  };
  return catalog;
}

type Rows = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * InnoDB lock waits, one entry per waiting connection with the connections holding it up: MariaDB keeps them
 * in information_schema (INNODB_LOCK_WAITS), MySQL 8 in performance_schema (data_lock_waits). Undefined when
 * neither answers (no PROCESS privilege, another storage engine): the monitoring page then shows no locks.
 */
async function lockWaits(rows: Rows): Promise<Record<string, unknown>[] | undefined> {
  const mariadb = `SELECT r.trx_mysql_thread_id AS pid, b.trx_mysql_thread_id AS blocker, l.lock_type AS type,
                          l.lock_mode AS mode, l.lock_table AS relation, COALESCE(p.USER, '') AS user,
                          COALESCE(r.trx_query, '') AS query,
                          TIMESTAMPDIFF(MICROSECOND, r.trx_wait_started, NOW()) DIV 1000 AS waiting
                     FROM information_schema.INNODB_LOCK_WAITS w
                     JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id
                     JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id
                     JOIN information_schema.INNODB_LOCKS l ON l.lock_id = w.requested_lock_id
                     LEFT JOIN information_schema.PROCESSLIST p ON p.ID = r.trx_mysql_thread_id
                    LIMIT 100`;
  const mysql8 = `SELECT r.PROCESSLIST_ID AS pid, b.PROCESSLIST_ID AS blocker, l.LOCK_TYPE AS type,
                         l.LOCK_MODE AS mode, CONCAT(l.OBJECT_SCHEMA, '.', l.OBJECT_NAME) AS relation,
                         COALESCE(r.PROCESSLIST_USER, '') AS user, COALESCE(r.PROCESSLIST_INFO, '') AS query,
                         COALESCE(r.PROCESSLIST_TIME, 0) * 1000 AS waiting
                    FROM performance_schema.data_lock_waits w
                    JOIN performance_schema.threads r ON r.THREAD_ID = w.REQUESTING_THREAD_ID
                    JOIN performance_schema.threads b ON b.THREAD_ID = w.BLOCKING_THREAD_ID
                    JOIN performance_schema.data_locks l ON l.ENGINE_LOCK_ID = w.REQUESTING_ENGINE_LOCK_ID
                   LIMIT 100`;
  const found = (await rows(mariadb).catch(() => null)) ?? (await rows(mysql8).catch(() => null));
  if (!found) return undefined;
  const byPid = new Map<number, Record<string, unknown> & { blockedBy: number[] }>();
  for (const r of found) {
    const pid = Number(r.pid);
    const entry = byPid.get(pid) ?? {
      pid,
      blockedBy: [],
      lockType: String(r.type ?? ''),
      mode: String(r.mode ?? ''),
      relation: String(r.relation ?? ''),
      user: String(r.user ?? ''),
      query: String(r.query ?? ''),
      waitingMs: Number(r.waiting ?? 0),
    };
    const blocker = Number(r.blocker);
    if (!entry.blockedBy.includes(blocker)) entry.blockedBy.push(blocker);
    byPid.set(pid, entry);
  }
  return [...byPid.values()];
}
