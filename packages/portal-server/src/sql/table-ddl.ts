// The table designer's DDL (issue 30 item 3): CREATE TABLE (columns, primary key, foreign keys, then its
// indexes) and ALTER TABLE changes, built from a JSON description for PostgreSQL, MySQL/MariaDB and SQLite.
// Pure: no I/O. Nothing a request carries reaches the text unchecked: names are validated and quoted in the
// dialect's way, a type must be one of the engine's `columnTypes` (optionally with a length or precision),
// a default is a literal (quoted) or one of DEFAULT_EXPRESSIONS, referential actions come from a closed list.
// What differs between dialects (index and foreign-key forms, how a column changes, which changes need
// SQLite's table rebuild) is read from the dialect's `tableDesign` rules in its engine descriptor; a change
// that needs a rebuild is refused with the reason (DesignError → 400).
import type { SqlDialect as Dialect, TableDesignRules } from './dialect.js';
import { quoteIdent, quoteLiteral } from './quote.js';

/** A description the generator refuses (bad name, type outside the list, a change the engine cannot make). */
export class DesignError extends Error {}

/** The designer's rules of a dialect, or undefined where it has no designer. */
export function designRules(d: Dialect): TableDesignRules | undefined {
  return d.tableDesign;
}

function rulesOf(d: Dialect): TableDesignRules {
  const rules = designRules(d);
  if (!rules) throw new DesignError(`The table designer does not write ${d.name} DDL`);
  return rules;
}
/** Defaults that are not literals: the only expressions accepted. */
export const DEFAULT_EXPRESSIONS = ['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'CURRENT_TIME'] as const;
export const FK_ACTIONS = ['NO ACTION', 'RESTRICT', 'CASCADE', 'SET NULL', 'SET DEFAULT'] as const;

export type ColumnDefault =
  | { literal: string | number | boolean | null }
  | { expression: (typeof DEFAULT_EXPRESSIONS)[number] };

export interface ColumnDesign {
  name: string;
  type: string;
  /** Default true. */
  nullable?: boolean;
  default?: ColumnDefault;
}
export interface IndexDesign {
  name: string;
  columns: string[];
  unique?: boolean;
}
export interface ForeignKeyDesign {
  name?: string;
  columns: string[];
  /** The referenced table: a DatabaseObject path (containers then the name). */
  referencedPath: string[];
  referencedColumns: string[];
  onDelete?: string;
  onUpdate?: string;
}
export interface TableDesign {
  columns: ColumnDesign[];
  primaryKey?: string[];
  indexes?: IndexDesign[];
  foreignKeys?: ForeignKeyDesign[];
}
export type AlterChange =
  | { op: 'renameTable'; to: string }
  | { op: 'addColumn'; column: ColumnDesign }
  | { op: 'dropColumn'; name: string }
  | { op: 'renameColumn'; name: string; to: string }
  /** `column` is the whole new definition; `changed` says which parts differ from the current one. */
  | { op: 'alterColumn'; name: string; column: ColumnDesign; changed: Array<'type' | 'nullable' | 'default'> }
  | { op: 'addPrimaryKey'; columns: string[] }
  | { op: 'addIndex'; index: IndexDesign }
  | { op: 'dropIndex'; name: string }
  | { op: 'addForeignKey'; foreignKey: ForeignKeyDesign }
  | { op: 'dropForeignKey'; name: string };

// Letters, digits, underscore, space, `$` and `-`, not starting with a space or digit-less punctuation; at
// most 63 characters (PostgreSQL's limit, under MySQL's 64). Quoting would make any name safe; the rule keeps
// names people can type again without quotes in most tools.
const NAME = /^[\p{L}_][\p{L}\p{N}_ $-]{0,62}$/u;
// A type: its words, then an optional `(n)` or `(p, s)`.
const TYPE =
  /^([A-Za-z][A-Za-z0-9]*(?: [A-Za-z][A-Za-z0-9]*)*)\s*(?:\(\s*(\d{1,5})\s*(?:,\s*(\d{1,5})\s*)?\))?$/;

export function checkName(name: unknown, what: string): string {
  if (typeof name !== 'string' || !NAME.test(name) || name !== name.trimEnd())
    throw new DesignError(
      `${what} ${JSON.stringify(name)} is not a valid name: use letters, digits, _, $, - or spaces (at most 63, starting with a letter or _)`,
    );
  return name;
}

/** `type` checked against the engine's list and written canonically (`varchar(50)`, `numeric(10,2)`). */
export function checkType(type: unknown, types: readonly string[], column: string): string {
  const m = typeof type === 'string' ? TYPE.exec(type.trim().replace(/\s+/g, ' ')) : null;
  const listed = m ? types.find((t) => t.toLowerCase() === m[1].toLowerCase()) : undefined;
  if (!m || !listed)
    throw new DesignError(
      `The type ${JSON.stringify(type)} of column ${column} is not one of the engine's column types (optionally with (length) or (precision, scale))`,
    );
  return m[2] === undefined ? listed : `${listed}(${m[2]}${m[3] === undefined ? '' : `,${m[3]}`})`;
}

function defaultSql(d: Dialect, def: ColumnDefault, column: string): string {
  if ('expression' in def) {
    if (!(DEFAULT_EXPRESSIONS as readonly string[]).includes(def.expression))
      throw new DesignError(
        `The default of column ${column} must be a literal or one of ${DEFAULT_EXPRESSIONS.join(', ')}`,
      );
    // MariaDB/MySQL take other expressions than CURRENT_TIMESTAMP only in parentheses.
    return rulesOf(d).parenthesizedDefaults && def.expression !== 'CURRENT_TIMESTAMP'
      ? `(${def.expression})`
      : def.expression;
  }
  const v = def.literal;
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return d.numericBooleans ? (v ? '1' : '0') : v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new DesignError(`The default of column ${column} is not a finite number`);
    return String(v);
  }
  if (typeof v === 'string') return quoteLiteral(d, v);
  throw new DesignError(`The default of column ${column} must be a string, number, boolean or null`);
}

