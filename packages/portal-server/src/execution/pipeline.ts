// The one governed execution function. Every path that runs statements calls `executeGoverned`: the session
// routes (/api/db/query and explain, /multi-query, /transaction, /export), the bot API (src/bot/runner.ts),
// and the AI agent and MCP tools. It owns the whole sequence, so a new path cannot forget a step:
//
//   preflight (route checks, nothing runs) → governance.beforeExecute (classify, policy, approval window,
//   concurrency slot, maskers) → connection (pool lease, or the open transaction's session) → read-only
//   wrapper and withheld engine messages (governance.wrapProvider / wrapSession) → run → rows masked by
//   `exec.mask` → audit (`query_execution`, once or per statement) → governance.afterExecute (the slot is
//   released) in `finally`, whatever ended the run: a provider error, a timeout, or the client going away.
//
// API (for route, bot, agent and MCP authors):
//
//   const answer = await executeGoverned(deps, {
//     principal,                 // Principal: a person, or `token:<name>` for a service token
//     route: 'query',            // ExecutionRoute: query|explain|multi-query|transaction|export|bot|mcp|agent
//     auditRoute: '/api/db/query',
//     target,                    // resolveTarget(deps, principal, body) — the managed definition wins
//     sql, statements,           // statements = splitChecked(target, sql): split once, shared by every step
//     params, ticket?,
//     readOnlyProfile: true,     // the agent's profile: the engine refuses writes whatever the policy says
//     signal,                    // AbortSignal of the client: cancels the statement and frees the slot
//     queryId?,                  // registers the statement for /api/db/cancel
//     run: async (exec) => {     // exec.query(...) runs governed; exec.mask(fields, rows) masks
//       const r = await exec.query(statements[0], params, { maxRows: 500 });
//       return { rows: exec.mask(r.fields, r.rows), rowCount: r.rowCount };
//     },
//     outcome: (a) => ({ rowCount: a.rowCount }),   // fields of the success audit line
//   });
//
// Refusals are thrown HttpErrors (403 policy, 429 slot, …); provider failures are thrown as the HTTP error
// they map to (providers/errors.ts), after the failure audit line.

import { HttpError } from '@app/kit';
import type { Principal } from '../auth/principal.js';
import { ProviderError, toHttpError } from '../providers/errors.js';
import type { ExecOptions, ExecResult, ParamValue, Provider, ProviderSession } from '../providers/types.js';
import type { Approval } from '../storage/approvals.js';
import { audit, auditConnection, boundedStatement } from './audit-lines.js';
import type {
  ApprovalHold,
  ExecutionContext,
  ExecutionRoute,
  JudgedRequest,
  QueryDeps,
} from './contracts.js';
import { dryRun } from './dry-run.js';
import { executionContext, type ResolvedTarget } from './target.js';

export interface GovernedRequest<T> {
  principal: Principal;
  route: ExecutionRoute;
  /** The `route` field of the audit line (the HTTP path, or e.g. `mcp:run_query`). */
  auditRoute: string;
  target: ResolvedTarget;
  /** The request's whole text (governance classifies it as one script). */
  sql: string;
  /** The text as split by `splitChecked` (the caller checks the count its route accepts). */
  statements: string[];
  params: ParamValue[];
  ticket?: string;
  /** Export: the caller asked for unmasked values (governance decides). */
  reveal?: boolean;
  /** Who it runs for when the principal acts on someone's behalf (bot `onBehalfOf`). */
  requester?: string;
  /** A classification the caller already made of this text: reused. */
  classification?: ExecutionContext['classification'];
  /** An approval the caller already holds for this text (bot requests). */
  approval?: ExecutionContext['approval'];
  /** The agent's read-only execution profile. */
  readOnlyProfile?: boolean;
  /** Checks before governance admits the request (explain support, the export rule); nothing runs yet. */
  preflight?(ctx: ExecutionContext): void | Promise<void>;
  /** Runs on this open transaction session instead of a pooled connection. */
  session?: ProviderSession;
  /** The caller went away: the statement is cancelled, the run ends with QUERY_CANCELLED, the slot is freed. */
  signal?: AbortSignal;
  /** Registers the running statement under (principal, queryId) for /api/db/cancel. */
  queryId?: string;
  /** `once` (default): one `query_execution` line; `per-statement`: the run writes its lines with `exec.audit`. */
  audit?: 'once' | 'per-statement';
  /** Extra fields of every audit line (transactionId, format, requestId, …). */
  auditFields?: Record<string, unknown>;
  /** Extra fields of a refusal's audit line, written by governance (the bot's route, requestId, onBehalfOf). */
  refusalAuditFields?: Record<string, unknown>;
  /** Called once admitted (slot held), before the connection is taken; a throw ends the execution. */
  onAdmitted?(): void | Promise<void>;
  run(exec: GovernedRun): Promise<T>;
  /** Fields of the success audit line (`once` mode): rowCount, durationMs. */
  outcome?(result: T): Record<string, unknown>;
}

