// Reads one statement through node-sql-parser (every engine but PostgreSQL and DuckDB): statement type,
// read or write, guardrails and reached tables, CTE names scoped as the engines scope them. Only SELECT,
// SHOW, DESCRIBE and EXPLAIN of a SELECT can be reads; every other statement type writes.
import { nspParse as parseWith } from '../../sql/parsers.js';
import { checkFunction, checkRelation, type EngineAllowlist } from './allowlist.js';
import { alwaysTrue, type EvalOptions } from './always-true.js';
import { functionEffect } from './functions.js';
import { nspWhere } from './nsp-expr.js';
import { addObject, unplaceableEntry } from './objects.js';
import { type Access, type Analysis, emptyAnalysis, type ObjectRef, type StatementType } from './types.js';

type Node = Record<string, any>;

export interface NspParse {
  statements: Node[];
  tableList: string[];
  grammar: string;
}

/** Parses with the first grammar that reads the text; undefined when none does. */
export function nspParse(text: string, grammars: string[]): NspParse | undefined {
  for (const grammar of grammars) {
    try {
      const r = parseWith(text, grammar);
      const statements = (Array.isArray(r.ast) ? r.ast : [r.ast]) as Node[];
      return { statements: statements.filter(Boolean), tableList: r.tableList ?? [], grammar };
    } catch {
      // next grammar
    }
  }
  return undefined;
}

const TYPES: Record<string, [StatementType, Access]> = {
  select: ['SELECT', 'read'],
  show: ['SHOW', 'read'],
  desc: ['DESCRIBE', 'read'],
  describe: ['DESCRIBE', 'read'],
  explain: ['EXPLAIN', 'read'],
  transaction: ['TRANSACTION', 'read'],
  insert: ['INSERT', 'write'],
  replace: ['INSERT', 'write'],
  update: ['UPDATE', 'write'],
  delete: ['DELETE', 'write'],
  create: ['CREATE', 'write'],
  alter: ['ALTER', 'write'],
  rename: ['ALTER', 'write'],
  drop: ['DROP', 'write'],
  truncate: ['TRUNCATE', 'write'],
  grant: ['GRANT', 'write'],
  revoke: ['REVOKE', 'write'],
  use: ['USE', 'write'],
  call: ['CALL', 'write'],
  exec: ['CALL', 'write'],
  set: ['SET', 'write'],
  lock: ['LOCK', 'write'],
  unlock: ['LOCK', 'write'],
};

const ROLE_KEYWORDS = new Set(['user', 'role', 'login']);

export function analyzeNsp(
  root: Node,
  tableList: string[],
  o: EvalOptions,
  allow?: EngineAllowlist,
): Analysis {
  const type = String(root.type ?? '');
  const [statementType, kind] = TYPES[type] ?? ['OTHER', 'write'];
  const a = emptyAnalysis(statementType, kind);
  const keyword = String(root.keyword ?? '').toLowerCase();
  switch (type) {
    case 'transaction':
      a.transactionControl = true;
      break;
    case 'truncate':
      a.guardrails.add('truncate');
      break;
    case 'grant':
    case 'revoke':
      a.guardrails.add('grant');
      grantObjects(root, a);
      break;
    case 'drop':
      a.guardrails.add('drop');
      if (ROLE_KEYWORDS.has(keyword)) a.guardrails.add('grant');
      if (['database', 'schema'].includes(keyword) && typeof root.name === 'string') {
        addObject(a.objects, { schema: root.name, name: '*', access: 'write' });
      }
      break;
    case 'create':
    case 'alter':
      if (ROLE_KEYWORDS.has(keyword)) a.guardrails.add('grant');
      break;
    case 'use':
      a.changesResolution = true;
      break;
    case 'set':
      // SET PASSWORD changes an account; SET ROLE does not parse and is held by the keyword reading.
      if (
        ((root.expr as Node[] | undefined) ?? []).some((e) => /^password$/i.test(String(e.left?.name ?? '')))
      ) {
        a.guardrails.add('grant');
      }
      break;
    case 'call':
    case 'exec': {
      const name = String(root.module?.table ?? root.expr?.name?.name?.[0]?.value ?? '');
      a.dynamic = true;
      a.unplaceable.push(
        unplaceableEntry(`${type.toUpperCase()} ${name}`.trim(), "a procedure's reach cannot be read"),
      );
      break;
    }
    case 'show':
      if (keyword === 'create') a.explained.add('CREATE');
      break;
    case 'desc':
      if (typeof root.table === 'string') {
        const parts = root.table.split('.');
        const ref: ObjectRef = { name: parts[parts.length - 1], access: 'read' };
        if (parts.length > 1) ref.schema = parts[parts.length - 2];
        addObject(a.objects, ref);
      }
      break;
    case 'assign':
    case '':
      a.statementType = 'UNKNOWN';
      a.doubts.push('the parser read the statement as a variable assignment or an unknown form');
      break;
  }
  const walker = new Walker(a, o, allow);
  walker.statement(multiTableTargets(root), { ctes: [], access: 'read' });
  for (const entry of tableList) walker.fromTableList(entry);
  return a;
}

