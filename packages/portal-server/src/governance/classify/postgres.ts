// Reads one statement's libpg-query tree (PostgreSQL's own grammar; DuckDB's where it parses): statement
// type, read or write, guardrails, and the relations it reaches with CTE names scoped as PostgreSQL does.
// Anything not known to be a read is a write; data-modifying CTEs, SELECT … INTO, locking reads, writing
// functions and EXPLAIN ANALYZE all write.

import { checkFunction, checkOperator, checkRelation, type EngineAllowlist } from './allowlist.js';
import { alwaysTrue } from './always-true.js';
import { functionEffect } from './functions.js';
import { addObject, splitQualified, unplaceableEntry } from './objects.js';
import { pgExpr } from './pg-expr.js';
import { pgStatementInfo } from './pg-statements.js';
import { type Access, type Analysis, emptyAnalysis, type ObjectRef } from './types.js';

type Node = Record<string, any>;

interface Ctx {
  /** CTE names visible here, innermost last. */
  ctes: string[][];
  access: Access;
  /** False under a plain EXPLAIN: nothing in the tree runs. */
  executing: boolean;
  /** The engine's allowlist (unknown functions and relations are unverifiable). */
  allow?: EngineAllowlist;
}

/** Keys of a statement node that name the relations it writes. */
const WRITE_TARGETS: Record<string, string[]> = {
  InsertStmt: ['relation'],
  UpdateStmt: ['relation'],
  DeleteStmt: ['relation'],
  MergeStmt: ['relation'],
  TruncateStmt: ['relations'],
  LockStmt: ['relations'],
  VacuumStmt: ['rels'],
  AlterTableStmt: ['relation'],
  RenameStmt: ['relation'],
  IndexStmt: ['relation'],
  CreateStmt: ['relation'],
  ViewStmt: ['view'],
  CreateTableAsStmt: ['into'],
  RuleStmt: ['relation'],
  CreateTrigStmt: ['relation'],
  RefreshMatViewStmt: ['relation'],
  ClusterStmt: ['relation'],
  ReindexStmt: ['relation'],
  CopyStmt: ['relation'],
  CreatePolicyStmt: ['table'],
  AlterPolicyStmt: ['table'],
  AlterObjectSchemaStmt: ['relation'],
  AlterOwnerStmt: ['relation'],
  CreateStatsStmt: ['relations'],
  SelectStmt: ['intoClause'],
};

const DML_KEYWORDS: Record<string, string[]> = {
  DeleteStmt: ['DELETE'],
  UpdateStmt: ['UPDATE', 'SET'],
  InsertStmt: ['INSERT', 'INTO'],
  MergeStmt: ['MERGE', 'INTO', 'UPDATE', 'DELETE', 'INSERT', 'SET', 'DO'],
};

export function analyzePg(stmt: Node, allow?: EngineAllowlist): Analysis {
  const [type, node] = Object.entries(stmt)[0] as [string, Node];
  const info = pgStatementInfo(type, node);
  const a = emptyAnalysis(info.statementType, info.kind);
  for (const g of info.guardrails) a.guardrails.add(g);
  a.transactionControl = info.transactionControl;
  a.changesResolution = info.changesResolution;
  a.dynamic = info.dynamic;
  if (info.unplaceable) a.unplaceable.push(info.unplaceable);
  if (type === 'PrepareStmt') a.prepares = String(node.name);
  if (type === 'ExecuteStmt') a.executes = String(node.name);
  if (type === 'ExplainStmt') a.explained.add('ANALYZE');
  if (type === 'CopyStmt' && a.kind === 'read') a.explained.add('COPY');
  // A plain EXPLAIN runs nothing: its inner statement's effects do not count, its reach does.
  const executing = type !== 'ExplainStmt' || explainAnalyzes(node);
  visitNode(type, node, a, { ctes: [], access: 'read', executing, allow });
  return a;
}

