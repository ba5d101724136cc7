// The tiny CQL evaluator of the Cassandra test double: in-memory keyspaces and tables with typed columns,
// and the statements the portal's tests send (SELECT with equality/IN filters and LIMIT, INSERT, UPDATE,
// DELETE, TRUNCATE, CREATE/DROP KEYSPACE/TABLE/INDEX, USE, BEGIN … APPLY BATCH, GRANT/REVOKE refused as
// unauthorised). System tables (system.local, system.peers, system_schema.*, system_views.clients) are
// derived from the state on every read, as the server does. Errors carry the protocol's error codes. DDL is
// cassandra-ddl.ts, the system tables cassandra-system.ts.
import { createStatement, dropStatement } from './cassandra-ddl.js';
import { type CqlType, decimalFromText, ERR } from './cassandra-frames.js';
import { sysTable, systemTable } from './cassandra-system.js';

export class CqlError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Column {
  name: string;
  type: CqlType;
  kind: 'partition_key' | 'clustering' | 'regular';
}

export interface Table {
  keyspace: string;
  name: string;
  columns: Column[];
  rows: Map<string, Record<string, unknown>>;
  indexes: Array<{ name: string; target: string }>;
}

export interface View {
  keyspace: string;
  name: string;
  base: string;
  where: string;
}

/** A statement's outcome for the server to frame. */
export type Outcome =
  | { kind: 'void' }
  | {
      kind: 'rows';
      keyspace: string;
      table: string;
      columns: Array<{ name: string; type: CqlType }>;
      rows: unknown[][];
    }
  | { kind: 'keyspace'; keyspace: string }
  | { kind: 'schema'; change: string; target: string; keyspace: string; name?: string }
  | { kind: 'stall' };

/** A bind marker's type, learned while evaluating a PREPARE. */
export interface Bind {
  name: string;
  type: CqlType;
}

type Tok = { t: 'id' | 'qid' | 'str' | 'num' | 'blob' | 'uuid' | 'sym' | 'q'; v: string };

function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  const re =
    /\s+|\/\/[^\n]*|--[^\n]*|\/\*[\s\S]*?\*\/|'((?:[^']|'')*)'|"((?:[^"]|"")*)"|(0x[0-9a-fA-F]*)|([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(<=|>=|!=|[(),;=*?.<>{}:[\]+-])/y;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    m = re.exec(text);
    if (!m) throw new CqlError(ERR.SYNTAX, `line 1:${pos} no viable alternative at character '${text[pos]}'`);
    pos = re.lastIndex;
    if (m[1] !== undefined) out.push({ t: 'str', v: m[1].replaceAll("''", "'") });
    else if (m[2] !== undefined) out.push({ t: 'qid', v: m[2].replaceAll('""', '"') });
    else if (m[3] !== undefined) out.push({ t: 'blob', v: m[3] });
    else if (m[4] !== undefined) out.push({ t: 'uuid', v: m[4].toLowerCase() });
    else if (m[5] !== undefined) out.push({ t: 'num', v: m[5] });
    else if (m[6] !== undefined) out.push({ t: 'id', v: m[6] });
    else if (m[7] !== undefined) out.push(m[7] === '?' ? { t: 'q', v: '?' } : { t: 'sym', v: m[7] });
  }
  return out;
}

/** A literal or a bind marker before it meets its column. */
type Term = { lit: Tok } | { bind: number };

const KEY_SEP = '\u0000';

export class CqlState {
  readonly keyspaces = new Set<string>(['system', 'system_schema', 'system_views']);
  readonly tables = new Map<string, Table>();
  readonly views: View[] = [];
  /** Open connections, for system_views.clients. */
  clients: Array<{ address: string; port: number; username: string }> = [];
  /** Statements received, for assertions. */
  readonly log: string[] = [];

  table(keyspace: string, name: string): Table {
    const t = this.tables.get(`${keyspace}.${name}`);
    if (!t) throw new CqlError(ERR.INVALID, `unconfigured table ${name}`);
    return t;
  }

  /** The bind markers of a statement (PREPARE), learned without running it. */
  prepare(text: string, keyspace: string | null): Bind[] {
    const binds: Bind[] = [];
    const p = new Parser(tokenize(text), this, keyspace, [], binds, true);
    p.statement();
    p.end();
    return binds;
  }

  /** Evaluates one statement; `values` are bound values (already decoded), `binds` collects marker types. */
  run(text: string, keyspace: string | null, values: unknown[], binds?: Bind[]): Outcome {
    this.log.push(text);
    const p = new Parser(tokenize(text), this, keyspace, values, binds);
    const out = p.statement();
    p.end();
    return out;
  }
}

