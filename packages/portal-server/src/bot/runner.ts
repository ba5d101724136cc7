// Running bot requests and following their approvals: `executeNow` (a request that may run, inline for the
// 200 answer or on the worker), the `bot.execute` job (an approved request: policy checked again, then run
// at most once), `applyApproval` (a reviewer's final decision, from the session route or chat, moves the
// request on) and `reconcile` (catches up on decisions and expiries another process made or missed).
import { HttpError } from '@app/kit';
import type { ManagedDatasource } from '../datasources/types.js';
import { boundedStatement } from '../execution/audit-lines.js';
import type { ApprovalHold } from '../execution/contracts.js';
import {
  type DecisionRequest,
  decideGoverned,
  executeGoverned,
  requestGovernedApproval,
} from '../execution/pipeline.js';
import { managedTarget } from '../execution/target.js';
import type { Job } from '../storage/jobs.js';
import type { ServiceToken } from '../storage/service-tokens.js';
import {
  type BotContext,
  type Classified,
  classifyFor,
  datasourceForToken,
  tokenPrincipal,
} from './context.js';
import { errorWord, failed, runStatements } from './execute.js';
import { queueCallback, queueChat, queueRun } from './outbox.js';
import type { BotOutcome, BotRequest, ExecutionError } from './types.js';

export interface RunFor {
  requestId: string;
  token: ServiceToken;
  onBehalfOf: string;
  ticket?: string;
  /** Reviewers whose approval let it run (audit `approved_by`). */
  approvedBy?: string[];
  /** The approval record that let it run, when there is one. */
  approvalId?: string;
}

/**
 * Runs the classified statements on the datasource through the governed pipeline (execution/pipeline.ts):
 * policy gates read again, the concurrency slot, reads where the engine refuses writes, maskers per
 * statement, one `query_execution` audit line per statement. Governance refusals (429 slot full, 403) are
 * thrown; a connection failure is a failed outcome. `onAdmitted` runs once the slot is held, before the run.
 */
export async function executeNow(
  ctx: BotContext,
  ds: ManagedDatasource,
  classified: Classified,
  who: RunFor,
  onAdmitted?: () => Promise<void>,
): Promise<BotOutcome> {
  // The target every path opens a managed datasource with (execution/target.ts).
  const target = managedTarget(ctx, ds);
  const factory = target.factory;
  const script = classified.statements.length > 1;
  const base = {
    type: 'query_execution',
    actor: `token:${who.token.name}`,
    connection: ds.id,
    connectionName: ds.name,
    engine: ds.type,
    route: '/api/v1/executions',
    requestId: who.requestId,
    onBehalfOf: who.onBehalfOf,
    ...(who.ticket ? { ticket: who.ticket } : {}),
    ...(who.approvedBy?.length ? { approved_by: who.approvedBy } : {}),
  };
  const ceiling = target.maxRows;
  const refusalAuditFields = {
    route: '/api/v1/executions',
    requestId: who.requestId,
    onBehalfOf: who.onBehalfOf,
  };
  try {
    return await executeGoverned(ctx.execution, {
      principal: tokenPrincipal(who.token),
      route: 'bot',
      auditRoute: '/api/v1/executions',
      target,
      sql: classified.sql,
      statements: classified.statements,
      params: [],
      requester: who.onBehalfOf,
      classification: classified.classification,
      ...(who.approvedBy ? { approval: { id: who.approvalId, reviewers: who.approvedBy } } : {}),
      ...(who.ticket ? { ticket: who.ticket } : {}),
      audit: 'per-statement',
      auditFields: {
        requestId: who.requestId,
        onBehalfOf: who.onBehalfOf,
        ...(who.approvedBy?.length ? { approved_by: who.approvedBy } : {}),
      },
      refusalAuditFields,
      onAdmitted,
      // On the governed run itself (not its bare provider): an approved guarded write is held to its
      // approved dry-run counts, as on the session routes.
      run: (exec) =>
        runStatements(exec, classified.statements, {
          dialect: factory.sqlDialect,
          ceiling,
          mask: (index, fields, rows) => exec.mask(fields, rows, index),
          // One `query_execution` line per statement, written by the pipeline (its common fields and ours).
          report: async (r) => {
            await exec.audit({
              statement: boundedStatement(r.statement),
              ...(script ? { statementIndex: r.index } : {}),
              result: r.ok ? 'success' : 'failure',
              rowCount: r.rowCount,
              durationMs: r.durationMs,
              // An engine message can quote values of masked columns back: withheld when the statement reads one.
              ...(r.ok
                ? {}
                : {
                    error: exec.masks(r.index)
                      ? 'engine message withheld (the statement reads masked columns)'
                      : r.message,
                    errorCode: r.errorCode,
                  }),
            });
          },
        }),
    });
  } catch (err) {
    // Governance refused (429, 403) or `onAdmitted` stopped it: the caller decides.
    if (err instanceof HttpError || err instanceof Skipped) throw err;
    // Opening the connection failed: nothing ran.
    await ctx.audit.record({ ...base, statement: '', result: 'failure', error: (err as Error).message });
    return { execution: failed(errorWord(err)) };
  }
}

