// Running bot requests and following their approvals: `executeNow` (a request that may run, inline for the
// 200 answer or on the worker), the `bot.execute` job (an approved request: policy checked again, then run
// at most once), `applyApproval` (a reviewer's final decision, from the session route or chat, moves the
// request on) and `reconcile` (catches up on decisions and expiries another process made or missed).
import type { ManagedDatasource } from '../datasources/types.js';
import type { Dialect } from '../governance/classify/index.js';
import { statementMasker } from '../governance/masking.js';
import { effectivePolicy } from '../governance/policy.js';
import { readOnlyProvider } from '../governance/read-only.js';
import type { Job } from '../storage/jobs.js';
import type { ServiceToken } from '../storage/service-tokens.js';
import {
  type BotContext,
  type Classified,
  classifyFor,
  datasourceForToken,
  descriptorOf,
  policyFor,
} from './context.js';
import { errorWord, failed, runStatements } from './execute.js';
import { queueCallback, queueChat, queueRun } from './outbox.js';
import type { BotOutcome, BotRequest, ExecutionError } from './types.js';

const AUDIT_STATEMENT_MAX = 10_000;

export interface RunFor {
  requestId: string;
  token: ServiceToken;
  onBehalfOf: string;
  ticket?: string;
  /** Reviewers whose approval let it run (audit `approved_by`). */
  approvedBy?: string[];
}

/**
 * Runs the classified statements on the datasource: maskers built per statement from the datasource's
 * masking rules, one `query_execution` audit line per statement. Never throws: a connection failure is a
 * failed outcome.
 */
export async function executeNow(
  ctx: BotContext,
  ds: ManagedDatasource,
  classified: Classified,
  who: RunFor,
): Promise<BotOutcome> {
  const factory = ctx.providers.registry.get(ds.type);
  const rules = ds.policy.masking ?? [];
  const maskers = await Promise.all(
    classified.statements.map((_, i) =>
      statementMasker(rules, ds.type as Dialect, classified.classification.statements[i], ctx.maskingKey),
    ),
  );
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
  const ceiling = ds.policy.maxRows && ds.policy.maxRows > 0 ? ds.policy.maxRows : 100_000;
  // The database as the last line (DESIGN §5): reads — and everything on a read-only datasource — run where
  // the engine itself refuses writes, as on the session routes.
  const policy = effectivePolicy({
    id: ds.id,
    name: ds.name,
    engine: ds.type,
    managed: true,
    policy: ds.policy as unknown as Record<string, unknown>,
  });
  const readOnly = policy.readOnly || !classified.classification.isWrite;
  try {
    return await ctx.providers.use(descriptorOf(ds), (raw) =>
      runStatements(readOnly ? readOnlyProvider(raw) : raw, classified.statements, {
        dialect: factory.dialect,
        ceiling,
        mask: (index, fields, rows) => maskers[index].maskObjects(fields, rows),
        report: async (r) => {
          const statement =
            r.statement.length > AUDIT_STATEMENT_MAX
              ? `${r.statement.slice(0, AUDIT_STATEMENT_MAX)}…`
              : r.statement;
          await ctx.audit.record({
            ...base,
            statement,
            ...(script ? { statementIndex: r.index } : {}),
            result: r.ok ? 'success' : 'failure',
            rowCount: r.rowCount,
            durationMs: r.durationMs,
            // An engine message can quote values of masked columns back: withheld when the statement reads one.
            ...(r.ok
              ? {}
              : {
                  error: maskers[r.index].empty
                    ? r.message
                    : 'engine message withheld (the statement reads masked columns)',
                  errorCode: r.errorCode,
                }),
          });
        },
      }),
    );
  } catch (err) {
    // Opening the connection failed: nothing ran.
    await ctx.audit.record({ ...base, statement: '', result: 'failure', error: (err as Error).message });
    return { execution: failed(errorWord(err)) };
  }
}

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
  const classified = await classifyFor(ds, r.statement);
  const decision = policyFor(ds, token, classified.classification, r.onBehalfOf, r.ticket, ctx.now());
  if ('deny' in decision) {
    await ctx.audit.record({
      type: decision.deny.audit,
      actor: `token:${token.name}`,
      connection: ds.id,
      result: 'failure',
      route: '/api/v1/executions',
      requestId: r.id,
      onBehalfOf: r.onBehalfOf,
      code: decision.deny.code,
      reason: decision.deny.message,
      ...decision.deny.details,
    });
    return failWith(ctx, r, 'policy_denied');
  }
  let release: () => void;
  try {
    release = ctx.concurrency.acquire(ds.id, ds.policy.maxConcurrent);
  } catch (err) {
    // Full: the worker retries the job later (with backoff); the last attempt records the refusal.
    if (job.attempts < job.maxAttempts) throw err;
    return failWith(ctx, r, 'concurrency_limit');
  }
  try {
    const started = await ctx.requests.update(r.id, r.version, { started: true });
    if (!started) return { skipped: 'changed' };
    const outcome = await executeNow(ctx, ds, classified, {
      requestId: r.id,
      token,
      onBehalfOf: r.onBehalfOf,
      ticket: r.ticket,
      approvedBy: await reviewersOf(ctx, started),
    });
    await finish(ctx, started, outcome);
    return { status: outcome.execution.status };
  } finally {
    release();
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