export class Parser {
  private i = 0;
  private bindIndex = 0;
  constructor(
    private readonly toks: Tok[],
    readonly s: CqlState,
    private readonly ks: string | null,
    private readonly values: unknown[],
    private readonly binds?: Bind[],
    readonly dry = false,
  ) {}

  peek(k = 0): Tok | undefined {
    return this.toks[this.i + k];
  }
  word(k = 0): string {
    const t = this.peek(k);
    return t?.t === 'id' ? t.v.toUpperCase() : '';
  }
  fail(): never {
    const t = this.peek();
    throw new CqlError(
      ERR.SYNTAX,
      t ? `line 1:0 no viable alternative at input '${t.v}'` : 'line 1:0 mismatched input <EOF>',
    );
  }
  take(): Tok {
    const t = this.toks[this.i++];
    if (!t) this.fail();
    return t;
  }
  accept(word: string): boolean {
    if (this.word() === word || (this.peek()?.t === 'sym' && this.peek()?.v === word)) {
      this.i++;
      return true;
    }
    return false;
  }
  expect(word: string): void {
    if (!this.accept(word)) this.fail();
  }
  end(): void {
    while (this.accept(';'));
    if (this.i < this.toks.length) this.fail();
  }
  ident(): string {
    const t = this.take();
    if (t.t === 'qid') return t.v;
    if (t.t === 'id') return t.v.toLowerCase();
    return this.fail();
  }
  qualified(): { keyspace: string; name: string } {
    const first = this.ident();
    if (this.accept('.')) return { keyspace: first, name: this.ident() };
    if (!this.ks)
      throw new CqlError(
        ERR.INVALID,
        'No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename',
      );
    return { keyspace: this.ks, name: first };
  }
  private term(): Term {
    const t = this.take();
    if (t.t === 'q') return { bind: this.bindIndex++ };
    if (t.t === 'id' && !['TRUE', 'FALSE', 'NULL'].includes(t.v.toUpperCase())) this.fail();
    if (t.t === 'sym' || t.t === 'qid') this.fail();
    return { lit: t };
  }

  /** The value of a term for a column (a literal converted, or the bound value). */
  private value(term: Term, col: Column): unknown {
    if ('bind' in term) {
      this.binds?.push({ name: col.name, type: col.type });
      return this.values[term.bind];
    }
    const t = term.lit;
    if (t.t === 'id' && t.v.toUpperCase() === 'NULL') return null;
    const type = col.type.kind === 'native' ? col.type.name : 'collection';
    const bad = () => {
      throw new CqlError(
        ERR.INVALID,
        `Invalid ${t.t === 'str' ? 'STRING' : 'INTEGER'} constant (${t.v}) for "${col.name}" of type ${type}`,
      );
    };
    switch (type) {
      case 'text':
      case 'ascii':
        return t.t === 'str' ? t.v : bad();
      case 'int':
        return t.t === 'num' && /^-?\d+$/.test(t.v) ? Number(t.v) : bad();
      case 'bigint':
      case 'varint':
      case 'counter':
        return t.t === 'num' && /^-?\d+$/.test(t.v) ? BigInt(t.v) : bad();
      case 'decimal':
        return t.t === 'num' ? decimalFromText(t.v) : bad();
      case 'double':
      case 'float':
        return t.t === 'num' ? Number(t.v) : bad();
      case 'boolean':
        return t.t === 'id' ? t.v.toUpperCase() === 'TRUE' : bad();
      case 'blob':
        return t.t === 'blob' ? Buffer.from(t.v.slice(2), 'hex') : bad();
      case 'uuid':
      case 'timeuuid':
        return t.t === 'uuid' ? t.v : bad();
      case 'timestamp':
        return t.t === 'num' ? Number(t.v) : t.t === 'str' ? Date.parse(t.v) : bad();
      default:
        return bad();
    }
  }

  statement(): Outcome {
    const w = this.word();
    if (w === 'SELECT') return this.select();
    if (w === 'INSERT') return this.insert();
    if (w === 'UPDATE') return this.update();
    if (w === 'DELETE') return this.delete();
    if (w === 'TRUNCATE') {
      this.i++;
      this.accept('TABLE');
      const q = this.qualified();
      const t = this.s.table(q.keyspace, q.name);
      if (!this.dry) t.rows.clear();
      return { kind: 'void' };
    }
    if (w === 'USE') {
      this.i++;
      const ks = this.ident();
      if (!this.s.keyspaces.has(ks)) throw new CqlError(ERR.INVALID, `Keyspace '${ks}' does not exist`);
      return { kind: 'keyspace', keyspace: ks };
    }
    if (w === 'CREATE') return createStatement(this);
    if (w === 'DROP') return dropStatement(this);
    if (w === 'BEGIN') return this.batch();
    if (['GRANT', 'REVOKE', 'ALTER', 'LIST'].includes(w) || (w === 'CREATE' && this.word(1) === 'ROLE'))
      throw new CqlError(
        ERR.UNAUTHORIZED,
        'User portal has no AUTHORIZE permission on <all keyspaces> or any of its parents',
      );
    return this.fail();
  }

