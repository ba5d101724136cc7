// SQLite's table rebuild for the designer (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds
// Of Table Schema Changes"): the changes ALTER TABLE cannot make — a column's type, nullability or default,
// adding or dropping a primary or foreign key, dropping a column a key or index uses — become ONE script:
// foreign keys off, BEGIN, the new table created, the rows copied, the old table dropped, the new one renamed
// (with legacy_alter_table on, so views and other tables' triggers that name the table are left as they are
// and find the new one), its indexes and triggers created again, PRAGMA foreign_key_check (any row fails the
// script), COMMIT, foreign keys on. The route runs it as one unit: any failure rolls the whole script back.
//
// The table as it stands is read from SQLite's catalog (`read`); what comes from the database (declared
// types, default expressions, index and trigger texts) is carried over as SQLite wrote it, and everything a
// request carries is checked and quoted by the shared writers (sql/table-ddl.ts). A table with parts the
// rebuild would not carry over (CHECK, COLLATE, generated columns, AUTOINCREMENT, WITHOUT ROWID, STRICT) is
// refused with the reason.
import type { DdlScript, RowReader, SqlDialect, TableRebuild } from '../../sql/dialect.js';
import { addColumnLimit, changedParts, REBUILD } from '../../sql/table-alter.js';
import {
  type AlterChange,
  checkName,
  checkType,
  columnSql,
  createIndexSql,
  DesignError,
  defaultSql,
  foreignKeySql,
  list,
  q,
  rulesOf,
  schemaPrefix,
} from '../../sql/table-ddl.js';

/** The table as SQLite's catalog describes it. */
interface SqliteTable {
  name: string;
  sql: string;
  columns: Array<{ name: string; type: string; notNull: boolean; default?: string; pk: number }>;
  /** Named as the catalog's describe names them (`fk_<table>_<id>`), the names the designer shows. */
  foreignKeys: Array<{ name: string; sql: string; columns: string[] }>;
  /** UNIQUE constraints (their automatic indexes). */
  uniques: string[][];
  indexes: Array<{
    name: string;
    sql: string;
    unique: boolean;
    columns: Array<string | null>;
    partial: boolean;
  }>;
  triggers: Array<{ name: string; sql: string }>;
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
/** Whether a key's or index's columns name column `n` (null: an expression part). */
const uses = (cols: Array<string | null>, n: string) => cols.some((c) => c !== null && same(c, n));
/** A column's definition from its parts as the catalog keeps them (type and default as SQLite wrote them). */
const definition = (d: SqlDialect, name: string, type: string, notNull: boolean, def: string | undefined) =>
  `${q(d, name)}${type ? ` ${type}` : ''}${notNull ? ' NOT NULL' : ''}${def !== undefined ? ` DEFAULT ${def}` : ''}`;

async function read(rows: RowReader, path: readonly string[]): Promise<SqliteTable | undefined> {
  const name = path[path.length - 1];
  const schema = await rows(
    "SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('table', 'index', 'trigger') ORDER BY rowid",
    [name],
  );
  const table = schema.find((r) => r.type === 'table' && r.name === name);
  if (!table) return undefined;
  const columns = await rows(
    'SELECT name, type, "notnull" AS nn, dflt_value AS def, pk FROM pragma_table_info(?) ORDER BY cid',
    [name],
  );
  const fks = await rows(
    'SELECT id, "table" AS rtable, "from" AS col, "to" AS rcol, on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq',
    [name],
  );
  const idx = await rows(
    `SELECT il.name AS name, il."unique" AS uniq, il.origin AS origin, il.partial AS partial, ii.name AS col
       FROM pragma_index_list(?) il JOIN pragma_index_info(il.name) ii ORDER BY il.seq, ii.seqno`,
    [name],
  );
  const byId = new Map<number, Array<Record<string, unknown>>>();
  for (const f of fks) byId.set(Number(f.id), [...(byId.get(Number(f.id)) ?? []), f]);
  const foreignKeys = [...byId.entries()].map(([id, parts]) => {
    const first = parts[0];
    const refCols = parts.map((p) => p.rcol).filter((c) => c !== null && c !== undefined);
    const action = (what: string, v: unknown) =>
      str(v) && str(v).toUpperCase() !== 'NO ACTION' ? ` ${what} ${str(v).toUpperCase()}` : '';
    const q2 = (s: string) => `"${s.replaceAll('"', '""')}"`;
    return {
      name: `fk_${name}_${id}`,
      columns: parts.map((p) => str(p.col)),
      sql:
        `FOREIGN KEY (${parts.map((p) => q2(str(p.col))).join(', ')}) REFERENCES ${q2(str(first.rtable))}` +
        (refCols.length ? ` (${refCols.map((c) => q2(str(c))).join(', ')})` : '') +
        action('ON DELETE', first.on_delete) +
        action('ON UPDATE', first.on_update),
    };
  });
  const indexInfo = new Map<
    string,
    { origin: string; unique: boolean; partial: boolean; columns: Array<string | null> }
  >();
  for (const r of idx) {
    const e = indexInfo.get(str(r.name)) ?? {
      origin: str(r.origin),
      unique: Number(r.uniq) === 1,
      partial: Number(r.partial) === 1,
      columns: [],
    };
    e.columns.push(r.col === null ? null : str(r.col));
    indexInfo.set(str(r.name), e);
  }
  return {
    name,
    sql: str(table.sql),
    columns: columns.map((c) => ({
      name: str(c.name),
      type: str(c.type),
      notNull: Number(c.nn) === 1,
      ...(c.def !== null && c.def !== undefined ? { default: str(c.def) } : {}),
      pk: Number(c.pk),
    })),
    foreignKeys,
    uniques: [...indexInfo.values()].filter((i) => i.origin === 'u').map((i) => i.columns.map((c) => str(c))),
    indexes: schema
      .filter((r) => r.type === 'index' && r.sql)
      .map((r) => {
        const info = indexInfo.get(str(r.name));
        return {
          name: str(r.name),
          sql: str(r.sql),
          unique: info?.unique ?? false,
          columns: info?.columns ?? [],
          partial: info?.partial ?? false,
        };
      }),
    triggers: schema.filter((r) => r.type === 'trigger').map((r) => ({ name: str(r.name), sql: str(r.sql) })),
  };
}

/** Parts of a table definition the rebuild does not carry over, found outside quotes and literals. */
function uncarried(sql: string): string[] {
  const bare = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]/g, ' ');
  const found: string[] = [];
  for (const [word, re] of [
    ['CHECK constraints', /\bCHECK\s*\(/i],
    ['COLLATE clauses', /\bCOLLATE\b/i],
    ['generated columns', /\bGENERATED\b|\bAS\s*\(/i],
    ['AUTOINCREMENT', /\bAUTOINCREMENT\b/i],
    ['WITHOUT ROWID', /\bWITHOUT\s+ROWID\b/i],
    ['STRICT', /\)\s*STRICT\b/i],
    ['ON CONFLICT clauses', /\bON\s+CONFLICT\b/i],
  ] as const)
    if (re.test(bare)) found.push(word);
  return found;
}