const q = (d: Dialect, name: string) => quoteIdent(d, name);
const list = (d: Dialect, names: string[], what: string) => {
  if (!Array.isArray(names) || names.length === 0 || names.length > 32)
    throw new DesignError(`${what} needs 1 to 32 columns`);
  return names.map((n) => q(d, checkName(n, 'Column'))).join(', ');
};

/** The table's quoted name from its path (at most a container and the name). */
export function tableName(d: Dialect, path: readonly string[]): string {
  if (path.length < 1 || path.length > 2)
    throw new DesignError('The table path is [container, name] or [name]');
  return path.map((p, i) => q(d, i === path.length - 1 ? checkName(p, 'Table') : p)).join('.');
}

function columnSql(d: Dialect, c: ColumnDesign): string {
  const name = checkName(c.name, 'Column');
  let out = `${q(d, name)} ${checkType(c.type, rulesOf(d).columnTypes, name)}`;
  if (c.nullable === false) out += ' NOT NULL';
  if (c.default) out += ` DEFAULT ${defaultSql(d, c.default, name)}`;
  return out;
}

function action(v: string | undefined, what: string): string {
  if (v === undefined) return '';
  const up = v.toUpperCase();
  if (!(FK_ACTIONS as readonly string[]).includes(up))
    throw new DesignError(`${what} must be one of ${FK_ACTIONS.join(', ')}`);
  return ` ${what} ${up}`;
}

function foreignKeySql(d: Dialect, fk: ForeignKeyDesign): string {
  if (!Array.isArray(fk.referencedPath) || fk.referencedPath.length === 0)
    throw new DesignError('A foreign key needs the referenced table');
  if (fk.columns?.length !== fk.referencedColumns?.length)
    throw new DesignError('A foreign key has as many columns as referenced columns');
  const name = fk.name ? `CONSTRAINT ${q(d, checkName(fk.name, 'Foreign key'))} ` : '';
  // SQLite's REFERENCES names a table of the same schema, unqualified.
  const ref = rulesOf(d).bareReferences
    ? q(d, checkName(fk.referencedPath.at(-1), 'Table'))
    : tableName(d, fk.referencedPath);
  return (
    `${name}FOREIGN KEY (${list(d, fk.columns, 'A foreign key')}) REFERENCES ${ref} (${list(d, fk.referencedColumns, 'A foreign key')})` +
    action(fk.onDelete, 'ON DELETE') +
    action(fk.onUpdate, 'ON UPDATE')
  );
}

function createIndexSql(d: Dialect, path: readonly string[], ix: IndexDesign): string {
  const name = q(d, checkName(ix.name, 'Index'));
  const unique = ix.unique ? 'UNIQUE ' : '';
  const cols = list(d, ix.columns, 'An index');
  // SQLite puts the schema on the index name and never on the table; the others name the table fully.
  if (rulesOf(d).indexSchemaOnName) {
    const schema = path.length === 2 ? `${q(d, path[0])}.` : '';
    return `CREATE ${unique}INDEX ${schema}${name} ON ${q(d, checkName(path.at(-1), 'Table'))} (${cols})`;
  }
  return `CREATE ${unique}INDEX ${name} ON ${tableName(d, path)} (${cols})`;
}

/** CREATE TABLE with its constraints, then one CREATE INDEX per index. */
export function createTableStatements(d: Dialect, path: readonly string[], design: TableDesign): string[] {
  rulesOf(d);
  if (!Array.isArray(design.columns) || design.columns.length === 0 || design.columns.length > 500)
    throw new DesignError('A table needs 1 to 500 columns');
  const names = design.columns.map((c) => checkName(c.name, 'Column').toLowerCase());
  if (new Set(names).size !== names.length) throw new DesignError('Two columns have the same name');
  const known = (cols: string[], what: string) => {
    for (const c of cols ?? [])
      if (!names.includes(String(c).toLowerCase()))
        throw new DesignError(`${what} names ${JSON.stringify(c)}, which is not a column of the table`);
  };
  const parts = design.columns.map((c) => `  ${columnSql(d, c)}`);
  if (design.primaryKey?.length) {
    known(design.primaryKey, 'The primary key');
    parts.push(`  PRIMARY KEY (${list(d, design.primaryKey, 'The primary key')})`);
  }
  for (const fk of design.foreignKeys ?? []) {
    known(fk.columns, 'A foreign key');
    parts.push(`  ${foreignKeySql(d, fk)}`);
  }
  const out = [`CREATE TABLE ${tableName(d, path)} (\n${parts.join(',\n')}\n)`];
  for (const ix of design.indexes ?? []) {
    known(ix.columns, `Index ${ix.name}`);
    out.push(createIndexSql(d, path, ix));
  }
  return out;
}