  private where(table: Table): Array<{ col: Column; values: unknown[] }> {
    const conds: Array<{ col: Column; values: unknown[] }> = [];
    if (!this.accept('WHERE')) return conds;
    do {
      const name = this.ident();
      const col = table.columns.find((c) => c.name === name);
      if (!col) throw new CqlError(ERR.INVALID, `Undefined column name ${name}`);
      if (this.accept('IN')) {
        this.expect('(');
        const vals: unknown[] = [];
        do vals.push(this.value(this.term(), col));
        while (this.accept(','));
        this.expect(')');
        conds.push({ col, values: vals });
      } else {
        this.expect('=');
        conds.push({ col, values: [this.value(this.term(), col)] });
      }
    } while (this.accept('AND'));
    return conds;
  }

  private matches(row: Record<string, unknown>, conds: Array<{ col: Column; values: unknown[] }>): boolean {
    return conds.every((c) => c.values.some((v) => same(row[c.col.name], v)));
  }

  private select(): Outcome {
    this.expect('SELECT');
    const picks: Array<{ name: string; alias: string } | 'count'> = [];
    let star = false;
    if (this.accept('*')) star = true;
    else
      do {
        if (this.word() === 'COUNT' && this.peek(1)?.v === '(') {
          this.i += 2;
          this.expect('*');
          this.expect(')');
          picks.push('count');
        } else {
          const name = this.ident();
          picks.push({ name, alias: this.accept('AS') ? this.ident() : name });
        }
      } while (this.accept(','));
    this.expect('FROM');
    const q = this.qualified();
    const source = this.source(q.keyspace, q.name);
    const stall = source === 'stall';
    const table = stall ? sysTable(q.keyspace, q.name, [], []) : source;
    const conds = this.where(table);
    if (this.accept('ORDER')) {
      this.expect('BY');
      this.ident();
      if (!this.accept('ASC')) this.accept('DESC');
    }
    let limit = Number.POSITIVE_INFINITY;
    if (this.accept('LIMIT')) {
      const t = this.term();
      limit = Number('bind' in t ? this.values[t.bind] : t.lit.v);
      if ('bind' in t) this.binds?.push({ name: '[limit]', type: { kind: 'native', name: 'int' } });
    }
    if (this.accept('ALLOW')) this.expect('FILTERING');
    if (stall) return { kind: 'stall' };
    const rows = [...table.rows.values()].filter((r) => this.matches(r, conds));
    if (picks.includes('count')) {
      return {
        kind: 'rows',
        keyspace: q.keyspace,
        table: q.name,
        columns: [{ name: 'count', type: { kind: 'native', name: 'bigint' } }],
        rows: [[BigInt(rows.length)]],
      };
    }
    const cols = star
      ? table.columns.map((c) => ({ name: c.name, alias: c.name, type: c.type }))
      : (picks as Array<{ name: string; alias: string }>).map((p) => {
          const c = table.columns.find((x) => x.name === p.name);
          if (!c) throw new CqlError(ERR.INVALID, `Undefined column name ${p.name}`);
          return { name: c.name, alias: p.alias, type: c.type };
        });
    return {
      kind: 'rows',
      keyspace: q.keyspace,
      table: q.name,
      columns: cols.map((c) => ({ name: c.alias, type: c.type })),
      rows: rows.slice(0, limit).map((r) => cols.map((c) => r[c.name] ?? null)),
    };
  }

  /** A user table, a system table computed from the state, or the stalling table. */
  private source(keyspace: string, name: string): Table | 'stall' {
    if (name === 'stall') return 'stall';
    if (name === 'read_timeout')
      throw new CqlError(ERR.READ_TIMEOUT, 'Operation timed out - received only 0 responses.');
    const system = systemTable(this.s, keyspace, name);
    return system ?? this.s.table(keyspace, name);
  }