/** What a run is handed: everything already governed. */
export interface GovernedRun {
  ctx: ExecutionContext;
  /** The governed pooled provider (undefined on a transaction session). */
  provider?: Provider;
  /** One statement on the governed connection (pool or transaction session), registered for cancel. */
  query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult>;
  /** A dedicated governed session on the pool (scripts run their statements on one connection). */
  openSession(): Promise<ProviderSession>;
  /** Masks rows of statement `statementIndex` (default 0). */
  mask(fields: string[], rows: Record<string, unknown>[], statementIndex?: number): Record<string, unknown>[];
  /** Per-row masker for streamed exports, or undefined when nothing is masked. */
  exportMasker(fields: string[]): ((row: unknown[]) => unknown[]) | undefined;
  /** Whether statement `index`'s rows are masked (its engine messages are then withheld). */
  masks(index: number): boolean;
  /** Hands the statement's cancel function over (the registration for /api/db/cancel and the abort signal). */
  onStart(cancel: () => Promise<void>): void;
  /** True once the statement was cancelled (some engines end a cancelled statement with a normal answer). */
  cancelled(): boolean;
  /** Writes one `query_execution` line: the common fields plus these. */
  audit(fields: Record<string, unknown>): Promise<void>;
}

/** What the pipeline itself uses of the execution dependencies (the bot API and the agent pass just these). */
export type PipelineDeps = Pick<QueryDeps, 'governance' | 'providers' | 'running' | 'audit'>;

function cancelledError(): ProviderError {
  return new ProviderError('cancelled', 'Query cancelled');
}

/** What governance decides about: a request as executeGoverned takes it, without the run. */
export type DecisionRequest = Pick<
  GovernedRequest<unknown>,
  | 'principal'
  | 'route'
  | 'target'
  | 'sql'
  | 'statements'
  | 'params'
  | 'ticket'
  | 'reveal'
  | 'requester'
  | 'classification'
  | 'approval'
  | 'readOnlyProfile'
  | 'session'
  | 'refusalAuditFields'
>;

/** The execution context of `request`, with the dry run governance may call (rolled back, never committed). */
function contextFor(deps: PipelineDeps, request: DecisionRequest): ExecutionContext {
  const { target, principal } = request;
  const ctx: ExecutionContext = {
    ...executionContext(
      principal,
      target,
      request.route,
      request.statements,
      request.params,
      request.ticket,
      request.sql,
    ),
    ...(request.reveal !== undefined ? { reveal: request.reveal } : {}),
    ...(request.requester ? { requester: request.requester } : {}),
    ...(request.classification ? { classification: request.classification } : {}),
    ...(request.approval ? { approval: request.approval } : {}),
    ...(request.readOnlyProfile ? { readOnlyProfile: true } : {}),
  };
  // Governance may dry-run guarded writes (rolled back, never committed) before it decides: on the caller's
  // open transaction inside a savepoint, otherwise on a pooled connection of the datasource.
  ctx.dryRun = (steps) =>
    request.session
      ? dryRun(target.factory.engine, { session: request.session }, steps, request.params)
      : deps.providers.use(target.descriptor, (raw) =>
          dryRun(target.factory.engine, { provider: raw }, steps, request.params),
        );
  return ctx;
}

