// Response schemas of the AI routes (http/ai.ts) and the investigation agent's routes (http/agent.ts), on
// the shared pieces of response-schemas.ts and under its rule: open objects, so a schema never drops a field.
import { Type } from 'typebox';
import { Any, JsonObject, Open, Rows } from './response-schemas.js';

export const AiAnswer = Open({
  text: Type.String(),
  classification: JsonObject(
    "The server's verdict `{dialect, isWrite, transactionControl, guardrails, statements}` (never the model's)",
  ),
});
export const AiSchemaAnswer = Open({ text: Type.String(), objects: Type.Array(Type.String()) });

export const AgentWorkflow = Open({ workflow: Type.String() });
/** An agent run as `POST /api/agent/runs` describes it (docs/portal-ai.md). */
export const AgentRunAnswer = Open({
  runId: Type.String(),
  threadId: Type.String(),
  datasourceId: Type.String(),
  workflow: Type.String(),
  objective: Type.String(),
  status: Type.String(),
  deadlineAt: Any,
  events: Type.Optional(Type.String({ description: 'the run’s event-stream address' })),
});
export const AgentCancelled = Open({ runId: Type.String(), cancelled: Type.Boolean() });
/** One statement result of an agent run (masked, at most 200 rows). */
export const AgentArtifact = Open({
  correlationId: Type.String(),
  statement: Type.String(),
  fields: Type.Array(Type.String()),
  rows: Rows,
  rowCount: Type.Number(),
  truncated: Type.Boolean(),
  durationMs: Type.Number(),
});
export const AgentHandover = Open({ runId: Type.String() }, 'The artifact of the run’s answer statement');
export const EventStream = Type.String({ description: 'text/event-stream: the run’s events' });
