// The SQL++ subset the Couchbase test double evaluates (test/doubles/couchbase.ts): enough of the language
// for the engine tests, answering as the query service does (results, mutationCount, errors {code, msg}).
//   SELECT <*, alias.*, META([alias]).id AS n, path [AS n], literal AS n, COUNT(*) AS n> [FROM keyspace [AS a]
//     [USE KEYS 'k' | ['k', …]] [WHERE path = value [AND …]] [ORDER BY path [DESC]] [LIMIT n] [OFFSET n]]
//   INSERT | UPSERT INTO ks (KEY, VALUE) VALUES ('k', {json}) [, …]
//   UPDATE ks [USE KEYS …] SET path = value [, …] [WHERE …]    DELETE FROM ks [USE KEYS …] [WHERE …]
//   CREATE PRIMARY INDEX ON ks · CREATE INDEX n ON ks(field) [WITH {"defer_build": true}] · BUILD INDEX ON ks(n)
//   EXPLAIN <statement> · system:indexes / system:active_requests / system:completed_requests
// A keyspace with no online index that serves the statement answers error 4000 with the create-index remedy
// (the message older servers send); anything else outside the subset answers 3000 (syntax error).

export class N1qlError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly http = 400,
  ) {
    super(message);
  }
}

export type Doc = Record<string, unknown>;

export interface Keyspace {
  bucket: string;
  scope: string;
  collection: string;
}

/** What the evaluator needs from the double's state. */
export interface Store {
  collection(ks: Keyspace): Map<string, Doc> | undefined;
  /** Online index over `field` (or the primary index with field undefined). */
  hasIndex(ks: Keyspace, field?: string): boolean;
  system(name: string): Doc[];
  createIndex(ks: Keyspace, name: string, field: string | undefined, deferred: boolean): void;
  buildIndexes(ks: Keyspace, names: string[]): void;
  killRequest(field: string, value: string): number;
}

export interface Outcome {
  results: unknown[];
  mutationCount?: number;
}

type Cond = Array<{ path: string[]; meta: boolean; value: unknown }>;

const KS = String.raw`((?:\x60[^\x60]+\x60|[A-Za-z_][\w-]*)(?:\.(?:\x60[^\x60]+\x60|[A-Za-z_][\w-]*)){0,2}|system:[a-z_]+)`;
const unquote = (s: string) => s.replace(/^`|`$/g, '');

function keyspace(text: string): Keyspace | { system: string } {
  if (text.startsWith('system:')) return { system: text.slice(7) };
  const parts = text.match(/`[^`]+`|[^.]+/g)?.map(unquote) ?? [];
  if (parts.length === 1) return { bucket: parts[0], scope: '_default', collection: '_default' };
  if (parts.length === 3) return { bucket: parts[0], scope: parts[1], collection: parts[2] };
  throw new N1qlError(3000, `syntax error - keyspace ${text}`);
}

const fullName = (k: Keyspace) => `\`default\`:\`${k.bucket}\`.\`${k.scope}\`.\`${k.collection}\``;

/** A literal: 'text', "text", number, true/false/null, $n parameter, [list], {object}. */
function literal(text: string, args: unknown[]): unknown {
  const t = text.trim();
  const param = /^\$(\d+)$/.exec(t);
  if (param) return args[Number(param[1]) - 1];
  if (/^'.*'$/s.test(t)) return t.slice(1, -1).replace(/''/g, "'");
  try {
    return JSON.parse(t);
  } catch {
    throw new N1qlError(3000, `syntax error - at ${t}`);
  }
}

function pathOf(text: string, alias: string | undefined): string[] {
  const parts = text.trim().split('.').map(unquote);
  if (alias && parts[0] === alias && parts.length > 1) parts.shift();
  return parts;
}

function getPath(doc: Doc, path: string[]): unknown {
  let v: unknown = doc;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Doc)[p] : undefined;
  return v;
}