/**
 * The governed verdict on `request` without running it, for a caller that holds requests in its own flow (the
 * bot API at submission): governance's one decide() — the classification with the guardrails its rolled-back
 * dry run calls for, and the policy — with a refusal audited (`refusalAuditFields` added) and thrown as
 * executeGoverned does. Answers run or hold (and the dry run's counts an approval shows). Nothing is committed.
 */
export async function decideGoverned(deps: PipelineDeps, request: DecisionRequest): Promise<JudgedRequest> {
  const judge = deps.governance.judge;
  if (!judge) throw new Error('governance offers no verdict without a run');
  return judge.call(deps.governance, contextFor(deps, request), request.refusalAuditFields);
}

/**
 * The approval a request held in the caller's own flow waits for (the bot API: a hold of the policy, a
 * review, a token that needs approval): governance opens it and writes the `approval_requested` audit line
 * (`auditFields` added), as it does when a session route's request is held, so that line has one writer.
 */
export async function requestGovernedApproval(
  deps: PipelineDeps,
  request: DecisionRequest,
  hold: ApprovalHold,
  auditFields: Record<string, unknown> = {},
): Promise<Approval> {
  const open = deps.governance.requestApproval;
  if (!open) throw new Error('governance opens no approvals');
  return open.call(deps.governance, contextFor(deps, request), hold, auditFields);
}

