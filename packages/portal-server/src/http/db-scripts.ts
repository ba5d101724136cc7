// Scripts: POST /api/db/multi-query (statements in order on one connection, stopping at the first error) and
// the owned transactions of db-transaction.ts. Governance, masking, audit and the slot are the pipeline's
// (execution/pipeline.ts). Connection operations (cancel, disconnect, provider-meta, …) are db-connections.ts.
import type { FastifyInstance } from 'fastify';
import { boundedStatement } from '../execution/audit-lines.js';
import type { QueryDeps } from '../execution/contracts.js';
import { runWithPaging } from '../execution/paging.js';
import { executeGoverned } from '../execution/pipeline.js';
import { resolveTarget, splitChecked } from '../execution/target.js';
import { toHttpError } from '../providers/errors.js';
import { paramsForStatement } from '../sql/placeholders.js';
import { connectionBody } from './connection-schema.js';
import { registerTransactionRoute } from './db-transaction.js';
import {
  checkStatementSize,
  clientGone,
  parseParams,
  parseTicket,
  sessionFor,
  strictBody,
} from './request-input.js';
import { rowsAsJson, ScriptResult } from './response-schemas.js';

/** Scripts run statement by statement: at most this many rows are returned per statement. */
export const SCRIPT_ROWS = 500;

export function registerScriptRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/multi-query',
    {
      preValidation: strictBody,
      ...rowsAsJson,
      schema: connectionBody(
        'Runs a script: `{connection, sql, params?, ticket?}`, split under the engine grammar, statements in order on one connection, ' +
          'stopping at the first error; no wrapping transaction, what ran stays. Answers 200 `{executedCount, statements: [{index, status: done|failed, ' +
          'rowCount, fields?, rows?, durationMs, error?, truncated?}]}` (executedCount counts the statements that completed). A statement takes the ' +
          'params its placeholders name. Transaction control anywhere is 400 before anything runs; over 1048576 characters 413.',
        ScriptResult,
        { sql: { type: 'string' }, params: {}, ticket: { type: 'string' } },
        ['sql'],
      ),
    },
    async (request, reply) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const sql = checkStatementSize(body.sql);
      const params = parseParams(body.params);
      const ticket = parseTicket(body.ticket);
      const target = await resolveTarget(deps, session, body);
      const statements = splitChecked(target, sql);
      const dialect = target.factory.sqlDialect;
      const style = target.factory.capabilities.parameterStyle;
      return executeGoverned(deps, {
        principal: session,
        route: 'multi-query',
        auditRoute: '/api/db/multi-query',
        target,
        sql,
        statements,
        params,
        ticket,
        signal: clientGone(request, reply),
        audit: 'per-statement',
        run: async (exec) => {
          const entries: Array<Record<string, unknown>> = [];
          let executedCount = 0;
          const s = await exec.openSession();
          try {
            for (const [index, statement] of statements.entries()) {
              const started = performance.now();
              const line = { statement: boundedStatement(statement), statementIndex: index };
              try {
                const out = await runWithPaging(
                  (q, p, o) => s.query(q, p, o),
                  dialect,
                  statement,
                  paramsForStatement(dialect, style, statement, params),
                  { offset: 0, unlimited: false, limit: SCRIPT_ROWS },
                  target.maxRows,
                  exec.onStart,
                );
                const r = out.result;
                entries.push({
                  index,
                  status: 'done',
                  rowCount: r.rowCount,
                  ...(r.fields.length > 0
                    ? { fields: r.fields, rows: exec.mask(r.fields, r.rows, index) }
                    : {}),
                  ...(out.pagination.hasMore ? { truncated: true } : {}),
                  durationMs: out.executionTime,
                });
                executedCount++;
                await exec.audit({
                  ...line,
                  result: 'success',
                  rowCount: r.rowCount,
                  durationMs: out.executionTime,
                });
              } catch (err) {
                const e = toHttpError(err);
                const durationMs = Math.round(performance.now() - started);
                entries.push({ index, status: 'failed', rowCount: 0, durationMs, error: e.message });
                await exec.audit({ ...line, result: 'failure', error: e.message, errorCode: e.code });
                // A connection that failed (or a timeout) ends the script like any other error: stop here.
                break;
              }
            }
          } finally {
            await s.close();
          }
          return { executedCount, statements: entries };
        },
      });
    },
  );

  registerTransactionRoute(app, deps);
}
