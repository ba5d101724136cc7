// What a run produced, as the results area shows it, and how an API failure becomes words a person acts on:
// a title, the engine's or the policy's message, and what to do next.
import { type Answer, ApiError, errorText } from '../lib/api';
import type { Approval, QueryResult } from '../lib/types';

/** One statement of a script's answer (`POST /api/db/multi-query`), from the server's OpenAPI description. */
export type ScriptStatement = Answer<'/api/db/multi-query', 'post'>['statements'][number];

export type Outcome =
  | { kind: 'result'; sql: string; result: QueryResult; rows: Record<string, unknown>[] }
  | { kind: 'plan'; sql: string; mode: 'estimate' | 'analyze'; result: QueryResult }
  | { kind: 'script'; sql: string; texts: string[]; executedCount: number; statements: ScriptStatement[] }
  | { kind: 'error'; status: number; code?: string; message: string }
  | { kind: 'approval'; sql: string; message: string; approval: Approval; guardrail?: string };

const ERRORS: Record<string, { title: string; hint?: string }> = {
  QUERY_ERROR: {
    title: 'The database reported an error',
    hint: 'Fix the statement as the message says and run it again.',
  },
  QUERY_TIMEOUT: {
    title: 'The statement timed out',
    hint: 'Narrow it (a WHERE clause, a LIMIT, an index) or ask for a larger query timeout on the connection.',
  },
  QUERY_CANCELLED: { title: 'The statement was cancelled' },
  READ_ONLY: {
    title: 'This datasource is read-only',
    hint: 'Only reads run here. Ask an administrator for a datasource that allows writes.',
  },
  TICKET_REQUIRED: {
    title: 'A ticket is required',
    hint: 'Enter the change ticket in the Ticket field and run again.',
  },
  FREEZE_WINDOW: {
    title: 'Writes are frozen',
    hint: 'A change freeze is in force; run the write after it ends.',
  },
  OBJECT_FORBIDDEN: {
    title: 'Not allowed on this object',
    hint: 'The datasource policy hides or protects it.',
  },
  PERMISSION_DENIED: { title: 'Not allowed', hint: 'The datasource policy does not let you run this.' },
  CONCURRENCY_LIMIT: {
    title: 'Too many statements are running on this datasource',
    hint: 'Wait for one of yours to finish, or cancel it, then run again.',
  },
  RATE_LIMITED: { title: 'Too many requests', hint: 'Wait a moment and try again.' },
  CONNECTION_ERROR: {
    title: 'The database could not be reached',
    hint: 'Check host, port and credentials of the connection, or whether the server is up.',
  },
  PAYLOAD_TOO_LARGE: {
    title: 'The text is too long',
    hint: 'Statements are limited to 1,048,576 characters.',
  },
  MASKED_COLUMN_PREDICATE: {
    title: 'A masked column cannot filter, join or sort',
    hint: 'Use an unmasked column there (ORDER BY by name or alias, not by position when a masked column is selected).',
  },
  EXPLAIN_NOT_SELECT: {
    title: 'Only a reading statement can be explained',
    hint: 'Put the cursor on a SELECT (or select it) and press Explain.',
  },
  EXPORT_NOT_ALLOWED: {
    title: 'Export is not allowed here',
    hint: "The datasource policy's export roles leave yours out; ask an administrator.",
  },
  NOT_A_READ: { title: 'Only a reading statement can be exported', hint: 'Export a SELECT.' },
  MULTIPLE_STATEMENTS: {
    title: 'One statement at a time here',
    hint: 'Put the cursor on one statement (or select it); Run script runs several.',
  },
  DATASOURCE_UNAVAILABLE: {
    title: 'This datasource is unavailable',
    hint: 'Its configuration cannot be used right now; an administrator finds the reason in the portal log.',
  },
  BAD_REQUEST: { title: 'The request was refused' },
};

export function errorTitle(code: string | undefined, status: number): { title: string; hint?: string } {
  if (code && ERRORS[code]) return ERRORS[code];
  if (status === 401) return { title: 'Your session ended', hint: 'Sign in again.' };
  if (status === 403)
    return { title: 'Not allowed', hint: 'Your role or the datasource policy does not allow this.' };
  if (status === 413) return ERRORS.PAYLOAD_TOO_LARGE;
  if (status === 0)
    return { title: 'The portal could not be reached', hint: 'Check your network and try again.' };
  return { title: 'The statement was refused' };
}

export function toOutcome(err: unknown, sql: string): Outcome {
  if (err instanceof ApiError) {
    if (err.code === 'APPROVAL_REQUIRED' && err.body.approval && typeof err.body.approval === 'object') {
      return {
        kind: 'approval',
        sql,
        message: err.message,
        approval: err.body.approval as Approval,
        guardrail: typeof err.body.guardrail === 'string' ? err.body.guardrail : undefined,
      };
    }
    return { kind: 'error', status: err.status, code: err.code, message: err.message };
  }
  return { kind: 'error', status: 0, message: errorText(err) };
}
