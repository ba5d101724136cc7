// The tiny SQL subset the search-engine test double (search.ts) evaluates over in-memory indices:
//   SELECT * | item[, item…] FROM index [WHERE f op literal [AND …]] [GROUP BY f] [ORDER BY f [ASC|DESC]]
//   [LIMIT n [OFFSET m]]      item: field [AS alias] | COUNT(*) [AS alias]
// Identifiers are bare (dotted names reach into objects), "double-quoted" or `backticked`. Anything else —
// INSERT, UPDATE, DELETE, CREATE, a trailing semicolon — is a grammar error, as in both real engines.

export interface SqlIndex {
  /** The mapping's `properties`. */
  properties: Record<string, unknown>;
  docs: Record<string, unknown>[];
}

export class SqlError extends Error {
  constructor(
    readonly kind: 'parsing' | 'verification' | 'index',
    message: string,
  ) {
    super(message);
  }
}

type Token = { t: 'word' | 'id' | 'num' | 'str' | 'sym'; v: string; at: number };

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  const re =
    /\s+|(--[^\n]*)|("(?:[^"]|"")*")|(`(?:[^`]|``)*`)|('(?:[^']|'')*')|(\d+(?:\.\d+)?)|([A-Za-z_@][\w.@]*)|(<=|>=|!=|<>|[=<>(),*;])/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while (last < sql.length) {
    re.lastIndex = last;
    m = re.exec(sql);
    if (!m) throw new SqlError('parsing', `line 1:${last + 1}: token recognition error at: '${sql[last]}'`);
    last = re.lastIndex;
    const at = m.index + 1;
    if (m[2]) out.push({ t: 'id', v: m[2].slice(1, -1).replaceAll('""', '"'), at });
    else if (m[3]) out.push({ t: 'id', v: m[3].slice(1, -1).replaceAll('``', '`'), at });
    else if (m[4]) out.push({ t: 'str', v: m[4].slice(1, -1).replaceAll("''", "'"), at });
    else if (m[5]) out.push({ t: 'num', v: m[5], at });
    else if (m[6]) out.push({ t: 'word', v: m[6], at });
    else if (m[7]) out.push({ t: 'sym', v: m[7], at });
  }
  return out;
}

/** Leaf fields of a mapping (dotted through objects), in mapping order: what `SELECT *` returns. */
export function leafFields(
  properties: Record<string, unknown>,
  prefix = '',
): Array<{ name: string; type: string }> {
  const out: Array<{ name: string; type: string }> = [];
  for (const [k, raw] of Object.entries(properties)) {
    const f = raw as { type?: string; properties?: Record<string, unknown> };
    if (f.properties && f.type !== 'nested') out.push(...leafFields(f.properties, `${prefix}${k}.`));
    else out.push({ name: `${prefix}${k}`, type: f.type ?? 'object' });
  }
  return out;
}

function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return null;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined ? null : cur;
}

export interface SqlResult {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
}