/** A declared type as SQLite keeps it, carried over only when it reads as a type name. */
const CARRIED_TYPE = /^[A-Za-z_][\w ]*(\(\s*[+-]?\d+(\s*,\s*[+-]?\d+)?\s*\))?$/;

function needed(changes: ReadonlyArray<{ op: string }>, t: unknown): string | undefined {
  const table = t as SqliteTable;
  const dropped = new Set<string>();
  for (const ch of changes as AlterChange[]) {
    switch (ch.op) {
      case 'alterColumn':
        return `the ${ch.changed?.join(', ')} of column ${ch.name} change`;
      case 'addPrimaryKey':
        return 'a primary key is added';
      case 'addForeignKey':
        return 'a foreign key is added';
      case 'dropForeignKey':
        return 'a foreign key is dropped';
      case 'dropIndex':
        dropped.add(ch.name?.toLowerCase());
        break;
      case 'addColumn': {
        const c = ch.column;
        const limit = addColumnLimit(c);
        if (limit === 'notNullWithoutDefault')
          return `the new column ${c.name} is NOT NULL without a default`;
        if (limit === 'expressionDefault')
          return `the new column ${c.name} defaults to ${(c.default as { expression: string }).expression}`;
        break;
      }
      case 'dropColumn': {
        const n = String(ch.name);
        if (
          table.columns.some((c) => c.pk > 0 && same(c.name, n)) ||
          table.foreignKeys.some((f) => uses(f.columns, n)) ||
          table.uniques.some((u) => uses(u, n)) ||
          table.indexes.some((i) => !dropped.has(i.name.toLowerCase()) && uses(i.columns, n))
        )
          return `column ${n} is part of a key or index`;
        break;
      }
    }
  }
  return undefined;
}

