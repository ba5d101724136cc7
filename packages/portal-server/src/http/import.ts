// Table imports (issue 30 item 2; docs/portal-import.md): POST /api/db/import/preview reads the first rows of
// an uploaded CSV, JSON-lines file or SQL script and answers them with the source fields, their apparent
// types, the table's columns and a suggested mapping; POST /api/db/import runs the file into the table.
// CSV and JSON lines are one governed request whose text is the single-row INSERT of the mapped columns
// after a comment naming the file's size and SHA-256: classification, policy, approvals (a held import is one
// approval request; the same file sent again inside the window runs), masking (masked columns cannot be
// written) and one audit line with the counts all apply through executeGoverned, and the rows then go in as
// multi-row INSERTs with bound parameters, batch by batch (import/batches.ts). An SQL script is governed as
// the script itself and must hold only INSERTs into the table. The answer is a stream of JSON lines:
// progress after each batch, then the outcome with the failed rows and their reasons. The routes' shapes are
// in import-schemas.ts, what both settle before reading a file (table, mapping) in import-target.ts.
import { createReadStream } from 'node:fs';
import { HttpError } from '@app/kit';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { QueryDeps } from '../execution/contracts.js';
import { MAX_STATEMENT_CHARS } from '../execution/contracts.js';
import { executeGoverned, type GovernedRun } from '../execution/pipeline.js';
import { splitChecked } from '../execution/target.js';
import { classifyRequest } from '../governance/request.js';
import { type ImportOutcome, runBatches } from '../import/batches.js';
import { readRecordGroups, readRecords, readText, type SourceRecord } from '../import/records.js';
import { runScript, scriptRefusal, statementLines } from '../import/script.js';
import { commonKind } from '../import/values.js';
import { importInsertSql, importRequestText, rowsPerStatement } from '../sql/import-statements.js';
import { SECURITY_HEADERS } from './guard.js';
import { FAILED_LISTED, ImportEvent, Preview, uploadSchema } from './import-schemas.js';
import { fieldsOf, inputError, mappingOf, prepare, readOptions } from './import-target.js';
import { IMPORT_MAX_BYTES, openUpload, spoolFile } from './import-upload.js';
import { clientGone, parseTicket } from './request-input.js';
import { columnsAnswer } from './table-info.js';

const DEFAULT_BATCH = 1000;

/** The upload is read by the handler as a stream; the body schema (import-schemas.ts) documents it. */
const noBodyValidation = () => () => true;

/** Writes one JSON line of the streamed answer. */
function sendLine(reply: FastifyReply, event: Record<string, unknown>): void {
  if (!reply.raw.writableEnded) reply.raw.write(`${JSON.stringify(event)}\n`);
}

function startStream(reply: FastifyReply): void {
  if (reply.sent) return;
  reply.hijack();
  reply.raw.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
}

