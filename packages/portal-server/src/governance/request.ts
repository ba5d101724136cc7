// What governance reads of a request before it decides: the datasource as the policy sees it (a managed one
// with its policy as loaded, or a user connection), and the classification of the request's whole text,
// checked against the executor's split.
import type { ExecutionContext } from '../execution/contracts.js';
import {
  classifyScript,
  type Dialect,
  dialectForEngine,
  type ScriptClassification,
} from './classify/index.js';
import type { PolicyDatasource } from './policy.js';

/** The datasource as the policy sees it: a managed one with its policy, or a user connection. */
export function policyDatasource(ctx: ExecutionContext): PolicyDatasource {
  const m = ctx.managed;
  const env = (m ? m.connection.environment : ctx.connection.environment) as string | undefined;
  return {
    id: m?.id ?? ctx.connection.id,
    name: m?.name ?? (typeof ctx.connection.name === 'string' ? ctx.connection.name : ctx.connection.id),
    engine: ctx.engine,
    managed: m !== undefined,
    ...(env ? { environment: env } : {}),
    ...(m ? { policy: m.policy } : {}),
  };
}

/** Classifies a request's text; when the executor split it differently, the difference counts as a doubtful write. */
export async function classifyRequest(
  sql: string,
  engine: string,
  executed: readonly string[],
  defaultSchema: string | undefined,
): Promise<ScriptClassification> {
  const dialect = dialectForEngine(engine) ?? (engine as Dialect);
  const c = await classifyScript(sql, dialect, defaultSchema ? { defaultSchema } : {});
  const texts = c.statements.map((s) => s.text);
  const agrees = executed.every((t, i) => texts[i] === t);
  if (agrees) return c;
  const doubt = 'the executor and the classifier split the text differently';
  return {
    ...c,
    isWrite: true,
    statements: [
      ...c.statements,
      {
        index: c.statements.length,
        text: sql,
        kind: 'write',
        statementType: 'UNKNOWN',
        guardrails: [],
        objects: [],
        unplaceable: [`statement: ${doubt}`],
        transactionControl: false,
        doubtful: true,
        reason: doubt,
      },
    ],
  };
}
