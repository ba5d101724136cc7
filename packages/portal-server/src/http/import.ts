// Table imports (issue 30 item 2; docs/portal-import.md): POST /api/db/import/preview reads the first rows of
// an uploaded CSV, JSON-lines file or SQL script and answers them with the source fields, their apparent
// types, the table's columns and a suggested mapping; POST /api/db/import runs the file into the table.
// CSV and JSON lines are one governed request whose text is the single-row INSERT of the mapped columns
// after a comment naming the file's size and SHA-256: classification, policy, approvals (a held import is one
// approval request; the same file sent again inside the window runs), masking (masked columns cannot be
// written) and one audit line with the counts all apply through executeGoverned, and the rows then go in as
// multi-row INSERTs with bound parameters, batch by batch (import/batches.ts). An SQL script is governed as
// the script itself and must hold only INSERTs into the table. The answer is a stream of JSON lines:
// progress after each batch, then the outcome with the failed rows and their reasons.
import { createReadStream } from 'node:fs';
import { HttpError } from '@app/kit';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Principal } from '../auth/principal.js';
import type { QueryDeps } from '../execution/contracts.js';
import { MAX_STATEMENT_CHARS } from '../execution/contracts.js';
import { executeGoverned, type GovernedRun } from '../execution/pipeline.js';
import { type ResolvedTarget, resolveTarget, splitChecked } from '../execution/target.js';
import { classifyRequest } from '../governance/request.js';
import { type ImportOutcome, type MappedColumn, runBatches } from '../import/batches.js';
import {
  checkEncoding,
  ImportInputError,
  readRecordGroups,
  readRecords,
  readText,
  type SourceRecord,
  TextTooLong,
} from '../import/records.js';
import { runScript, scriptRefusal, statementLines } from '../import/script.js';
import { commonKind, targetOf } from '../import/values.js';
import { importInsertSql, importRequestText, rowsPerStatement } from '../sql/import-statements.js';
import { DB_ERRORS } from './connection-schema.js';
import { SECURITY_HEADERS } from './guard.js';
import {
  IMPORT_MAX_BYTES,
  ImportMultipart,
  type ImportOptionsValue,
  openUpload,
  spoolFile,
  type Upload,
} from './import-upload.js';
import { clientGone, parseTicket, sessionFor } from './request-input.js';
import { errorResponses } from './response-schemas.js';
import { readTable, type TableInfo } from './table-data.js';

/** Failed rows listed in the outcome (every one is counted). */
const FAILED_LISTED = 1000;
const DEFAULT_BATCH = 1000;

const Column = Type.Object(
  {
    name: Type.String(),
    type: Type.String(),
    nullable: Type.Boolean(),
    isPrimary: Type.Boolean(),
    masked: Type.Boolean({ description: 'cannot be written by an import' }),
  },
  { additionalProperties: true },
);
const Mapping = Type.Array(Type.Object({ source: Type.String(), column: Type.String() }));
const Failed = Type.Object(
  {
    row: Type.Integer({ description: 'data record (or statement) number, 1-based' }),
    line: Type.Integer({ description: 'line of the file it starts on' }),
    reason: Type.String(),
  },
  { additionalProperties: true },
);
const Preview = Type.Object(
  {
    format: Type.String(),
    columns: Type.Array(Column),
    fields: Type.Array(Type.String(), { description: 'source fields in file order' }),
    kinds: Type.Record(Type.String(), Type.String(), {
      description:
        'per source field, what its sample values look like: integer, number, boolean, date, timestamp, json, text, empty',
    }),
    mapping: Mapping,
    rows: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'the first records, by source field',
    }),
    failed: Type.Array(Failed, { description: 'records of the sample that cannot be read' }),
    statements: Type.Optional(
      Type.Array(Type.String(), { description: 'SQL scripts: the first statements' }),
    ),
    statementCount: Type.Optional(Type.Integer()),
    refusal: Type.Optional(
      Type.String({ description: 'SQL scripts: why the script is not an import into the table' }),
    ),
  },
  { additionalProperties: true },
);
const ImportEvent = Type.Object(
  {
    type: Type.Union([Type.Literal('progress'), Type.Literal('done'), Type.Literal('error')]),
    rowCount: Type.Optional(Type.Integer({ description: 'rows written so far / in all' })),
    failedCount: Type.Optional(Type.Integer()),
    failed: Type.Optional(
      Type.Array(Failed, { description: `done: the failed rows (at most ${FAILED_LISTED})` }),
    ),
    stopped: Type.Optional(Type.Boolean()),
    statement: Type.Optional(Type.String({ description: 'done: the governed text the import ran as' })),
    durationMs: Type.Optional(Type.Integer()),
    error: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
  },
  { additionalProperties: true, description: 'one line of the application/x-ndjson answer' },
);