  private insert(): Outcome {
    this.expect('INSERT');
    this.expect('INTO');
    const q = this.qualified();
    const table = this.s.table(q.keyspace, q.name);
    this.expect('(');
    const names: string[] = [];
    do names.push(this.ident());
    while (this.accept(','));
    this.expect(')');
    this.expect('VALUES');
    this.expect('(');
    const row: Record<string, unknown> = {};
    names.forEach((n, k) => {
      if (k > 0) this.expect(',');
      const col = table.columns.find((c) => c.name === n);
      if (!col) throw new CqlError(ERR.INVALID, `Undefined column name ${n}`);
      row[n] = this.value(this.term(), col);
    });
    this.expect(')');
    this.options();
    if (!this.dry) upsert(table, row);
    return { kind: 'void' };
  }

  private options(): void {
    if (this.accept('IF')) {
      this.expect('NOT');
      this.expect('EXISTS');
    }
    if (this.accept('USING')) {
      do {
        this.take();
        this.term();
      } while (this.accept('AND'));
    }
  }

  private update(): Outcome {
    this.expect('UPDATE');
    const q = this.qualified();
    const table = this.s.table(q.keyspace, q.name);
    this.options();
    this.expect('SET');
    const sets: Record<string, unknown> = {};
    do {
      const n = this.ident();
      const col = table.columns.find((c) => c.name === n);
      if (!col) throw new CqlError(ERR.INVALID, `Undefined column name ${n}`);
      this.expect('=');
      sets[n] = this.value(this.term(), col);
    } while (this.accept(','));
    const conds = this.where(table);
    const key = keyColumns(table);
    if (this.dry) return { kind: 'void' };
    if (!key.every((k) => conds.some((c) => c.col.name === k.name && c.values.length === 1)))
      throw new CqlError(
        ERR.INVALID,
        `Some partition key parts are missing: ${key.map((k) => k.name).join(', ')}`,
      );
    const row: Record<string, unknown> = { ...sets };
    for (const c of conds) row[c.col.name] = c.values[0];
    const existing = table.rows.get(rowKey(table, row));
    upsert(table, { ...existing, ...row });
    return { kind: 'void' };
  }

  private delete(): Outcome {
    this.expect('DELETE');
    this.expect('FROM');
    const q = this.qualified();
    const table = this.s.table(q.keyspace, q.name);
    const conds = this.where(table);
    if (conds.length === 0) this.fail();
    if (this.dry) return { kind: 'void' };
    for (const [k, r] of table.rows) if (this.matches(r, conds)) table.rows.delete(k);
    return { kind: 'void' };
  }

  private batch(): Outcome {
    this.expect('BEGIN');
    if (!this.accept('UNLOGGED')) this.accept('COUNTER');
    this.expect('BATCH');
    const inner: Array<() => void> = [];
    while (this.word() !== 'APPLY') {
      if (!this.peek()) this.fail();
      const w = this.word();
      if (!['INSERT', 'UPDATE', 'DELETE'].includes(w)) this.fail();
      // Batches are atomic: every statement parses and checks before any applies.
      const start = this.i;
      this.statementDryRun();
      const end = this.i;
      inner.push(() => {
        this.i = start;
        this.statement();
        this.i = end;
      });
      this.accept(';');
    }
    this.expect('APPLY');
    this.expect('BATCH');
    const after = this.i;
    for (const run of inner) run();
    this.i = after;
    return { kind: 'void' };
  }

  private statementDryRun(): void {
    const snapshot = new Map([...this.s.tables].map(([k, t]) => [k, new Map(t.rows)]));
    try {
      this.statement();
    } finally {
      for (const [k, rows] of snapshot) {
        const t = this.s.tables.get(k);
        if (t) t.rows = rows;
      }
    }
  }
}

function same(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (typeof a === 'object' && a && typeof b === 'object' && b)
    return JSON.stringify(a, big) === JSON.stringify(b, big);
  return a === b || (typeof a === 'bigint' && typeof b === 'bigint' && a === b);
}
const big = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

function keyColumns(t: Table): Column[] {
  return t.columns.filter((c) => c.kind !== 'regular');
}
function rowKey(t: Table, row: Record<string, unknown>): string {
  return keyColumns(t)
    .map((c) =>
      JSON.stringify(
        Buffer.isBuffer(row[c.name]) ? (row[c.name] as Buffer).toString('hex') : row[c.name],
        big,
      ),
    )
    .join(KEY_SEP);
}
function upsert(t: Table, row: Record<string, unknown>): void {
  for (const k of keyColumns(t))
    if (row[k.name] === undefined || row[k.name] === null)
      throw new CqlError(ERR.INVALID, `Missing mandatory PRIMARY KEY part ${k.name}`);
  const key = rowKey(t, row);
  t.rows.set(key, { ...t.rows.get(key), ...row });
}