export function registerImportRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 2, fieldSize: 1024 * 1024, parts: 3 },
    });

    scope.post(
      '/api/db/import/preview',
      {
        validatorCompiler: noBodyValidation,
        schema: uploadSchema(
          'Import preview: multipart `options` (JSON: `{connection | connectionId, path, format: csv|jsonl|sql, encoding?, delimiter?, quote?, header?, mapping?, limit? (1..100, default 20)}`) then `file` (or its first part: only the first records are read). ' +
            'Answers the table columns (`masked` ones cannot be imported into), the source fields with the type their sample values look like, a mapping by matching names, ' +
            'the first rows and the records that cannot be read; for an SQL script the first statements and, when it is not one, why it is not an import into the table. Nothing runs.',
          Preview,
        ),
      },
      async (request) => {
        const upload = await openUpload(request);
        const p = await prepare(deps, request, upload).catch((err) => {
          upload.file.file.resume();
          throw err;
        });
        const limit = p.options.limit ?? 20;
        const columns = columnsAnswer(p.info);
        if (p.options.format === 'sql') {
          let text: string;
          try {
            text = await readText(upload.file.file, p.options.encoding ?? 'utf-8', MAX_STATEMENT_CHARS);
          } catch (err) {
            inputError(err);
          }
          const statements = splitChecked(p.target, text);
          const c = await classifyRequest(text, p.target.factory.engine, statements, undefined);
          const refusal = scriptRefusal(c, p.options.path);
          return {
            format: 'sql',
            columns,
            fields: [],
            kinds: {},
            mapping: [],
            rows: [],
            failed: [],
            statements: statements.slice(0, limit),
            statementCount: statements.length,
            ...(refusal ? { refusal } : {}),
          };
        }
        let fields: string[] = [];
        const rows: Record<string, unknown>[] = [];
        const failed: Array<{ row: number; line: number; reason: string }> = [];
        const input = upload.file.file.iterator({ destroyOnReturn: false });
        try {
          for await (const r of readRecords(input, readOptions(p.options), (f) => {
            fields = [...f];
          })) {
            if (r.error) failed.push({ row: r.row, line: r.line, reason: r.error });
            else if (r.values) rows.push(r.values);
            if (rows.length + failed.length >= limit) break;
          }
        } catch (err) {
          inputError(err);
        } finally {
          // The rest of the upload is read and dropped.
          upload.file.file.resume();
        }
        // JSON lines: every key of the sample, in order of appearance.
        for (const row of rows) for (const k of Object.keys(row)) if (!fields.includes(k)) fields.push(k);
        const kinds = Object.fromEntries(fields.map((f) => [f, commonKind(rows.map((r) => r[f]))]));
        const mapping = p.options.mapping
          ? mappingOf(p, fields)
          : (() => {
              try {
                return mappingOf(p, fields);
              } catch {
                return [];
              }
            })();
        return {
          format: p.options.format,
          columns,
          fields,
          kinds,
          mapping: mapping.map((m) => ({ source: m.source, column: m.column })),
          rows,
          failed,
        };
      },
    );

    scope.post(
      '/api/db/import',
      {
        validatorCompiler: noBodyValidation,
        schema: uploadSchema(
          'Import a file into a table: multipart `options` (JSON: `{connection | connectionId, path, format: csv|jsonl|sql, encoding?, delimiter?, quote?, header? (default true), mapping?: [{source, column}], batchSize? (1..5000, default 1000), onError?: skip|stop, ticket?}`) then `file` ' +
            `(at most ${IMPORT_MAX_BYTES} bytes, streamed to a spool file, never held in memory). CSV: an empty unquoted field is NULL, "" the empty string. ` +
            'CSV and JSON lines run as one governed request whose text is `-- import <format> file "<name>" (<bytes> bytes, sha256 <hash>)` and the single-row INSERT of the mapped columns: ' +
            'policy and write approval apply to it (403 APPROVAL_REQUIRED holds the import as one request; the same file with the same options sent again inside the window runs), masked columns cannot be written (400). ' +
            'Rows go in as multi-row INSERTs with bound parameters, each batch committed on its own; a batch the engine refuses is retried row by row so only the refused rows fail. ' +
            'An SQL script (up to 1 MiB) is governed as itself and must hold only INSERT … VALUES statements into the table (400 otherwise). ' +
            'Refusals before anything runs are the usual error answers; once running, the answer is `application/x-ndjson`: `{type: progress, rowCount, failedCount}` lines, then ' +
            '`{type: done, rowCount, failedCount, failed: [{row, line, reason}], stopped, statement, durationMs}` or `{type: error, error, code}`. One audit line (route /api/db/import) carries the counts.',
          { content: { 'application/x-ndjson': { schema: ImportEvent } } },
        ),
      },
      async (request, reply) => {
        const upload = await openUpload(request);
        const p = await prepare(deps, request, upload).catch((err) => {
          upload.file.file.resume();
          throw err;
        });
        const ticket = parseTicket(p.options.ticket);
        const signal = clientGone(request, reply);
        const { sqlDialect: dialect, capabilities, engine } = p.target.factory;
        const started = performance.now();
        const path = p.options.path;
        let sql: string;
        let statements: string[];
        let classification: Awaited<ReturnType<typeof classifyRequest>> | undefined;
        let body: (exec: GovernedRun) => Promise<ImportOutcome>;
        let spooled: Awaited<ReturnType<typeof spoolFile>> | undefined;
        const progress = (o: { rowCount: number; failedCount: number }) =>
          sendLine(reply, { type: 'progress', ...o });
        try {
          if (p.options.format === 'sql') {
            try {
              sql = await readText(upload.file.file, p.options.encoding ?? 'utf-8', MAX_STATEMENT_CHARS);
            } catch (err) {
              upload.file.file.resume();
              inputError(err);
            }
            statements = splitChecked(p.target, sql);
            classification = await classifyRequest(sql, engine, statements, undefined);
            const refusal = scriptRefusal(classification, path);
            if (refusal) throw new HttpError(400, refusal, 'NOT_AN_IMPORT');
            const lines = statementLines(sql, statements);
            const onError = p.options.onError ?? 'skip';
            body = async (exec) => {
              const s = await exec.openSession();
              try {
                return await runScript(
                  s,
                  statements,
                  lines,
                  { onError, maxListed: FAILED_LISTED },
                  {
                    progress,
                    cancelled: () => exec.cancelled() || signal.aborted,
                  },
                );
              } finally {
                await s.close();
              }
            };
          } else {
            spooled = await spoolFile(upload.file, deps.spoolDir);
            const file = spooled;
            const mapping = mappingOf(p, await fieldsOf(file.path, p.options));
            const columns = mapping.map((m) => m.column);
            sql = importRequestText(dialect, capabilities.parameterStyle, path, columns, {
              format: p.options.format,
              name: upload.file.filename || 'upload',
              bytes: file.bytes,
              sha256: file.sha256,
            });
            statements = splitChecked(p.target, sql);
            const perStatement = rowsPerStatement(
              capabilities.parameterStyle,
              columns.length,
              p.options.batchSize ?? DEFAULT_BATCH,
            );
            const plan = {
              columns: mapping,
              rowsPerStatement: perStatement,
              insertSql: (n: number) =>
                importInsertSql(dialect, capabilities.parameterStyle, path, columns, n),
              onError: p.options.onError ?? ('skip' as const),
              maxListed: FAILED_LISTED,
            };
            body = async (exec) => {
              const records: AsyncIterable<SourceRecord[]> = readRecordGroups(
                createReadStream(file.path, { highWaterMark: 256 * 1024 }),
                readOptions(p.options),
              );
              const s = await exec.openSession();
              try {
                return await runBatches(s, records, plan, {
                  progress,
                  cancelled: () => exec.cancelled() || signal.aborted,
                });
              } catch (err) {
                inputError(err);
              } finally {
                await s.close();
              }
            };
          }
          const outcome = await executeGoverned(deps, {
            principal: p.session,
            route: 'multi-query',
            auditRoute: '/api/db/import',
            target: p.target,
            sql,
            statements,
            params: [],
            ticket,
            signal,
            ...(classification ? { classification } : {}),
            auditFields: {
              tableImport: path.join('.'),
              importFormat: p.options.format,
              ...(spooled ? { importBytes: spooled.bytes, importSha256: spooled.sha256 } : {}),
            },
            run: async (exec) => {
              // Admitted: from here on the answer is the progress stream.
              startStream(reply);
              return body(exec);
            },
            outcome: (o) => ({
              rowCount: o.rowCount,
              failedCount: o.failedCount,
              durationMs: Math.round(performance.now() - started),
            }),
          });
          sendLine(reply, {
            type: 'done',
            rowCount: outcome.rowCount,
            failedCount: outcome.failedCount,
            failed: outcome.failed,
            stopped: outcome.stopped,
            statement: sql,
            durationMs: Math.round(performance.now() - started),
          });
          reply.raw.end();
        } catch (err) {
          if (!reply.sent) throw err;
          const e = err as { message?: string; code?: string };
          sendLine(reply, {
            type: 'error',
            error: e.message ?? 'The import failed',
            code: e.code ?? 'ERROR',
          });
          reply.raw.end();
        } finally {
          await spooled?.remove();
        }
      },
    );
  });
}
