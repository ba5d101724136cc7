// Every plan format the providers produce (`explainFormat`), read into one tree the plan view draws: an
// operation, the object it touches, cost / rows / time where the engine gives them, and children. The hot
// path runs from the root along the heaviest child (time when measured, else cost, else rows).

export interface PlanNode {
  label: string;
  detail?: string;
  cost?: number;
  rows?: number;
  actualRows?: number;
  /** Milliseconds, inclusive of children, when the plan was executed. */
  timeMs?: number;
  loops?: number;
  extra: Record<string, string>;
  children: PlanNode[];
  hot?: boolean;
}

export interface ParsedPlan {
  roots: PlanNode[];
  planningMs?: number;
  executionMs?: number;
  /** What the measures mean, for the legend. */
  metric: 'time' | 'cost' | 'rows' | 'none';
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number.parseFloat(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};

function node(label: string, children: PlanNode[] = []): PlanNode {
  return { label, extra: {}, children };
}

function firstValue(rows: Record<string, unknown>[]): unknown {
  const r = rows[0];
  return r ? Object.values(r)[0] : undefined;
}

function parseJsonish(v: unknown): unknown {
  if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

// ---- PostgreSQL (FORMAT JSON) ----
function pgNode(p: Record<string, unknown>): PlanNode {
  const n = node(
    String(p['Node Type'] ?? 'Node'),
    ((p.Plans as Record<string, unknown>[]) ?? []).map(pgNode),
  );
  const on = p['Relation Name'] ?? p['Index Name'] ?? p['CTE Name'] ?? p['Function Name'];
  const parts = [
    on ? `on ${on}` : '',
    p.Alias && p.Alias !== on ? `as ${p.Alias}` : '',
    p['Index Name'] && p['Relation Name'] ? `using ${p['Index Name']}` : '',
  ];
  n.detail = parts.filter(Boolean).join(' ') || undefined;
  n.cost = num(p['Total Cost']);
  n.rows = num(p['Plan Rows']);
  n.actualRows = num(p['Actual Rows']);
  n.loops = num(p['Actual Loops']);
  const t = num(p['Actual Total Time']);
  if (t !== undefined) n.timeMs = t * (n.loops ?? 1);
  for (const k of [
    'Filter',
    'Index Cond',
    'Hash Cond',
    'Join Filter',
    'Sort Key',
    'Group Key',
    'Join Type',
    'Strategy',
  ]) {
    if (p[k] !== undefined) n.extra[k] = Array.isArray(p[k]) ? (p[k] as unknown[]).join(', ') : String(p[k]);
  }
  return n;
}

function postgres(rows: Record<string, unknown>[]): ParsedPlan {
  const v = parseJsonish(firstValue(rows));
  const top = (Array.isArray(v) ? v[0] : v) as Record<string, unknown> | undefined;
  if (!top?.Plan) return { roots: [], metric: 'none' };
  return {
    roots: [pgNode(top.Plan as Record<string, unknown>)],
    planningMs: num(top['Planning Time']),
    executionMs: num(top['Execution Time']),
    metric: 'none',
  };
}

// ---- MySQL / MariaDB (FORMAT=JSON) ----
const MY_SKIP = new Set([
  'cost_info',
  'used_columns',
  'possible_keys',
  'used_key_parts',
  'key',
  'ref',
  'attached_condition',
  'r_loops',
  'filtered',
  'r_filtered',
]);

function myNode(key: string, o: Record<string, unknown>): PlanNode {
  const n = node(
    o.table_name
      ? `${o.access_type ?? 'table'} ${key === 'table' ? '' : key}`.trim()
      : key.replaceAll('_', ' '),
  );
  if (o.table_name) n.detail = `on ${o.table_name}${o.key ? ` using ${o.key}` : ''}`;
  const ci = (o.cost_info ?? {}) as Record<string, unknown>;
  n.cost = num(ci.prefix_cost) ?? num(ci.query_cost) ?? num(ci.read_cost);
  n.rows = num(o.rows_examined_per_scan) ?? num(o.rows) ?? num(o.rows_produced_per_join);
  n.actualRows = num(o.r_rows);
  n.timeMs = num(o.r_total_time_ms);
  if (typeof o.attached_condition === 'string') n.extra.Condition = o.attached_condition;
  for (const [k, v] of Object.entries(o)) {
    if (MY_SKIP.has(k) || v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      // An array (nested_loop, query_specifications…) is one operation over its items.
      const group = node(k.replaceAll('_', ' '));
      for (const item of v) {
        if (item && typeof item === 'object') {
          const entries = Object.entries(item as Record<string, unknown>);
          // nested_loop items are {table: {...}}; keep the inner object's own name.
          const [only] = entries;
          if (entries.length === 1 && only[1] && typeof only[1] === 'object' && !Array.isArray(only[1]))
            group.children.push(myNode(only[0], only[1] as Record<string, unknown>));
          else group.children.push(myNode(k, item as Record<string, unknown>));
        }
      }
      // The group costs what its last (outermost) item's prefix cost says.
      group.cost = group.children[group.children.length - 1]?.cost;
      n.children.push(group);
    } else n.children.push(myNode(k, v as Record<string, unknown>));
  }
  return n;
}

function mysqlJson(rows: Record<string, unknown>[]): ParsedPlan {
  const v = parseJsonish(firstValue(rows)) as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object') return { roots: [], metric: 'none' };
  const qb = (v.query_block ?? v) as Record<string, unknown>;
  const root = myNode('query_block', qb);
  return { roots: [root], executionMs: root.timeMs, metric: 'none' };
}

// ---- MySQL EXPLAIN ANALYZE (tree text) ----
function mysqlTree(rows: Record<string, unknown>[]): ParsedPlan {
  const text = String(firstValue(rows) ?? '');
  const roots: PlanNode[] = [];
  const stack: { depth: number; n: PlanNode }[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\s*)-> (.*)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length;
    let body = m[2];
    const n = node('');
    const est = /\(cost=([\d.]+)(?:\.\.[\d.]+)? rows=([\d.e+]+)\)/.exec(body);
    if (est) {
      n.cost = num(est[1]);
      n.rows = num(est[2]);
    }
    const act = /\(actual time=([\d.]+)\.\.([\d.]+) rows=([\d.e+]+) loops=(\d+)\)/.exec(body);
    if (act) {
      n.loops = num(act[4]);
      n.timeMs = (num(act[2]) ?? 0) * (n.loops ?? 1);
      n.actualRows = num(act[3]);
    }
    body = body.replace(/\s*\((?:cost|actual time)=[^)]*\)/g, '').trim();
    const on = / on (\S+)/.exec(body);
    n.label = body.split(/ on |:/)[0].trim();
    n.detail = on ? `on ${on[1]}` : body.includes(':') ? body.slice(body.indexOf(':') + 1).trim() : undefined;
    while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
    if (stack.length) stack[stack.length - 1].n.children.push(n);
    else roots.push(n);
    stack.push({ depth, n });
  }
  return { roots, metric: 'none' };
}

