// The table designer's DDL (issue 30 item 3): the checks and writers of its parts (names, types, defaults,
// columns, foreign keys, indexes) and CREATE TABLE, built from a JSON description; ALTER TABLE is
// table-alter.ts. Engine-neutral and pure: no I/O. Nothing a request carries reaches the text unchecked: names are validated and quoted in the
// dialect's way, a type must be one of the engine's `columnTypes` (optionally with a length or precision),
// a default is a literal (quoted) or one of DEFAULT_EXPRESSIONS, referential actions come from a closed list.
// What differs between engines (index and foreign-key forms, defaults, how a column changes, what is
// refused and why) is read from the dialect's `tableDesign` rules, which each engine's folder holds
// (providers/<engine>/table-design.ts); a refusal is a DesignError → 400 BAD_DESIGN with the reason.
import type { SqlDialect as Dialect, TableDesignRules } from './dialect.js';
import { quoteIdent, quoteLiteral } from './quote.js';

/** A description the generator refuses (bad name, type outside the list, a change the engine cannot make). */
export class DesignError extends Error {}

/** The designer's rules of a dialect, or undefined where it has no designer. */
export function designRules(d: Dialect): TableDesignRules | undefined {
  return d.tableDesign;
}

export function rulesOf(d: Dialect): TableDesignRules {
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

/** The default expressions an engine accepts (those its rules do not refuse). */
export function defaultExpressionsOf(rules: TableDesignRules): string[] {
  return DEFAULT_EXPRESSIONS.filter((e) => rules.defaultExpressions?.[e] !== null);
}

export function defaultSql(d: Dialect, def: ColumnDefault, column: string): string {
  const rules = rulesOf(d);
  if ('expression' in def) {
    if (!(DEFAULT_EXPRESSIONS as readonly string[]).includes(def.expression))
      throw new DesignError(
        `The default of column ${column} must be a literal or one of ${defaultExpressionsOf(rules).join(', ')}`,
      );
    const written = rules.defaultExpressions?.[def.expression];
    if (written === null)
      throw new DesignError(`${d.name} has no ${def.expression}: column ${column} cannot default to it`);
    if (written !== undefined) return written;
    // MariaDB/MySQL take other expressions than CURRENT_TIMESTAMP only in parentheses.
    return rules.parenthesizedDefaults && def.expression !== 'CURRENT_TIMESTAMP'
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
  if (typeof v === 'string') return `${rules.nationalStrings ? 'N' : ''}${quoteLiteral(d, v)}`;
  throw new DesignError(`The default of column ${column} must be a string, number, boolean or null`);
}

export const q = (d: Dialect, name: string) => quoteIdent(d, name);
export const list = (d: Dialect, names: string[], what: string) => {
  if (!Array.isArray(names) || names.length === 0 || names.length > 32)
    throw new DesignError(`${what} needs 1 to 32 columns`);
  return names.map((n) => q(d, checkName(n, 'Column'))).join(', ');
};

/** The quoted container and a dot where the path has one (`"main".`), else nothing. */
export const schemaPrefix = (d: Dialect, path: readonly string[]) =>
  path.length === 2 ? `${q(d, path[0])}.` : '';

/** The table's quoted name from its path (at most a container and the name). */
export function tableName(d: Dialect, path: readonly string[]): string {
  if (path.length < 1 || path.length > 2)
    throw new DesignError('The table path is [container, name] or [name]');
  return path.map((p, i) => q(d, i === path.length - 1 ? checkName(p, 'Table') : p)).join('.');
}

export function columnSql(d: Dialect, c: ColumnDesign): string {
  const name = checkName(c.name, 'Column');
  const notNull = c.nullable === false ? ' NOT NULL' : '';
  const def = c.default ? ` DEFAULT ${defaultSql(d, c.default, name)}` : '';
  const type = checkType(c.type, rulesOf(d).columnTypes, name);
  return `${q(d, name)} ${type}${rulesOf(d).defaultFirst ? def + notNull : notNull + def}`;
}

function action(d: Dialect, v: string | undefined, what: 'ON DELETE' | 'ON UPDATE'): string {
  if (v === undefined) return '';
  const up = v.toUpperCase();
  if (!(FK_ACTIONS as readonly string[]).includes(up))
    throw new DesignError(`${what} must be one of ${FK_ACTIONS.join(', ')}`);
  const allowed = rulesOf(d).fkActions?.[what === 'ON DELETE' ? 'onDelete' : 'onUpdate'];
  // NO ACTION is every engine's behaviour without a clause: written as nothing where the engine lacks it.
  if (allowed && !allowed.includes(up)) {
    if (up === 'NO ACTION') return '';
    throw new DesignError(
      allowed.length
        ? `${d.name} takes ${what} ${allowed.join(' or ')} only, not ${up}`
        : `${d.name} has no ${what} clause (${up})`,
    );
  }
  return ` ${what} ${up}`;
}

export function foreignKeySql(d: Dialect, fk: ForeignKeyDesign): string {
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
    action(d, fk.onDelete, 'ON DELETE') +
    action(d, fk.onUpdate, 'ON UPDATE')
  );
}

/** The index name with the schema where the engine puts it there (SQLite, Oracle). */
export function indexName(d: Dialect, path: readonly string[], index: string): string {
  const rules = rulesOf(d);
  const name = q(d, checkName(index, 'Index'));
  const onName = rules.indexSchemaOnName || rules.indexQualified;
  return onName ? `${schemaPrefix(d, path)}${name}` : name;
}

export function createIndexSql(d: Dialect, path: readonly string[], ix: IndexDesign): string {
  const unique = ix.unique ? 'UNIQUE ' : '';
  const cols = list(d, ix.columns, 'An index');
  // SQLite puts the schema on the index name and never on the table; the others name the table fully.
  const table = rulesOf(d).indexSchemaOnName ? q(d, checkName(path.at(-1), 'Table')) : tableName(d, path);
  return `CREATE ${unique}INDEX ${indexName(d, path, ix.name)} ON ${table} (${cols})`;
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
