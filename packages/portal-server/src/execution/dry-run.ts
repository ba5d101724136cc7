// Guardrails judged by effect (issue 27; docs/portal-governance.md "Dry runs"): a guarded UPDATE, DELETE,
// upsert or MERGE is first run in a transaction that is always rolled back, under the engine's lock and
// statement timeouts (its descriptor's `dryRun` rules), counting the rows it touches in the table it writes
// and, where the engine tells (`changedRows`: PostgreSQL), the rows triggers and cascades change elsewhere.
// Governance decides what to dry-run and what the counts mean (governance/effect.ts); this file only runs
// it. On the caller's open transaction it runs inside a savepoint that is rolled back. Nothing is committed:
// a failure anywhere ends in a rollback, and a session whose rollback fails is closed (its connection ends).
import type { DryRunRules } from '../providers/engine.js';
import { engineDescriptor } from '../providers/registry.js';
import type { ExecOptions, ParamValue, Provider, ProviderSession } from '../providers/types.js';
import type { DryRunCount } from '../storage/approvals.js';

/** One statement of the script, in order; `table` set for the guarded ones whose rows are counted. */
export interface DryRunStep {
  index: number;
  text: string;
  /** The written table as the engine names it (schema-qualified when the statement qualified it). */
  table?: { schema?: string; name: string };
  /** An upsert: rows it inserts are not rows it touched. */
  upsert: boolean;
}

const NO_ROWS: ExecOptions = { maxRows: 0 };
const SAVEPOINT = 'portal_dry_run';
/** Rows of a RETURNING clause a dry run reads at most. */
const COUNT_CEILING = 100_000;

/** The engine's identifier quoting (an engine speaking another's dialect, like libSQL, carries its rules). */
function quoteFor(engine: string): (id: string) => string {
  return engineDescriptor(engine)?.sqlDialect.quote ?? ((id) => `"${id.replaceAll('"', '""')}"`);
}

async function countRows(run: ProviderSession, quoted: string): Promise<number> {
  const r = await run.query(`SELECT COUNT(*) AS n FROM ${quoted}`, [], { maxRows: 1 });
  const row = r.rows[0] ?? {};
  return Number(Object.values(row)[0] ?? 0);
}

interface TableChanges {
  root: string;
  name: string;
  ins: number;
  upd: number;
  del: number;
}

/** This transaction's changed rows per table so far (the engine's `changedRows` query), by relid. */
async function changesSoFar(run: ProviderSession, query: string): Promise<Map<string, TableChanges>> {
  const r = await run.query(query, [], { maxRows: COUNT_CEILING });
  const out = new Map<string, TableChanges>();
  for (const row of r.rows) {
    out.set(String(row.relid), {
      root: String(row.root),
      name: String(row.name),
      ins: Number(row.ins),
      upd: Number(row.upd),
      del: Number(row.del),
    });
  }
  return out;
}

/** What changed between two readings, per table (partitions folded into the table they belong to). */
function changedBetween(before: Map<string, TableChanges>, after: Map<string, TableChanges>) {
  const out = new Map<string, { name: string; ins: number; upd: number; del: number }>();
  for (const [relid, a] of after) {
    const b = before.get(relid);
    const d = { ins: a.ins - (b?.ins ?? 0), upd: a.upd - (b?.upd ?? 0), del: a.del - (b?.del ?? 0) };
    if (d.ins + d.upd + d.del === 0) continue;
    const root = after.get(a.root);
    const key = a.root;
    const sum = out.get(key) ?? { name: root?.name ?? a.name, ins: 0, upd: 0, del: 0 };
    out.set(key, { name: sum.name, ins: sum.ins + d.ins, upd: sum.upd + d.upd, del: sum.del + d.del });
  }
  return out;
}

