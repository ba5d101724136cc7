// The table browser (issue 30 items 1 and 2): POST /api/db/table/rows reads one page of a table under
// per-column filters and sorts with its filtered row count; POST /api/db/table/edits turns grid edits into
// UPDATE/INSERT/DELETE statements keyed by the primary key (or SQLite's rowid), previews them, and applies
// them as one transaction. Both run through executeGoverned like typed SQL: classification, policy,
// approvals (a held batch is approved as its exact text, and the same edits sent again after approval run
// inside the window), masking (masked columns are answered masked and may not be edited) and audit.
// Statement building is pure (sql/table-statements.ts); the table is read by table-info.ts, the routes'
// shapes are in table-data-schemas.ts; this file runs the page and the batch.

import { HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { boundedStatement } from '../execution/audit-lines.js';
import type { QueryDeps } from '../execution/contracts.js';
import { executeGoverned } from '../execution/pipeline.js';
import { resolveTarget, splitChecked } from '../execution/target.js';
import { toHttpError } from '../providers/errors.js';
import type { ParamValue } from '../providers/types.js';
import {
  browseStatements,
  type ColumnFilter,
  type ColumnSort,
  editStatements,
  FILTER_OPS,
  ROW_ID_FIELD,
  type RowChange,
  TableRequestError,
} from '../sql/table-statements.js';
import { connectionBody, DB_ERRORS } from './connection-schema.js';
import { clientGone, parseTicket, sessionFor, strictBody } from './request-input.js';
import { errorResponses, rowsAsJson } from './response-schemas.js';
import {
  ChangeSchema,
  EditAnswer,
  FilterSchema,
  PathSchema,
  SortSchema,
  TablePage,
} from './table-data-schemas.js';
import { columnsAnswer, readTable } from './table-info.js';

export const PAGE_MAX = 1000;
export const CHANGES_MAX = 1000;

function badRequest(err: unknown): never {
  if (err instanceof TableRequestError) throw new HttpError(400, err.message, 'BAD_REQUEST');
  throw err;
}

export function registerTableDataRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/table/rows',
    {
      preValidation: strictBody,
      ...rowsAsJson,
      schema: connectionBody(
        'The table browser: one page of a table `{connection, path, offset?, limit? (1..1000, default 100), filters?: [{column, op, value?}], sorts?: [{column, direction}]}` ' +
          `with op one of ${FILTER_OPS.join(', ')} (contains and starts_with compare the value as text, case-insensitive). ` +
          'Columns are checked against the table (400 otherwise), identifiers quoted, values bound as parameters; the key orders ties so pages are stable. ' +
          'Runs governed like /api/db/query (masked columns are answered masked and may not filter or sort: 403 MASKED_COLUMN_PREDICATE). ' +
          'Answers the columns (with `masked`), the foreign keys (`foreignKeys: [{columnName, referencedPath, referencedColumn}]`, for navigating to the referenced row), the key (`key`, or `rowId` for a SQLite table without one), whether the grid may edit it (`editable`, else `readOnlyReason`), ' +
          'the page `{fields, rows}` and `total`, the number of rows matching the filters.',
        TablePage,
        {
          path: PathSchema,
          offset: { type: 'integer', minimum: 0 },
          limit: { type: 'integer', minimum: 1, maximum: PAGE_MAX },
          filters: { type: 'array', items: FilterSchema, maxItems: 50 },
          sorts: { type: 'array', items: SortSchema, maxItems: 10 },
        },
        ['path'],
      ),
    },
    async (request, reply) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const path = body.path as string[];
      const offset = (body.offset as number | undefined) ?? 0;
      const limit = (body.limit as number | undefined) ?? 100;
      const target = await resolveTarget(deps, session, body);
      const info = await readTable(deps, session, target, path);
      const { sqlDialect: dialect, capabilities } = target.factory;
      let built: ReturnType<typeof browseStatements>;
      try {
        built = browseStatements(dialect, capabilities.parameterStyle, info.shape, {
          filters: (body.filters as ColumnFilter[] | undefined) ?? [],
          sorts: (body.sorts as ColumnSort[] | undefined) ?? [],
          offset,
          limit,
          unsortable: info.masked,
        });
      } catch (err) {
        badRequest(err);
      }
      const sql = `${built.select};\n${built.count}`;
      const statements = splitChecked(target, sql);
      const params = built.params as ParamValue[];
      return executeGoverned(deps, {
        principal: session,
        route: 'query',
        auditRoute: '/api/db/table/rows',
        target,
        sql,
        statements,
        params,
        signal: clientGone(request, reply),
        run: async (exec) => {
          const started = performance.now();
          const page = await exec.query(statements[0], params, { maxRows: limit });
          const counted = await exec.query(statements[1], params, { maxRows: 1 });
          const first = counted.rows[0] ?? {};
          const total = Number(first.total ?? Object.values(first)[0] ?? 0);
          return {
            columns: columnsAnswer(info),
            key: info.shape.key,
            ...(info.shape.rowId ? { rowId: ROW_ID_FIELD } : {}),
            editable: info.editable,
            importable: info.importable,
            ...(info.readOnlyReason ? { readOnlyReason: info.readOnlyReason } : {}),
            foreignKeys: info.detail.foreignKeys.map((f) => ({
              columnName: f.columnName,
              referencedPath: f.referencedPath,
              referencedColumn: f.referencedColumn,
            })),
            fields: page.fields,
            rows: exec.mask(page.fields, page.rows),
            total,
            offset,
            limit,
            executionTime: Math.round(performance.now() - started),
          };
        },
        outcome: (a) => ({ rowCount: a.rows.length, durationMs: a.executionTime }),
      });
    },
  );

  app.post(
    '/api/db/table/edits',
    {
      preValidation: strictBody,
      schema: {
        ...connectionBody(
          'Grid edits of one table, `{connection, path, changes: [{op: update, original, values} | {op: insert, values} | {op: delete, original}], preview?, ticket?}` ' +
            '(at most 1000 changes; `original` is the row as the browser read it, `values` the cells to write). The server builds one statement per change keyed by the ' +
            'primary key (or SQLite rowid; 400 for a table with neither), with the values as literals so the text is what a reviewer approves; an UPDATE or DELETE also ' +
            'requires every other original value that can be compared exactly to still match. `preview: true` answers the statements without running anything. ' +
            'Otherwise the batch runs governed as one transaction (route `transaction`: policy, write approval — 403 APPROVAL_REQUIRED holds the batch text, and the ' +
            'same changes sent again run once it is approved — masking: masked columns cannot be written, 400; audit per statement). An UPDATE or DELETE that ' +
            'affects no row means someone changed or removed the row: the batch is rolled back and the answer is 409 ROW_CONFLICT with `conflict: {index, statement}`.',
          EditAnswer,
          {
            path: PathSchema,
            changes: { type: 'array', items: ChangeSchema, minItems: 1, maxItems: CHANGES_MAX },
            preview: { type: 'boolean' },
            ticket: { type: 'string' },
          },
          ['path', 'changes'],
        ),
        response: { 200: EditAnswer, ...DB_ERRORS, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const path = body.path as string[];
      const ticket = parseTicket(body.ticket);
      const target = await resolveTarget(deps, session, body);
      const info = await readTable(deps, session, target, path);
      if (!info.editable && info.readOnlyReason !== 'the datasource is read-only') {
        // A read-only datasource is refused by governance itself (403 READ_ONLY, audited).
        throw new HttpError(400, `This table cannot be edited: ${info.readOnlyReason}`, 'NOT_EDITABLE');
      }
      const changes = (body.changes as Array<Record<string, unknown>>).map(parseChange);
      let built: ReturnType<typeof editStatements>;
      try {
        built = editStatements(target.factory.sqlDialect, info.shape, changes, { locked: info.masked });
      } catch (err) {
        badRequest(err);
      }
      if (built.length === 0) throw new HttpError(400, 'No change to apply', 'BAD_REQUEST');
      const texts = built.map((b) => b.text);
      if (body.preview === true) return { statements: texts, applied: false };
      const sql = texts.map((t) => `${t};`).join('\n');
      const statements = splitChecked(target, sql);
      if (statements.length !== built.length)
        throw new HttpError(400, 'The generated batch did not split as built', 'BAD_REQUEST');
      return executeGoverned(deps, {
        principal: session,
        route: 'transaction',
        auditRoute: '/api/db/table/edits',
        target,
        sql,
        statements,
        params: [],
        ticket,
        signal: clientGone(request, reply),
        audit: 'per-statement',
        auditFields: { tableEdit: path.join('.') },
        run: async (exec) => {
          const results: Array<{ index: number; rowCount: number }> = [];
          const s = await exec.openSession();
          let open = false;
          try {
            await s.begin();
            open = true;
            for (const [index, statement] of statements.entries()) {
              const line = { statement: boundedStatement(statement), statementIndex: index };
              let rowCount: number;
              try {
                rowCount = (await s.query(statement, [], { maxRows: 0 })).rowCount;
              } catch (err) {
                const e = toHttpError(err);
                await exec.audit({ ...line, result: 'failure', error: e.message, errorCode: e.code });
                throw e;
              }
              if (built[index].op !== 'insert' && rowCount !== 1) {
                const message =
                  rowCount === 0
                    ? `Change ${built[index].change + 1} was not applied: the row was changed or deleted by someone else since it was read. Nothing was applied; reload the table.`
                    : `Change ${built[index].change + 1} matched ${rowCount} rows; nothing was applied.`;
                await exec.audit({ ...line, result: 'failure', error: message, errorCode: 'ROW_CONFLICT' });
                throw new HttpError(409, message, 'ROW_CONFLICT', {
                  conflict: { index, change: built[index].change, statement },
                });
              }
              results.push({ index, rowCount });
              await exec.audit({ ...line, result: 'success', rowCount });
            }
            await s.commit();
            open = false;
          } finally {
            if (open) await s.rollback().catch(() => undefined);
            await s.close();
          }
          return { statements: texts, applied: true, results };
        },
      });
    },
  );
}

function parseChange(c: Record<string, unknown>, i: number): RowChange {
  const rowOf = (v: unknown, name: string) => {
    if (v === undefined) throw new HttpError(400, `changes[${i}].${name} is required`, 'BAD_REQUEST');
    return v as Record<string, string | number | boolean | null>;
  };
  if (c.op === 'insert') return { op: 'insert', values: rowOf(c.values ?? {}, 'values') };
  if (c.op === 'delete') return { op: 'delete', original: rowOf(c.original, 'original') };
  return { op: 'update', original: rowOf(c.original, 'original'), values: rowOf(c.values, 'values') };
}
