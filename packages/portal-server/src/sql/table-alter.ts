// The table designer's ALTER TABLE (issue 30 item 3): a list of changes to an existing table becomes the
// engine's statements, one or more per change in the order given, or — where the engine's ALTER TABLE
// cannot make a change and its rules carry a rebuild (SQLite) — one rebuild script for the whole list.
// Engine-neutral and pure: each engine's forms and refusals come from its `tableDesign` rules.
import type { ColumnChange, DdlScript, SqlDialect as Dialect } from './dialect.js';
import {
  type AlterChange,
  type ColumnDesign,
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
  tableName,
} from './table-ddl.js';

/** Why SQLite cannot make a change in place (its ALTER TABLE renames, adds and drops columns only). */
export const REBUILD =
  'SQLite cannot make this change with ALTER TABLE: it needs a table rebuild (a new table, the rows copied, the old one dropped and the new one renamed)';

/**
 * What an engine whose ADD COLUMN is limited (SQLite) cannot add in place: a NOT NULL column without a
 * default (existing rows would have no value), or a column defaulting to an expression. The in-place
 * statements refuse it; SQLite's rebuild takes it as a reason to rebuild.
 */
export function addColumnLimit(
  c: ColumnDesign | undefined,
): 'notNullWithoutDefault' | 'expressionDefault' | undefined {
  if (c?.nullable === false && (!c.default || ('literal' in c.default && c.default.literal === null)))
    return 'notNullWithoutDefault';
  if (c?.default && 'expression' in c.default) return 'expressionDefault';
  return undefined;
}

/** The parts an alterColumn changes, once checked: the column keeps its name and at least one part changes. */
export function changedParts(ch: Extract<AlterChange, { op: 'alterColumn' }>): AlterColumnPart[] {
  if (ch.column?.name !== ch.name) throw new DesignError('Rename a column with renameColumn, then alter it');
  const changed = Array.isArray(ch.changed) ? ch.changed : [];
  if (changed.length === 0) throw new DesignError(`Nothing to change on column ${ch.name}`);
  return changed;
}

type AlterColumnPart = Extract<AlterChange, { op: 'alterColumn' }>['changed'][number];

/**
 * The script for `changes`: the engine's rebuild when its rules say the changes need one and the table as it
 * stands (`table`, read by the rebuild's `read`) is given; otherwise the statements in place.
 */
export function alterTableScript(
  d: Dialect,
  path: readonly string[],
  changes: AlterChange[],
  table?: unknown,
): DdlScript {
  const rules = rulesOf(d);
  if (!Array.isArray(changes) || changes.length === 0) throw new DesignError('No change to make');
  const reason = rules.rebuild && table !== undefined ? rules.rebuild.needed(changes, table) : undefined;
  if (reason && rules.rebuild) return rules.rebuild.script(d, path, table, changes);
  return { statements: alterTableStatements(d, path, changes) };
}