/**
 * MySQL's `DELETE t1 FROM db.t1 JOIN t2 …` names its targets by the FROM list's tables or aliases: those
 * names are not further tables (the parser's table list marks the FROM entries written).
 */
function multiTableTargets(root: Node): Node {
  if (root.type !== 'delete' || !Array.isArray(root.from) || !Array.isArray(root.table)) return root;
  const inFrom = new Set(
    (root.from as Node[]).flatMap((f) => [f.as, f.table].filter((x): x is string => typeof x === 'string')),
  );
  const table = (root.table as Node[]).filter((t) => t.db || !inFrom.has(String(t.table)));
  return { ...root, table };
}

function grantObjects(root: Node, a: Analysis): void {
  for (const level of (root.on?.priv_level as Node[] | undefined) ?? []) {
    const prefix = level.prefix ? String(level.prefix) : undefined;
    const name = String(level.name ?? '');
    if (prefix === '*' || (!prefix && name === '*')) {
      a.unplaceable.push(unplaceableEntry('*.*', 'privileges on every object'));
      continue;
    }
    const ref: ObjectRef = { name, access: 'write' };
    if (prefix) ref.schema = prefix;
    addObject(a.objects, ref);
  }
}

interface Ctx {
  ctes: string[][];
  access: Access;
}

/** Keys of a writing statement whose table references are the tables it writes. */
const TARGET_KEYS = new Set(['table', 'name', 'view', 'into']);

class Walker {
  private readonly seen = new Set<string>();
  private readonly cteNames = new Set<string>();
  constructor(
    private readonly a: Analysis,
    private readonly o: EvalOptions,
    private readonly allow?: EngineAllowlist,
  ) {}

  statement(node: Node, ctx: Ctx): void {
    const withs = Array.isArray(node.with) ? (node.with as Node[]) : [];
    const names = withs.map((w) => String(w.name?.value ?? w.name ?? ''));
    for (const n of names) this.cteNames.add(n);
    const recursive = withs.some((w) => w.recursive);
    withs.forEach((w, i) => {
      const visible = recursive ? names : names.slice(0, i);
      this.sub(w.stmt, { ...ctx, ctes: [...ctx.ctes, visible] });
    });
    const inner: Ctx = { ...ctx, ctes: [...ctx.ctes, names] };
    this.effects(node);
    const writes = node.type !== 'select' && (TYPES[String(node.type)]?.[1] ?? 'write') === 'write';
    for (const [key, child] of Object.entries(node)) {
      if (key === 'with' || key === 'tableList' || key === 'columnList') continue;
      const access: Access =
        (writes && TARGET_KEYS.has(key)) || (key === 'into' && child?.expr) ? 'write' : 'read';
      this.visit(child, { ...inner, access });
    }
  }

  /** A sub-statement: `{ast}` wrapper or a bare statement node. */
  private sub(node: Node | undefined, ctx: Ctx): void {
    const stmt = (node?.ast ?? node) as Node | undefined;
    if (!stmt) return;
    this.statement(stmt, { ...ctx, access: 'read' });
  }