/** Why SQLite cannot make a change in place (its ALTER TABLE renames, adds and drops columns only). */
const REBUILD =
  'SQLite cannot make this change with ALTER TABLE: it needs a table rebuild (a new table, the rows copied, the old one dropped and the new one renamed), which the designer does not run. Write the rebuild as SQL in the editor, or';

/** One statement per change, in the order given. */
export function alterTableStatements(d: Dialect, path: readonly string[], changes: AlterChange[]): string[] {
  const rules = rulesOf(d);
  if (!Array.isArray(changes) || changes.length === 0) throw new DesignError('No change to make');
  const table = tableName(d, path);
  const alter = (rest: string) => `ALTER TABLE ${table} ${rest}`;
  const out: string[] = [];
  for (const ch of changes) {
    switch (ch.op) {
      case 'renameTable':
        out.push(alter(`RENAME TO ${q(d, checkName(ch.to, 'Table'))}`));
        break;
      case 'addColumn': {
        const c = ch.column;
        if (rules.addColumnLimited) {
          if (c.nullable === false && (!c.default || ('literal' in c.default && c.default.literal === null)))
            throw new DesignError(`${REBUILD} give the new NOT NULL column ${c.name} a default.`);
          if (c.default && 'expression' in c.default)
            throw new DesignError(`${REBUILD} add column ${c.name} with a literal default.`);
        }
        out.push(alter(`ADD COLUMN ${columnSql(d, c)}`));
        break;
      }
      case 'dropColumn':
        out.push(alter(`DROP COLUMN ${q(d, checkName(ch.name, 'Column'))}`));
        break;
      case 'renameColumn':
        out.push(
          alter(`RENAME COLUMN ${q(d, checkName(ch.name, 'Column'))} TO ${q(d, checkName(ch.to, 'Column'))}`),
        );
        break;
      case 'alterColumn':
        out.push(...alterColumn(d, table, ch));
        break;
      case 'addPrimaryKey':
        if (rules.keysNeedRebuild) throw new DesignError(`${REBUILD} keep the primary key as it is.`);
        out.push(alter(`ADD PRIMARY KEY (${list(d, ch.columns, 'The primary key')})`));
        break;
      case 'addIndex':
        out.push(createIndexSql(d, path, ch.index));
        break;
      case 'dropIndex': {
        const name = q(d, checkName(ch.name, 'Index'));
        if (rules.dropIndexOnTable) out.push(`DROP INDEX ${name} ON ${table}`);
        else out.push(`DROP INDEX ${path.length === 2 ? `${q(d, path[0])}.` : ''}${name}`);
        break;
      }
      case 'addForeignKey':
        if (rules.keysNeedRebuild)
          throw new DesignError(`${REBUILD} declare foreign keys when creating the table.`);
        out.push(alter(`ADD ${foreignKeySql(d, ch.foreignKey)}`));
        break;
      case 'dropForeignKey': {
        if (rules.keysNeedRebuild) throw new DesignError(`${REBUILD} keep the foreign key.`);
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
  const name = q(d, checkName(ch.name, 'Column'));
  if (ch.column?.name !== ch.name) throw new DesignError('Rename a column with renameColumn, then alter it');
  const changed = Array.isArray(ch.changed) ? ch.changed : [];
  if (changed.length === 0) throw new DesignError(`Nothing to change on column ${ch.name}`);
  if (rules.alterColumn === 'rebuild')
    throw new DesignError(
      `${REBUILD} leave the ${changed.join(', ')} of column ${ch.name} as it is (or drop and add the column).`,
    );
  // MySQL/MariaDB restate the whole column: MODIFY takes the type, nullability and default together.
  if (rules.alterColumn === 'modify')
    return [`ALTER TABLE ${table} MODIFY COLUMN ${columnSql(d, ch.column)}`];
  const out: string[] = [];
  const col = (rest: string) => `ALTER TABLE ${table} ALTER COLUMN ${name} ${rest}`;
  if (changed.includes('type')) {
    const type = checkType(ch.column.type, rules.columnTypes, ch.name);
    // USING converts the existing values the way an explicit cast would (text to integer, …).
    out.push(col(`TYPE ${type} USING ${name}::${type}`));
  }
  if (changed.includes('nullable'))
    out.push(col(ch.column.nullable === false ? 'SET NOT NULL' : 'DROP NOT NULL'));
  if (changed.includes('default'))
    out.push(
      col(ch.column.default ? `SET DEFAULT ${defaultSql(d, ch.column.default, ch.name)}` : 'DROP DEFAULT'),
    );
  return out;
}
