// The agent's tools (AI SDK `tool()`): list_objects, describe_object and run_query — all read-only, all
// through the execution adapter's read-only profile. Every call is an agent operation: a decision event
// (allowed, or refused with a typed `agent_*` reason) and, when allowed, an outcome event sharing its
// correlation id. The time left before the run's deadline is checked before anything starts.
import { randomUUID } from 'node:crypto';
import { type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { type ExecutionAdapter, ReadRefused } from './execution-adapter.js';
import type { AgentRun, RunRegistry } from './runs.js';

/** Rows of a result the model reads (the browser gets the whole artifact). */
export const MODEL_ROWS = 50;
/** Characters of a tool result the model reads. */
export const MODEL_RESULT_CHARS = 16_000;

export interface AgentAudit {
  record(event: {
    type: string;
    actor: string;
    result: 'success' | 'failure';
    [k: string]: unknown;
  }): unknown;
}

export interface ToolContext {
  run: AgentRun;
  registry: RunRegistry;
  adapter: ExecutionAdapter;
  audit: AgentAudit;
  /** Least time a tool needs before the deadline. */
  reserveMs: number;
  now: () => number;
  /** Why the run's signal was aborted, when it was. */
  abortReason: () => string | undefined;
}

/** Records one agent operation event; `phase` tells the decision from its outcome. */
export async function recordOperation(
  audit: AgentAudit,
  run: AgentRun,
  correlationId: string,
  fields: {
    operation: string;
    phase: 'decision' | 'outcome';
    ok: boolean;
    reason?: string;
    [k: string]: unknown;
  },
): Promise<void> {
  const { ok, ...rest } = fields;
  try {
    await audit.record({
      type: 'agent_operation',
      actor: run.owner.username,
      connection: run.datasourceId,
      result: ok ? 'success' : 'failure',
      correlationId,
      runId: run.id,
      workflow: run.workflow,
      ...(fields.phase === 'decision' ? { decision: ok ? 'allowed' : 'refused' } : {}),
      ...rest,
    });
  } catch {
    // the audit sink logs its own failures
  }
}

function forModel(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text.length <= MODEL_RESULT_CHARS) return value;
  return { note: 'result shortened for the model', text: `${text.slice(0, MODEL_RESULT_CHARS)}…` };
}

/** The deadline check before a tool starts: undefined when there is time, else the typed reason. */
function timeRefusal(c: ToolContext): string | undefined {
  const left = c.run.deadlineAt - c.now();
  if (left <= 0) return 'agent_run_deadline_exceeded';
  if (left < c.reserveMs) return 'agent_insufficient_time_remaining';
  return undefined;
}

type Body = (op: { correlationId: string; admit: () => Promise<void> }) => Promise<{
  forModel: unknown;
  outcome?: Record<string, unknown>;
}>;

/**
 * Runs one operation with its decision and outcome events. The decision is recorded when the body calls
 * `admit` (the policy let it through) — or, for bodies that never call it, once they succeeded; a failure
 * before admission is a refusal (decision only), after it a failed outcome. Refusals and failures become
 * answers the model reads.
 */
async function operation(
  c: ToolContext,
  name: string,
  detail: Record<string, unknown>,
  body: Body,
): Promise<unknown> {
  const correlationId = randomUUID();
  const { run, registry } = c;
  registry.emit(run, 'operation', { correlationId, tool: name, ...detail });
  const refuse = async (reason: string, message: string, code?: string) => {
    await recordOperation(c.audit, run, correlationId, {
      operation: name,
      phase: 'decision',
      ok: false,
      reason,
      message,
      ...(code ? { code } : {}),
      ...detail,
    });
    registry.emit(run, 'refused', { correlationId, tool: name, reason, message });
    return { refused: true, reason, message };
  };
  const late = timeRefusal(c);
  if (late) {
    const left = Math.max(0, run.deadlineAt - c.now());
    return refuse(
      late,
      late === 'agent_run_deadline_exceeded'
        ? 'The run has passed its deadline'
        : `Only ${left} ms remain before the run's deadline; a statement needs at least ${c.reserveMs} ms`,
    );
  }
  let admitted = false;
  const admit = async () => {
    if (admitted) return;
    admitted = true;
    await recordOperation(c.audit, run, correlationId, {
      operation: name,
      phase: 'decision',
      ok: true,
      ...detail,
    });
  };
  try {
    const out = await body({ correlationId, admit });
    await admit();
    await recordOperation(c.audit, run, correlationId, {
      operation: name,
      phase: 'outcome',
      ok: true,
      ...(out.outcome ?? {}),
    });
    return forModel(out.forModel);
  } catch (err) {
    const typed = err instanceof ReadRefused ? err.reason : 'agent_operation_failed';
    const message = (err as { message?: string }).message ?? 'The operation failed';
    if (!admitted) return refuse(typed, message, (err as { code?: string }).code);
    const reason = c.abortReason() ?? typed;
    await recordOperation(c.audit, run, correlationId, {
      operation: name,
      phase: 'outcome',
      ok: false,
      reason,
      message,
    });
    registry.emit(run, 'failed', { correlationId, tool: name, reason, message });
    return { failed: true, reason, message };
  }
}

