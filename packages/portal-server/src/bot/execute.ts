// Runs a bot request's statements (database-portal.md "Rules for scripts", Bot rule 7): exactly the
// classified texts, in order, stopping at the first error, no wrapping transaction; each result masked by
// the datasource's rules and then bounded to 200 rows and 256 KB. Errors become closed words (an engine
// message can quote masked values back); the full message goes to the audit line only.
import { toHttpError } from '../providers/errors.js';
import type { ExecResult, Provider, ProviderSession } from '../providers/types.js';
import type { SqlDialect } from '../sql/dialect.js';
import { planLimit } from '../sql/limit.js';
import type { BotOutcome, ExecutionError, ExecutionOutcome, StatementOutcome } from './types.js';

export const BOT_MAX_ROWS = 200;
export const BOT_MAX_BYTES = 256 * 1024;

type Row = Record<string, unknown>;

/** Keeps whole rows from the front while both bounds hold; `truncated` when any row was left out. */
export function boundRows(
  rows: Row[],
  maxRows = BOT_MAX_ROWS,
  maxBytes = BOT_MAX_BYTES,
): { rows: Row[]; truncated: boolean } {
  const kept: Row[] = [];
  let bytes = 2; // the array's brackets
  for (const row of rows) {
    if (kept.length >= maxRows) break;
    const size = Buffer.byteLength(JSON.stringify(row)) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) break;
    bytes += size;
    kept.push(row);
  }
  return { rows: kept, truncated: kept.length < rows.length };
}

/** The closed word for a failure (see EXECUTION_ERRORS). */
export function errorWord(err: unknown): ExecutionError {
  const code = toHttpError(err).code;
  switch (code) {
    case 'QUERY_TIMEOUT':
      return 'timeout';
    case 'QUERY_CANCELLED':
      return 'cancelled';
    case 'CONNECTION_ERROR':
    case 'AUTHENTICATION_ERROR':
    case 'POOL_EXHAUSTED':
      return 'connection_error';
    case 'CONCURRENCY_LIMIT':
      return 'concurrency_limit';
    default:
      return 'query_error';
  }
}

/** What the executor reports per statement, for the audit trail. */
export interface StatementReport {
  index: number;
  statement: string;
  ok: boolean;
  rowCount: number;
  durationMs: number;
  /** Full message (audit only). */
  message?: string;
  errorCode?: string;
}

export interface RunOptions {
  dialect: SqlDialect;
  /** Row ceiling of the datasource (maxRows); the bot bound of 200 applies below it. */
  ceiling: number;
  /** Masks statement `index`'s rows (each statement has its own masker: its own columns and lineage). */
  mask(index: number, fields: string[], rows: Row[]): Row[];
  report(r: StatementReport): void | Promise<void>;
}

type Runner = Pick<ProviderSession, 'query'> | Pick<Provider, 'query'>;

async function runOne(
  runner: Runner,
  statement: string,
  o: RunOptions,
): Promise<{ result: ExecResult; durationMs: number }> {
  const limit = Math.min(BOT_MAX_ROWS, o.ceiling);
  // A plain SELECT gets `LIMIT 201` so a big table is never read whole; other statements keep their text.
  const plan = await planLimit(o.dialect, statement, limit, 0);
  const started = performance.now();
  const result = await runner.query(plan.sql, [], { maxRows: limit });
  return { result, durationMs: Math.round(performance.now() - started) };
}

function shaped(index: number, result: ExecResult, o: RunOptions, durationMs: number): ExecutionOutcome {
  const masked = o.mask(index, result.fields, result.rows);
  const bounded = boundRows(masked);
  return {
    status: 'done',
    rowCount: result.rowCount,
    fields: result.fields,
    rows: bounded.rows,
    ...(bounded.truncated || result.truncated ? { truncated: true } : {}),
    durationMs,
  };
}

/**
 * Runs `statements` on `open()`'s connection: one statement on the pool, a script on one dedicated session.
 * A script's `execution` carries the last completed statement's result (status `failed` when one failed).
 */
export async function runStatements(
  provider: Pick<Provider, 'query' | 'openSession'>,
  statements: string[],
  o: RunOptions,
): Promise<BotOutcome> {
  if (statements.length === 1) {
    const statement = statements[0];
    const started = performance.now();
    try {
      const { result, durationMs } = await runOne(provider, statement, o);
      await o.report({ index: 0, statement, ok: true, rowCount: result.rowCount, durationMs });
      return { execution: shaped(0, result, o, durationMs) };
    } catch (err) {
      const durationMs = Math.round(performance.now() - started);
      const e = toHttpError(err);
      await o.report({
        index: 0,
        statement,
        ok: false,
        rowCount: 0,
        durationMs,
        message: e.message,
        errorCode: e.code,
      });
      return { execution: failed(errorWord(err), durationMs) };
    }
  }
  const entries: StatementOutcome[] = [];
  let last: ExecutionOutcome | undefined;
  let failure: ExecutionError | undefined;
  let total = 0;
  const session = await provider.openSession();
  try {
    for (const [index, statement] of statements.entries()) {
      const started = performance.now();
      try {
        const { result, durationMs } = await runOne(session, statement, o);
        total += durationMs;
        entries.push({ index, status: 'done', rowCount: result.rowCount, durationMs });
        last = shaped(index, result, o, durationMs);
        await o.report({ index, statement, ok: true, rowCount: result.rowCount, durationMs });
      } catch (err) {
        const durationMs = Math.round(performance.now() - started);
        total += durationMs;
        failure = errorWord(err);
        entries.push({ index, status: 'failed', durationMs, error: failure });
        const e = toHttpError(err);
        await o.report({
          index,
          statement,
          ok: false,
          rowCount: 0,
          durationMs,
          message: e.message,
          errorCode: e.code,
        });
        break;
      }
    }
  } finally {
    await session.close().catch(() => undefined);
  }
  const executedCount = entries.filter((e) => e.status === 'done').length;
  const execution: ExecutionOutcome = failure
    ? { ...(last ?? failed(failure, total)), status: 'failed', error: failure, durationMs: total }
    : { ...(last ?? failed('not_run', total)), durationMs: total };
  return { execution, executedCount, statements: entries };
}

export function failed(error: ExecutionError, durationMs = 0): ExecutionOutcome {
  return { status: 'failed', rowCount: 0, fields: [], rows: [], durationMs, error };
}