  private effects(node: Node): void {
    const t = String(node.type ?? '');
    // A data-modifying statement nested in a CTE or subquery makes the whole statement a write.
    if (t !== 'select' && TYPES[t]?.[1] !== 'read') this.a.kind = 'write';
    if (t === 'select') {
      if (node.into && (node.into.keyword || node.into.expr)) this.a.kind = 'write';
      if (node.locking_read || node.for_update || node.lock) this.a.kind = 'write';
    } else if (t === 'update') {
      if (!node.where) this.a.guardrails.add('update_without_where');
      else if (alwaysTrue(nspWhere(node.where, this.o.pipesAreOr), this.o))
        this.a.guardrails.add('update_always_true');
    } else if (t === 'delete') {
      this.a.guardrails.add('delete');
      if (!node.where || alwaysTrue(nspWhere(node.where, this.o.pipesAreOr), this.o))
        this.a.guardrails.add('delete_without_where');
    } else if (t === 'alter') {
      for (const e of (node.expr as Node[] | undefined) ?? []) {
        if (
          String(e.action).toLowerCase() === 'drop' &&
          ['column', 'partition'].includes(String(e.resource))
        ) {
          this.a.guardrails.add('drop');
        }
      }
    }
  }

  private visit(value: unknown, ctx: Ctx): void {
    if (Array.isArray(value)) {
      for (const v of value) this.visit(v, ctx);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const n = value as Node;
    if (n.ast) {
      this.sub(n, ctx);
      return;
    }
    if (n.type === 'select') {
      this.statement(n, { ...ctx, access: 'read' });
      return;
    }
    if (n.type === 'function' || n.type === 'aggr_func') this.func(n);
    if (typeof n.table === 'string' && n.type !== 'column_ref' && !('column' in n)) this.table(n, ctx);
    if (typeof n.view === 'string') this.table({ db: n.db, table: n.view }, ctx);
    for (const [key, child] of Object.entries(n)) {
      if (key === 'tableList' || key === 'columnList') continue;
      this.visit(child, ctx);
    }
  }

  private func(n: Node): void {
    const parts = (n.name?.name as Node[] | undefined) ?? [];
    const name = String(parts[parts.length - 1]?.value ?? n.name ?? '');
    const qualified = parts.length > 0 ? parts.map((p) => String(p.value ?? '')) : [name];
    if (n.name?.schema?.value) qualified.unshift(String(n.name.schema.value));
    checkFunction(this.a, this.allow, qualified);
    const effect = functionEffect(name);
    if (effect) this.a.kind = 'write';
    if (effect === 'dynamic') {
      this.a.dynamic = true;
      this.a.unplaceable.push(unplaceableEntry(name, 'runs SQL or reads a relation named in a string'));
    }
  }

  private table(n: Node, ctx: Ctx): void {
    const name = String(n.table);
    const schema = n.schema ? String(n.schema) : n.db ? String(n.db) : undefined;
    if (!schema && ctx.ctes.some((scope) => scope.includes(name))) return;
    this.add(schema, name, ctx.access);
    checkRelation(this.a, this.allow, schema, name, true);
  }

  private add(schema: string | undefined, name: string, access: Access): void {
    this.seen.add(`${schema ?? ''}\u0000${name}`);
    const ref: ObjectRef = { name, access };
    if (schema) ref.schema = schema;
    addObject(this.a.objects, ref);
  }

  /** node-sql-parser's own `type::db::table` list: anything the walk missed (CTE names aside) is added. */
  fromTableList(entry: string): void {
    const [type = '', db = 'null', table = 'null'] = entry.split('::');
    if (table === 'null' || table === '') return;
    const schema = db === 'null' ? undefined : db.split('.').pop();
    const access: Access = type.toLowerCase() === 'select' ? 'read' : 'write';
    const key = `${schema ?? ''}\u0000${table}`;
    if (this.seen.has(key)) {
      if (access === 'write') this.add(schema, table, 'write');
      return;
    }
    if (!schema && this.cteNames.has(table)) return;
    this.add(schema, table, access);
  }
}