/** A column of the new table: `from` the old column it is copied from (absent: added), `designed` when changed. */
type Column = { from?: string; name: string; designed?: boolean; definition: () => string };

function script(d: SqlDialect, path: readonly string[], t: unknown, all: readonly unknown[]): DdlScript {
  const table = t as SqliteTable;
  const changes = all as AlterChange[];
  const parts = uncarried(table.sql);
  if (parts.length)
    throw new DesignError(
      `${REBUILD}, and table ${table.name} has ${parts.join(', ')}, which the designer does not carry into a rebuilt table. Write the rebuild in the editor.`,
    );
  const schema = schemaPrefix(d, path);
  const find = <T extends { name: string }>(xs: T[], name: string, what: string) => {
    const i = xs.findIndex((x) => same(x.name, String(name)));
    if (i < 0) throw new DesignError(`Table ${table.name} has no ${what} ${JSON.stringify(name)}`);
    return i;
  };
  const carried = (c: SqliteTable['columns'][number]) => () => {
    if (c.type && !CARRIED_TYPE.test(c.type))
      throw new DesignError(`The declared type of column ${c.name} (${c.type}) cannot be carried over`);
    return definition(d, c.name, c.type, c.notNull, c.default);
  };
  const columns: Column[] = table.columns.map((c) => ({
    from: c.name,
    name: c.name,
    definition: carried(c),
  }));
  let key = table.columns
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  let uniques = table.uniques.map((u) => [...u]);
  const fks = table.foreignKeys.map((f) => ({ ...f, written: () => f.sql }));
  const indexes = table.indexes.map((i) => ({ ...i, written: () => i.sql }));
  const triggers = [...table.triggers];
  let renameTo: string | undefined;
  const renamed = (cols: string[], from: string, to: string) => cols.map((c) => (same(c, from) ? to : c));
  for (const ch of changes) {
    switch (ch.op) {
      case 'renameTable':
        renameTo = checkName(ch.to, 'Table');
        break;
      case 'addColumn': {
        const c = ch.column;
        const name = checkName(c?.name, 'Column');
        if (columns.some((x) => same(x.name, name))) throw new DesignError(`Column ${name} exists already`);
        columns.push({ name, designed: true, definition: () => columnSql(d, c) });
        break;
      }
      case 'dropColumn': {
        const i = find(columns, ch.name, 'column');
        const n = columns[i].name;
        if (key.some((k) => same(k, n))) throw new DesignError(`Column ${n} is part of the primary key`);
        const fk = fks.find((f) => uses(f.columns, n));
        if (fk) throw new DesignError(`Column ${n} is used by foreign key ${fk.name}: drop the key first`);
        const ix = indexes.find((x) => uses(x.columns, n));
        if (ix) throw new DesignError(`Column ${n} is used by index ${ix.name}: drop the index first`);
        if (uniques.some((u) => uses(u, n)))
          throw new DesignError(`Column ${n} is part of a UNIQUE constraint`);
        columns.splice(i, 1);
        break;
      }
      case 'renameColumn': {
        const i = find(columns, ch.name, 'column');
        const from = columns[i].name;
        const to = checkName(ch.to, 'Column');
        const original = table.columns.find((c) => same(c.name, columns[i].from ?? ''));
        if (columns[i].designed || !original)
          throw new DesignError(
            `Rename column ${from} before changing it (in the same list, renameColumn first)`,
          );
        columns[i] = { ...columns[i], name: to, definition: carried({ ...original, name: to }) };
        key = renamed(key, from, to);
        uniques = uniques.map((u) => renamed(u, from, to));
        for (const f of fks)
          if (f.columns.some((c) => same(c, from)))
            throw new DesignError(
              `Column ${from} is used by foreign key ${f.name}: rename it apart from this rebuild`,
            );
        for (const x of indexes)
          if (x.columns.some((c) => c !== null && same(c, from))) {
            if (x.partial || x.columns.includes(null))
              throw new DesignError(
                `Index ${x.name} is partial or on an expression: rename column ${from} apart from this rebuild`,
              );
            x.columns = renamed(x.columns as string[], from, to);
            const cols = x.columns as string[];
            x.written = () => createIndexSql(d, path, { name: x.name, columns: cols, unique: x.unique });
          }
        const word = new RegExp(`\\b${from.replace(/[^\w]/g, '.')}\\b`, 'i');
        const trig = triggers.find((tr) => word.test(tr.sql));
        if (trig)
          throw new DesignError(
            `Trigger ${trig.name} mentions column ${from}: rename it apart from this rebuild`,
          );
        break;
      }
      case 'alterColumn': {
        const i = find(columns, ch.name, 'column');
        const changed = changedParts(ch);
        const name = columns[i].name;
        const original = table.columns.find((c) => same(c.name, columns[i].from ?? ''));
        // Parts not changed stay as the catalog has them; changed ones are checked like a new column's.
        const type = changed.includes('type')
          ? checkType(ch.column.type, rulesOf(d).columnTypes, name)
          : (original?.type ?? checkType(ch.column.type, rulesOf(d).columnTypes, name));
        const notNull = changed.includes('nullable') ? ch.column.nullable === false : !!original?.notNull;
        const def = changed.includes('default')
          ? ch.column.default && defaultSql(d, ch.column.default, name)
          : original?.default;
        if (original?.type && type === original.type && !CARRIED_TYPE.test(type))
          throw new DesignError(`The declared type of column ${name} (${type}) cannot be carried over`);
        columns[i] = {
          ...columns[i],
          designed: true,
          definition: () => definition(d, name, type, notNull, def),
        };
        break;
      }
      case 'addPrimaryKey':
        for (const c of ch.columns ?? []) find(columns, c, 'column');
        list(d, ch.columns, 'The primary key');
        key = ch.columns.map((c) => columns[find(columns, c, 'column')].name);
        break;
      case 'addIndex':
        indexes.push({
          name: checkName(ch.index?.name, 'Index'),
          sql: '',
          unique: !!ch.index.unique,
          columns: [...(ch.index.columns ?? [])],
          partial: false,
          written: () => createIndexSql(d, path, ch.index),
        });
        break;
      case 'dropIndex':
        indexes.splice(find(indexes, ch.name, 'index'), 1);
        break;
      case 'addForeignKey': {
        for (const c of ch.foreignKey?.columns ?? []) find(columns, c, 'column');
        const sql = foreignKeySql(d, ch.foreignKey);
        fks.push({ name: ch.foreignKey.name ?? '', sql, columns: ch.foreignKey.columns, written: () => sql });
        break;
      }
      case 'dropForeignKey':
        fks.splice(find(fks, ch.name, 'foreign key'), 1);
        break;
      default:
        throw new DesignError(`Unknown change ${JSON.stringify((ch as { op?: unknown }).op)}`);
    }
  }
  if (columns.length === 0) throw new DesignError('A table needs at least one column');
  const old = `${schema}${q(d, table.name)}`;
  const temp = `${table.name}__rebuilt`;
  const copied = columns.filter((c) => c.from !== undefined);
  const defs = [
    ...columns.map((c) => `  ${c.definition()}`),
    ...(key.length ? [`  PRIMARY KEY (${key.map((k) => q(d, k)).join(', ')})`] : []),
    ...uniques.map((u) => `  UNIQUE (${u.map((c) => q(d, c)).join(', ')})`),
    ...fks.map((f) => `  ${f.written()}`),
  ];
  const statements = [
    'PRAGMA foreign_keys = OFF',
    'BEGIN',
    `CREATE TABLE ${schema}${q(d, temp)} (\n${defs.join(',\n')}\n)`,
    `INSERT INTO ${schema}${q(d, temp)} (${copied.map((c) => q(d, c.name)).join(', ')}) SELECT ${copied
      .map((c) => q(d, c.from as string))
      .join(', ')} FROM ${old}`,
    `DROP TABLE ${old}`,
    // Legacy renaming leaves views and triggers that name the table as they are: they find the new one.
    'PRAGMA legacy_alter_table = ON',
    `ALTER TABLE ${schema}${q(d, temp)} RENAME TO ${q(d, table.name)}`,
    'PRAGMA legacy_alter_table = OFF',
    ...indexes.map((i) => i.written()),
    ...triggers.map((tr) => tr.sql),
    ...(renameTo ? [`ALTER TABLE ${old} RENAME TO ${q(d, renameTo)}`] : []),
    'PRAGMA foreign_key_check',
    'COMMIT',
    'PRAGMA foreign_keys = ON',
  ];
  const n = statements.length;
  return { statements, ownTransaction: { begin: 1, commit: n - 2 }, checks: [n - 3] };
}

export const sqliteRebuild: TableRebuild = {
  read,
  needed,
  script,
};
