// Reads what the seed planner and generator need from a live schema — tables, columns (type, nullability,
// lengths, precision, enum values, whether the database fills them), keys, unique constraints and indexes,
// check constraints and foreign keys — through the provider's `query`, with one catalog dialect per engine
// family (PostgreSQL's pg_catalog; MySQL/MariaDB's information_schema). Six round-trips, never one per table.
import type { Provider } from '../providers/types.js';
import type { SeedColumn, SeedFamily, SeedSchema, SeedTable } from './types.js';

const CATALOG_ROWS = 200_000;

type Row = Record<string, unknown>;

async function rows(p: Provider, sql: string, params: unknown[]): Promise<Row[]> {
  const res = await p.query(sql, params as never[], { maxRows: CATALOG_ROWS });
  return res.rows;
}

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const num = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : Number(v));
const bool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't' || v === 'YES';
/** A column list aggregated as JSON by the catalog query (drivers hand it over parsed or as text). */
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? (JSON.parse(v) as string[]) : [];

/** The schema the connection lands in when the request names none. */
export async function currentSchema(p: Provider, family: SeedFamily): Promise<string> {
  const r = await rows(
    p,
    family === 'postgres' ? 'SELECT current_schema() AS s' : 'SELECT DATABASE() AS s',
    [],
  );
  return str(r[0]?.s);
}

/** Schemas that exist, of those named (for account provisioning and request checks). */
export async function existingSchemas(
  p: Provider,
  family: SeedFamily,
  names: string[],
): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const marks = names.map((_, i) => (family === 'postgres' ? `$${i + 1}` : '?')).join(', ');
  const sql =
    family === 'postgres'
      ? `SELECT nspname AS s FROM pg_namespace WHERE nspname IN (${marks})`
      : `SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN (${marks})`;
  return new Set((await rows(p, sql, names)).map((r) => str(r.s)));
}

function emptyTable(name: string): SeedTable {
  return { name, columns: [], primaryKey: [], unique: [], checks: [], foreignKeys: [] };
}

