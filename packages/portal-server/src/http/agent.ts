// The investigation agent's routes (database-portal.md "Agent routes"; registered only while a model is
// configured, so they answer 404 otherwise): classify, open a run (JSON, or the progress stream itself when
// the request accepts text/event-stream), read a run and its resumable event stream, cancel, hand over,
// read an artifact, and drive a run with a server-minted credential instead of a session.
import { HttpError } from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AgentRun, RunEvent } from '../agent/runs.js';
import type { AgentService } from '../agent/service.js';
import { DEFAULT_DEADLINE_MS, MAX_DEADLINE_MS, parseObjective } from '../agent/service.js';
import { isWorkflow, WORKFLOWS } from '../agent/workflows.js';
import {
  AgentArtifact,
  AgentCancelled,
  AgentHandover,
  AgentRunAnswer,
  AgentWorkflow,
  EventStream,
} from './ai-schemas.js';
import { rateLimitHook, requireSession, SECURITY_HEADERS } from './guard.js';
import { checkedByHandler } from './request-input.js';
import { errorResponses } from './response-schemas.js';

const KEEPALIVE_MS = 15_000;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

function bodyOf(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new HttpError(400, 'The body must be a JSON object', 'BAD_REQUEST');
  return raw as Record<string, unknown>;
}

function optionalId(v: unknown, name: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !ID.test(v))
    throw new HttpError(400, `${name} must be 1-64 letters, digits, '-' or '_'`, 'BAD_REQUEST');
  return v;
}

function deadlineOf(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_DEADLINE_MS;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_DEADLINE_MS / 1000)
    throw new HttpError(
      400,
      `deadlineSeconds must be an integer from 1 to ${MAX_DEADLINE_MS / 1000}`,
      'BAD_REQUEST',
    );
  return v * 1000;
}

