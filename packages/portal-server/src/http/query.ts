// POST /api/db/query: one statement, bound parameters, auto-limit and paging decided by a parser, plans built
// by the provider (never a fallback run), transaction-control refusal. Governance, masking, the audit line
// and the slot are the pipeline's (execution/pipeline.ts); this route reads input and shapes the answer.
import { HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { QueryDeps } from '../execution/contracts.js';
import { runWithPaging } from '../execution/paging.js';
import { executeGoverned } from '../execution/pipeline.js';
import { resolveTarget, splitChecked } from '../execution/target.js';
import type { Provider } from '../providers/types.js';
import { analyzeStatement } from '../sql/analyze.js';
import { connectionSchema, DB_ERRORS } from './connection-schema.js';
import {
  checkStatementSize,
  clientGone,
  parseExplain,
  parseOptions,
  parseParams,
  parseQueryId,
  parseTicket,
  sessionFor,
  strictBody,
} from './request-input.js';
import { QueryResult, rowsAsJson } from './response-schemas.js';

const queryRouteSchema = {
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
  response: { 200: QueryResult, ...DB_ERRORS },
} as const;

export function registerQueryRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/query',
    { schema: queryRouteSchema, preValidation: strictBody, ...rowsAsJson },
    async (request, reply) => {
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
      const caps = target.factory.capabilities;
      return executeGoverned(deps, {
        principal: session,
        route: mode ? 'explain' : 'query',
        auditRoute: '/api/db/query',
        target,
        sql,
        statements,
        params,
        ticket,
        queryId,
        signal: clientGone(request, reply),
        ...(mode ? { auditFields: { explain: mode } } : {}),
        preflight: async () => {
          if (!mode) return;
          // The two refusals run nothing: no plan support (for this mode), or not a SELECT.
          if (!caps.supportsExplain || !caps.explainModes.includes(mode)) {
            throw new HttpError(
              400,
              `${target.factory.engine} does not support ${mode} plans`,
              'EXPLAIN_NOT_SUPPORTED',
            );
          }
          const facts = await analyzeStatement(target.factory.sqlDialect, statement);
          if (facts.kind !== 'select' || !facts.readOnly) {
            throw new HttpError(400, 'Only SELECT statements can be explained', 'EXPLAIN_NOT_SELECT');
          }
        },
        run: async (exec) => {
          if (mode) {
            const started = performance.now();
            const plan = await (exec.provider as Provider).explain(statement, params, mode);
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
            exec.query,
            target.factory.sqlDialect,
            statement,
            params,
            page,
            target.maxRows,
          );
          return {
            rows: exec.mask(out.result.fields, out.result.rows),
            fields: out.result.fields,
            rowCount: out.result.rowCount,
            executionTime: out.executionTime,
            ...(out.result.columnTypes ? { columnTypes: out.result.columnTypes } : {}),
            ...(out.result.warnings?.length ? { warnings: out.result.warnings } : {}),
            pagination: out.pagination,
          };
        },
        outcome: (answer) => ({ rowCount: answer.rowCount, durationMs: answer.executionTime }),
      });
    },
  );
}