const uploadSchema = (description: string, answer: object) => ({
  tags: ['database'],
  description,
  body: { content: { 'multipart/form-data': { schema: ImportMultipart } } },
  response: { 200: answer, ...DB_ERRORS, ...errorResponses(415) },
});

/** The upload is read by the handler as a stream; the body schema above documents it. */
const noBodyValidation = () => () => true;

function inputError(err: unknown): never {
  if (err instanceof ImportInputError) throw new HttpError(400, err.message, 'BAD_REQUEST');
  if (err instanceof TextTooLong) throw new HttpError(413, err.message, 'PAYLOAD_TOO_LARGE');
  throw err;
}

interface Prepared {
  session: Principal;
  target: ResolvedTarget;
  info: TableInfo;
  options: ImportOptionsValue;
}

async function prepare(deps: QueryDeps, request: FastifyRequest, upload: Upload): Promise<Prepared> {
  const session = await sessionFor(deps, request);
  const { options } = upload;
  if (options.encoding) {
    try {
      checkEncoding(options.encoding);
    } catch (err) {
      inputError(err);
    }
  }
  const target = await resolveTarget(deps, session, options);
  const info = await readTable(deps, session, target, options.path);
  if (!target.factory.capabilities.supportsInlineRowEdit)
    throw new HttpError(400, `${target.factory.engine} does not import rows into tables`, 'UNSUPPORTED');
  if (!/table/i.test(info.detail.object.kind) || /virtual|foreign/i.test(info.detail.object.kind))
    throw new HttpError(
      400,
      `Rows are imported into tables, not a ${info.detail.object.kind}`,
      'BAD_REQUEST',
    );
  return { session, target, info, options };
}

const readOptions = (o: ImportOptionsValue) => ({
  format: o.format === 'jsonl' ? ('jsonl' as const) : ('csv' as const),
  encoding: o.encoding ?? 'utf-8',
  delimiter: o.delimiter ?? ',',
  quote: o.quote ?? '"',
  header: o.header ?? true,
});

/** The mapping as asked (or by matching names), checked against the table and the file's fields. */
function mappingOf(p: Prepared, fields: readonly string[]): MappedColumn[] {
  const columns = p.info.detail.columns;
  const asked =
    p.options.mapping ??
    fields.flatMap((f) => {
      const c = columns.find((col) => col.name.toLowerCase() === f.toLowerCase());
      return c && !p.info.masked.has(c.name) ? [{ source: f, column: c.name }] : [];
    });
  if (asked.length === 0)
    throw new HttpError(
      400,
      'No field of the file is named like a column of the table: give a mapping',
      'BAD_REQUEST',
    );
  const seen = new Set<string>();
  return asked.map((m) => {
    const col = columns.find((c) => c.name === m.column);
    if (!col) throw new HttpError(400, `Unknown column ${JSON.stringify(m.column)}`, 'BAD_REQUEST');
    if (p.info.masked.has(col.name))
      throw new HttpError(400, `Column ${col.name} is masked and cannot be imported into`, 'BAD_REQUEST');
    if (seen.has(col.name)) throw new HttpError(400, `Column ${col.name} is mapped twice`, 'BAD_REQUEST');
    seen.add(col.name);
    // CSV fields are known from the header (or the first record); JSON lines may add keys later on.
    if (p.options.format === 'csv' && fields.length > 0 && !fields.includes(m.source))
      throw new HttpError(400, `The file has no field ${JSON.stringify(m.source)}`, 'BAD_REQUEST');
    return { source: m.source, column: col.name, target: targetOf(col.type) };
  });
}

function columnsAnswer(info: TableInfo) {
  return info.detail.columns.map((c) => ({
    name: c.name,
    type: c.type,
    nullable: c.nullable,
    isPrimary: c.isPrimary,
    masked: info.masked.has(c.name),
  }));
}

/** The source fields of a spooled file (its header, or the first record's), read from its start. */
async function fieldsOf(path: string, options: ImportOptionsValue): Promise<string[]> {
  let fields: string[] = [];
  try {
    for await (const _ of readRecords(createReadStream(path), readOptions(options), (f) => {
      fields = f;
    }))
      break;
  } catch (err) {
    inputError(err);
  }
  return fields;
}

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