function sseFrame(e: RunEvent): string {
  return `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * Streams a run's events after `after` (replay, then live) until the run stops, with a comment keep-alive
 * every 15 s. The stream ends after an `end` event; a resumed run is followed on a new stream.
 */
function streamRun(request: FastifyRequest, reply: FastifyReply, run: AgentRun, after: number): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    run.listeners.delete(listener);
    clearInterval(keepalive);
    res.end();
  };
  const listener = (e: RunEvent) => {
    if (closed) return;
    res.write(sseFrame(e));
    if (e.event === 'end') finish();
  };
  const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
  keepalive.unref();
  request.raw.on('close', finish);
  // A socket that fails mid-stream ends this stream only; the run goes on.
  res.on('error', finish);
  for (const e of run.events) if (e.id > after) res.write(sseFrame(e));
  // A run that has stopped has nothing more to say on this stream (a drive resumes it on a new one).
  if (run.status !== 'running') finish();
  else run.listeners.add(listener);
}

function lastEventId(request: FastifyRequest): number {
  const raw = request.headers['last-event-id'];
  const n = typeof raw === 'string' ? Number.parseInt(raw, 10) : 0;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function wantsStream(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes('text/event-stream');
}

const Objective = Type.String({ minLength: 1, maxLength: 4000 });
const RunParams = Type.Object({ runId: Type.String() });
/** The documented run body; the handler checks it (after the session and the model budget) in its own words. */
const RunBody = Type.Object({
  objective: Objective,
  connectionId: Type.String({ description: 'a managed datasource' }),
  workflow: Type.Optional(Type.Union(WORKFLOWS.map((w) => Type.Literal(w)))),
  threadId: Type.Optional(Type.String()),
  deadlineSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 600, default: 120 })),
});
const AGENT_ERRORS = errorResponses(400, 401, 404, 409, 429, 502, 503, 504);

export function registerAgentRoutes(app: FastifyInstance, agent: AgentService): void {
  const modelBudget = rateLimitHook(
    (app) => app.portalAuth.limits.agent,
    async (request) => `agent:${(await requireSession(request)).username}`,
  );
  const ownRun = async (request: FastifyRequest) => {
    const user = await requireSession(request);
    const { runId } = request.params as { runId: string };
    const run = agent.runs.get(runId, user.username);
    if (!run) throw new HttpError(404, 'Unknown agent run', 'NOT_FOUND');
    return { user, run };
  };

  app.post(
    '/api/agent/classify',
    {
      preHandler: modelBudget,
      schema: {
        tags: ['agent'],
        description: `\`{objective}\` (at most 4000 characters) → \`{workflow}\`, one of ${WORKFLOWS.join(', ')}. One model call, 16 output tokens, 8 s; 504 AI_TIMEOUT, 502 when the model names none.`,
        body: Type.Object({ objective: Objective }),
        response: { 200: AgentWorkflow, ...AGENT_ERRORS },
      },
      ...checkedByHandler,
    },
    async (request) => {
      await requireSession(request);
      const objective = parseObjective(bodyOf(request.body).objective);
      return { workflow: (await agent.classify(objective)).workflow };
    },
  );

  app.post(
    '/api/agent/runs',
    {
      preHandler: modelBudget,
      schema: {
        tags: ['agent'],
        description:
          '`{objective, connectionId (a managed datasource), workflow? (default investigation), threadId?, deadlineSeconds? (1-600, default 120)}` → 201 ' +
          "`{runId, threadId, datasourceId, workflow, objective, status, deadlineAt, events}`; with `Accept: text/event-stream` the answer is the run's " +
          'event stream itself. Events: run, operation, refused, result, failed, text, answer, resumed, end `{status: completed|paused|failed, reason?, drive?: {credential, expiresAt}}`.',
        body: RunBody,
        response: { 200: EventStream, 201: AgentRunAnswer, ...AGENT_ERRORS },
      },
      ...checkedByHandler,
    },
    async (request, reply) => {
      const user = await requireSession(request);
      const b = bodyOf(request.body);
      const objective = parseObjective(b.objective);
      const datasourceId = optionalId(b.connectionId, 'connectionId');
      if (!datasourceId)
        throw new HttpError(400, 'connectionId (a managed datasource) is required', 'BAD_REQUEST');
      if (b.workflow !== undefined && !isWorkflow(b.workflow))
        throw new HttpError(400, `workflow must be one of ${WORKFLOWS.join(', ')}`, 'BAD_REQUEST');
      const run = await agent.start(user, {
        objective,
        datasourceId,
        workflow: isWorkflow(b.workflow) ? b.workflow : 'investigation',
        threadId: optionalId(b.threadId, 'threadId'),
        deadlineMs: deadlineOf(b.deadlineSeconds),
      });
      if (wantsStream(request)) return streamRun(request, reply, run, 0);
      return reply.code(201).send({ ...agent.describe(run), events: `/api/agent/runs/${run.id}/events` });
    },
  );

  app.get(
    '/api/agent/runs/:runId',
    {
      schema: {
        tags: ['agent'],
        description: "The run as `POST /api/agent/runs` describes it; 404 for another person's run.",
        params: RunParams,
        response: { 200: AgentRunAnswer, ...AGENT_ERRORS },
      },
    },
    async (request) => agent.describe((await ownRun(request)).run),
  );

  app.get(
    '/api/agent/runs/:runId/events',
    {
      schema: {
        tags: ['agent'],
        description:
          "The run's progress as server-sent events (`id:` per event; `Last-Event-ID` resumes); ends after `end`.",
        params: RunParams,
        response: { 200: EventStream, ...AGENT_ERRORS },
      },
    },
    async (request, reply) => {
      const { run } = await ownRun(request);
      streamRun(request, reply, run, lastEventId(request));
    },
  );

  app.post(
    '/api/agent/runs/:runId/cancel',
    {
      schema: {
        tags: ['agent'],
        description: 'Stops a running run (reason `agent_run_cancelled`); 409 when it is not running.',
        params: RunParams,
        response: { 200: AgentCancelled, ...AGENT_ERRORS },
      },
    },
    async (request) => {
      const { run } = await ownRun(request);
      if (run.status !== 'running' || !run.abort)
        throw new HttpError(409, 'The run is not running', 'CONFLICT');
      run.abort('agent_run_cancelled');
      return { runId: run.id, cancelled: true };
    },
  );

  app.post(
    '/api/agent/runs/:runId/handover',
    {
      schema: {
        tags: ['agent'],
        description:
          "Replays the run's own answer statement (its last successful statement) through the read-only profile → `{runId, correlationId, statement, fields, rows, rowCount, truncated, durationMs}`. The body carries no SQL (400 if it tries); 409 before any statement ran.",
        params: RunParams,
        body: Type.Object(
          {},
          {
            description:
              'no fields: the run’s own statement is replayed (a `sql` or `statement` field is 400)',
          },
        ),
        response: { 200: AgentHandover, ...AGENT_ERRORS },
      },
      ...checkedByHandler,
    },
    async (request) => {
      const { user } = await ownRun(request);
      const b = bodyOf(request.body);
      if ('sql' in b || 'statement' in b)
        throw new HttpError(
          400,
          "Handover replays the run's own statement; the body carries no SQL",
          'BAD_REQUEST',
        );
      const { runId } = request.params as { runId: string };
      return agent.handover(user, runId);
    },
  );

  app.get(
    '/api/agent/runs/:runId/artifacts/:correlationId',
    {
      schema: {
        tags: ['agent'],
        description:
          'One statement result of a live run → `{correlationId, statement, fields, rows, rowCount, truncated, durationMs}` (masked, at most 200 rows); 404 otherwise.',
        params: Type.Object({ runId: Type.String(), correlationId: Type.String() }),
        response: { 200: AgentArtifact, ...AGENT_ERRORS },
      },
    },
    async (request) => {
      const { run } = await ownRun(request);
      const { correlationId } = request.params as { correlationId: string };
      const artifact = run.artifacts.get(correlationId);
      if (!artifact) throw new HttpError(404, 'Unknown artifact', 'NOT_FOUND');
      return artifact;
    },
  );

  app.post(
    '/api/agent/drive',
    {
      schema: {
        tags: ['agent'],
        description:
          "`{credential, instruction?}` (no session: the credential from a run's `end` event names one run, is valid about one minute and works once) → 202 the run. " +
          '401 for a missing, forged, expired or reused credential; 409 while the run still runs.',
        body: Type.Object({ credential: Type.String(), instruction: Type.Optional(Objective) }),
        response: { 202: AgentRunAnswer, ...AGENT_ERRORS },
      },
      ...checkedByHandler,
    },
    async (request, reply) => {
      const b = bodyOf(request.body);
      if (b.instruction !== undefined && typeof b.instruction !== 'string')
        throw new HttpError(400, 'instruction must be a string', 'BAD_REQUEST');
      const instruction =
        b.instruction === undefined || b.instruction === '' ? undefined : parseObjective(b.instruction);
      const run = await agent.resume(b.credential, instruction);
      return reply.code(202).send({ ...agent.describe(run), events: `/api/agent/runs/${run.id}/events` });
    },
  );
}
