// The deciding half of governed execution: `decide()` classifies a request (or reuses the caller's
// classification), judges guarded writes by their effect when the pipeline offers a dry run, and evaluates the
// datasource policy, answering run / hold / refuse with the reasons. It takes no slot, opens no approval and
// writes no audit line: the session hooks (session-governance.ts `admit`) and the bot API both call it, so a
// statement is judged by one function whoever sends it. `maskedPredicateRefusal` is the masked-column rule
// (a masked column may not steer a result) both apply before rows are masked.
import type { DatasourcePolicy } from '../datasources/types.js';
import type { ExecutionContext } from '../execution/contracts.js';
import type { DryRunCount } from '../storage/approvals.js';
import { dialectForEngine, type ScriptClassification } from './classify/index.js';
import { dryRunInconclusive, judgeEffect, planEffect } from './effect.js';
import { findMaskedPredicate, maskedPredicateMessage } from './masked-predicates.js';
import {
  evaluatePolicy,
  type PolicyDatasource,
  type PolicyDeny,
  type PolicyHold,
  type PolicyRoute,
} from './policy.js';
import { classifyRequest, policyDatasource } from './request.js';

/** What `decide` answers: the classification it judged, and run, hold (needs reviewers) or refuse. */
export type Verdict = {
  classification: ScriptClassification;
  datasource: PolicyDatasource;
  dryRun?: DryRunCount[];
} & ({ run: true } | { hold: PolicyHold } | { refuse: PolicyDeny });

/** The policy's route words: explain and the object surface read like a query; agent and MCP tools too. */
export function policyRoute(route: ExecutionContext['route']): PolicyRoute {
  switch (route) {
    case 'explain':
    case 'objects':
    case 'agent':
    case 'mcp':
      return 'query';
    default:
      return route;
  }
}

/** Classify + policy for one request (see the file header). `now` is the clock of freeze windows. */
export async function decide(ctx: ExecutionContext, now?: Date): Promise<Verdict> {
  const ds = policyDatasource(ctx);
  const policy = ctx.policy;
  const sql = ctx.sql ?? ctx.statements.join('\n;\n');
  // A classification the caller made already (the bot at submission) is reused: the text is parsed once.
  const classified =
    ctx.classification ??
    (await classifyRequest(sql, ctx.engine, ctx.statements, policy.objectRules?.defaultSchema));
  // Guardrails judged by effect: a guarded write's rolled-back dry run may hold it (every row, maxAffectedRows).
  const judged = await judgeByEffect(ctx, policy, classified);
  const classification = judged.classification;
  const decision = evaluatePolicy({
    session: ctx.session,
    datasource: ds,
    classification,
    route: policyRoute(ctx.route),
    ticket: ctx.ticket,
    requester: ctx.requester ?? ctx.session.username,
    now,
  });
  const base = { classification, datasource: ds, ...(judged.counts ? { dryRun: judged.counts } : {}) };
  if ('deny' in decision) return { ...base, refuse: decision.deny };
  if ('hold' in decision) return { ...base, hold: decision.hold };
  return { ...base, run: true };
}

/**
 * Dry-runs the guarded writes (when the policy's guardrails are on and writes may run at all). Without a dry
 * run on offer (a caller outside the pipeline) the classification stands as it is. Also the pipeline's
 * judgeByEffect step on its own (the bot at submission, through PolicyHooks.judgeEffect).
 */
export async function judgeByEffect(
  ctx: ExecutionContext,
  policy: DatasourcePolicy,
  c: ScriptClassification,
): Promise<{ classification: ScriptClassification; counts?: DryRunCount[] }> {
  if (!policy.guardrails || policy.readOnly || ctx.readOnlyProfile || !c.isWrite || !ctx.dryRun)
    return { classification: c };
  const dialect = dialectForEngine(ctx.engine) ?? ctx.engine;
  const plan = planEffect(c, ctx.engine, dialect);
  if (!plan.steps) return { classification: judgeEffect(c, [], plan.unverifiable, policy.maxAffectedRows) };
  const targets = plan.steps.filter((s) => s.table).map((s) => s.index);
  try {
    const counts = await ctx.dryRun(plan.steps);
    return { classification: judgeEffect(c, counts, [], policy.maxAffectedRows), counts };
  } catch (err) {
    // A statement the engine refuses fails the same way when run; one that could not be judged is held.
    if (!dryRunInconclusive(err)) return { classification: c };
    return { classification: judgeEffect(c, [], targets, policy.maxAffectedRows) };
  }
}

/**
 * The masked-column rule: whoever sees columns masked may not steer by them (a WHERE probe or an ORDER BY
 * would reveal the hidden values row by row). The refusal for the first statement that does, or undefined.
 */
export function maskedPredicateRefusal(
  ctx: Pick<ExecutionContext, 'policy' | 'engine' | 'statements'>,
  classification: ScriptClassification,
): { message: string; statementIndex: number } | undefined {
  const rules = ctx.policy.masking;
  if (rules.length === 0) return undefined;
  const dialect = dialectForEngine(ctx.engine);
  for (let i = 0; i < ctx.statements.length; i++) {
    const found = findMaskedPredicate(rules, dialect, classification.statements[i], ctx.statements[i]);
    if (found) return { message: maskedPredicateMessage(found), statementIndex: i };
  }
  return undefined;
}