/** Evaluates `sql` over `indices`; throws SqlError as the engine would answer 400/404. */
export function evaluate(sql: string, indices: Map<string, SqlIndex>, offsetAllowed: boolean): SqlResult {
  const tokens = tokenize(sql);
  let i = 0;
  const peek = () => tokens[i];
  const word = (w: string) => peek()?.t === 'word' && peek().v.toUpperCase() === w;
  const fail = (what: string): never => {
    const t = peek();
    throw new SqlError(
      'parsing',
      t
        ? `line 1:${t.at}: mismatched input '${t.v}' expecting ${what}`
        : `line 1:${sql.length + 1}: mismatched input '<EOF>' expecting ${what}`,
    );
  };
  const expectWord = (w: string) => (word(w) ? i++ : fail(`'${w}'`));
  const ident = (): string => {
    const t = peek();
    if (t && (t.t === 'id' || t.t === 'word')) {
      i++;
      return t.v;
    }
    return fail('an identifier');
  };
  if (!word('SELECT')) fail("{'(', 'DESCRIBE', 'EXPLAIN', 'SELECT', 'SHOW', 'SYS'}");
  i++;
  type Item =
    | { kind: 'star' }
    | { kind: 'field'; name: string; alias: string }
    | { kind: 'count'; alias: string };
  const items: Item[] = [];
  do {
    if (peek()?.v === ',') i++;
    if (peek()?.v === '*') {
      i++;
      items.push({ kind: 'star' });
    } else if (word('COUNT')) {
      i++;
      if (peek()?.v !== '(') fail("'('");
      i += 1;
      if (peek()?.v !== '*') fail("'*'");
      i += 1;
      if (peek()?.v !== ')') fail("')'");
      i += 1;
      let alias = 'COUNT(*)';
      if (word('AS')) {
        i++;
        alias = ident();
      }
      items.push({ kind: 'count', alias });
    } else {
      const name = ident();
      let alias = name;
      if (word('AS')) {
        i++;
        alias = ident();
      }
      items.push({ kind: 'field', name, alias });
    }
  } while (peek()?.v === ',');
  expectWord('FROM');
  const indexName = ident();
  const index = indices.get(indexName);
  if (!index) throw new SqlError('index', `Unknown index [${indexName}]`);
  const fields = leafFields(index.properties);
  const typeOf = (name: string) => {
    const f = fields.find((x) => x.name === name);
    if (!f) throw new SqlError('verification', `Found 1 problem\nline 1:8: Unknown column [${name}]`);
    return f.type;
  };
  const conds: Array<{ field: string; op: string; value: unknown }> = [];
  if (word('WHERE')) {
    i++;
    do {
      if (word('AND')) i++;
      const field = ident();
      typeOf(field);
      const op = peek()?.t === 'sym' ? tokens[i++].v : fail('a comparison');
      const lit = peek();
      if (!lit || (lit.t !== 'num' && lit.t !== 'str')) fail('a literal');
      i++;
      conds.push({ field, op, value: lit.t === 'num' ? Number(lit.v) : lit.v });
    } while (word('AND'));
  }
  let group: string | undefined;
  if (word('GROUP')) {
    i++;
    expectWord('BY');
    group = ident();
    typeOf(group);
  }
  let order: { field: string; desc: boolean } | undefined;
  if (word('ORDER')) {
    i++;
    expectWord('BY');
    order = { field: ident(), desc: false };
    if (word('DESC') || word('ASC')) order.desc = tokens[i++].v.toUpperCase() === 'DESC';
  }
  let limit = Number.POSITIVE_INFINITY;
  let offset = 0;
  if (word('LIMIT')) {
    i++;
    if (peek()?.t !== 'num') fail('INTEGER_VALUE');
    limit = Number(tokens[i++].v);
    if (word('OFFSET') && offsetAllowed) {
      i++;
      if (peek()?.t !== 'num') fail('INTEGER_VALUE');
      offset = Number(tokens[i++].v);
    }
  }
  if (peek()) fail('<EOF>');

  const cmp = (a: unknown, op: string, b: unknown) => {
    switch (op) {
      case '=':
        return a === b;
      case '!=':
      case '<>':
        return a !== b;
      case '<':
        return (a as number) < (b as number);
      case '>':
        return (a as number) > (b as number);
      case '<=':
        return (a as number) <= (b as number);
      default:
        return (a as number) >= (b as number);
    }
  };
  const docs = index.docs.filter((d) => conds.every((c) => cmp(valueAt(d, c.field), c.op, c.value)));
  let columns: SqlResult['columns'] = [];
  let rows: unknown[][];
  if (group !== undefined) {
    const counts = new Map<unknown, number>();
    for (const d of docs) counts.set(valueAt(d, group), (counts.get(valueAt(d, group)) ?? 0) + 1);
    const keys = [...counts.keys()].sort((a, b) => String(a).localeCompare(String(b)));
    columns = items.map((it) =>
      it.kind === 'count'
        ? { name: it.alias, type: 'long' }
        : it.kind === 'field'
          ? { name: it.alias, type: typeOf(it.name) }
          : fail('a grouped column'),
    );
    rows = keys.map((k) => items.map((it) => (it.kind === 'count' ? counts.get(k) : k)));
  } else {
    const picked: Array<{ name: string; path: string; type: string }> = [];
    for (const it of items) {
      if (it.kind === 'star')
        for (const f of fields) picked.push({ name: f.name, path: f.name, type: f.type });
      else if (it.kind === 'field') picked.push({ name: it.alias, path: it.name, type: typeOf(it.name) });
      else throw new SqlError('verification', 'COUNT(*) needs GROUP BY in this double');
    }
    columns = picked.map((p) => ({ name: p.name, type: p.type }));
    let list = docs;
    if (order) {
      const f = order.field;
      list = [...docs].sort((a, b) => {
        const x = valueAt(a, f) as number | string;
        const y = valueAt(b, f) as number | string;
        return (x < y ? -1 : x > y ? 1 : 0) * (order?.desc ? -1 : 1);
      });
    }
    rows = list.map((d) => picked.map((p) => valueAt(d, p.path)));
  }
  return { columns, rows: rows.slice(offset, offset + limit) };
}