async function runSteps(
  s: ProviderSession,
  engine: string,
  rules: DryRunRules,
  steps: DryRunStep[],
  params: ParamValue[],
): Promise<DryRunCount[]> {
  const quote = quoteFor(engine);
  const counts: DryRunCount[] = [];
  for (const step of steps) {
    // A script's parameters belong to its only statement (the routes bind parameters to one statement).
    const args = steps.length === 1 ? params : [];
    if (!step.table) {
      await s.query(step.text, args, NO_ROWS);
      continue;
    }
    const quoted = [step.table.schema, step.table.name]
      .filter((p): p is string => Boolean(p))
      .map(quote)
      .join('.');
    const total = await countRows(s, quoted);
    const before = rules.changedRows ? await changesSoFar(s, rules.changedRows) : undefined;
    // RETURNING rows are counted by the rows returned: read them all (a truncated answer touched too many).
    const r = await s.query(step.text, args, { maxRows: COUNT_CEILING });
    let touched = r.truncated ? Math.max(r.rowCount, total) : r.rowCount;
    if (step.upsert) {
      // Rows an upsert inserted are new; the rest of what it reports are existing rows it changed.
      const inserted = Math.max(0, (await countRows(s, quoted)) - total);
      touched = Math.max(0, Math.ceil((touched - inserted) / rules.updatedRowWeight));
    }
    const own = { statement: step.index, table: quoted, touched, total, reported: r.rowCount };
    counts.push(own);
    if (!before || !rules.changedRows || !rules.tableId) continue;
    // Triggers and cascades: every table whose rows this statement changed, its own included (a trigger
    // on it may change more of its rows than the statement reports).
    const target = await s.query(rules.tableId, [quoted], { maxRows: 1 });
    const targetId = String(target.rows[0]?.relid ?? '');
    for (const [relid, d] of changedBetween(before, await changesSoFar(s, rules.changedRows))) {
      if (relid === targetId) {
        own.touched = Math.max(own.touched, d.upd + d.del);
        continue;
      }
      const now = await countRows(s, d.name);
      counts.push({
        statement: step.index,
        table: d.name,
        touched: d.upd + d.del,
        total: Math.max(0, now + d.del - d.ins),
        reported: 0,
        indirect: true,
        inserted: d.ins,
      });
    }
  }
  return counts;
}

/**
 * Runs `steps` in a transaction that is rolled back and answers the per-table counts. `session` is the
 * caller's open transaction (a savepoint is used), or undefined to take a connection of `provider`'s pool.
 * Throws when the engine cannot dry-run (no rules, no savepoints in an open transaction) or a step fails.
 */
export async function dryRun(
  engine: string,
  target: { provider?: Provider; session?: ProviderSession },
  steps: DryRunStep[],
  params: ParamValue[],
): Promise<DryRunCount[]> {
  const rules = engineDescriptor(engine)?.dryRun;
  if (!rules) throw new Error(`${engine} has no dry run`);
  if (target.session) {
    if (!rules.savepoints) throw new Error(`${engine} has no savepoints for a dry run in a transaction`);
    const s = target.session;
    await s.query(`SAVEPOINT ${SAVEPOINT}`, [], NO_ROWS);
    try {
      return await runSteps(s, engine, rules, steps, params);
    } finally {
      await s.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`, [], NO_ROWS);
    }
  }
  if (!target.provider) throw new Error('no connection for a dry run');
  const s = await target.provider.openSession();
  let clean = false;
  try {
    await s.begin();
    for (const stmt of rules.enter) await s.query(stmt, [], NO_ROWS);
    const counts = await runSteps(s, engine, rules, steps, params);
    return counts;
  } finally {
    try {
      await s.rollback();
      for (const stmt of rules.reset ?? []) await s.query(stmt, [], NO_ROWS);
      clean = true;
    } finally {
      // A connection that could not be rolled back or reset must not go back to the pool as it is.
      if (!clean) await s.query('ROLLBACK', [], NO_ROWS).catch(() => undefined);
      await s.close();
    }
  }
}
