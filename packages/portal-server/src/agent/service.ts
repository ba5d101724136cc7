// The investigation agent: classifying an objective (one model call, 16 output tokens, 8 s), opening runs
// whose model loop streams progress events, resuming a run with a drive credential, handing a run's answer
// statement over (replayed through the read-only profile) and serving its artifacts. The model loop is the
// AI SDK's `streamText` with the read-only tools of tools.ts; the run's deadline aborts the model call and
// any running statement, and ends the run with the typed reason `agent_run_deadline_exceeded`.
import { randomUUID } from 'node:crypto';
import { HttpError } from '@app/kit';
import { type ModelMessage, stepCountIs, streamText } from 'ai';
import { type AiClient, modelError } from '../ai/client.js';
import type { Principal } from '../auth/principal.js';
import { DriveCredentials } from './credentials.js';
import { type ExecutionAdapter, ReadRefused } from './execution-adapter.js';
import { type AgentRun, RunRegistry, threadContext } from './runs.js';
import { type AgentAudit, agentTools, recordOperation } from './tools.js';
import {
  AGENT_OBJECTIVE_MAX,
  CLASSIFY_SYSTEM,
  parseWorkflow,
  systemPrompt,
  type Workflow,
} from './workflows.js';

export const CLASSIFY_MAX_TOKENS = 16;
export const CLASSIFY_TIMEOUT_MS = 8_000;
export const THREAD_CONTEXT_MAX = 4000;
export const DEFAULT_DEADLINE_MS = 120_000;
export const MAX_DEADLINE_MS = 600_000;
/** Model steps (calls) one run, or one drive of it, may take before it pauses for the person. */
export const MAX_STEPS = 8;
/** Least time a tool needs before the deadline. */
export const STATEMENT_RESERVE_MS = 2_000;
/** Runs one person may have running at once. */
export const MAX_RUNNING_PER_PERSON = 3;

export interface AgentOptions {
  client: AiClient;
  adapter: ExecutionAdapter;
  audit: AgentAudit;
  /** Key for drive credentials (derived from the server secret). */
  driveKey: Buffer;
  threadContext: boolean;
  classifyTimeoutMs?: number;
  statementReserveMs?: number;
  now?: () => number;
}

export interface StartRequest {
  objective: string;
  datasourceId: string;
  workflow: Workflow;
  threadId?: string;
  deadlineMs: number;
}

class RunAborted extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export class AgentService {
  readonly runs: RunRegistry;
  readonly drive: DriveCredentials;
  private readonly now: () => number;

  constructor(private readonly o: AgentOptions) {
    this.now = o.now ?? Date.now;
    this.runs = new RunRegistry(this.now);
    this.drive = new DriveCredentials(o.driveKey, this.now);
  }

  /** One model call naming a workflow; a model answer naming none is a 502 (the caller may pick one itself). */
  async classify(objective: string): Promise<{ workflow: Workflow; answer: string }> {
    const answer = await this.o.client.complete(CLASSIFY_SYSTEM, `Objective:\n${objective}`, {
      maxOutputTokens: CLASSIFY_MAX_TOKENS,
      timeoutMs: this.o.classifyTimeoutMs ?? CLASSIFY_TIMEOUT_MS,
    });
    const workflow = parseWorkflow(answer);
    if (!workflow)
      throw new HttpError(502, 'The model did not name one of the five workflows', 'AI_PROVIDER_ERROR');
    return { workflow, answer: answer.slice(0, 100) };
  }