function sameColumns(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

function addUnique(t: SeedTable, cols: string[]): void {
  if (cols.length && !t.unique.some((u) => sameColumns(u, cols))) t.unique.push(cols);
}

async function readPostgres(p: Provider, schema: string): Promise<SeedSchema> {
  const tables = new Map<string, SeedTable>();
  for (const r of await rows(
    p,
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
    [schema],
  )) {
    tables.set(str(r.name), emptyTable(str(r.name)));
  }
  const enums = new Map<string, string[]>();
  for (const r of await rows(
    p,
    `SELECT t.oid::text AS oid, json_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.oid`,
    [],
  )) {
    enums.set(str(r.oid), list(r.labels));
  }
  for (const r of await rows(
    p,
    `SELECT c.relname AS tbl, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS full_type,
            t.typname AS udt, t.oid::text AS type_oid, t.typtype AS kind, NOT a.attnotnull AS nullable,
            (a.attidentity <> '' OR a.attgenerated <> ''
              OR coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%') AS generated,
            d.adbin IS NOT NULL AS has_default, a.attgenerated <> '' AS computed, a.attidentity <> '' AS ident,
            information_schema._pg_char_max_length(a.atttypid, a.atttypmod) AS max_length,
            information_schema._pg_numeric_precision(a.atttypid, a.atttypmod) AS num_precision,
            information_schema._pg_numeric_scale(a.atttypid, a.atttypmod) AS num_scale
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`,
    [schema],
  )) {
    const t = tables.get(str(r.tbl));
    if (!t) continue;
    const isEnum = str(r.kind) === 'e';
    const col: SeedColumn = {
      name: str(r.name),
      type: isEnum
        ? 'enum'
        : str(r.full_type)
            .toLowerCase()
            .replace(/\(.*\)/, ''),
      nullable: bool(r.nullable),
      generated: bool(r.generated),
      computed: bool(r.computed),
      identity: bool(r.ident),
      hasDefault: bool(r.has_default),
      maxLength: num(r.max_length),
      numericPrecision: num(r.num_precision),
      numericScale: num(r.num_scale),
      ...(isEnum ? { enumValues: enums.get(str(r.type_oid)) ?? [] } : {}),
    };
    t.columns.push(col);
  }
  for (const r of await rows(
    p,
    `SELECT c.relname AS tbl, con.conname AS name, con.contype AS kind, pg_get_constraintdef(con.oid) AS def,
            (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(n, ord)
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n) AS cols,
            rn.nspname AS ref_schema, rc.relname AS ref_table,
            (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(n, ord)
               JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n) AS ref_cols
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_class rc ON rc.oid = con.confrelid
       LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
      WHERE n.nspname = $1 AND con.contype IN ('p', 'u', 'f', 'c')
      ORDER BY c.relname, con.conname`,
    [schema],
  )) {
    const t = tables.get(str(r.tbl));
    if (!t) continue;
    const cols = list(r.cols);
    const kind = str(r.kind);
    if (kind === 'p') {
      t.primaryKey = cols;
      addUnique(t, cols);
    } else if (kind === 'u') addUnique(t, cols);
    else if (kind === 'c') t.checks.push(str(r.def));
    else if (kind === 'f' && str(r.ref_schema) === schema) {
      t.foreignKeys.push({
        name: str(r.name),
        columns: cols,
        refTable: str(r.ref_table),
        refColumns: list(r.ref_cols),
      });
    } else if (kind === 'f') {
      // A parent outside the schema: its rows are what they are; the key is kept to a qualified name.
      t.foreignKeys.push({
        name: str(r.name),
        columns: cols,
        refTable: `${str(r.ref_schema)}.${str(r.ref_table)}`,
        refColumns: list(r.ref_cols),
      });
    }
  }
  // Unique indexes that back no constraint (CREATE UNIQUE INDEX): plain columns only, no expressions.
  for (const r of await rows(
    p,
    `SELECT c.relname AS tbl,
            (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(i.indkey) WITH ORDINALITY k(n, ord)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n) AS cols
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND i.indisunique AND i.indexprs IS NULL AND i.indpred IS NULL`,
    [schema],
  )) {
    const t = tables.get(str(r.tbl));
    if (t) addUnique(t, list(r.cols));
  }
  return { schema, tables: [...tables.values()] };
}

/** Values of a MySQL `enum('a','b')` / `set(...)` column type. */
export function mysqlEnumValues(columnType: string): string[] {
  const inner = /^(?:enum|set)\((.*)\)$/i.exec(columnType)?.[1] ?? '';
  const out: string[] = [];
  const re = /'((?:[^']|'')*)'/g;
  for (let m = re.exec(inner); m; m = re.exec(inner)) out.push(m[1].replaceAll("''", "'"));
  return out;
}