// ---- SQLite EXPLAIN QUERY PLAN ----
function sqlite(rows: Record<string, unknown>[]): ParsedPlan {
  const byId = new Map<number, PlanNode>();
  const roots: PlanNode[] = [];
  for (const r of rows) {
    const detail = String(r.detail ?? '');
    const m =
      /^(SCAN|SEARCH|USE TEMP B-TREE|CO-ROUTINE|MATERIALIZE|COMPOUND QUERY|LEFT-MOST SUBQUERY|UNION ALL|UNION USING TEMP B-TREE|LIST SUBQUERY|CORRELATED SCALAR SUBQUERY|SCALAR SUBQUERY|MULTI-INDEX OR|INDEX|BLOOM FILTER)?\s*(.*)$/.exec(
        detail,
      );
    const n = node(m?.[1] || detail);
    if (m?.[1] && m[2]) n.detail = m[2];
    byId.set(Number(r.id), n);
    const parent = byId.get(Number(r.parent));
    if (parent && Number(r.parent) !== 0) parent.children.push(n);
    else roots.push(n);
  }
  return { roots, metric: 'none' };
}

// ---- DuckDB (FORMAT JSON) ----
function duckNode(o: Record<string, unknown>): PlanNode {
  const name = String(o.name ?? o.operator_name ?? o.operator_type ?? 'operator').trim();
  const n = node(name, ((o.children as Record<string, unknown>[]) ?? []).map(duckNode));
  const info = (o.extra_info ?? {}) as Record<string, unknown>;
  if (typeof info === 'object') {
    for (const [k, v] of Object.entries(info)) n.extra[k] = Array.isArray(v) ? v.join(', ') : String(v);
    n.rows = num(info['Estimated Cardinality']);
    if (info.Table) n.detail = `on ${info.Table}`;
  }
  n.actualRows = num(o.operator_cardinality);
  const t = num(o.operator_timing);
  if (t !== undefined) n.timeMs = t * 1000;
  return n;
}

