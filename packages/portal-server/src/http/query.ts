// POST /api/db/query: one statement, bound parameters, auto-limit and paging decided by a parser, plans built
// by the provider (never a fallback run), transaction-control refusal, the governance hooks, masking, and one
// `query_execution` audit event per execution. Also the pieces the script and transaction routes share.
import { HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import {
  audit,
  auditConnection,
  boundedStatement,
  checkStatementSize,
  type ExecutionContext,
  parseParams,
  parseTicket,
  type QueryDeps,
  type ResolvedTarget,
  resolveTarget,
  type SessionUser,
  sessionFor,
} from '../execution/contracts.js';
import { ProviderError, toHttpError } from '../providers/errors.js';
import type { ExecOptions, ExecResult, ParamValue } from '../providers/types.js';
import { analyzeStatement } from '../sql/analyze.js';
import type { Dialect } from '../sql/dialects.js';
import { DEFAULT_AUTO_LIMIT, planLimit } from '../sql/limit.js';
import { splitScript } from '../sql/split.js';
import { transactionControlKeyword } from '../sql/transaction-control.js';

export interface Pagination {
  limit: number;
  offset: number;
  hasMore: boolean;
  totalReturned: number;
  wasLimited: boolean;
}

export interface PageOptions {
  limit?: number;
  offset: number;
  unlimited: boolean;
}

export function parseOptions(options: unknown): PageOptions {
  if (options === undefined || options === null) return { offset: 0, unlimited: false };
  if (typeof options !== 'object' || Array.isArray(options))
    throw new HttpError(400, 'options must be an object', 'BAD_REQUEST');
  const o = options as Record<string, unknown>;
  const out: PageOptions = { offset: 0, unlimited: false };
  if (o.limit !== undefined) {
    if (!Number.isInteger(o.limit) || (o.limit as number) < 1)
      throw new HttpError(400, 'options.limit must be a positive integer', 'BAD_REQUEST');
    out.limit = o.limit as number;
  }
  if (o.offset !== undefined) {
    if (!Number.isInteger(o.offset) || (o.offset as number) < 0)
      throw new HttpError(400, 'options.offset must be a non-negative integer', 'BAD_REQUEST');
    out.offset = o.offset as number;
  }
  if (o.unlimited !== undefined) {
    if (typeof o.unlimited !== 'boolean')
      throw new HttpError(400, 'options.unlimited must be a boolean', 'BAD_REQUEST');
    out.unlimited = o.unlimited;
  }
  return out;
}

export function parseExplain(explain: unknown): 'estimate' | 'analyze' | undefined {
  if (explain === undefined) return undefined;
  const ok =
    typeof explain === 'object' &&
    explain !== null &&
    !Array.isArray(explain) &&
    Object.keys(explain).length === 1 &&
    ((explain as { mode?: unknown }).mode === 'estimate' ||
      (explain as { mode?: unknown }).mode === 'analyze');
  if (!ok)
    throw new HttpError(400, 'explain must be {"mode": "estimate"} or {"mode": "analyze"}', 'BAD_REQUEST');
  return (explain as { mode: 'estimate' | 'analyze' }).mode;
}

export function parseQueryId(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length < 1 || v.length > 100)
    throw new HttpError(400, 'queryId must be a string of 1..100 characters', 'BAD_REQUEST');
  return v;
}

/** Splits and checks a request's text: 413 over the limit, 400 for transaction control or a refused statement. */
export function splitChecked(target: ResolvedTarget, sql: string): string[] {
  const statements = splitScript(target.factory.dialect, sql);
  if (statements.length === 0) throw new HttpError(400, 'sql holds no statement', 'BAD_REQUEST');
  for (const s of statements) {
    const tc = transactionControlKeyword(target.factory.dialect, s);
    if (tc) {
      throw new HttpError(
        400,
        `Transaction control (${tc}) is not accepted here; use /api/db/transaction to run statements in a transaction`,
        'TRANSACTION_CONTROL',
      );
    }
    const refused = target.factory.guardStatement?.(s, { privileged: target.privileged });
    if (refused) throw new HttpError(403, refused, 'FORBIDDEN');
  }
  return statements;
}