async function readMysql(p: Provider, schema: string): Promise<SeedSchema> {
  const tables = new Map<string, SeedTable>();
  for (const r of await rows(
    p,
    `SELECT TABLE_NAME AS name FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`,
    [schema],
  )) {
    tables.set(str(r.name), emptyTable(str(r.name)));
  }
  for (const r of await rows(
    p,
    `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name, DATA_TYPE AS data_type, COLUMN_TYPE AS column_type,
            IS_NULLABLE AS nullable, COLUMN_DEFAULT AS dflt, EXTRA AS extra,
            CHARACTER_MAXIMUM_LENGTH AS max_length, NUMERIC_PRECISION AS num_precision, NUMERIC_SCALE AS num_scale
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    [schema],
  )) {
    const t = tables.get(str(r.tbl));
    if (!t) continue;
    const dataType = str(r.data_type).toLowerCase();
    const columnType = str(r.column_type).toLowerCase();
    const extra = str(r.extra).toLowerCase();
    const isEnum = dataType === 'enum';
    t.columns.push({
      name: str(r.name),
      // tinyint(1) is MySQL's boolean.
      type: columnType.startsWith('tinyint(1)') ? 'boolean' : dataType,
      nullable: bool(r.nullable),
      // MySQL 8 marks expression defaults DEFAULT_GENERATED; only VIRTUAL/STORED GENERATED are computed.
      generated: extra.includes('auto_increment') || /\b(virtual|stored) generated\b/.test(extra),
      computed: /\b(virtual|stored) generated\b/.test(extra),
      identity: false,
      // MariaDB reports a NULL default of a nullable column as the text 'NULL'.
      hasDefault: r.dflt !== null && r.dflt !== undefined && str(r.dflt) !== 'NULL',
      maxLength: num(r.max_length),
      numericPrecision: num(r.num_precision),
      numericScale: num(r.num_scale),
      ...(isEnum ? { enumValues: mysqlEnumValues(str(r.column_type)) } : {}),
      ...(columnType.includes('unsigned') ? { type: `${dataType} unsigned` } : {}),
    });
  }
  const unique = new Map<string, { tbl: string; cols: string[]; primary: boolean }>();
  for (const r of await rows(
    p,
    `SELECT TABLE_NAME AS tbl, INDEX_NAME AS idx, COLUMN_NAME AS col FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = ? AND NON_UNIQUE = 0 AND COLUMN_NAME IS NOT NULL
      ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    [schema],
  )) {
    const key = `${str(r.tbl)}\u0000${str(r.idx)}`;
    const u = unique.get(key) ?? { tbl: str(r.tbl), cols: [], primary: str(r.idx) === 'PRIMARY' };
    u.cols.push(str(r.col));
    unique.set(key, u);
  }
  for (const u of unique.values()) {
    const t = tables.get(u.tbl);
    if (!t) continue;
    if (u.primary) t.primaryKey = u.cols;
    addUnique(t, u.cols);
  }
  const fks = new Map<
    string,
    { tbl: string; refSchema: string; ref: string; cols: string[]; refCols: string[] }
  >();
  for (const r of await rows(
    p,
    `SELECT TABLE_NAME AS tbl, CONSTRAINT_NAME AS name, COLUMN_NAME AS col, REFERENCED_TABLE_SCHEMA AS ref_schema,
            REFERENCED_TABLE_NAME AS ref_table, REFERENCED_COLUMN_NAME AS ref_col
       FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
    [schema],
  )) {
    const key = `${str(r.tbl)}\u0000${str(r.name)}`;
    const fk = fks.get(key) ?? {
      tbl: str(r.tbl),
      refSchema: str(r.ref_schema),
      ref: str(r.ref_table),
      cols: [],
      refCols: [],
    };
    fk.cols.push(str(r.col));
    fk.refCols.push(str(r.ref_col));
    fks.set(key, fk);
  }
  for (const [key, fk] of fks) {
    tables.get(fk.tbl)?.foreignKeys.push({
      name: key.split('\u0000')[1],
      columns: fk.cols,
      refTable: fk.refSchema === schema ? fk.ref : `${fk.refSchema}.${fk.ref}`,
      refColumns: fk.refCols,
    });
  }
  // MariaDB keeps the table name on CHECK_CONSTRAINTS; MySQL 8 only through TABLE_CONSTRAINTS.
  let checks: Row[];
  try {
    checks = await rows(
      p,
      `SELECT TABLE_NAME AS tbl, CHECK_CLAUSE AS def FROM information_schema.CHECK_CONSTRAINTS
        WHERE CONSTRAINT_SCHEMA = ?`,
      [schema],
    );
  } catch {
    checks = await rows(
      p,
      `SELECT tc.TABLE_NAME AS tbl, cc.CHECK_CLAUSE AS def FROM information_schema.TABLE_CONSTRAINTS tc
         JOIN information_schema.CHECK_CONSTRAINTS cc
           ON cc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
        WHERE tc.CONSTRAINT_SCHEMA = ? AND tc.CONSTRAINT_TYPE = 'CHECK'`,
      [schema],
    );
  }
  for (const r of checks) tables.get(str(r.tbl))?.checks.push(str(r.def));
  return { schema, tables: [...tables.values()] };
}

export function readSeedSchema(p: Provider, family: SeedFamily, schema: string): Promise<SeedSchema> {
  return family === 'postgres' ? readPostgres(p, schema) : readMysql(p, schema);
}