  /** Opens a run and starts its model loop in the background; progress goes to the run's events. */
  async start(user: Principal, req: StartRequest): Promise<AgentRun> {
    const running = this.runs.running(user.username);
    if (running.length >= MAX_RUNNING_PER_PERSON)
      throw new HttpError(
        429,
        `At most ${MAX_RUNNING_PER_PERSON} agent runs may run at once`,
        'TOO_MANY_RUNS',
      );
    // The datasource must exist for this person before any model call (404/503 otherwise).
    const target = await this.o.adapter.target(user, req.datasourceId);
    const now = this.now();
    const run: AgentRun = {
      id: randomUUID(),
      owner: { role: user.role, username: user.username },
      threadId: req.threadId ?? randomUUID(),
      datasourceId: req.datasourceId,
      engine: target.engine,
      workflow: req.workflow,
      objective: req.objective,
      status: 'running',
      deadlineMs: req.deadlineMs,
      deadlineAt: now + req.deadlineMs,
      createdAt: now,
      artifacts: new Map(),
      events: [],
      messages: [],
      listeners: new Set(),
    };
    const context = this.o.threadContext
      ? threadContext(this.runs.thread(run.threadId, user.username, run.id), THREAD_CONTEXT_MAX)
      : '';
    run.messages.push({
      role: 'user',
      content: `${context ? `Context from earlier in this conversation:\n${context}\n\n` : ''}Objective: ${req.objective}`,
    });
    this.runs.add(run);
    await recordOperation(this.o.audit, run, run.id, {
      operation: 'run',
      phase: 'decision',
      ok: true,
      objective: req.objective.slice(0, 500),
      deadlineMs: req.deadlineMs,
      threadContext: context.length,
    });
    this.runs.emit(run, 'run', this.describe(run));
    void this.loop(run);
    return run;
  }

  /** Resumes a run named by a drive credential, with an optional follow-up instruction. */
  async resume(credential: unknown, instruction: string | undefined): Promise<AgentRun> {
    const claims = this.drive.redeem(credential);
    if ('refused' in claims)
      throw new HttpError(401, `Drive refused: ${claims.refused}`, 'INVALID_DRIVE_CREDENTIAL');
    const run = this.runs.get(claims.runId);
    if (!run) throw new HttpError(404, 'The run is no longer available', 'NOT_FOUND');
    if (run.status === 'running') throw new HttpError(409, 'The run is still running', 'CONFLICT');
    run.messages.push({ role: 'user', content: instruction ?? 'Continue the investigation.' });
    run.status = 'running';
    run.reason = undefined;
    run.endedAt = undefined;
    run.deadlineAt = this.now() + run.deadlineMs;
    await recordOperation(this.o.audit, run, randomUUID(), {
      operation: 'drive',
      phase: 'decision',
      ok: true,
      ...(instruction ? { instruction: instruction.slice(0, 500) } : {}),
    });
    this.runs.emit(run, 'resumed', { deadlineAt: new Date(run.deadlineAt).toISOString() });
    void this.loop(run);
    return run;
  }

  /** Replays the run's answer statement through the read-only profile, as the run's owner. */
  async handover(user: Principal, runId: string) {
    const run = this.runs.get(runId, user.username);
    if (!run) throw new HttpError(404, 'Unknown agent run', 'NOT_FOUND');
    if (!run.answerStatement)
      throw new HttpError(
        409,
        'The run has no answer statement yet (no statement has run successfully)',
        'CONFLICT',
      );
    const correlationId = randomUUID();
    const statement = run.answerStatement;
    const audit = (phase: 'decision' | 'outcome', ok: boolean, extra: Record<string, unknown> = {}) =>
      recordOperation(this.o.audit, run, correlationId, {
        operation: 'handover',
        phase,
        ok,
        statement,
        ...extra,
      });
    let admitted = false;
    try {
      const result = await this.o.adapter.runRead(user, run.datasourceId, statement, {
        route: 'agent',
        auditRoute: `/api/agent/runs/${runId}/handover`,
        correlationId,
        onAdmitted: async () => {
          admitted = true;
          await audit('decision', true);
        },
      });
      await audit('outcome', true, { rowCount: result.rowCount, durationMs: result.durationMs });
      return { runId, correlationId, ...result };
    } catch (err) {
      const reason = err instanceof ReadRefused ? err.reason : 'agent_operation_failed';
      await audit(admitted ? 'outcome' : 'decision', false, { reason });
      if (err instanceof ReadRefused) throw new HttpError(err.status, err.message, err.code);
      throw err;
    }
  }

  /** Stops every running run (server shutdown): their streams end with `agent_server_stopping`. */
  close(): void {
    for (const run of this.runs.all()) if (run.status === 'running') run.abort?.('agent_server_stopping');
  }

  describe(run: AgentRun) {
    return {
      runId: run.id,
      threadId: run.threadId,
      datasourceId: run.datasourceId,
      workflow: run.workflow,
      objective: run.objective,
      status: run.status,
      ...(run.reason ? { reason: run.reason } : {}),
      deadlineAt: new Date(run.deadlineAt).toISOString(),
      ...(run.answer ? { answer: run.answer } : {}),
      ...(run.answerStatement ? { answerStatement: run.answerStatement } : {}),
    };
  }