function conditions(text: string | undefined, alias: string | undefined, args: unknown[]): Cond {
  if (!text) return [];
  return text.split(/\s+AND\s+/i).map((part) => {
    const m = /^\s*(META\(\w*\)\.id|[\w.`]+)\s*=\s*(.+?)\s*$/is.exec(part);
    if (!m) throw new N1qlError(3000, `syntax error - at ${part.trim()}`);
    const meta = /^META\(/i.test(m[1]);
    return { path: meta ? [] : pathOf(m[1], alias), meta, value: literal(m[2], args) };
  });
}

function matches(key: string, doc: Doc, cond: Cond): boolean {
  return cond.every((c) => (c.meta ? key === c.value : getPath(doc, c.path) === c.value));
}

function useKeys(text: string | undefined, args: unknown[]): string[] | undefined {
  if (text === undefined) return undefined;
  const v = literal(text, args);
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** Rows of a keyspace the statement may reach, or error 4000 when no online index serves it. */
function scan(store: Store, ks: Keyspace, keys: string[] | undefined, cond: Cond): Array<[string, Doc]> {
  const coll = store.collection(ks);
  if (!coll) throw new N1qlError(12003, `Keyspace not found in CB datastore: ${fullName(ks)}`, 404);
  if (!keys) {
    const served = store.hasIndex(ks) || cond.some((c) => !c.meta && store.hasIndex(ks, c.path.join('.')));
    if (!served)
      throw new N1qlError(
        4000,
        `No index available on keyspace ${fullName(ks)} that matches your query. Use CREATE PRIMARY INDEX ON ${fullName(ks)} to create a primary index, or check that your expected index is online.`,
        500,
      );
  }
  const entries = keys
    ? keys.filter((k) => coll.has(k)).map((k) => [k, coll.get(k)!] as [string, Doc])
    : [...coll];
  return entries.filter(([k, d]) => matches(k, d, cond)).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function project(items: string, key: string, doc: Doc, alias: string, args: unknown[]): Doc {
  const out: Doc = {};
  for (const raw of items.split(/,(?![^(]*\))/)) {
    const item = raw.trim();
    if (item === '*') out[alias] = doc;
    else if (item === `${alias}.*`) Object.assign(out, doc);
    else {
      const m = /^(.+?)(?:\s+AS\s+(\w+))?$/is.exec(item)!;
      const expr = m[1].trim();
      if (/^META\(\w*\)\.id$/i.test(expr)) out[m[2] ?? 'id'] = key;
      else if (/^[\w.`]+$/.test(expr) && !/^\d/.test(expr)) {
        const path = pathOf(expr, alias);
        const v = getPath(doc, path);
        if (v !== undefined) out[m[2] ?? path[path.length - 1]] = v;
      } else out[m[2] ?? '$1'] = literal(expr, args);
    }
  }
  return out;
}

const SELECT = new RegExp(
  String.raw`^SELECT\s+(.+?)(?:\s+FROM\s+${KS}(?:\s+(?:AS\s+)?(?!USE\b|WHERE\b|ORDER\b|LIMIT\b|OFFSET\b)(\w+))?(?:\s+USE\s+KEYS\s+(.+?))?(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+([\w.\x60]+)(\s+DESC|\s+ASC)?)?)?(?:\s+LIMIT\s+(\d+))?(?:\s+OFFSET\s+(\d+))?(?:\s+LIMIT\s+(\d+))?$`,
  'is',
);

function select(store: Store, sql: string, args: unknown[]): Outcome {
  const m = SELECT.exec(sql);
  if (!m) throw new N1qlError(3000, `syntax error - at ${sql.slice(0, 40)}`);
  const [, items, ksText, aliasText, keysText, whereText, orderBy, dir, limit1, offset, limit2] = m;
  if (!ksText) return { results: [project(items, '', {}, '', args)] };
  const ks = keyspace(ksText);
  const alias = aliasText ?? unquote(ksText.split(/[.:]/).pop() ?? '');
  let rows: Array<[string, Doc]>;
  if ('system' in ks) {
    const cond = conditions(whereText, alias, args);
    rows = store
      .system(ks.system)
      .map((d, i) => [String(i), d] as [string, Doc])
      .filter(([k, d]) => matches(k, d, cond));
  } else rows = scan(store, ks, useKeys(keysText, args), conditions(whereText, alias, args));
  if (orderBy) {
    const path = pathOf(orderBy, alias);
    rows.sort((a, b) => {
      const x = getPath(a[1], path) as number | string;
      const y = getPath(b[1], path) as number | string;
      return (x < y ? -1 : x > y ? 1 : 0) * (dir?.trim().toUpperCase() === 'DESC' ? -1 : 1);
    });
  }
  const start = offset ? Number(offset) : 0;
  const lim = limit1 ?? limit2;
  rows = rows.slice(start, lim !== undefined ? start + Number(lim) : undefined);
  if (/^COUNT\(\*\)(?:\s+AS\s+(\w+))?$/i.test(items.trim())) {
    const name = /AS\s+(\w+)/i.exec(items)?.[1] ?? '$1';
    return { results: [{ [name]: rows.length }] };
  }
  return { results: rows.map(([k, d]) => project(items, k, d, alias, args)) };
}

function keyspaceOnly(text: string): Keyspace {
  const ks = keyspace(text);
  if ('system' in ks) throw new N1qlError(5000, 'system keyspaces are read-only here');
  return ks;
}