const pathSchema = z.array(z.string().min(1).max(512)).max(4);

export function agentTools(c: ToolContext): ToolSet {
  const principal = c.run.owner;
  const ds = c.run.datasourceId;
  return {
    list_objects: tool({
      description:
        'Lists tables, views and other objects of the datasource, or of one schema/database when path is given.',
      inputSchema: z.object({ path: pathSchema.optional().describe('a container path such as ["public"]') }),
      execute: async ({ path }) =>
        operation(c, 'list_objects', path ? { path } : {}, async () => {
          const objects = await c.adapter.listObjects(principal, ds, path);
          return {
            forModel: {
              objects: objects.map((o) => ({
                path: o.path,
                kind: o.kind,
                ...(o.rowCount !== undefined ? { rowCount: o.rowCount } : {}),
              })),
            },
            outcome: { count: objects.length },
          };
        }),
    }),
    describe_object: tool({
      description: 'Describes one object (columns, indexes, foreign keys) by its path from list_objects.',
      inputSchema: z.object({ path: pathSchema.min(1) }),
      execute: async ({ path }) =>
        operation(c, 'describe_object', { path }, async () => {
          const d = await c.adapter.describe(principal, ds, path);
          return {
            forModel: {
              object: d.object,
              columns: d.columns.map((col) => ({
                name: col.name,
                type: col.type,
                nullable: col.nullable,
                isPrimary: col.isPrimary,
              })),
              indexes: d.indexes,
              foreignKeys: d.foreignKeys,
            },
          };
        }),
    }),
    run_query: tool({
      description: 'Runs ONE read-only SQL statement and returns up to 50 rows. Writes are refused.',
      inputSchema: z.object({
        sql: z.string().min(1).max(20_000),
        purpose: z.string().max(500).optional().describe('what this statement should show'),
      }),
      execute: async ({ sql, purpose }, { abortSignal }) =>
        operation(
          c,
          'run_query',
          { statement: sql, ...(purpose ? { purpose } : {}) },
          async ({ correlationId, admit }) => {
            const result = await c.adapter.runRead(principal, ds, sql, {
              route: 'agent',
              auditRoute: '/api/agent/runs',
              correlationId,
              onAdmitted: admit,
              ...(abortSignal ? { signal: abortSignal } : {}),
            });
            c.run.artifacts.set(correlationId, { ...result, correlationId });
            c.run.answerStatement = result.statement;
            c.registry.emit(c.run, 'result', {
              correlationId,
              fields: result.fields,
              rows: result.rows.slice(0, MODEL_ROWS),
              rowCount: result.rowCount,
              truncated: result.truncated,
              durationMs: result.durationMs,
              artifact: `/api/agent/runs/${c.run.id}/artifacts/${correlationId}`,
            });
            return {
              forModel: {
                correlationId,
                fields: result.fields,
                rows: result.rows.slice(0, MODEL_ROWS),
                rowCount: result.rowCount,
                truncated: result.truncated || result.rows.length > MODEL_ROWS,
              },
              outcome: { rowCount: result.rowCount, durationMs: result.durationMs },
            };
          },
        ),
    }),
  };
}