function duckdb(rows: Record<string, unknown>[]): ParsedPlan {
  const out: PlanNode[] = [];
  for (const r of rows) {
    const v = parseJsonish(r.explain_value ?? Object.values(r)[1] ?? Object.values(r)[0]);
    const list = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
    for (const item of list) {
      const o = item as Record<string, unknown>;
      // ANALYZE wraps the tree in a query node whose children are the operators.
      if (o.children && !o.name && !o.operator_name && !o.operator_type)
        out.push(...(o.children as Record<string, unknown>[]).map(duckNode));
      else out.push(duckNode(o));
    }
  }
  return { roots: out, metric: 'none' };
}

// ---- SQL Server showplan XML ----
function mssql(rows: Record<string, unknown>[]): ParsedPlan {
  const xml = rows
    .map((r) => Object.values(r).find((v) => typeof v === 'string' && v.includes('<ShowPlanXML')))
    .find(Boolean) as string | undefined;
  if (!xml || typeof DOMParser === 'undefined') return { roots: [], metric: 'none' };
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const relOp = (el: Element): PlanNode => {
    const n = node(el.getAttribute('PhysicalOp') ?? 'Operator');
    const logical = el.getAttribute('LogicalOp');
    const obj = Array.from(el.children).flatMap((c) => Array.from(c.getElementsByTagName('Object')))[0];
    n.detail =
      [
        logical && logical !== n.label ? logical : '',
        obj
          ? `on ${obj.getAttribute('Table') ?? ''}${obj.getAttribute('Index') ? ` using ${obj.getAttribute('Index')}` : ''}`
          : '',
      ]
        .filter(Boolean)
        .join(' ')
        .replaceAll('[', '')
        .replaceAll(']', '') || undefined;
    n.cost = num(el.getAttribute('EstimatedTotalSubtreeCost'));
    n.rows = num(el.getAttribute('EstimateRows'));
    const counters = Array.from(el.children).find((c) => c.localName === 'RunTimeInformation');
    if (counters) {
      let rowsSum = 0;
      let time = 0;
      for (const t of Array.from(counters.children)) {
        rowsSum += num(t.getAttribute('ActualRows')) ?? 0;
        time = Math.max(time, num(t.getAttribute('ActualElapsedms')) ?? 0);
      }
      n.actualRows = rowsSum;
      n.timeMs = time;
    }
    const kids: Element[] = [];
    const walk = (e: Element) => {
      for (const c of Array.from(e.children)) {
        if (c.localName === 'RelOp') kids.push(c);
        else walk(c);
      }
    };
    walk(el);
    n.children = kids.map(relOp);
    return n;
  };
  const tops: PlanNode[] = [];
  for (const stmt of Array.from(doc.getElementsByTagName('QueryPlan'))) {
    const first = Array.from(stmt.children).find((c) => c.localName === 'RelOp');
    if (first) tops.push(relOp(first));
  }
  return { roots: tops, metric: 'none' };
}