/** Runs one statement of the subset against the store. */
export function evaluate(store: Store, statement: string, args: unknown[]): Outcome {
  const sql = statement.trim().replace(/;\s*$/, '');
  const word = /^\w+/.exec(sql)?.[0]?.toUpperCase();
  let m: RegExpExecArray | null;
  switch (word) {
    case 'SELECT':
      return select(store, sql, args);
    case 'EXPLAIN':
      return { results: [{ plan: { '#operator': 'Sequence', '~children': [] }, text: sql.slice(8).trim() }] };
    case 'INSERT':
    case 'UPSERT': {
      m = new RegExp(
        String.raw`^(?:INSERT|UPSERT)\s+INTO\s+${KS}\s*\(\s*KEY\s*,\s*VALUE\s*\)\s*VALUES\s*(.+)$`,
        'is',
      ).exec(sql);
      if (!m) throw new N1qlError(3000, 'syntax error - INSERT/UPSERT needs (KEY, VALUE) VALUES (…)');
      const coll = store.collection(keyspaceOnly(m[1]));
      if (!coll) throw new N1qlError(12003, `Keyspace not found in CB datastore: ${m[1]}`, 404);
      const pairs = JSON.parse(
        `[${m[2].replace(/\(\s*'([^']*)'\s*,/g, '["$1",').replace(/\)\s*(,|$)/g, ']$1')}]`,
      ) as [string, Doc][];
      for (const [k, _doc] of pairs) {
        if (word === 'INSERT' && coll.has(k))
          throw new N1qlError(
            12009,
            `DML Error, possible causes include CAS mismatch or concurrent modification. Failed to perform INSERT - cause: Duplicate Key ${k}`,
            500,
          );
      }
      for (const [k, doc] of pairs) coll.set(k, doc);
      return { results: [], mutationCount: pairs.length };
    }
    case 'DELETE': {
      m = new RegExp(
        String.raw`^DELETE\s+FROM\s+${KS}(?:\s+(?:AS\s+)?(?!USE\b|WHERE\b)(\w+))?(?:\s+USE\s+KEYS\s+(.+?))?(?:\s+WHERE\s+(.+?))?$`,
        'is',
      ).exec(sql);
      if (!m) throw new N1qlError(3000, 'syntax error - DELETE');
      const ks = keyspace(m[1]);
      if ('system' in ks) {
        const c = conditions(m[4], m[2], args)[0];
        return { results: [], mutationCount: c ? store.killRequest(c.path.join('.'), String(c.value)) : 0 };
      }
      const alias = m[2] ?? ks.collection;
      const rows = scan(store, ks, useKeys(m[3], args), conditions(m[4], alias, args));
      const coll = store.collection(ks)!;
      for (const [k] of rows) coll.delete(k);
      return { results: [], mutationCount: rows.length };
    }
    case 'UPDATE': {
      if (/^UPDATE\s+STATISTICS/i.test(sql)) return { results: [] };
      m = new RegExp(
        String.raw`^UPDATE\s+${KS}(?:\s+(?:AS\s+)?(?!USE\b|SET\b)(\w+))?(?:\s+USE\s+KEYS\s+(.+?))?\s+SET\s+(.+?)(?:\s+WHERE\s+(.+?))?$`,
        'is',
      ).exec(sql);
      if (!m) throw new N1qlError(3000, 'syntax error - UPDATE');
      const ks = keyspaceOnly(m[1]);
      const alias = m[2] ?? ks.collection;
      const rows = scan(store, ks, useKeys(m[3], args), conditions(m[5], alias, args));
      const sets = conditions(m[4].replace(/\s*,\s*(?=[\w.`]+\s*=)/g, ' AND '), alias, args);
      for (const [, doc] of rows) {
        for (const s of sets) {
          let target = doc;
          for (const p of s.path.slice(0, -1)) {
            if (typeof target[p] !== 'object' || target[p] === null) target[p] = {};
            target = target[p] as Doc;
          }
          target[s.path[s.path.length - 1]] = s.value;
        }
      }
      return { results: [], mutationCount: rows.length };
    }
    case 'CREATE': {
      m = new RegExp(
        String.raw`^CREATE\s+(?:PRIMARY\s+INDEX(?:\s+(\w+))?|INDEX\s+(\w+))\s+ON\s+${KS}\s*(?:\(\s*(\w+)\s*\))?\s*(WITH\s+.+)?$`,
        'is',
      ).exec(sql);
      if (!m) throw new N1qlError(3000, 'syntax error - CREATE');
      const primary = /^CREATE\s+PRIMARY/i.test(sql);
      store.createIndex(
        keyspaceOnly(m[3]),
        m[1] ?? m[2] ?? '#primary',
        primary ? undefined : m[4],
        /defer_build"?\s*:\s*true/i.test(m[5] ?? ''),
      );
      return { results: [] };
    }
    case 'BUILD': {
      m = new RegExp(String.raw`^BUILD\s+INDEX\s+ON\s+${KS}\s*\((.+)\)$`, 'is').exec(sql);
      if (!m) throw new N1qlError(3000, 'syntax error - BUILD');
      store.buildIndexes(
        keyspaceOnly(m[1]),
        m[2].split(',').map((s) => unquote(s.trim())),
      );
      return { results: [] };
    }
    default:
      throw new N1qlError(3000, `syntax error - at ${word ?? sql.slice(0, 20)}`);
  }
}