export function executionContext(
  session: SessionUser,
  target: ResolvedTarget,
  route: ExecutionContext['route'],
  statements: string[],
  params: ParamValue[],
  ticket: string | undefined,
  sql?: string,
): ExecutionContext {
  return {
    ...(sql !== undefined ? { sql } : {}),
    session,
    route,
    connection: target.descriptor,
    managed: target.managed,
    policy: target.policy,
    engine: target.factory.engine,
    dialect: target.factory.dialect,
    statements,
    params,
    ticket,
  };
}

export interface StatementOutcome {
  result: ExecResult;
  pagination: Pagination;
  executionTime: number;
}

/**
 * Runs one statement with auto-limit: a SELECT without its own limit gets `limit + 1` appended so `hasMore`
 * is exact; any other statement keeps its text and its rows are capped at the datasource ceiling.
 */
export async function runWithPaging(
  run: (sql: string, params: ParamValue[], opts: ExecOptions) => Promise<ExecResult>,
  dialect: Dialect,
  statement: string,
  params: ParamValue[],
  page: PageOptions,
  ceiling: number,
  onStart?: ExecOptions['onStart'],
): Promise<StatementOutcome> {
  const limit = page.unlimited ? ceiling : Math.min(page.limit ?? DEFAULT_AUTO_LIMIT, ceiling);
  const plan = await planLimit(dialect, statement, limit, page.offset);
  const maxRows = plan.injected ? limit : ceiling;
  const started = performance.now();
  const result = await run(plan.sql, params, { maxRows, onStart });
  const executionTime = Math.round(performance.now() - started);
  return {
    result,
    executionTime,
    pagination: {
      limit: maxRows,
      offset: plan.injected ? page.offset : 0,
      hasMore: result.truncated,
      totalReturned: result.rows.length,
      wasLimited: plan.injected || result.truncated,
    },
  };
}

const connectionSchema = {
  type: 'object',
  description:
    'Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. ' +
    '`ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. ' +
    '`sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES.',
  additionalProperties: true,
};

export const queryRouteSchema = {
  tags: ['database'],
  summary: 'Run one statement',
  description:
    'Request `{connection, sql, params?, explain?: {mode: estimate|analyze}, ticket?, options?: {limit?, offset?, unlimited?}, queryId?}`. ' +
    'Answers `{rows, fields, rowCount, executionTime, columnTypes?, warnings?, pagination: {limit, offset, hasMore, totalReturned, wasLimited}}` ' +
    'plus `explainFormat` for a plan. A SELECT without its own limit gets one (500 by default, `options.limit`, `unlimited` up to the ' +
    'datasource maxRows or 100000). `queryId` names the statement for /api/db/cancel. 400 QUERY_ERROR with the engine message, ' +
    '400 TRANSACTION_CONTROL, 400 MULTIPLE_STATEMENTS, 400 EXPLAIN_NOT_SUPPORTED / EXPLAIN_NOT_SELECT, 408 QUERY_TIMEOUT, 413 over 1048576 characters, ' +
    '503 CONNECTION_ERROR. Datasource policy (docs/portal-governance.md): 403 READ_ONLY, TICKET_REQUIRED, FREEZE_WINDOW, OBJECT_FORBIDDEN, ' +
    'APPROVAL_REQUIRED with `approval` (the pending request) and `guardrail`; 429 CONCURRENCY_LIMIT; masked columns in rows.',
  body: {
    type: 'object',
    properties: {
      connection: connectionSchema,
      connectionId: { type: 'string' },
      sql: { type: 'string' },
      params: { description: 'Array of positional parameters: string, number, boolean or null' },
      explain: { description: '{mode: "estimate" | "analyze"}' },
      ticket: { type: 'string', description: 'Trimmed to 120 characters; written to the audit line' },
      options: {
        type: 'object',
        additionalProperties: true,
        properties: { limit: {}, offset: {}, unlimited: {} },
      },
      queryId: { type: 'string' },
    },
    required: ['sql'],
    additionalProperties: true,
  },
} as const;

export { connectionSchema };