/** Runs `request` through the whole governed sequence; see the file header. */
export async function executeGoverned<T>(deps: PipelineDeps, request: GovernedRequest<T>): Promise<T> {
  const { target, principal } = request;
  const ctx = contextFor(deps, request);
  await request.preflight?.(ctx);
  if (request.signal?.aborted) throw toHttpError(cancelledError());
  const governance = deps.governance;
  await governance.beforeExecute(ctx, request.refusalAuditFields);
  // From here on the slot is held: every way out goes through the `finally` below.
  let unregister: (() => void) | undefined;
  let cancel: (() => Promise<void>) | undefined;
  let cancelled = false;
  let stopAbort: (() => void) | undefined;
  const base = {
    type: 'query_execution',
    actor: principal.username,
    ...auditConnection(target),
    route: request.auditRoute,
    ...(request.statements.length === 1 ? { statement: boundedStatement(request.statements[0]) } : {}),
    ...(request.ticket ? { ticket: request.ticket } : {}),
    ...request.auditFields,
    ...governance.auditFields?.(ctx),
  };
  let ran = false;
  try {
    await request.onAdmitted?.();
    ran = true;
    const aborted = new Promise<never>((_, reject) => {
      const signal = request.signal;
      if (!signal) return;
      const onAbort = () => {
        cancelled = true;
        void cancel?.().catch(() => undefined);
        reject(cancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      stopAbort = () => signal.removeEventListener('abort', onAbort);
    });
    aborted.catch(() => undefined);
    const onStart = (c: () => Promise<void>) => {
      cancel = c;
      if (request.queryId) {
        unregister = deps.running.register(principal.username, request.queryId, () => {
          cancelled = true;
          return c();
        });
      }
    };
    const execFor = (provider: Provider | undefined, session: ProviderSession | undefined): GovernedRun => ({
      ctx,
      provider,
      query: async (sql, params, opts) => {
        const runner = session ?? provider;
        if (!runner) throw new Error('no connection');
        const runOpts = {
          ...opts,
          onStart: (c: () => Promise<void>) => {
            onStart(c);
            opts.onStart?.(c);
          },
        };
        const ceiling = governance.affectedCeiling?.(ctx, request.statements.indexOf(sql));
        const result =
          ceiling === undefined
            ? await runner.query(sql, params, runOpts)
            : await withinCeiling(session, provider, ceiling, (s) => s.query(sql, params, runOpts));
        if (cancelled) throw cancelledError();
        return result;
      },
      openSession: async () => {
        if (!provider) throw new Error('a transaction session cannot open another session');
        const opened = await provider.openSession();
        if (!governance.affectedCeiling) return opened;
        // A script's approved statements are held to their dry-run counts one by one: inside the caller's
        // own transaction through a savepoint, else in a transaction of their own.
        let inTransaction = false;
        return {
          ...opened,
          query: (sql, params, opts) => {
            const ceiling = governance.affectedCeiling?.(ctx, request.statements.indexOf(sql));
            return ceiling === undefined
              ? opened.query(sql, params, opts)
              : runCeiling(opened, inTransaction, ceiling, (s) => s.query(sql, params, opts));
          },
          begin: async () => {
            await opened.begin();
            inTransaction = true;
          },
          commit: async () => {
            inTransaction = false;
            await opened.commit();
          },
          rollback: async () => {
            inTransaction = false;
            await opened.rollback();
          },
          close: () => opened.close(),
        };
      },
      mask: (fields, rows, statementIndex = 0) =>
        governance.maskRows(statementIndex === 0 ? ctx : { ...ctx, statementIndex }, fields, rows),
      exportMasker: (fields) => governance.exportRowMasker(ctx, fields),
      masks: (index) => governance.masks?.({ ...ctx, statementIndex: index }) ?? false,
      onStart,
      cancelled: () => cancelled,
      audit: (fields) => audit(deps, { ...base, ...fields, result: fields.result as 'success' | 'failure' }),
    });
    const started = performance.now();
    const running = request.session
      ? request.run(execFor(undefined, governance.wrapSession?.(ctx, request.session) ?? request.session))
      : deps.providers.use(target.descriptor, (raw) =>
          request.run(execFor(governance.wrapProvider?.(ctx, raw) ?? raw, undefined)),
        );
    running.catch(() => undefined);
    const answer = await Promise.race([running, aborted]);
    if (cancelled) throw cancelledError();
    if ((request.audit ?? 'once') === 'once') {
      await audit(deps, {
        ...base,
        result: 'success',
        durationMs: Math.round(performance.now() - started),
        ...request.outcome?.(answer),
      });
    }
    return answer;
  } catch (err) {
    const e = toHttpError(err);
    if (ran && (request.audit ?? 'once') === 'once') {
      await audit(deps, { ...base, result: 'failure', error: e.message, errorCode: e.code });
    }
    throw e;
  } finally {
    stopAbort?.();
    unregister?.();
    governance.afterExecute?.(ctx);
  }
}

/**
 * Runs an approved guarded statement so that it can be undone: in its own transaction on a pooled
 * connection, or inside a savepoint of the caller's open transaction.
 */
async function withinCeiling(
  session: ProviderSession | undefined,
  provider: Provider | undefined,
  ceiling: number,
  run: (s: ProviderSession) => Promise<ExecResult>,
): Promise<ExecResult> {
  if (session) return runCeiling(session, true, ceiling, run);
  if (!provider) throw new Error('no connection');
  const s = await provider.openSession();
  try {
    return await runCeiling(s, false, ceiling, run);
  } finally {
    await s.close();
  }
}

/** The statement, committed only when it reports no more affected rows than the approved dry run did. */
async function runCeiling(
  s: ProviderSession,
  inTransaction: boolean,
  ceiling: number,
  run: (s: ProviderSession) => Promise<ExecResult>,
): Promise<ExecResult> {
  const NO_ROWS = { maxRows: 0 };
  if (inTransaction) await s.query('SAVEPOINT portal_ceiling', [], NO_ROWS);
  else await s.begin();
  let result: ExecResult;
  try {
    result = await run(s);
  } catch (err) {
    if (inTransaction) await s.query('ROLLBACK TO SAVEPOINT portal_ceiling', [], NO_ROWS);
    else await s.rollback();
    throw err;
  }
  if (result.rowCount > ceiling) {
    if (inTransaction) await s.query('ROLLBACK TO SAVEPOINT portal_ceiling', [], NO_ROWS);
    else await s.rollback();
    throw new HttpError(
      409,
      `The statement touched ${result.rowCount} rows, more than the ${ceiling} its approval was given for; it was rolled back`,
      'AFFECTED_ROWS_EXCEEDED',
    );
  }
  if (inTransaction) await s.query('RELEASE SAVEPOINT portal_ceiling', [], NO_ROWS);
  else await s.commit();
  return result;
}