// ---- Oracle DBMS_XPLAN (text table) ----
function oracle(rows: Record<string, unknown>[]): ParsedPlan {
  const lines = rows.map((r) => String(Object.values(r)[0] ?? ''));
  let header: string[] | undefined;
  const roots: PlanNode[] = [];
  const stack: { depth: number; n: PlanNode }[] = [];
  for (const line of lines) {
    if (!line.startsWith('|')) continue;
    const cells = line.split('|').slice(1, -1);
    if (!header) {
      if (cells.some((c) => c.trim() === 'Id')) header = cells.map((c) => c.trim());
      continue;
    }
    const at = (name: string) => {
      const i = header!.indexOf(name);
      return i >= 0 ? cells[i] : undefined;
    };
    const id = at('Id')?.replace('*', '').trim();
    if (!id || !/^\d+$/.test(id)) continue;
    const opCell = at('Operation') ?? '';
    const depth = opCell.length - opCell.trimStart().length;
    const n = node(opCell.trim());
    const name = at('Name')?.trim();
    if (name) n.detail = `on ${name}`;
    n.cost = num(at('Cost (%CPU)')?.replace(/\(.*\)/, '') ?? at('Cost'));
    n.rows = num(at('E-Rows') ?? at('Rows'));
    n.actualRows = num(at('A-Rows'));
    const t = at('A-Time')?.trim();
    if (t && /^\d+:\d+:\d+(\.\d+)?$/.test(t)) {
      const [h, m, s] = t.split(':').map(Number);
      n.timeMs = ((h * 60 + m) * 60 + s) * 1000;
    }
    while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
    if (stack.length) stack[stack.length - 1].n.children.push(n);
    else roots.push(n);
    stack.push({ depth, n });
  }
  return { roots, metric: 'none' };
}

function markHotPath(plan: ParsedPlan): ParsedPlan {
  const all: PlanNode[] = [];
  const walk = (n: PlanNode) => {
    all.push(n);
    n.children.forEach(walk);
  };
  plan.roots.forEach(walk);
  const has = (k: 'timeMs' | 'cost' | 'rows') => all.some((n) => n[k] !== undefined);
  const key = has('timeMs') ? 'timeMs' : has('cost') ? 'cost' : has('rows') ? 'rows' : undefined;
  plan.metric = key === 'timeMs' ? 'time' : (key ?? 'none');
  if (!key) return plan;
  let level = plan.roots;
  while (level.length) {
    const heaviest = level.reduce((a, b) => ((b[key] ?? -1) > (a[key] ?? -1) ? b : a));
    if (heaviest[key] === undefined) break;
    heaviest.hot = true;
    level = heaviest.children;
  }
  return plan;
}

/**
 * The plan format of a result the person asked for by typing the plan statement themselves (SQLite's
 * `EXPLAIN QUERY PLAN …` answers id, parent, notused, detail), so it is drawn as a tree like the Explain
 * button's; undefined for any other result.
 */
export function typedPlanFormat(fields: readonly string[]): string | undefined {
  return fields.join(',') === 'id,parent,notused,detail' ? 'sqlite-query-plan' : undefined;
}

/** Reads a plan result; unknown formats answer no roots (the view then shows the raw rows). */
export function parsePlan(format: string | undefined, rows: Record<string, unknown>[]): ParsedPlan {
  let p: ParsedPlan;
  switch (format) {
    case 'postgres-json':
    case 'postgres-json-analyze':
      p = postgres(rows);
      break;
    case 'mysql-json':
    case 'mariadb-analyze-json':
      p = mysqlJson(rows);
      break;
    case 'mysql-analyze-tree':
      p = mysqlTree(rows);
      break;
    case 'sqlite-query-plan':
      p = sqlite(rows);
      break;
    case 'duckdb-json':
    case 'duckdb-json-analyze':
      p = duckdb(rows);
      break;
    case 'mssql-showplan-xml':
    case 'mssql-statistics-xml':
      p = mssql(rows);
      break;
    case 'oracle-xplan':
    case 'oracle-xplan-allstats':
      p = oracle(rows);
      break;
    default:
      p = { roots: [], metric: 'none' };
  }
  return markHotPath(p);
}
