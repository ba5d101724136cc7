// Response schemas of the AI routes (http/ai.ts) and the investigation agent's routes (http/agent.ts), on
// the shared pieces of response-schemas.ts and under its rule: open objects, so a schema never drops a field.
import { Type } from 'typebox';
import { Any, Open, Rows } from './response-schemas.js';

/** One statement of the server's verdict (ai/grounding.ts `Verdict`). */
export const VerdictStatement = Open({
  index: Type.Integer(),
  statementType: Type.String(),
  kind: Type.Union([Type.Literal('read'), Type.Literal('write')]),
  doubtful: Type.Boolean({ description: 'the parser was unsure; counted as a write' }),
  objects: Type.Array(Type.String()),
});
/** The server's classification of the statement the model was asked about (never the model's). */
export const Verdict = Open(
  {
    dialect: Type.String({ description: 'the engine grammar the statement was read with' }),
    isWrite: Type.Boolean({ description: 'any statement writes (a doubtful one counts as a write)' }),
    transactionControl: Type.Boolean(),
    guardrails: Type.Array(Type.String()),
    statements: Type.Array(VerdictStatement),
  },
  "The server's verdict (never the model's)",
);
export const AiAnswer = Open({ text: Type.String(), classification: Verdict });
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
/** One statement result of an agent run (masked, at most 200 rows): the artifact and the handover both. */
const artifact = {
  correlationId: Type.String(),
  statement: Type.String(),
  fields: Type.Array(Type.String()),
  rows: Rows,
  rowCount: Type.Number(),
  truncated: Type.Boolean(),
  durationMs: Type.Number(),
};
export const AgentArtifact = Open(artifact);
export const AgentHandover = Open(
  { runId: Type.String(), ...artifact },
  'The run’s answer statement replayed read-only: its artifact (masked, at most 200 rows)',
);
export const EventStream = Type.String({ description: 'text/event-stream: the run’s events' });
