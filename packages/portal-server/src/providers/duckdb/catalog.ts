// DuckDB catalog through its duckdb_* table functions (one query per surface), health from
// pragma_database_size and maintenance statements.

import { quoteStyles } from '../../sql/dialect.js';
import type { Catalog } from '../catalog.js';
import { objectTarget, unknownOperation } from '../targets.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  ExecResult,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';

interface Runner {
  query(sql: string, params: unknown[], opts: { maxRows: number }): Promise<ExecResult>;
  capabilities: { maintenanceOperations: ReadonlyArray<{ type: string }> };
  connections(): number;
}

const LIMIT = 10_000;
const OBJECTS = `
SELECT schema_name AS schema, table_name AS name, 'table' AS kind, estimated_size AS row_count
  FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal AND NOT temporary
UNION ALL
SELECT schema_name, view_name, 'view', NULL
  FROM duckdb_views() WHERE database_name = current_database() AND NOT internal AND NOT temporary
UNION ALL
SELECT schema_name, sequence_name, 'sequence', NULL
  FROM duckdb_sequences() WHERE database_name = current_database() AND NOT temporary
UNION ALL
SELECT DISTINCT schema_name, function_name, CASE function_type WHEN 'macro' THEN 'macro' ELSE 'table_macro' END, NULL
  FROM duckdb_functions() WHERE database_name = current_database() AND NOT internal AND function_type IN ('macro', 'table_macro')
ORDER BY 1, 2`;

function toObject(r: Record<string, unknown>): DatabaseObject {
  const o: DatabaseObject = {
    path: [String(r.schema), String(r.name)],
    name: String(r.name),
    kind: String(r.kind),
  };
  if (r.row_count !== null && r.row_count !== undefined) o.rowCount = Number(r.row_count);
  return o;
}

export function duckdbCatalog(p: Runner): Catalog {
  const rows = async (sql: string, params: unknown[] = [], maxRows = LIMIT) =>
    (await p.query(sql, params, { maxRows })).rows;
  const catalog = {
    async profile(): Promise<ConnectionProfile> {
      const [r] = await rows('SELECT version() AS v, current_database() AS db, current_schema() AS s');
      return {
        engine: 'duckdb',
        serverVersion: `DuckDB ${r.v}`,
        currentDatabase: String(r.db),
        currentSchema: String(r.s),
      };
    },
    async listObjects(path: readonly string[] | undefined) {
      const all = (await rows(OBJECTS)).map(toObject);
      return path && path.length > 0 ? all.filter((o) => o.path[0] === path[0]) : all;
    },
    async inventory(): Promise<Inventory> {
      const res = await p.query(OBJECTS, [], { maxRows: LIMIT });
      const schemas = await rows(
        `SELECT schema_name AS name FROM duckdb_schemas()
          WHERE database_name = current_database() AND schema_name NOT IN ('information_schema', 'pg_catalog') ORDER BY 1`,
      );
      return {
        containers: schemas.map((s) => ({ path: [String(s.name)], name: String(s.name), kind: 'schema' })),
        objects: res.rows.map(toObject),
        truncated: res.truncated,
      };
    },
    async counts(): Promise<KindCount[]> {
      const res = await rows(
        `SELECT schema, kind, count(*) AS n FROM (${OBJECTS}) GROUP BY ALL ORDER BY ALL`,
      );
      return res.map((r) => ({ path: [String(r.schema)], kind: String(r.kind), count: Number(r.n) }));
    },
    async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
      const [schema, name] = path.length >= 2 ? path.slice(-2) : ['main', path[0]];
      const found = (
        await rows(`SELECT * FROM (${OBJECTS}) WHERE schema = $1 AND name = $2`, [schema, name])
      ).map(toObject)[0];
      if (!found) return undefined;
      const columns = await rows(
        `SELECT c.column_name AS name, c.data_type AS type, c.is_nullable AS nullable, c.column_default AS def,
                EXISTS (SELECT 1 FROM duckdb_constraints() k WHERE k.database_name = c.database_name
                          AND k.schema_name = c.schema_name AND k.table_name = c.table_name
                          AND k.constraint_type = 'PRIMARY KEY' AND list_contains(k.constraint_column_names, c.column_name)) AS pk
           FROM duckdb_columns() c
          WHERE c.database_name = current_database() AND c.schema_name = $1 AND c.table_name = $2
          ORDER BY c.column_index`,
        [schema, name],
      );
      const indexes = await rows(
        `SELECT index_name AS name, is_unique AS uniq, expressions AS cols FROM duckdb_indexes()
          WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2 ORDER BY 1`,
        [schema, name],
      );
      const fks = await rows(
        `SELECT constraint_name AS cname, constraint_column_names AS cols, constraint_text AS text,
                referenced_table AS rtable, referenced_column_names AS rcols
           FROM duckdb_constraints()
          WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2 AND constraint_type = 'FOREIGN KEY'`,
        [schema, name],
      );
      const [view] =
        found.kind === 'view'
          ? await rows(
              'SELECT sql FROM duckdb_views() WHERE database_name = current_database() AND schema_name = $1 AND view_name = $2',
              [schema, name],
            )
          : [];
      return {
        object: found,
        columns: columns.map((c) => ({
          name: String(c.name),
          type: String(c.type),
          nullable: Boolean(c.nullable),
          isPrimary: Boolean(c.pk),
          ...(c.def !== null && c.def !== undefined ? { defaultValue: String(c.def) } : {}),
        })),
        indexes: indexes.map((i) => ({
          name: String(i.name),
          columns: parseList(i.cols),
          unique: Boolean(i.uniq),
        })),
        foreignKeys: fks.flatMap((f) => {
          const cols = parseList(f.cols);
          const rcols = parseList(f.rcols);
          return cols.map((col, k) => ({
            columnName: col,
            constraintName: String(f.cname),
            referencedPath: [schema, String(f.rtable)],
            referencedTable: String(f.rtable),
            referencedColumn: rcols[k] ?? '',
          }));
        }),
        ...(view?.sql ? { definition: String(view.sql) } : {}),
      };
    },
    async health(): Promise<HealthReading> {
      const [r] = await rows(
        'SELECT database_size AS size FROM pragma_database_size() WHERE database_name = current_database()',
      );
      return {
        activeConnections: p.connections(),
        databaseSize: String(r?.size ?? '0 bytes'),
        // An embedded engine keeps no cache statistics, slow-query log or session list.
        cacheHitRatio: 'n/a',
        slowQueries: [],
        activeSessions: [],
      };
    },
    async monitoring(): Promise<Record<string, unknown>> {
      const [r] = await rows(
        `SELECT memory_usage AS "memoryUsage", memory_limit AS "memoryLimit", wal_size AS "walSize"
           FROM pragma_database_size() WHERE database_name = current_database()`,
      );
      return { ...(await catalog.health()), ...r };
    },
    async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
      const t = target ? ` ${objectTarget(quoteStyles.double, type, target)}` : '';
      switch (type) {
        case 'vacuum':
          return p.query(`VACUUM${t}`, [], { maxRows: 100 });
        case 'analyze':
          return p.query(`ANALYZE${t}`, [], { maxRows: 100 });
        case 'checkpoint':
          return p.query('CHECKPOINT', [], { maxRows: 100 });
        default:
          throw unknownOperation(type, p.capabilities.maintenanceOperations);
      }
    },
  };
  return catalog;
}

function parseList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') {
    const inner = v.replace(/^\[|\]$/g, '').trim();
    return inner === '' ? [] : inner.split(',').map((s) => s.trim().replace(/^'|'$/g, ''));
  }
  return [];
}
