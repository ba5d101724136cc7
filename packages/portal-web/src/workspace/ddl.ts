// Identifier quoting and the DDL tab of a described table. How an engine quotes a name comes from
// provider-meta (`editor.quote`, read off the server's own dialect): the UI keeps no per-engine copy. The object surface returns the
// engine's own source only for views and routines (`definition`); for a table of a SQL engine the DDL is
// rebuilt from the described columns, primary key, foreign keys and indexes, as DbGate and DataGrip show
// it — a reading aid (engine-specific options such as storage parameters are not in the catalog shape).
import type { DbObject, EngineMeta, ObjectDetail } from '../lib/types';

/** What naming needs of an engine (its provider-meta entry). */
export type Naming = Pick<EngineMeta, 'fileBased'> & { editor: Pick<EngineMeta['editor'], 'quote'> };

/** A name in the engine's quotes, the closing quote doubled inside (`"a""b"`, `` `a``b` ``, `[a]]b]`). */
export function quoteIdentifier(engine: Naming, name: string): string {
  const { open, close } = engine.editor.quote;
  return `${open}${name.split(close).join(close + close)}${close}`;
}

/**
 * An object's qualified name; a file database's default schema (`main`: SQLite, DuckDB) is left out to keep
 * statements short.
 */
export function qualifiedName(engine: Naming, o: Pick<DbObject, 'path' | 'name'>): string {
  const parts = engine.fileBased && o.path.length === 2 && o.path[0] === 'main' ? [o.name] : o.path;
  return parts.map((p) => quoteIdentifier(engine, p)).join('.');
}

const isTable = (kind: string) => /table/i.test(kind) && !/view/i.test(kind);

/** The DDL to show for a described object: the engine's own source, or a CREATE TABLE rebuilt from it. */
export function ddlOf(engine: Naming, d: ObjectDetail): { text: string; rebuilt: boolean } | undefined {
  if (d.definition) return { text: d.definition, rebuilt: false };
  // Only SQL engines describe objects of a table kind (documents are collections, keys have their types).
  if (!isTable(d.object.kind) || d.columns.length === 0) return undefined;
  const q = (s: string) => quoteIdentifier(engine, s);
  const lines = d.columns.map((c) => {
    let line = `  ${q(c.name)} ${c.type || 'TEXT'}`;
    if (!c.nullable) line += ' NOT NULL';
    if (c.defaultValue !== undefined && c.defaultValue !== null) line += ` DEFAULT ${String(c.defaultValue)}`;
    return line;
  });
  const pk = d.columns.filter((c) => c.isPrimary).map((c) => c.name);
  if (pk.length) lines.push(`  PRIMARY KEY (${pk.map(q).join(', ')})`);
  // A foreign key of several columns arrives as one entry per column under the same constraint name.
  const fks = new Map<string, typeof d.foreignKeys>();
  d.foreignKeys.forEach((f, i) => {
    const key = f.constraintName ?? `#${i}`;
    fks.set(key, [...(fks.get(key) ?? []), f]);
  });
  for (const [name, parts] of fks) {
    const first = parts[0];
    const target = first.referencedPath?.length
      ? qualifiedName(engine, { path: first.referencedPath, name: first.referencedPath.at(-1) ?? '' })
      : q(first.referencedTable ?? '');
    const refCols = parts.map((p) => p.referencedColumn).filter((c): c is string => !!c);
    let line = `  ${name.startsWith('#') ? '' : `CONSTRAINT ${q(name)} `}FOREIGN KEY (${parts.map((p) => q(p.columnName)).join(', ')}) REFERENCES ${target}`;
    if (refCols.length) line += ` (${refCols.map(q).join(', ')})`;
    if (first.onDelete && !/^no action$/i.test(first.onDelete)) line += ` ON DELETE ${first.onDelete}`;
    if (first.onUpdate && !/^no action$/i.test(first.onUpdate)) line += ` ON UPDATE ${first.onUpdate}`;
    lines.push(line);
  }
  const table = qualifiedName(engine, d.object);
  const out = [`CREATE TABLE ${table} (\n${lines.join(',\n')}\n);`];
  const pkKey = [...pk].sort().join('\u0000');
  for (const i of d.indexes) {
    // Indexes the engine makes for the primary key or a UNIQUE constraint come back with the table itself.
    if (/^(sqlite_autoindex_|primary$)/i.test(i.name)) continue;
    if (i.unique && [...i.columns].sort().join('\u0000') === pkKey) continue;
    out.push(
      `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${q(i.name)} ON ${table} (${i.columns.map(q).join(', ')});`,
    );
  }
  return { text: out.join('\n'), rebuilt: true };
}