  /** One model loop: until the model answers, the step budget is spent, the deadline passes or it fails. */
  private async loop(run: AgentRun): Promise<void> {
    const controller = new AbortController();
    let abortReason: string | undefined;
    run.abort = (reason) => {
      if (abortReason) return;
      abortReason = reason;
      controller.abort(new RunAborted(reason));
    };
    const timer = setTimeout(
      () => run.abort?.('agent_run_deadline_exceeded'),
      Math.max(0, run.deadlineAt - this.now()),
    );
    let text = '';
    try {
      const result = streamText({
        model: this.o.client.languageModel,
        system: systemPrompt(run.workflow, run.engine),
        messages: run.messages as ModelMessage[],
        tools: agentTools({
          run,
          registry: this.runs,
          adapter: this.o.adapter,
          audit: this.o.audit,
          reserveMs: this.o.statementReserveMs ?? STATEMENT_RESERVE_MS,
          now: this.now,
          abortReason: () => abortReason,
        }),
        stopWhen: stepCountIs(MAX_STEPS),
        temperature: 0,
        maxRetries: 0,
        abortSignal: controller.signal,
      });
      let failure: unknown;
      let pendingTools = false;
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          text += part.text;
          this.runs.emit(run, 'text', { delta: part.text });
        } else if (part.type === 'start-step') {
          text = '';
        } else if (part.type === 'finish-step') {
          pendingTools = part.finishReason === 'tool-calls';
        } else if (part.type === 'error') {
          failure = part.error;
        }
      }
      if (abortReason) throw new RunAborted(abortReason);
      if (failure) throw failure;
      const response = await result.response;
      run.messages.push(...response.messages.map((m) => ({ ...m })));
      if (pendingTools) {
        // The step budget ran out while the model still wanted tools: the person decides whether to go on.
        this.end(run, 'paused', undefined, 'The agent used its step budget; drive the run to continue');
      } else {
        run.answer = text.trim() || '(the model gave no answer)';
        this.runs.emit(run, 'answer', {
          text: run.answer,
          ...(run.answerStatement ? { statement: run.answerStatement } : {}),
        });
        this.end(run, 'completed');
      }
    } catch (err) {
      if (abortReason || err instanceof RunAborted) {
        const reason = abortReason ?? (err as RunAborted).reason;
        const why: Record<string, string> = {
          agent_run_deadline_exceeded: 'The run passed its deadline',
          agent_run_cancelled: 'The run was cancelled',
          agent_server_stopping: 'The server is stopping',
        };
        this.end(run, 'failed', reason, why[reason] ?? 'The run was stopped');
      } else {
        const e = modelError(err, run.deadlineMs);
        this.end(run, 'failed', 'agent_model_error', e.message);
      }
    } finally {
      clearTimeout(timer);
      run.abort = undefined;
    }
  }

  private end(
    run: AgentRun,
    status: 'paused' | 'completed' | 'failed',
    reason?: string,
    message?: string,
  ): void {
    run.status = status;
    run.reason = reason;
    run.endedAt = this.now();
    void recordOperation(this.o.audit, run, run.id, {
      operation: 'run',
      phase: 'outcome',
      ok: status !== 'failed',
      status,
      ...(reason ? { reason } : {}),
    });
    // A stopped run may be driven on (paused, or a follow-up question) by whoever holds this credential.
    const drive = status === 'failed' ? undefined : this.drive.mint(run.id);
    this.runs.emit(run, 'end', {
      status,
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
      ...(drive ? { drive } : {}),
    });
  }
}

export function parseObjective(v: unknown): string {
  if (typeof v !== 'string') throw new HttpError(400, 'objective must be a string', 'BAD_REQUEST');
  if (v.trim() === '') throw new HttpError(400, 'objective is empty', 'BAD_REQUEST');
  if (v.length > AGENT_OBJECTIVE_MAX)
    throw new HttpError(
      400,
      `objective is ${v.length} characters; the limit is ${AGENT_OBJECTIVE_MAX}`,
      'BAD_REQUEST',
    );
  return v;
}
