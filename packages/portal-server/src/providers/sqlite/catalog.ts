// SQLite-dialect catalog (SQLite and libSQL): objects from sqlite_schema, columns, indexes and foreign keys
// from the pragma table functions (one query each), size from page counts, and the maintenance pragmas.

import { quoteStyles } from '../../sql/dialect.js';
import type { Catalog } from '../catalog.js';
import { objectTarget, unknownOperation } from '../targets.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  EngineId,
  ExecResult,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';
import { prettyBytes } from '../values.js';

interface Runner {
  engine: EngineId;
  query(sql: string, params: unknown[], opts: { maxRows: number }): Promise<ExecResult>;
  capabilities: { maintenanceOperations: ReadonlyArray<{ type: string }> };
  connections(): number;
}

const SCHEMA = 'main';
const LIMIT = 10_000;

export function sqliteCatalog(p: Runner): Catalog {
  const rows = async (sql: string, params: unknown[] = [], maxRows = LIMIT) =>
    (await p.query(sql, params, { maxRows })).rows;
  const objects = async (): Promise<{ objects: DatabaseObject[]; truncated: boolean }> => {
    const res = await p.query(
      `SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name`,
      [],
      { maxRows: LIMIT },
    );
    return {
      objects: res.rows.map((r) => ({
        path: [SCHEMA, String(r.name)],
        name: String(r.name),
        kind: String(r.type),
      })),
      truncated: res.truncated,
    };
  };

  const catalog = {
    async profile(): Promise<ConnectionProfile> {
      const [r] = await rows('SELECT sqlite_version() AS v');
      return {
        engine: p.engine,
        serverVersion: `SQLite ${r.v}`,
        currentDatabase: SCHEMA,
        currentSchema: SCHEMA,
      };
    },
    async listObjects(path: readonly string[] | undefined) {
      if (path && path.length > 0 && path[0] !== SCHEMA) return [];
      return (await objects()).objects;
    },
    async inventory(): Promise<Inventory> {
      return { containers: [{ path: [SCHEMA], name: SCHEMA, kind: 'schema' }], ...(await objects()) };
    },
    async counts(): Promise<KindCount[]> {
      const res = await rows(
        `SELECT type, COUNT(*) AS n FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' GROUP BY type ORDER BY type`,
      );
      return res.map((r) => ({ path: [SCHEMA], kind: String(r.type), count: Number(r.n) }));
    },
    async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
      const name = path[path.length - 1];
      if (path.length > 1 && path[0] !== SCHEMA) return undefined;
      const [found] = await rows(
        `SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?`,
        [name],
      );
      if (!found) return undefined;
      const columns = await rows(
        'SELECT name, type, "notnull" AS nn, dflt_value AS def, pk FROM pragma_table_info(?) ORDER BY cid',
        [name],
      );
      const idx = await rows(
        `SELECT il.name AS name, il."unique" AS uniq, ii.name AS col FROM pragma_index_list(?) il
           JOIN pragma_index_info(il.name) ii ORDER BY il.seq, ii.seqno`,
        [name],
      );
      const fks = await rows(
        'SELECT id, "table" AS rtable, "from" AS col, "to" AS rcol, on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq',
        [name],
      );
      const indexes = new Map<string, { name: string; columns: string[]; unique: boolean }>();
      for (const r of idx) {
        const e = indexes.get(String(r.name)) ?? {
          name: String(r.name),
          columns: [],
          unique: Number(r.uniq) === 1,
        };
        e.columns.push(String(r.col));
        indexes.set(e.name, e);
      }
      return {
        object: { path: [SCHEMA, name], name, kind: String(found.type) },
        columns: columns.map((c) => ({
          name: String(c.name),
          type: String(c.type),
          // SQLite: a non-integer primary key column still accepts NULL unless declared NOT NULL.
          nullable: Number(c.nn) === 0,
          isPrimary: Number(c.pk) > 0,
          ...(c.def !== null ? { defaultValue: String(c.def) } : {}),
        })),
        indexes: [...indexes.values()],
        foreignKeys: fks.map((f) => ({
          columnName: String(f.col),
          constraintName: `fk_${name}_${f.id}`,
          referencedPath: [SCHEMA, String(f.rtable)],
          referencedTable: String(f.rtable),
          referencedColumn: f.rcol === null ? '' : String(f.rcol),
          onUpdate: String(f.on_update),
          onDelete: String(f.on_delete),
        })),
        ...(found.type === 'view' && found.sql ? { definition: String(found.sql) } : {}),
      };
    },
    async health(): Promise<HealthReading> {
      const [r] = await rows(
        'SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()',
      );
      return {
        activeConnections: p.connections(),
        databaseSize: prettyBytes(Number(r.bytes)),
        // An embedded engine keeps no cache statistics, slow-query log or session list.
        cacheHitRatio: 'n/a',
        slowQueries: [],
        activeSessions: [],
      };
    },
    async monitoring(): Promise<Record<string, unknown>> {
      const [r] = await rows(
        'SELECT journal_mode AS "journalMode", freelist_count AS "freePages" FROM pragma_journal_mode(), pragma_freelist_count()',
      );
      return { ...(await catalog.health()), ...r };
    },
    async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
      if (!p.capabilities.maintenanceOperations.some((o) => o.type === type)) {
        throw unknownOperation(type, p.capabilities.maintenanceOperations);
      }
      const t = target ? objectTarget(quoteStyles.double, type, target) : '';
      const sql: Record<string, string> = {
        vacuum: 'VACUUM',
        analyze: t ? `ANALYZE ${t}` : 'ANALYZE',
        reindex: t ? `REINDEX ${t}` : 'REINDEX',
        integrity_check: 'PRAGMA integrity_check',
        optimize: 'PRAGMA optimize',
        checkpoint: 'PRAGMA wal_checkpoint(TRUNCATE)',
      };
      return p.query(sql[type], [], { maxRows: 1000 });
    },
  };
  return catalog;
}