function explainAnalyzes(node: Node): boolean {
  for (const opt of (node.options as Node[] | undefined) ?? []) {
    const d = opt.DefElem as Node | undefined;
    if (d?.defname !== 'analyze') continue;
    const arg = d.arg as Node | undefined;
    if (!arg) return true;
    if (arg.Boolean) return arg.Boolean.boolval === true;
    if (arg.Integer) return Number(arg.Integer.ival ?? 0) !== 0;
    // Any other spelling (on, yes, true, …) is taken as ANALYZE: reading it as a plain EXPLAIN could miss a write.
    return !['false', 'off', 'no', '0'].includes(String(arg.String?.sval ?? '').toLowerCase());
  }
  return false;
}

function visit(value: unknown, a: Analysis, ctx: Ctx): void {
  if (Array.isArray(value)) {
    for (const v of value) visit(v, a, ctx);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const obj = value as Node;
  if (typeof obj.relname === 'string') {
    relation(obj, a, ctx);
    return;
  }
  for (const [key, child] of Object.entries(obj)) {
    if (/^[A-Z]/.test(key) && child && typeof child === 'object' && !Array.isArray(child))
      visitNode(key, child, a, ctx);
    else visit(child, a, ctx);
  }
}

function relation(rv: Node, a: Analysis, ctx: Ctx): void {
  const name = String(rv.relname);
  if (!rv.schemaname && ctx.ctes.some((scope) => scope.includes(name))) return;
  const ref: ObjectRef = { name, access: ctx.access };
  if (rv.schemaname) ref.schema = String(rv.schemaname);
  addObject(a.objects, ref);
  checkRelation(a, ctx.allow, ref.schema, name, ctx.executing);
}

function visitNode(type: string, node: Node, a: Analysis, ctx: Ctx): void {
  if (typeof node.relname === 'string') {
    relation(node, a, ctx);
    return;
  }
  for (const k of DML_KEYWORDS[type] ?? []) a.explained.add(k);
  // Names resolved at parse or plan time: counted even under a plain EXPLAIN.
  addresses(type, node, a, ctx.allow);
  if (ctx.executing) effects(type, node, a, ctx.allow);
  if (type === 'DropStmt') {
    dropObjects(node, a);
    return;
  }
  if (type === 'GrantStmt') {
    grantObjects(node, a, ctx);
    return;
  }
  const withClause = node.withClause as Node | undefined;
  if (withClause) {
    const { withClause: _w, ...rest } = node;
    withCtes(withClause, ctx, a, (inner) => visitNode(type, rest, a, inner));
    return;
  }
  const targets = ctx.executing ? (WRITE_TARGETS[type] ?? []) : [];
  const copyOut = type === 'CopyStmt' && !node.is_from;
  for (const [key, child] of Object.entries(node)) {
    const write = targets.includes(key) && !copyOut;
    visit(child, a, write ? { ...ctx, access: 'write' } : ctx);
  }
}

function withCtes(w: Node, ctx: Ctx, a: Analysis, body: (ctx: Ctx) => void): void {
  const ctes = ((w.ctes as Node[]) ?? []).map((c) => c.CommonTableExpr as Node);
  const names = ctes.map((c) => String(c.ctename));
  ctes.forEach((cte, i) => {
    // A non-recursive CTE sees only the CTEs before it; a name used earlier refers to a real relation.
    const visible = w.recursive ? names : names.slice(0, i);
    visit(cte.ctequery, a, { ...ctx, ctes: [...ctx.ctes, visible] });
  });
  body({ ...ctx, ctes: [...ctx.ctes, names] });
}

/** Effects of a node that runs: writes, guardrails, unplaceable reach. */
function effects(type: string, node: Node, a: Analysis, allow: EngineAllowlist | undefined): void {
  switch (type) {
    case 'DeleteStmt':
      a.kind = 'write';
      a.guardrails.add('delete');
      if (!node.whereClause || alwaysTrue(pgExpr(node.whereClause), { pipesAreOr: false })) {
        a.guardrails.add('delete_without_where');
      }
      break;
    case 'UpdateStmt':
      a.kind = 'write';
      if (!node.whereClause) a.guardrails.add('update_without_where');
      else if (alwaysTrue(pgExpr(node.whereClause), { pipesAreOr: false }))
        a.guardrails.add('update_always_true');
      break;
    case 'InsertStmt':
    case 'MergeStmt':
      a.kind = 'write';
      break;
    case 'MergeWhenClause':
      if (node.commandType === 'CMD_DELETE') a.guardrails.add('delete');
      break;
    case 'SelectStmt':
      if (node.intoClause) {
        a.kind = 'write';
        a.explained.add('INTO');
      }
      if ((node.lockingClause?.length ?? 0) > 0) {
        a.kind = 'write';
        a.explained.add('UPDATE');
      }
      break;
    case 'AlterTableCmd': {
      const sub = String(node.subtype);
      if (sub === 'AT_DropColumn') a.guardrails.add('drop');
      if (sub === 'AT_ChangeOwner' || sub.includes('RowSecurity')) a.guardrails.add('grant');
      break;
    }
    case 'A_Expr':
      // Operators by symbol (BETWEEN, IN, LIKE … carry fixed names and are not user operators).
      if (['AEXPR_OP', 'AEXPR_OP_ANY', 'AEXPR_OP_ALL'].includes(String(node.kind)))
        checkOperator(a, allow, typeParts({ names: node.name }));
      break;
    case 'SortBy': // ORDER BY a USING op
    case 'SubLink': // a op ANY (SELECT …)
      if (node.useOp || node.operName)
        checkOperator(a, allow, typeParts({ names: node.useOp ?? node.operName }));
      break;
    case 'FuncCall': {
      const names = (node.funcname as Node[]) ?? [];
      const fn = String(names[names.length - 1]?.String?.sval ?? '');
      checkFunction(
        a,
        allow,
        names.map((n) => String(n.String?.sval ?? '')),
      );
      const effect = functionEffect(fn);
      if (effect) a.kind = 'write';
      if (effect === 'dynamic') {
        a.dynamic = true;
        a.unplaceable.push(unplaceableEntry(fn, 'runs SQL or reads a relation named in a string'));
      }
      break;
    }
  }
}

const typeParts = (tn: Node | undefined): string[] =>
  ((tn?.names as Node[] | undefined) ?? []).map((n) => String(n.String?.sval ?? ''));

/** The object a literal address names: `'public.secret'`, `'"Secret"'`, `'secret[]'` (a type's array). */
function literalObject(text: string, kind: 'relation' | 'schema'): ObjectRef | undefined {
  // A type modifier, array bounds or a function's argument list are not part of the name.
  const bare = text.replace(/\s*(\(.*\)|\[.*\])\s*$/s, '');
  const parts = splitQualified(bare).filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  if (kind === 'schema') return { schema: parts[parts.length - 1], name: '*', access: 'read' };
  const ref: ObjectRef = { name: parts[parts.length - 1], access: 'read' };
  if (parts.length > 1) ref.schema = parts[parts.length - 2];
  return ref;
}

/** An address the classifier cannot read (a number, a column, an expression): unplaceable reach. */
function opaqueAddress(a: Analysis, subject: string): void {
  const entry = unplaceableEntry(subject, 'resolves an object by a value the classifier cannot read');
  if (!a.unplaceable.includes(entry)) a.unplaceable.push(entry);
}

/**
 * Object addresses (docs/portal-governance.md "Hidden objects"): a cast to a type that is not built in names
 * that type's object (a table's row type: `NULL::secret`); a literal cast to regclass, regtype or
 * regnamespace, and the literal arguments of functions resolving or describing objects (`to_regclass`,
 * `has_table_privilege`), name the object they resolve; any other value there is reach the object rules
 * cannot place. So a hidden table's existence is as hidden as its rows.
 */
function addresses(type: string, node: Node, a: Analysis, allow: EngineAllowlist | undefined): void {
  const rules = allow?.addresses;
  if (!rules) return;
  const typeName = type === 'TypeName' ? node : (node.typeName as Node | undefined);
  const parts = typeParts(typeName);
  if (parts.length > 0) {
    const name = parts[parts.length - 1].toLowerCase();
    const schema = parts.length > 1 ? parts[parts.length - 2].toLowerCase() : undefined;
    const builtin = schema ? schema === 'pg_catalog' : rules.builtinTypes.has(name);
    if (!builtin) {
      const ref: ObjectRef = { name: parts[parts.length - 1], access: 'read' };
      if (schema) ref.schema = parts[parts.length - 2];
      addObject(a.objects, ref);
    }
    const kind = rules.addressTypes[name];
    if (type === 'TypeCast' && kind && (!schema || schema === 'pg_catalog')) {
      const literal = node.arg?.A_Const?.sval?.sval;
      const ref = typeof literal === 'string' ? literalObject(literal, kind) : undefined;
      if (ref) addObject(a.objects, ref);
      else opaqueAddress(a, `::${name}`);
    }
  }
  if (type === 'FuncCall') {
    const names = typeParts({ names: node.funcname });
    const fn = (names[names.length - 1] ?? '').toLowerCase();
    if (!rules.addressFunctions.has(fn)) return;
    for (const arg of (node.args as Node[] | undefined) ?? []) {
      const c = arg.A_Const as Node | undefined;
      if (c?.isnull) continue;
      const literal = c?.sval?.sval;
      const ref = typeof literal === 'string' ? literalObject(literal, 'relation') : undefined;
      if (ref) addObject(a.objects, ref);
      else opaqueAddress(a, `${fn}()`);
    }
  }
}

const namesOf = (n: Node): string[] => {
  if (n.List) return (n.List.items as Node[]).map((i) => String(i.String?.sval ?? ''));
  if (n.String) return [String(n.String.sval)];
  if (n.ObjectWithArgs)
    return ((n.ObjectWithArgs.objname as Node[]) ?? []).map((i) => String(i.String?.sval ?? ''));
  if (n.TypeName) return ((n.TypeName.names as Node[]) ?? []).map((i) => String(i.String?.sval ?? ''));
  return [];
};

/** DROP names objects as name lists; a dropped schema reaches everything in it. */
function dropObjects(node: Node, a: Analysis): void {
  const type = String(node.removeType);
  for (const item of (node.objects as Node[]) ?? []) {
    let names = namesOf(item);
    if (type === 'OBJECT_SCHEMA') {
      for (const s of names) addObject(a.objects, { schema: s, name: '*', access: 'write' });
      continue;
    }
    // DROP TRIGGER / RULE / POLICY name ON table: the table is the reach.
    if (['OBJECT_TRIGGER', 'OBJECT_RULE', 'OBJECT_POLICY'].includes(type)) names = names.slice(0, -1);
    const name = names[names.length - 1];
    if (!name) continue;
    const ref: ObjectRef = { name, access: 'write' };
    if (names.length > 1) ref.schema = names[names.length - 2];
    addObject(a.objects, ref);
  }
}

function grantObjects(node: Node, a: Analysis, ctx: Ctx): void {
  const objs = (node.objects as Node[]) ?? [];
  if (node.targtype === 'ACL_TARGET_ALL_IN_SCHEMA' || node.objtype === 'OBJECT_SCHEMA') {
    for (const o of objs)
      for (const s of namesOf(o)) addObject(a.objects, { schema: s, name: '*', access: 'write' });
    return;
  }
  for (const o of objs) {
    if (o.RangeVar) relation(o.RangeVar, a, { ...ctx, access: 'write' });
    else if (o.ObjectWithArgs) {
      const names = namesOf(o);
      const ref: ObjectRef = { name: names[names.length - 1], access: 'write' };
      if (names.length > 1) ref.schema = names[names.length - 2];
      addObject(a.objects, ref);
    }
  }
}