/** One statement (or a few) per change, in the order given; a change needing a rebuild is refused. */
export function alterTableStatements(d: Dialect, path: readonly string[], changes: AlterChange[]): string[] {
  const rules = rulesOf(d);
  if (!Array.isArray(changes) || changes.length === 0) throw new DesignError('No change to make');
  const table = tableName(d, path);
  const alter = (rest: string) => `ALTER TABLE ${table} ${rest}`;
  const out: string[] = [];
  for (const ch of changes) {
    const refused = rules.refuse?.[ch.op];
    if (refused) throw new DesignError(refused);
    switch (ch.op) {
      case 'renameTable': {
        const to = q(d, checkName(ch.to, 'Table'));
        out.push(rules.renameTable ? rules.renameTable({ table, path, to }) : alter(`RENAME TO ${to}`));
        break;
      }
      case 'addColumn': {
        const c = ch.column;
        const limit = rules.addColumnLimited ? addColumnLimit(c) : undefined;
        if (limit === 'notNullWithoutDefault')
          throw new DesignError(`${REBUILD}: give the new NOT NULL column ${c.name} a default.`);
        if (limit === 'expressionDefault')
          throw new DesignError(`${REBUILD}: add column ${c.name} with a literal default.`);
        const add = rules.addColumnWord ?? 'ADD COLUMN';
        if (rules.addColumnNotNullApart && c.nullable === false) {
          // Existing rows take the default first; without one, SET NOT NULL fails on them (rolled back).
          out.push(alter(`${add} ${columnSql(d, { ...c, nullable: true })}`));
          out.push(alter(`ALTER COLUMN ${q(d, checkName(c.name, 'Column'))} SET NOT NULL`));
        } else out.push(alter(`${add} ${columnSql(d, c)}`));
        break;
      }
      case 'dropColumn':
        out.push(alter(`DROP COLUMN ${q(d, checkName(ch.name, 'Column'))}`));
        break;
      case 'renameColumn': {
        const from = q(d, checkName(ch.name, 'Column'));
        const to = q(d, checkName(ch.to, 'Column'));
        out.push(
          rules.renameColumn
            ? rules.renameColumn({ table, path, from, to })
            : alter(`RENAME COLUMN ${from} TO ${to}`),
        );
        break;
      }
      case 'alterColumn':
        out.push(...alterColumn(d, table, ch));
        break;
      case 'addPrimaryKey':
        if (rules.rebuild) throw new DesignError(`${REBUILD}; keep the primary key as it is.`);
        out.push(alter(`ADD PRIMARY KEY (${list(d, ch.columns, 'The primary key')})`));
        break;
      case 'addIndex':
        out.push(createIndexSql(d, path, ch.index));
        break;
      case 'dropIndex': {
        const name = q(d, checkName(ch.name, 'Index'));
        // MySQL and SQL Server name the table; the others the index, in the table's schema.
        if (rules.dropIndexOnTable) out.push(`DROP INDEX ${name} ON ${table}`);
        else out.push(`DROP INDEX ${schemaPrefix(d, path)}${name}`);
        break;
      }
      case 'addForeignKey':
        if (rules.rebuild) throw new DesignError(`${REBUILD}; declare foreign keys when creating the table.`);
        out.push(alter(`ADD ${foreignKeySql(d, ch.foreignKey)}`));
        break;
      case 'dropForeignKey': {
        if (rules.rebuild) throw new DesignError(`${REBUILD}; keep the foreign key.`);
        const name = q(d, checkName(ch.name, 'Foreign key'));
        out.push(alter(`DROP ${rules.dropForeignKey} ${name}`));
        break;
      }
      default:
        throw new DesignError(`Unknown change ${JSON.stringify((ch as { op?: unknown }).op)}`);
    }
  }
  return out;
}

function alterColumn(d: Dialect, table: string, ch: Extract<AlterChange, { op: 'alterColumn' }>): string[] {
  const rules = rulesOf(d);
  const name = checkName(ch.name, 'Column');
  const changed = changedParts(ch);
  if (!rules.alterColumn)
    throw new DesignError(
      `${REBUILD}; leave the ${changed.join(', ')} of column ${ch.name} as it is (or drop and add the column).`,
    );
  return rules.alterColumn({
    table,
    column: q(d, name),
    changed,
    type: checkType(ch.column.type, rules.columnTypes, name),
    nullable: ch.column.nullable !== false,
    ...(ch.column.default ? { default: defaultSql(d, ch.column.default, name) } : {}),
    definition: columnSql(d, ch.column),
  });
}

/**
 * The standard SQL form of a column change, part by part: ALTER COLUMN … TYPE (with `using`, the conversion
 * of the existing values), SET/DROP NOT NULL, SET/DROP DEFAULT (PostgreSQL, DuckDB).
 */
export function alterColumnParts(c: ColumnChange, using?: (c: ColumnChange) => string): string[] {
  const col = (rest: string) => `ALTER TABLE ${c.table} ALTER COLUMN ${c.column} ${rest}`;
  const out: string[] = [];
  if (c.changed.includes('type')) out.push(col(`TYPE ${c.type}${using ? ` USING ${using(c)}` : ''}`));
  if (c.changed.includes('nullable')) out.push(col(c.nullable ? 'DROP NOT NULL' : 'SET NOT NULL'));
  if (c.changed.includes('default'))
    out.push(col(c.default === undefined ? 'DROP DEFAULT' : `SET DEFAULT ${c.default}`));
  return out;
}