/**
 * The pipeline's verdict on a submitted request (execution/pipeline.ts decideGoverned), before the bot decides
 * to hold it: the one decide() the session routes get (its dry run, the policy, the masked-column rule), a
 * refusal audited by governance with the bot's fields and thrown; run or hold with the counts an approval shows.
 */
export function judgeSubmission(
  ctx: BotContext,
  ds: ManagedDatasource,
  token: ServiceToken,
  classified: Classified,
  onBehalfOf: string,
  ticket: string | undefined,
) {
  return decideGoverned(ctx.execution, submission(ctx, ds, token, classified, onBehalfOf, ticket));
}

/**
 * The approval a held submission waits for, opened by the pipeline (execution/pipeline.ts
 * requestGovernedApproval), which writes its `approval_requested` line as for a session route's hold, with
 * the bot's fields (`auditFields`: its route, requestId, onBehalfOf, why it waits).
 */
export function requestApproval(
  ctx: BotContext,
  ds: ManagedDatasource,
  token: ServiceToken,
  classified: Classified,
  sub: { onBehalfOf: string; ticket?: string },
  hold: ApprovalHold,
  auditFields: Record<string, unknown>,
) {
  return requestGovernedApproval(
    ctx.execution,
    submission(ctx, ds, token, classified, sub.onBehalfOf, sub.ticket),
    hold,
    { route: '/api/v1/executions', onBehalfOf: sub.onBehalfOf, ...auditFields },
  );
}

/** A submitted request as the pipeline decides about it. */
function submission(
  ctx: BotContext,
  ds: ManagedDatasource,
  token: ServiceToken,
  classified: Classified,
  onBehalfOf: string,
  ticket: string | undefined,
): DecisionRequest {
  return {
    principal: tokenPrincipal(token),
    route: 'bot',
    target: managedTarget(ctx, ds),
    sql: classified.sql,
    statements: classified.statements,
    params: [],
    requester: onBehalfOf,
    classification: classified.classification,
    ...(ticket ? { ticket } : {}),
    refusalAuditFields: { route: '/api/v1/executions', onBehalfOf },
  };
}

/** Thrown by an `onAdmitted` that finds the request changed meanwhile: nothing runs. */
export class Skipped extends Error {}

/** Stores the outcome once and queues what follows it (callback, chat). */
export async function finish(ctx: BotContext, request: BotRequest, outcome: BotOutcome): Promise<BotRequest> {
  let stored = false;
  const done = await ctx.requests.mutate(request.id, (current) => {
    if (current.outcome) return undefined;
    stored = true;
    return { outcome, finished: true };
  });
  if (stored && done) {
    const event = outcome.execution.status === 'done' ? 'execution.done' : 'execution.failed';
    await queueCallback(ctx, done, event);
    await queueChat(ctx, done.id, 'outcome');
  }
  return done ?? request;
}

async function reviewersOf(ctx: BotContext, r: BotRequest): Promise<string[]> {
  if (r.approvedBy?.length) return r.approvedBy.map((m) => m.reviewer);
  if (!r.approvalId) return [];
  const a = await ctx.approvals.get(r.approvalId);
  if (!a) return [];
  if (a.approvals?.length) return a.approvals.map((m) => m.reviewer);
  return a.reviewer ? [a.reviewer] : [];
}

function failWith(ctx: BotContext, r: BotRequest, error: ExecutionError): Promise<unknown> {
  return finish(ctx, r, { execution: failed(error) });
}

/**
 * The `bot.execute` job: an approved request runs once. The gates that do not wait for reviewers (token and
 * datasource still valid, read-only, ticket, freeze window, object rules) are read again, since the
 * configuration may have changed while it waited. A run that began and never recorded an outcome (its
 * worker died) is reported `lost`, never run a second time.
 */