export function registerQueryRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post('/api/db/query', { schema: queryRouteSchema }, async (request) => {
    const session = await sessionFor(deps, request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const sql = checkStatementSize(body.sql);
    const params = parseParams(body.params);
    const ticket = parseTicket(body.ticket);
    const mode = parseExplain(body.explain);
    const page = parseOptions(body.options);
    const queryId = parseQueryId(body.queryId);
    const target = await resolveTarget(deps, session, body);
    const statements = splitChecked(target, sql);
    if (statements.length > 1) {
      throw new HttpError(
        400,
        `The text holds ${statements.length} statements; /api/db/query runs one. Use /api/db/multi-query for scripts.`,
        'MULTIPLE_STATEMENTS',
      );
    }
    const statement = statements[0];
    const ctx = executionContext(
      session,
      target,
      mode ? 'explain' : 'query',
      statements,
      params,
      ticket,
      sql,
    );
    const caps = target.factory.capabilities;
    if (mode) {
      // The two refusals run nothing: no plan support (for this mode), or not a SELECT.
      if (!caps.supportsExplain || !caps.explainModes.includes(mode)) {
        throw new HttpError(
          400,
          `${target.factory.engine} does not support ${mode} plans`,
          'EXPLAIN_NOT_SUPPORTED',
        );
      }
      const facts = await analyzeStatement(target.factory.dialect, statement);
      if (facts.kind !== 'select' || !facts.readOnly) {
        throw new HttpError(400, 'Only SELECT statements can be explained', 'EXPLAIN_NOT_SELECT');
      }
    }
    await deps.governance.beforeExecute(ctx);

    const base = {
      type: 'query_execution',
      actor: session.username,
      ...auditConnection(target),
      route: '/api/db/query',
      statement: boundedStatement(statement),
      ...(ticket ? { ticket } : {}),
      ...(mode ? { explain: mode } : {}),
      ...deps.governance.auditFields?.(ctx),
    };
    let unregister: (() => void) | undefined;
    let cancelled = false;
    const onStart = (cancel: () => Promise<void>) => {
      if (!queryId) return;
      unregister = deps.running.register(session.username, queryId, () => {
        cancelled = true;
        return cancel();
      });
    };
    try {
      const answer = await deps.providers.use(target.descriptor, async (raw) => {
        const provider = deps.governance.wrapProvider?.(ctx, raw) ?? raw;
        if (mode) {
          const started = performance.now();
          const plan = await provider.explain(statement, params, mode);
          const executionTime = Math.round(performance.now() - started);
          return {
            rows: plan.rows,
            fields: plan.fields,
            rowCount: plan.rowCount,
            executionTime,
            ...(plan.columnTypes ? { columnTypes: plan.columnTypes } : {}),
            pagination: {
              limit: plan.rows.length,
              offset: 0,
              hasMore: false,
              totalReturned: plan.rows.length,
              wasLimited: false,
            },
            explainFormat: plan.explainFormat,
          };
        }
        const out = await runWithPaging(
          (s, p, o) => provider.query(s, p, o),
          target.factory.dialect,
          statement,
          params,
          page,
          target.maxRows,
          onStart,
        );
        // Some engines end a cancelled statement with a normal answer (MySQL's SLEEP returns 1).
        if (cancelled) throw new ProviderError('cancelled', 'Query cancelled');
        return {
          rows: deps.governance.maskRows(ctx, out.result.fields, out.result.rows),
          fields: out.result.fields,
          rowCount: out.result.rowCount,
          executionTime: out.executionTime,
          ...(out.result.columnTypes ? { columnTypes: out.result.columnTypes } : {}),
          ...(out.result.warnings?.length ? { warnings: out.result.warnings } : {}),
          pagination: out.pagination,
        };
      });
      await audit(deps, {
        ...base,
        result: 'success',
        rowCount: answer.rowCount,
        durationMs: answer.executionTime,
      });
      return answer;
    } catch (err) {
      const httpErr = toHttpError(err);
      await audit(deps, { ...base, result: 'failure', error: httpErr.message, errorCode: httpErr.code });
      throw httpErr;
    } finally {
      unregister?.();
      deps.governance.afterExecute?.(ctx);
    }
  });
}