export async function handleExecuteJob(ctx: BotContext, job: Job): Promise<unknown> {
  const { requestId } = job.payload as { requestId: string };
  const r = await ctx.requests.get(requestId);
  if (!r || r.outcome || r.status !== 'approved') return { skipped: true };
  if (r.startedAt) return failWith(ctx, r, 'lost');
  const token = await ctx.tokens.get(r.tokenId);
  if (!token) return failWith(ctx, r, 'policy_denied');
  let ds: ManagedDatasource;
  try {
    ds = datasourceForToken(ctx, token, r.datasourceId);
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    return failWith(ctx, r, status === 503 ? 'datasource_unavailable' : 'policy_denied');
  }
  // Judged once, by the pipeline's own gates as the run begins (the configuration may have changed while it
  // waited): a refusal there is audited by governance and ends the request as policy_denied.
  const classified = await classifyFor(ds, r.statement);
  let started: BotRequest | undefined;
  try {
    const approvedBy = await reviewersOf(ctx, r);
    const outcome = await executeNow(
      ctx,
      ds,
      classified,
      {
        requestId: r.id,
        token,
        onBehalfOf: r.onBehalfOf,
        ticket: r.ticket,
        approvedBy,
        ...(r.approvalId ? { approvalId: r.approvalId } : {}),
      },
      // Marked started only once the slot is held: a full datasource retries the job, never reports it lost.
      async () => {
        started = await ctx.requests.update(r.id, r.version, { started: true });
        if (!started) throw new Skipped('changed');
      },
    );
    await finish(ctx, started as BotRequest, outcome);
    return { status: outcome.execution.status };
  } catch (err) {
    if (err instanceof Skipped) return { skipped: 'changed' };
    // Refused before admission (read-only, ticket, freeze window, object rules, masked column): never ran.
    if (!started && err instanceof HttpError && (err.statusCode === 400 || err.statusCode === 403))
      return failWith(ctx, r, 'policy_denied');
    if ((err as { code?: string }).code === 'CONCURRENCY_LIMIT') {
      // Full: the worker retries the job later (with backoff); the last attempt records the refusal.
      if (job.attempts < job.maxAttempts) throw err;
      return failWith(ctx, r, 'concurrency_limit');
    }
    throw err;
  }
}

/**
 * Applies a settled approval to its bot request: approved → queued for the worker; rejected or expired →
 * rejected (callback `execution.rejected`, outcome in the thread). Idempotent; a pending request only.
 */
export async function applyApproval(ctx: BotContext, approvalId: string): Promise<BotRequest | undefined> {
  const r = await ctx.requests.findByApproval(approvalId);
  if (r?.status !== 'pending') return r;
  const a = await ctx.approvals.get(approvalId);
  if (!a || a.status === 'pending') return r;
  if (a.status === 'approved') {
    const updated = await ctx.requests.update(r.id, r.version, { status: 'approved' });
    if (!updated) return ctx.requests.get(r.id);
    const who = a.approvals?.map((m) => m.reviewer).join(', ') || a.reviewer || 'a reviewer';
    await queueChat(ctx, updated.id, 'decided', `Approved by ${who}; running`);
    return queueRun(ctx, updated);
  }
  const rejection = a.status === 'expired' ? 'expired' : 'rejected';
  const updated = await ctx.requests.update(r.id, r.version, {
    status: 'rejected',
    rejection,
    finished: true,
  });
  if (!updated) return ctx.requests.get(r.id);
  const state =
    rejection === 'expired' ? 'Expired without a decision' : `Rejected by ${a.reviewer ?? 'a reviewer'}`;
  await queueChat(ctx, updated.id, 'decided', state);
  await queueChat(ctx, updated.id, 'outcome');
  await queueCallback(ctx, updated, 'execution.rejected');
  return updated;
}

/**
 * Catches up: pending requests whose approval was decided or expired (a decision made by another process,
 * or expiry, which no listener sees), and approved requests whose run was never queued. Bounded per call.
 */
export async function reconcile(ctx: BotContext, batch = 100): Promise<number> {
  await ctx.approvals.expire();
  let n = 0;
  for (const { approvalId } of await ctx.requests.pendingWithSettledApproval(batch)) {
    await applyApproval(ctx, approvalId);
    n++;
  }
  for (const id of await ctx.requests.approvedWithoutJob(batch)) {
    const r = await ctx.requests.get(id);
    if (r) await queueRun(ctx, r);
    n++;
  }
  return n;
}
